package gateway

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rfc1738/locator/access"
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

// TestDialerDecodesHost: an escaped or internationalised spelling of
// localhost is looked up as "localhost" and refused as loopback under
// the default policy; a rule written with an internationalised name
// allows that name however the URL spells it.
func TestDialerDecodesHost(t *testing.T) {
	res := &fakeResolver{m: map[string][]string{"localhost": {"127.0.0.1"}, "xn--bcher-kva.example": {"93.184.215.14"}}}
	var dialled []string
	connect := func(_ context.Context, network, addr string) (net.Conn, error) {
		dialled = append(dialled, network+" "+addr)
		return nil, errors.New("not dialled in this test")
	}
	ctx := context.Background()
	var pe *access.PolicyError
	d := (&Policy{}).dialer(res, connect, nil)
	for _, h := range []string{"%e2%93%9bocalhost:70", "ⓛocalhost:70", "LOCALHOST:70", "%31%32%37.0.0.1:70", "%32130706433:70"} {
		if _, err := d(ctx, "tcp", h); !errors.As(err, &pe) {
			t.Errorf("%s: %v, want a refusal", h, err)
		}
	}
	r, err := ParseRule("BÜCHER.example:70")
	if err != nil {
		t.Fatal(err)
	}
	d = (&Policy{Allow: []Rule{r}}).dialer(res, connect, nil)
	for _, h := range []string{"b%C3%BCcher.example:70", "xn--bcher-kva.example:70"} {
		if _, err := d(ctx, "udp", h); err == nil || errors.As(err, &pe) {
			t.Errorf("%s: %v, want it dialled", h, err)
		}
	}
	if want := "udp 93.184.215.14:70,udp 93.184.215.14:70"; strings.Join(dialled, ",") != want {
		t.Errorf("dialled %q, want %q", dialled, want)
	}
}

// TestSecondConnection: while an ftp URL is followed, the address of
// its open control connection may be connected to on any port (the data
// connection, RFC 959 §3.2) under a rule that names the server with its
// port; not once the control connection is closed, not after a
// redirection, not under another scheme, not when a Deny rule matches.
func TestSecondConnection(t *testing.T) {
	res := &fakeResolver{m: map[string][]string{"ftp.test": {"127.0.0.1"}}}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	// Every connection, whatever address the dialer was asked for, goes
	// to this listener, which holds it until the test ends.
	go func() {
		var held []net.Conn
		defer func() {
			for _, c := range held {
				c.Close()
			}
		}()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			held = append(held, c)
		}
	}()
	connect := func(ctx context.Context, network, addr string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, network, ln.Addr().String())
	}
	allow, _ := ParseRule("ftp.test:21")
	deny, _ := ParseRule(":6379")
	p := &Policy{Allow: []Rule{allow}, Deny: []Rule{deny}}
	ctx := context.Background()
	open := newOpenConns("ftp")
	d := p.dialer(res, connect, open)
	if _, err := d(ctx, "tcp", "127.0.0.1:40000"); err == nil {
		t.Fatal("a data connection before any control connection was admitted")
	}
	ctrl, err := d(ctx, "tcp", "ftp.test:21")
	if err != nil {
		t.Fatal(err)
	}
	data, err := d(ctx, "tcp", "127.0.0.1:40000")
	if err != nil {
		t.Fatalf("the data connection to the control connection's server: %v", err)
	}
	data.Close()
	if _, err := d(ctx, "tcp", "127.0.0.1:6379"); err == nil {
		t.Error("a denied port was admitted as a data connection")
	}
	open.redirected("ftp")
	if _, err := d(ctx, "tcp", "127.0.0.1:40000"); err == nil {
		t.Error("a connection of an earlier hop admitted a second connection")
	}
	ctrl.Close()
	g := newOpenConns("gopher")
	d = p.dialer(res, connect, g)
	allowG, _ := ParseRule("ftp.test:70")
	p.Allow = append(p.Allow, allowG)
	c, err := d(ctx, "tcp", "ftp.test:70")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := d(ctx, "tcp", "127.0.0.1:40000"); err == nil {
		t.Error("a gopher connection admitted a second connection")
	}
	open2 := newOpenConns("ftp")
	d = p.dialer(res, connect, open2)
	c2, err := d(ctx, "tcp", "ftp.test:21")
	if err != nil {
		t.Fatal(err)
	}
	c2.Close()
	if _, err := d(ctx, "tcp", "127.0.0.1:40000"); err == nil {
		t.Error("a closed control connection admitted a second connection")
	}
}
