package peer

import (
	"fmt"
	"net"
	"testing"
	"time"
)

// FreeUDPPort returns a UDP port of 127.0.0.1 that nothing is bound to
// at the time of the call (the kernel's choice for port 0).
func FreeUDPPort(t testing.TB) int {
	t.Helper()
	c, err := net.ListenPacket("udp4", net.JoinHostPort(Host, "0"))
	if err != nil {
		t.Fatalf("peer: no free UDP port on %s: %v", Host, err)
	}
	defer c.Close()
	return c.LocalAddr().(*net.UDPAddr).Port
}

// StartUDP is Start for a server that listens on a UDP port: the port is
// a free UDP port, and the server answers when spec.Ready, given a UDP
// socket connected to it, succeeds (a UDP server accepts no connection,
// so Ready is required: it sends a request and reads a reply). Each try
// of Ready has a read deadline of one second.
func StartUDP(t testing.TB, spec Spec) *Server {
	t.Helper()
	if spec.Ready == nil {
		t.Fatalf("peer %s: StartUDP needs a Ready function", spec.Name)
	}
	return launch(t, spec, Host, func() int { return FreeUDPPort(t) }, (*Server).awaitUDP)
}

// awaitUDP tries ready on a fresh UDP socket connected to s's port until
// it succeeds, the process exits, or wait passes.
func (s *Server) awaitUDP(wait time.Duration, ready func(net.Conn) error) error {
	deadline := time.Now().Add(wait)
	var last error
	for time.Now().Before(deadline) {
		select {
		case <-s.done:
			return fmt.Errorf("exited before answering on udp %s (%v)\n%s", s.Addr, s.err, s.tail())
		default:
		}
		c, err := net.Dial("udp4", s.Addr)
		if err == nil {
			c.SetDeadline(time.Now().Add(time.Second))
			err = ready(c)
			c.Close()
			if err == nil {
				return nil
			}
		}
		last = err
		time.Sleep(50 * time.Millisecond)
	}
	return fmt.Errorf("did not answer on udp %s within %v (last: %v)", s.Addr, wait, last)
}
