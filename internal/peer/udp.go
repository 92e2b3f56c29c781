package peer

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
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
	prog := Require(t, spec.Program)[0]
	wait := spec.Wait
	if wait <= 0 {
		wait = 20 * time.Second
	}
	dir := t.TempDir()
	var last error
	for attempt := 1; attempt <= 3; attempt++ {
		port := FreeUDPPort(t)
		args, err := spec.Args(port)
		if err != nil {
			t.Fatalf("peer %s: %v", spec.Name, err)
		}
		s := &Server{Name: spec.Name, Port: port, Addr: net.JoinHostPort(Host, strconv.Itoa(port)),
			Output: filepath.Join(dir, fmt.Sprintf("%s-%d.out", safeName(spec.Name), attempt)), done: make(chan struct{})}
		out, err := os.Create(s.Output)
		if err != nil {
			t.Fatalf("peer %s: %v", spec.Name, err)
		}
		s.cmd = exec.Command(prog, args...)
		s.cmd.Dir = spec.Dir
		s.cmd.Stdout, s.cmd.Stderr = out, out
		if len(spec.Env) > 0 {
			s.cmd.Env = append(os.Environ(), spec.Env...)
		}
		if err := s.cmd.Start(); err != nil {
			out.Close()
			t.Fatalf("peer %s: start %s: %v", spec.Name, prog, err)
		}
		go func() {
			s.err = s.cmd.Wait()
			out.Close()
			close(s.done)
		}()
		stop := spec.Stop
		if stop == 0 {
			stop = syscall.SIGTERM
		}
		t.Cleanup(func() { s.stop(t, stop) })
		last = s.awaitUDP(wait, spec.Ready)
		if last == nil {
			return s
		}
		select {
		case <-s.done:
			continue
		default:
			t.Fatalf("peer %s: %v\n%s", spec.Name, last, s.tail())
		}
	}
	t.Fatalf("peer %s: %v", spec.Name, last)
	return nil
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
