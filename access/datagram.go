package access

import (
	"context"
	"net"
	"net/netip"
	"strconv"
	"sync"
	"time"

	"github.com/rfc1738/locator/internal/dest"
)

// DialPacket opens a datagram (UDP) socket for a client whose protocol
// runs over datagrams, to host:port. It applies the same host and port
// policy as Dial (RFC 1738 §6) and notes "* datagrams to ADDR" in the
// dialogue.
//
// The returned connection writes every datagram to the address dialled
// and returns from Read only datagrams that come from that address: from
// its port, or from one of replyPorts on the same host (a protocol whose
// servers may answer from another port of theirs says which). Datagrams
// from anywhere else are dropped, with a note. A name is resolved with
// the connect timeout; IPv4 addresses are preferred, as protocols of
// RFC 1738's time carry 4-octet addresses.
//
// Unlike Dial's connections, a Read waits until the deadline the caller
// set (SetReadDeadline, a protocol's retransmission timer), but never
// longer than the idle timeout, and returns at once when ctx ends.
func (r *Request) DialPacket(ctx context.Context, host string, port int, replyPorts ...int) (net.Conn, error) {
	if err := r.checkPort(host, port); err != nil {
		return nil, err
	}
	dctx, cancel := context.WithTimeout(ctx, r.Client.connectTimeout())
	defer cancel()
	_, addrs, err := r.resolve(dctx, host, port, false)
	if err != nil {
		return nil, err
	}
	// IPv4 first: protocols of RFC 1738's time carry 4-octet addresses.
	ip := addrs[0]
	for _, a := range addrs {
		if a.Is4() {
			ip = a
			break
		}
	}
	r.reached(ip)
	if r.Client.Dial != nil {
		addr := dest.Addr(ip, strconv.Itoa(port))
		r.Notef("datagrams to %s", addr)
		c, err := r.Client.Dial(dctx, "udp", addr)
		if err != nil {
			return nil, err
		}
		return newPacketConn(ctx, r, c, nil, nil, r.Client.idleTimeout()), nil
	}
	raddr := net.UDPAddrFromAddrPort(netip.AddrPortFrom(ip, uint16(port)))
	r.Notef("datagrams to %s", raddr)
	network := "udp4"
	if !ip.Is4() {
		network = "udp6"
	}
	pc, err := net.ListenUDP(network, nil)
	if err != nil {
		return nil, err
	}
	ok := map[uint16]bool{uint16(port): true}
	for _, p := range replyPorts {
		if p > 0 && p < 65536 {
			ok[uint16(p)] = true
		}
	}
	return newPacketConn(ctx, r, pc, raddr, ok, r.Client.idleTimeout()), nil
}

// packetConn is a datagram socket bound to one peer: writes go to raddr,
// reads accept only datagrams from raddr's address on one of ports.
// With raddr nil the underlying connection is already connected (a
// caller's Client.Dial).
type packetConn struct {
	net.Conn
	pc    *net.UDPConn // nil when Conn is a connected socket from Client.Dial
	raddr *net.UDPAddr
	ports map[uint16]bool
	req   *Request
	ctx   context.Context
	idle  time.Duration
	stop  func() bool

	mu       sync.Mutex
	deadline time.Time // the caller's read deadline
}

func newPacketConn(ctx context.Context, r *Request, c net.Conn, raddr *net.UDPAddr, ports map[uint16]bool, idle time.Duration) *packetConn {
	p := &packetConn{Conn: c, raddr: raddr, ports: ports, req: r, ctx: ctx, idle: idle}
	if raddr != nil {
		p.pc = c.(*net.UDPConn)
	}
	p.stop = context.AfterFunc(ctx, func() { c.SetDeadline(time.Now()) })
	return p
}

func (p *packetConn) Close() error {
	p.stop()
	return p.Conn.Close()
}

// RemoteAddr returns the address dialled.
func (p *packetConn) RemoteAddr() net.Addr {
	if p.raddr != nil {
		return p.raddr
	}
	return p.Conn.RemoteAddr()
}

// SetReadDeadline records the caller's deadline; Read applies it,
// bounded by the idle timeout.
func (p *packetConn) SetReadDeadline(t time.Time) error {
	p.mu.Lock()
	p.deadline = t
	p.mu.Unlock()
	return nil
}

func (p *packetConn) SetDeadline(t time.Time) error {
	p.SetReadDeadline(t)
	return p.Conn.SetWriteDeadline(t)
}

func (p *packetConn) readDeadline() time.Time {
	if p.ctx.Err() != nil {
		return time.Now()
	}
	d := time.Now().Add(p.idle)
	p.mu.Lock()
	if !p.deadline.IsZero() && p.deadline.Before(d) {
		d = p.deadline
	}
	p.mu.Unlock()
	if cd, ok := p.ctx.Deadline(); ok && cd.Before(d) {
		d = cd
	}
	return d
}

// Read returns the next datagram from the peer; one that does not fit b
// is an error (its tail would be lost silently otherwise).
func (p *packetConn) Read(b []byte) (int, error) {
	for {
		if err := p.ctx.Err(); err != nil {
			return 0, err
		}
		p.Conn.SetReadDeadline(p.readDeadline())
		if p.pc == nil {
			return p.Conn.Read(b)
		}
		n, from, err := p.pc.ReadFromUDPAddrPort(b)
		if err != nil {
			return n, err
		}
		want, _ := netip.AddrFromSlice(p.raddr.IP)
		if from.Addr().Unmap() != want.Unmap() || !p.ports[from.Port()] {
			p.req.Notef("dropped a datagram of %d octets from %s: not the address asked", n, from)
			continue
		}
		return n, nil
	}
}

func (p *packetConn) Write(b []byte) (int, error) {
	if err := p.ctx.Err(); err != nil {
		return 0, err
	}
	d := time.Now().Add(p.idle)
	if cd, ok := p.ctx.Deadline(); ok && cd.Before(d) {
		d = cd
	}
	p.Conn.SetWriteDeadline(d)
	if p.pc == nil {
		return p.Conn.Write(b)
	}
	return p.pc.WriteToUDP(b, p.raddr)
}
