package http

// Keep-alive (RFC 9112 §9.3) against nginx, whose log names the
// connection each request came on ($connection) and its place on it
// ($connection_requests); a hostile listener only for a server that
// stalls on a kept connection.

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	nethttp "net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/internal/loctest"
	"github.com/rfc1738/locator/internal/peer"
)

// startNginxConns starts nginx serving a few files, its log in dir's
// conn.log, one line per request: "$connection $connection_requests
// $request_uri $status" (peer.Nginx's own requests for / left out). It returns nginx's address and a function that
// reads the log's lines once it has n of them.
func startNginxConns(t *testing.T, more string) (addr string, lines func(n int) []string) {
	t.Helper()
	peer.Require(t, "/usr/sbin/nginx")
	dir := t.TempDir()
	www := filepath.Join(dir, "www")
	os.MkdirAll(www, 0o755)
	for name, body := range map[string]string{"a.txt": "alpha\n", "b.txt": "beta\n", "big.bin": strings.Repeat("x", 5000)} {
		if err := os.WriteFile(filepath.Join(www, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	log := filepath.Join(dir, "conn.log")
	srv := peer.Nginx(t, www, peer.NginxConfig{
		Dir:         dir,
		Connections: 64,
		HTTP:        "types { text/plain txt; application/octet-stream bin; } log_format conn '$connection $connection_requests $request_uri $status';",
		Server: "    access_log " + log + " conn; keepalive_requests 1000;\n" +
			"    location /redir { return 301 /a.txt; }\n" + more,
	})
	return srv.Addr, func(n int) []string {
		t.Helper()
		// nginx writes a request's line once it has sent the reply,
		// which may come after the client has read it.
		var got []string
		for range 300 {
			b, _ := os.ReadFile(log)
			got = got[:0]
			for _, l := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
				// peer.Nginx's own "HEAD /" asks whether it is up
				if f := strings.Fields(l); len(f) == 4 && f[2] != "/" {
					got = append(got, l)
				}
			}
			if len(got) >= n {
				return got
			}
			time.Sleep(10 * time.Millisecond)
		}
		t.Fatalf("nginx's log has %d lines, want %d: %q", len(got), n, got)
		return nil
	}
}

// conns returns the connection number of each log line.
func conns(lines []string) []string {
	var c []string
	for _, l := range lines {
		f := strings.Fields(l)
		c = append(c, f[0])
	}
	return c
}

// TestKeepAliveNginx: the requests of one access.Client to one server
// go over one connection, a redirection's included, until CloseIdle;
// another access.Client has its own.
func TestKeepAliveNginx(t *testing.T) {
	addr, lines := startNginxConns(t, "")
	base := "http://" + addr
	var dia strings.Builder
	ac := &access.Client{Dialogue: &dia}
	for _, p := range []string{"/a.txt", "/b.txt", "/missing", "/redir", "/big.bin"} {
		_, b, err := get(t, base+p, ac)
		if p == "/missing" {
			var se *access.ServerError
			if !errors.As(err, &se) || se.Code != "404" {
				t.Fatalf("%s: %v", p, err)
			}
			continue
		}
		if err != nil || len(b) == 0 {
			t.Fatalf("%s: %q %v", p, b, err)
		}
	}
	// /redir is two requests: the 301 and /a.txt.
	got := lines(6)
	want := []string{"1 /a.txt 200", "2 /b.txt 200", "3 /missing 404", "4 /redir 301", "5 /a.txt 200", "6 /big.bin 200"}
	c := conns(got)
	for i, l := range got {
		if c[i] != c[0] || strings.Join(strings.Fields(l)[1:], " ") != want[i] {
			t.Errorf("nginx's log:\n%s\nwant every request on connection %s: %q", strings.Join(got, "\n"), c[0], want)
			break
		}
	}
	if n := strings.Count(dia.String(), "* connect "); n != 1 {
		t.Errorf("%d connections in the dialogue:\n%s", n, dia.String())
	}
	if n := strings.Count(dia.String(), "* the connection of an earlier request is reused (RFC 9112 §9.3)\n"); n != 5 {
		t.Errorf("%d reuses in the dialogue, want 5:\n%s", n, dia.String())
	}

	// CloseIdle ends it: the next request opens another.
	ac.CloseIdle()
	if _, _, err := get(t, base+"/a.txt", ac); err != nil {
		t.Fatal(err)
	}
	// So does another access.Client, even with the same http Client.
	other := &access.Client{}
	if _, _, err := get(t, base+"/a.txt", other); err != nil {
		t.Fatal(err)
	}
	got = lines(8)
	c = conns(got)
	if c[6] == c[0] || c[7] == c[0] || c[7] == c[6] || !strings.HasPrefix(got[6], c[6]+" 1 ") || !strings.HasPrefix(got[7], c[7]+" 1 ") {
		t.Errorf("after CloseIdle and from another Client, want two new connections:\n%s", strings.Join(got, "\n"))
	}
}

// TestKeepAliveShared: two access.Clients sharing one configured
// Client keep their connections apart, so that one Client's policy
// is never bypassed by a connection the other opened.
func TestKeepAliveShared(t *testing.T) {
	addr, lines := startNginxConns(t, "")
	shared := &Client{}
	open := &access.Client{Schemes: with(shared)}
	if _, _, err := get(t, "http://"+addr+"/a.txt", open); err != nil {
		t.Fatal(err)
	}
	// A Client of its own, with a dialer that counts, gets a new
	// connection although the shared Client keeps one to the server.
	dials := 0
	counted := &access.Client{Schemes: with(shared), Dial: func(ctx context.Context, network, a string) (net.Conn, error) {
		dials++
		var d net.Dialer
		return d.DialContext(ctx, network, a)
	}}
	for range 3 {
		if _, _, err := get(t, "http://"+addr+"/b.txt", counted); err != nil {
			t.Fatal(err)
		}
	}
	if dials != 1 {
		t.Errorf("%d dials for three requests of one Client, want 1", dials)
	}
	c := conns(lines(4))
	if c[0] == c[1] || c[1] != c[2] || c[2] != c[3] {
		t.Errorf("connections %v, want the first Client's apart from the second's three", c)
	}
}

// TestKeepAliveBound: at most maxIdlePerServer connections to one
// server are kept idle; the rest are closed when their reply is read.
func TestKeepAliveBound(t *testing.T) {
	addr, lines := startNginxConns(t, "")
	ac := &access.Client{}
	const n = maxIdlePerServer + 4
	// n replies open at once (none read) need n connections; once all
	// are read, maxIdlePerServer of them are kept for the next n.
	batch := func() {
		var rs []*access.Resource
		for range n {
			res, err := ac.Get(context.Background(), loctest.MustParse(t, "http://"+addr+"/a.txt"))
			if err != nil {
				t.Fatal(err)
			}
			rs = append(rs, res)
		}
		for _, res := range rs {
			if b, err := io.ReadAll(res.Body); err != nil || string(b) != "alpha\n" {
				t.Fatalf("%q %v", b, err)
			}
			res.Close()
		}
	}
	batch()
	first := map[string]bool{}
	for _, c := range conns(lines(n)) {
		first[c] = true
	}
	time.Sleep(500 * time.Millisecond) // the connections read whole go back idle
	batch()
	all := map[string]bool{}
	reused := 0
	for _, c := range conns(lines(2 * n))[n:] {
		if first[c] {
			reused++
		}
		all[c] = true
	}
	if len(first) != n || reused != maxIdlePerServer || len(all) != n {
		t.Errorf("first %d connections, then %d of them reused (want %d) among %d", len(first), reused, maxIdlePerServer, len(all))
	}
}

// TestKeepAliveStall: a kept connection is still cut by the idle
// timeout when the server stalls, measured from the request, not from
// when the connection went idle; and the request's context ending
// interrupts its read. A hostile listener: nginx never stalls.
func TestKeepAliveStall(t *testing.T) {
	var mu sync.Mutex
	accepted := 0
	reply := "HTTP/1.1 200 OK\r\nContent-Length: 3\r\nContent-Type: text/plain\r\n\r\nok\n"
	srv := peer.Hostile(t, func(c net.Conn) {
		mu.Lock()
		accepted++
		mu.Unlock()
		br := bufio.NewReader(c)
		for i := 0; ; i++ {
			req, err := nethttp.ReadRequest(br)
			if err != nil {
				return
			}
			switch req.URL.Path {
			case "/slow": // slower than the idle timeout since the last reply, within it since the request
				time.Sleep(2 * time.Second)
			case "/stall":
				io.Copy(io.Discard, br) // until the client closes
				return
			}
			io.WriteString(c, reply)
		}
	})
	const idle = 3 * time.Second
	ac := &access.Client{IdleTimeout: idle}
	base := "http://" + srv
	if _, b, err := get(t, base+"/first", ac); err != nil || string(b) != "ok\n" {
		t.Fatalf("%q %v", b, err)
	}
	time.Sleep(1500 * time.Millisecond)
	if _, b, err := get(t, base+"/slow", ac); err != nil || string(b) != "ok\n" {
		t.Fatalf("a reply 2 s after the request, 3.5 s after the connection went idle, with an idle timeout of 3 s: %q %v", b, err)
	}
	start := time.Now()
	_, _, err := get(t, base+"/stall", ac)
	if el := time.Since(start); err == nil || el < idle-100*time.Millisecond || el > 3*idle {
		t.Errorf("stalled server: %v after %v, want a timeout after about %v", err, el, idle)
	}
	mu.Lock()
	if accepted != 1 {
		t.Errorf("%d connections, want the first kept for /slow and /stall", accepted)
	}
	mu.Unlock()

	// The context's end interrupts the read of a kept connection.
	ac = &access.Client{IdleTimeout: time.Minute}
	if _, _, err := get(t, base+"/first", ac); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start = time.Now()
	_, err = ac.Get(ctx, loctest.MustParse(t, base+"/stall"))
	if el := time.Since(start); !errors.Is(err, context.DeadlineExceeded) || el > 5*time.Second {
		t.Errorf("a context's end on a kept connection: %v after %v", err, el)
	}
	mu.Lock()
	if accepted != 2 {
		t.Errorf("%d connections, want 2", accepted)
	}
	mu.Unlock()
}

// TestKeepAliveProxy: requests through squid go over one connection to
// it; a Client whose policy refuses the proxy's address is refused
// although another Client of the same http Client keeps a connection
// to it.
func TestKeepAliveProxy(t *testing.T) {
	proxy, _ := peer.Squid(t, forbidden)
	addr, lines := startNginxConns(t, "")
	shared := &Client{}
	var dia strings.Builder
	ac := &access.Client{Dialogue: &dia, Proxy: proxyTo(proxy), Schemes: with(shared)}
	for _, p := range []string{"/a.txt", "/b.txt", "/a.txt"} {
		if _, b, err := get(t, "http://"+addr+p, ac); err != nil || len(b) == 0 {
			t.Fatalf("%s: %q %v", p, b, err)
		}
	}
	lines(3)
	if n := strings.Count(dia.String(), "* connect "+proxy+"\n"); n != 1 || strings.Count(dia.String(), "* connect ") != 1 {
		t.Errorf("%d connections to the proxy for three requests:\n%s", n, dia.String())
	}
	proxyHost := proxy[:strings.LastIndex(proxy, ":")]
	denied := &access.Client{Proxy: proxyTo(proxy), Schemes: with(shared), Policy: access.Policy{Deny: loctest.Rules(t, proxyHost)}}
	_, _, err := get(t, "http://localhost:"+addr[strings.LastIndex(addr, ":")+1:]+"/a.txt", denied)
	var pe *access.PolicyError
	var px *ProxyError
	if !errors.As(err, &pe) || !errors.As(err, &px) {
		t.Errorf("a proxy the policy denies: %v", err)
	}
}
