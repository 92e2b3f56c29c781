//go:build linux

package access

import (
	"context"
	"errors"
	"net"
	"strings"
	"syscall"
	"testing"
)

// Interact opens sessions only: a scheme without a client is an
// *UnsupportedError, one whose client retrieves objects a *PolicyError
// (rule "session") pointing to Get, both before any connection. (The
// Sessioner path is tested with a real client, package telnet, against
// telnetd.)
func TestInteractNotSession(t *testing.T) {
	tst.reset(nil)
	err := (&Client{}).Interact(context.Background(), mustParse(t, "tst://127.0.0.1/x"), Terminal{})
	var pe *PolicyError
	if !errors.As(err, &pe) || pe.Rule != "session" || Classify(err) != Forbidden ||
		err.Error() != "tst://127.0.0.1/x: refused by local policy (session, at 0): tst URLs designate objects to retrieve, not interactive sessions (follow it with Get)" {
		t.Errorf("Interact(tst:) = %v", err)
	}
	if len(tst.fetched) != 0 {
		t.Errorf("fetched %v", tst.fetched)
	}
	var ue *UnsupportedError
	if err := (&Client{}).Interact(context.Background(), mustParse(t, "nope://h/"), Terminal{}); !errors.As(err, &ue) {
		t.Errorf("Interact(nope:) = %v", err)
	}
	if err := (&Client{}).Interact(context.Background(), nil, Terminal{}); err == nil {
		t.Errorf("Interact(nil) = nil")
	}
	if IsSession("tst") || IsSession("nope") {
		t.Errorf("IsSession: a retrieving client or no client called a session")
	}
}

// DialSession: a person may sit idle, and so may the service, so reads
// have no deadline (where Dial's reads have the idle one), and TCP
// keep-alive probes find a dead connection instead: after IdleTimeout
// without traffic, every SessionProbeInterval, SessionProbeCount times.
func TestDialSession(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Write([]byte("ok"))
			go func() { c.Read(make([]byte, 1)); c.Close() }()
		}
	}()
	port := ln.Addr().(*net.TCPAddr).Port
	var log strings.Builder
	u := mustParse(t, "tst://127.0.0.1/")
	info, _ := Lookup("tst")
	// An idle timeout of 1 ns has passed before any read begins: a read
	// with the idle deadline fails whatever has arrived; a session's read
	// does not.
	req := &Request{Client: &Client{IdleTimeout: 1, Dialogue: &log}, URL: u, info: info}
	c, err := req.Dial(context.Background(), "127.0.0.1", port)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Read(make([]byte, 2)); !Timeout(err) {
		t.Errorf("Dial: a read past the idle deadline: %v", err)
	}
	c.Close()

	req.Client = &Client{IdleTimeout: 45e9, Dialogue: &log}
	s, err := req.DialSession(context.Background(), "127.0.0.1", port)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	buf := make([]byte, 2)
	if n, err := s.Read(buf); err != nil || string(buf[:n]) != "ok" {
		t.Errorf("DialSession: read %q, %v", buf[:n], err)
	}
	if log.String() != "* connect "+ln.Addr().String()+"\n* connect "+ln.Addr().String()+"\n" {
		t.Errorf("dialogue %q", log.String())
	}
	// The keep-alive settings on the socket.
	raw, err := s.(*sessionConn).Conn.(*net.TCPConn).SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var on, idle, intvl, cnt int
	raw.Control(func(fd uintptr) {
		on, _ = syscall.GetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_KEEPALIVE)
		idle, _ = syscall.GetsockoptInt(int(fd), syscall.IPPROTO_TCP, syscall.TCP_KEEPIDLE)
		intvl, _ = syscall.GetsockoptInt(int(fd), syscall.IPPROTO_TCP, syscall.TCP_KEEPINTVL)
		cnt, _ = syscall.GetsockoptInt(int(fd), syscall.IPPROTO_TCP, syscall.TCP_KEEPCNT)
	})
	if on != 1 || idle != 45 || intvl != 15 || cnt != 4 {
		t.Errorf("keep-alive %d, idle %d s, interval %d s, count %d; want 1, 45, 15, 4", on, idle, intvl, cnt)
	}

	// The caller's context ending ends reads.
	ctx, cancel := context.WithCancel(context.Background())
	s2, err := req.DialSession(ctx, "127.0.0.1", port)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	s2.Read(buf) // the "ok"
	cancel()
	if _, err := s2.Read(buf); !errors.Is(err, context.Canceled) {
		t.Errorf("read after cancel: %v", err)
	}
	// Policy applies to the address.
	req.Client.Policy.Deny = mustRules(t, "127.0.0.1")
	var pe *PolicyError
	if _, err := req.DialSession(context.Background(), "127.0.0.1", port); !errors.As(err, &pe) {
		t.Errorf("a denied host: %v", err)
	}
}
