package gateway

import (
	"net"
	"net/http"
	"net/netip"
	"sync"
	"time"

	"github.com/rfc1738/locator/internal/dest"
)

// LimitListener returns l bounded as an open door must be against a
// client that opens connections and sends nothing, or a request head an
// octet at a time (slowloris):
//
//   - One client address (an IPv4 address; an IPv6 /64, one
//     subscriber's network) has at most Config.MaxPerClient connections
//     open; one more is closed as soon as it is accepted, so that one
//     client cannot take the slots of all the others.
//   - At most n connections are served at once (n ≤ 0: 2 ×
//     Config.MaxConns), which bounds the gateway's descriptors. When a
//     connection arrives with that many open, the connection idle
//     longest between two requests (a keep-alive connection of an
//     http.Server from HTTPServer) is closed to make room; when none is
//     idle, the newcomer waits, and the next ones in the kernel's
//     backlog, until one closes.
//
// A connection that sends no request head within headerTimeout, or
// stays idle between requests longer than keepAliveTimeout, is closed
// by the http.Server HTTPServer returns; Config.MaxConns bounds the
// requests being served, not the connections open.
func (s *Server) LimitListener(l net.Listener, n int) net.Listener {
	if n <= 0 {
		n = 2 * s.cfg.MaxConns
	}
	return &limitListener{Listener: l, s: s, sem: make(chan struct{}, n), clients: dest.NewLimiter(s.cfg.MaxPerClient)}
}

type limitListener struct {
	net.Listener
	s       *Server
	sem     chan struct{}
	clients *dest.Limiter // connections open per client (clientKey)
}

func (l *limitListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		key := clientKey(c.RemoteAddr())
		if !l.clients.TryAcquire(key) {
			// Over the client's bound: closed at once, and the next
			// connection is accepted.
			c.Close()
			continue
		}
		l.slot()
		return &limitConn{Conn: c, release: func() { l.clients.Release(key); <-l.sem }}, nil
	}
}

// slot takes one of the n slots for a connection just accepted,
// closing the idle keep-alive connection idle longest when all are
// taken, else waiting until one is freed or a connection becomes idle.
func (l *limitListener) slot() {
	for {
		select {
		case l.sem <- struct{}{}:
			return
		default:
		}
		if l.s.idle.closeOldest() {
			continue
		}
		select {
		case l.sem <- struct{}{}:
			return
		case <-l.s.idle.wake:
		}
	}
}

// clientKey names the client a connection comes from: its IPv4
// address, or the /64 network of its IPv6 address.
func clientKey(a net.Addr) string {
	ap, err := netip.ParseAddrPort(a.String())
	if err != nil {
		return a.String()
	}
	ip := ap.Addr().Unmap().WithZone("")
	if ip.Is6() {
		p, _ := ip.Prefix(64)
		return p.String()
	}
	return ip.String()
}

type limitConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *limitConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}

// idleConns follows the connections of an http.Server (its ConnState)
// that wait between two requests, so that LimitListener may close one
// when all its slots are taken.
type idleConns struct {
	mu    sync.Mutex
	since map[net.Conn]time.Time
	wake  chan struct{} // a connection became idle
}

func newIdleConns() *idleConns {
	return &idleConns{since: map[net.Conn]time.Time{}, wake: make(chan struct{}, 1)}
}

// state is the http.Server's ConnState.
func (ic *idleConns) state(c net.Conn, st http.ConnState) {
	ic.mu.Lock()
	defer ic.mu.Unlock()
	if st == http.StateIdle {
		ic.since[c] = time.Now()
		select {
		case ic.wake <- struct{}{}:
		default:
		}
		return
	}
	delete(ic.since, c)
}

// closeOldest closes the connection idle longest and reports whether
// there was one.
func (ic *idleConns) closeOldest() bool {
	ic.mu.Lock()
	var oldest net.Conn
	var t time.Time
	for c, since := range ic.since {
		if oldest == nil || since.Before(t) {
			oldest, t = c, since
		}
	}
	if oldest != nil {
		delete(ic.since, oldest)
	}
	ic.mu.Unlock()
	if oldest == nil {
		return false
	}
	oldest.Close()
	return true
}
