package gateway

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"sync/atomic"
	"testing"
	"time"
)

// loopbackClient is an HTTP client whose connections come from source, a
// loopback address other than 127.0.0.1 (Linux answers all of
// 127.0.0.0/8), so that the gateway sees another client address.
func loopbackClient(source string) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(source)}}
	return &http.Client{
		Transport: &http.Transport{DialContext: d.DialContext, DisableKeepAlives: true},
		// A bound against a hang, not a timed assertion: the request
		// must be answered at all.
		Timeout: 60 * time.Second,
	}
}

// serveLimited serves s on a LimitListener of n connections on a free
// port of 127.0.0.1, with the http.Server's timeouts changed by adjust,
// and returns the address.
func serveLimited(t *testing.T, s *Server, n int, adjust func(*http.Server)) string {
	t.Helper()
	base, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := s.HTTPServer(base.Addr().String())
	adjust(srv)
	go srv.Serve(s.LimitListener(base, n))
	t.Cleanup(func() { srv.Close() })
	return base.Addr().String()
}

// waitFor polls cond until it holds, failing the test after a minute (a
// bound against a hang, not a timed assertion).
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(time.Minute); !cond(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("still waiting for %s", what)
		}
	}
}

// TestSlowloris: a client that opens many connections and sends its
// request heads an octet at a time (slowloris) holds at most
// MaxPerClient of them; the rest are closed as soon as accepted, and a
// request from another address is served while the attack goes on. The
// header timeout is made an hour here, so that what lets the legitimate
// request through is the per-client bound alone.
func TestSlowloris(t *testing.T) {
	s := New(Config{MaxConns: 4, MaxPerClient: 4})
	addr := serveLimited(t, s, 8, func(srv *http.Server) { srv.ReadHeaderTimeout = time.Hour })
	const attack = 20
	var closed atomic.Int32
	for i := 0; i < attack; i++ {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		c.Write([]byte("GET / HTTP/1.1\r\nHost: " + addr + "\r\nX-a: "))
		go func() {
			if _, err := c.Read(make([]byte, 1)); err != nil {
				closed.Add(1)
			}
		}()
	}
	waitFor(t, "the connections over the client's bound to be closed", func() bool { return closed.Load() == attack-4 })
	res, err := loopbackClient("127.0.0.2").Get("http://" + addr + "/")
	if err != nil {
		t.Fatalf("a request from 127.0.0.2 during the attack: %v", err)
	}
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Errorf("a request from 127.0.0.2 during the attack: %d", res.StatusCode)
	}
	// The attacker's own address is still at its bound: one more of its
	// connections is closed at once.
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetReadDeadline(time.Now().Add(time.Minute))
	if _, err := c.Read(make([]byte, 1)); err == nil || errors.Is(err, context.DeadlineExceeded) || isTimeout(err) {
		t.Errorf("a connection over the client's bound was kept: %v", err)
	}
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// TestIdleConnectionsYield: keep-alive connections idle between two
// requests do not keep a new client out: with every connection slot
// taken by idle connections, the one idle longest is closed for the
// newcomer. And MaxConns counts requests being served, not connections
// open: idle connections beyond it do not make a request 503.
func TestIdleConnectionsYield(t *testing.T) {
	s := New(Config{MaxConns: 1})
	addr := serveLimited(t, s, 2, func(srv *http.Server) { srv.IdleTimeout = time.Hour })
	var idle []net.Conn
	for _, src := range []string{"127.0.0.3", "127.0.0.4"} {
		d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(src)}}
		c, err := d.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		c.SetDeadline(time.Now().Add(time.Minute))
		io.WriteString(c, "GET / HTTP/1.1\r\nHost: "+addr+"\r\n\r\n")
		res, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil || res.StatusCode != 200 {
			t.Fatalf("%s: %v %v", src, res, err)
		}
		io.Copy(io.Discard, res.Body)
		idle = append(idle, c)
		// Idle before the next one is opened: the server marks a
		// connection idle a moment after its answer, which a loaded
		// machine may delay past the next connection's.
		waitFor(t, "the connections to be idle", func() bool {
			s.idle.mu.Lock()
			defer s.idle.mu.Unlock()
			return len(s.idle.since) == len(idle)
		})
	}
	res, err := loopbackClient("127.0.0.5").Get("http://" + addr + "/")
	if err != nil {
		t.Fatalf("a new client with every slot held by idle connections: %v", err)
	}
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Errorf("a new client with every slot held by idle connections: %d, want 200 (MaxConns counts requests)", res.StatusCode)
	}
	// The connection idle longest was the one closed.
	if _, err := idle[0].Read(make([]byte, 1)); err == nil || isTimeout(err) {
		t.Errorf("the oldest idle connection is still open: %v", err)
	}
}
