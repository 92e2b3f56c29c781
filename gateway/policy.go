package gateway

import (
	"context"
	"net"
	"sync"

	"github.com/rfc1738/locator/access"
)

// A Resolver looks names up (net.DefaultResolver; tests give their own).
type Resolver = access.Resolver

// dialer returns the access.DialFunc of one request: connect (the
// Server's, which counts each destination address and port against
// MaxPerDest) on an address access's policy already allowed, each
// connection noted in open, so that nothing the request opened outlives
// it. The policy itself (Config.Policy, with SpecialNever) is applied
// by the access.Client to every connection, a second one (FTP's data
// connection, RFC 959 §3.2) included, on the address dialled.
func dialer(connect func(ctx context.Context, network, addr string) (net.Conn, error), open *openConns) access.DialFunc {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := connect(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return open.add(c), nil
	}
}

// openConns are the connections one request has open.
type openConns struct {
	mu sync.Mutex
	m  map[*openConn]bool
}

func newOpenConns() *openConns { return &openConns{m: map[*openConn]bool{}} }

func (o *openConns) add(c net.Conn) net.Conn {
	oc := &openConn{Conn: c, o: o}
	o.mu.Lock()
	o.m[oc] = true
	o.mu.Unlock()
	return oc
}

// closeAll closes what is still open (the request has ended): nothing
// a request opened outlives it, and every slot it held is given back.
func (o *openConns) closeAll() {
	o.mu.Lock()
	var cs []*openConn
	for c := range o.m {
		cs = append(cs, c)
	}
	o.mu.Unlock()
	for _, c := range cs {
		c.Close()
	}
}

type openConn struct {
	net.Conn
	o    *openConns
	once sync.Once
}

func (c *openConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() {
		c.o.mu.Lock()
		delete(c.o.m, c)
		c.o.mu.Unlock()
	})
	return err
}

// policy is the access.Policy every request of s is followed under.
func (s *Server) policy() access.Policy {
	p := s.cfg.Policy
	p.AllowPorts = append(append([]int(nil), p.AllowPorts...), s.cfg.AllowPorts...)
	p.Special = access.SpecialNever
	return p
}
