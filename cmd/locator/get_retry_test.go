package main

// locator get --retry: a hostile listener on loopback (peer.Hostile)
// resets connections, a fault no real server makes on purpose; the
// retry that succeeds is served by nginx, to which the listener relays
// every connection after the ones it resets.

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rfc1738/locator/internal/peer"
)

// resetting returns the address of a listener that resets its first
// connections, as many as resets, once the request has come (RST,
// SO_LINGER 0), and relays every later one to backend; and the count of
// connections it accepted.
func resetting(t *testing.T, resets int32, backend string) (string, *atomic.Int32) {
	var n atomic.Int32
	addr := peer.Hostile(t, func(c net.Conn) {
		if n.Add(1) <= resets {
			readHead(c)
			c.(*net.TCPConn).SetLinger(0)
			return
		}
		b, err := net.Dial("tcp", backend)
		if err != nil {
			return
		}
		defer b.Close()
		go io.Copy(b, c)
		io.Copy(c, b)
	})
	return addr, &n
}

// readHead reads an HTTP request's head, up to its empty line.
func readHead(c net.Conn) {
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	br := bufio.NewReader(c)
	for {
		l, err := br.ReadString('\n')
		if err != nil || strings.TrimSpace(l) == "" {
			return
		}
	}
}

func TestGetRetry(t *testing.T) {
	root := headTree(t)
	s := peer.Nginx(t, root, peer.NginxConfig{Connections: 64})

	// The first connection reset: tried again after one second, and
	// nginx delivers.
	addr, n := resetting(t, 1, s.Addr)
	start := time.Now()
	code, out, errs := runCLI(t, "", "get", "--retry", "3", "-w", "%{exitcode}\n", "http://"+addr+"/pub/hello.txt")
	took := time.Since(start)
	if code != 0 || out != "hello\n0\n" || n.Load() != 2 || took < time.Second || took > 5*time.Second ||
		strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "; trying again in 1s (3 retries left)\n") {
		t.Errorf("one reset: exit %d, %d connections in %v, %q %q", code, n.Load(), took, out, errs)
	}
	// Without --retry: the reset is the failure, exit 3.
	addr, n = resetting(t, 1, s.Addr)
	code, _, errs = runCLI(t, "", "get", "http://"+addr+"/pub/hello.txt")
	if code != 3 || n.Load() != 1 || !strings.Contains(errs, "reset") || strings.Contains(errs, "trying again") {
		t.Errorf("no --retry: exit %d, %d connections, %q", code, n.Load(), errs)
	}
	// Every connection reset: --retry 1 gives up after the second try,
	// with the last failure's message.
	addr, n = resetting(t, 100, s.Addr)
	code, _, errs = runCLI(t, "", "get", "--retry", "1", "http://"+addr+"/pub/hello.txt")
	if code != 3 || n.Load() != 2 || strings.Count(errs, "trying again") != 1 || strings.Count(errs, "\n") != 2 {
		t.Errorf("--retry 1: exit %d, %d connections, %q", code, n.Load(), errs)
	}
	// --retry-max-time 1.5s: the retry after 1s begins within it, the
	// next, 2s after that, would not: two tries, however many --retry
	// allows.
	addr, n = resetting(t, 100, s.Addr)
	start = time.Now()
	code, _, errs = runCLI(t, "", "get", "--retry", "5", "--retry-max-time", "1500ms", "http://"+addr+"/pub/hello.txt")
	if took := time.Since(start); code != 3 || n.Load() != 2 || took > 4*time.Second {
		t.Errorf("--retry-max-time: exit %d, %d connections in %v, %q", code, n.Load(), took, errs)
	}
	// --head retries the same way.
	addr, n = resetting(t, 1, s.Addr)
	code, out, _ = runCLI(t, "", "get", "--head", "--retry", "1", "http://"+addr+"/pub/hello.txt")
	if code != 0 || n.Load() != 2 || !strings.HasPrefix(out, "HTTP/1.1 200 OK\r\n") {
		t.Errorf("--head: exit %d, %d connections, %q", code, n.Load(), out)
	}
}

// Once an octet of the object was written, a failure is final: a retry
// would write the object again after the part already out.
func TestGetRetryNotAfterOctets(t *testing.T) {
	var n atomic.Int32
	addr := peer.Hostile(t, func(c net.Conn) {
		n.Add(1)
		readHead(c)
		fmt.Fprintf(c, "HTTP/1.0 200 OK\r\nContent-Length: 100\r\n\r\n0123456789")
		time.Sleep(100 * time.Millisecond)
		c.(*net.TCPConn).SetLinger(0)
	})
	code, out, errs := runCLI(t, "", "get", "--retry", "3", "-w", "%{size_download}", "http://"+addr+"/x")
	if code != 3 || n.Load() != 1 || out != "012345678910" || strings.Contains(errs, "trying again") || !strings.Contains(errs, "after 10 octets") {
		t.Errorf("exit %d, %d connections, %q %q", code, n.Load(), out, errs)
	}
}

// A refused connection says the same next time (access.Transient):
// not retried.
func TestGetRetryNotRefused(t *testing.T) {
	closed := peer.FreePort(t)
	start := time.Now()
	code, _, errs := runCLI(t, "", "get", "--retry", "3", fmt.Sprintf("http://127.0.0.1:%d/", closed))
	if code != 3 || strings.Contains(errs, "trying again") || time.Since(start) > 900*time.Millisecond {
		t.Errorf("exit %d in %v, %q", code, time.Since(start), errs)
	}
}
