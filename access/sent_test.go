package access_test

import (
	"context"
	"errors"
	"net"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/internal/peer"
)

// canary counts the connections made to a listener on loopback: a
// service (a Redis, an admin page) no URL of a server should reach.
func canary(t *testing.T) (port int, hits *atomic.Int32) {
	hits = new(atomic.Int32)
	addr := peer.Hostile(t, func(c net.Conn) {
		hits.Add(1)
		c.Close()
	})
	_, p, _ := net.SplitHostPort(addr)
	port, _ = strconv.Atoi(p)
	return port, hits
}

// TestRedirectFromOpenInternet: a server on the open Internet (here a
// real nginx, reached as 93.184.215.14: the test's dialer carries that
// address to it) redirects to http://127.0.0.1:PORT/. RFC 1738 §6: what
// a server sends may not have the client connect to a service of the
// client's own machine; the redirect is refused before any connection
// (SpecialGiven), unless an allow rule names the address. The same
// redirect from a server on loopback (the person's own) is followed.
func TestRedirectFromOpenInternet(t *testing.T) {
	port, hits := canary(t)
	www := t.TempDir()
	srv := peer.Nginx(t, www, peer.NginxConfig{
		Connections: 16,
		Server:      "    location /to-loopback { return 302 http://127.0.0.1:" + strconv.Itoa(port) + "/admin; }\n    location /to-private { return 302 http://10.1.2.3/; }",
	})
	const public = "93.184.215.14:80"
	var dialled []string
	dial := func(ctx context.Context, network, addr string) (net.Conn, error) {
		dialled = append(dialled, addr)
		switch {
		case addr == public:
			addr = srv.Addr
		case !strings.HasPrefix(addr, "127.0.0.1:"):
			// Never any other address, whatever a regression dials.
			return nil, errors.New("the test dials only loopback")
		}
		var d net.Dialer
		return d.DialContext(ctx, network, addr)
	}
	ctx := context.Background()
	for _, path := range []string{"/to-loopback", "/to-private"} {
		dialled = nil
		_, err := (&access.Client{Dial: dial}).Get(ctx, parse(t, "http://93.184.215.14"+path))
		var pe *access.PolicyError
		if !errors.As(err, &pe) || !strings.Contains(err.Error(), "open Internet") {
			t.Errorf("%s from the open Internet: %v, want a policy refusal", path, err)
		}
		if len(dialled) != 1 {
			t.Errorf("%s: dialled %q, want only the first server", path, dialled)
		}
		st := (&access.Client{Dial: dial}).Probe(ctx, parse(t, "http://93.184.215.14"+path))
		if st.State != access.StatePolicy {
			t.Errorf("Probe %s: %s (%v), want policy", path, st.State, st.Err)
		}
	}
	if n := hits.Load(); n != 0 {
		t.Fatalf("the canary on loopback was reached %d times", n)
	}
	// An allow rule naming the address lets the person allow it.
	allow, err := access.ParseRules([]string{"93.184.215.14", "127.0.0.1:" + strconv.Itoa(port)})
	if err != nil {
		t.Fatal(err)
	}
	(&access.Client{Dial: dial, Policy: access.Policy{Allow: allow}}).Get(ctx, parse(t, "http://93.184.215.14/to-loopback"))
	if n := hits.Load(); n != 1 {
		t.Errorf("with an allow rule the canary was reached %d times, want 1", n)
	}
	// From loopback to loopback: the person's own server.
	(&access.Client{}).Get(ctx, parse(t, "http://"+srv.Addr+"/to-loopback"))
	if n := hits.Load(); n != 2 {
		t.Errorf("a redirect from loopback: the canary was reached %d times, want 2", n-1)
	}
}

// TestSent: a URL a server sent (a link, a base, a menu item) may not
// name a file of this machine unless what sent it is itself a file
// URL (RFC 1738 §3.10, §6).
func TestSent(t *testing.T) {
	for _, tt := range []struct {
		from, u string
		refused bool
	}{
		{"http://h/p.html", "file:///etc/passwd", true},
		{"gopher://h/1/", "file:///etc/", true},
		{"ftp://h/pub/", "file://localhost/etc/passwd", true},
		{"http://h/p.html", "http://h/q.html", false},
		{"http://h/p.html", "gopher://h/1/", false},
		{"file:///srv/www/index.html", "file:///srv/www/a.html", false},
		{"file:///srv/www/index.html", "http://h/", false},
	} {
		err := access.Sent(parse(t, tt.from), parse(t, tt.u))
		var pe *access.PolicyError
		if refused := errors.As(err, &pe) && pe.Rule == "sent"; refused != tt.refused {
			t.Errorf("Sent(%s, %s) = %v, refused %v, want %v", tt.from, tt.u, err, refused, tt.refused)
		}
	}
}
