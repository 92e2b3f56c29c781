package gateway

import (
	"net"
	"sync"
)

// LimitListener returns l accepting at most n connections open at once
// (n ≤ 0: 2 × Config.MaxConns of s): one more waits in the kernel's
// backlog until another closes, so that idle keep-alive connections
// cannot exhaust the gateway's descriptors.
func (s *Server) LimitListener(l net.Listener, n int) net.Listener {
	if n <= 0 {
		n = 2 * s.cfg.MaxConns
	}
	return &limitListener{Listener: l, sem: make(chan struct{}, n)}
}

type limitListener struct {
	net.Listener
	sem chan struct{}
}

func (l *limitListener) Accept() (net.Conn, error) {
	l.sem <- struct{}{}
	c, err := l.Listener.Accept()
	if err != nil {
		<-l.sem
		return nil, err
	}
	return &limitConn{Conn: c, release: func() { <-l.sem }}, nil
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
