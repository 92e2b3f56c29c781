package http

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/internal/peer"
)

// lastHead: the final reply's head among the octets read after a
// request, interim 1xx heads skipped (RFC 9110 §15.2), the body left
// out; a line may end in LF alone (RFC 9112 §2.2).
func TestLastHead(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"HTTP/1.1 200 OK\r\nA: b\r\n\r\nbody", "HTTP/1.1 200 OK\r\nA: b\r\n\r\n"},
		{"HTTP/1.1 200 OK\nA: b\n\nbody", "HTTP/1.1 200 OK\nA: b\n\n"},
		{"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\nX: y\r\n\r\n", "HTTP/1.1 201 Created\r\nX: y\r\n\r\n"},
		{"HTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\nHTTP/1.1 200 OK\r\n\r\n", "HTTP/1.1 200 OK\r\n\r\n"},
		{"HTTP/1.1 101 Switching Protocols\r\n\r\nxx", "HTTP/1.1 101 Switching Protocols\r\n\r\n"},
		{"HTTP/1.1 200 OK\r\nA: b\r\n", ""},               // not yet ended
		{"\r\nHTTP/1.1 200 OK\r\n\r\n", ""},               // an empty line first
		{"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200", ""}, // the final head cut
		{"", ""},
	} {
		if got := string(lastHead([]byte(tt.in))); got != tt.want {
			t.Errorf("lastHead(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// FuzzLastHead: lastHead never panics, and what it returns is a prefix
// of what follows the interim heads: a head that ends in an empty line
// and holds no other.
func FuzzLastHead(f *testing.F) {
	for _, s := range []string{"HTTP/1.1 200 OK\r\nA: b\r\n\r\nbody", "HTTP/1.1 100 x\n\nHTTP/1.1 204 y\n\n", "\n\n", "HTTP/1.1 1", "a\r\n\r"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		h := lastHead(b)
		if h == nil {
			return
		}
		if !bytes.HasSuffix(h, []byte("\n\n")) && !bytes.HasSuffix(h, []byte("\n\r\n")) {
			t.Fatalf("lastHead(%q) = %q: no empty line at its end", b, h)
		}
		if headEnd(h) != len(h) {
			t.Fatalf("lastHead(%q) = %q holds more than one head", b, h)
		}
		if !bytes.Contains(b, h) || interim(h) {
			t.Fatalf("lastHead(%q) = %q", b, h)
		}
	})
}

// dates stands for the Date field's value, which differs between two
// requests a second apart.
var dates = regexp.MustCompile(`(?m)^Date: [^\r\n]*`)

// OnReply hands over each reply's head as nginx sent it: the same
// octets as curl's --dump-header, the fields' order and case (ETag)
// kept, for a redirection and the object it leads to, for HEAD, and
// for a refusal (RFC 9112 §2.1).
func TestOnReplyHeadNginx(t *testing.T) {
	peer.Require(t, "/usr/bin/curl")
	addr, _ := startNginx(t)
	var heads []Reply
	hc := &Client{OnReply: func(r Reply) { heads = append(heads, r) }}
	c := &access.Client{Schemes: map[string]access.Fetcher{"http": hc}, Policy: access.Policy{AllowPorts: []int{portOf(t, addr)}}}
	defer c.CloseIdle()
	curlHeads := func(args ...string) string {
		out, err := exec.Command("/usr/bin/curl", append([]string{"-s", "-o", "/dev/null", "-D", "-"}, args...)...).Output()
		if err != nil {
			t.Fatalf("curl %q: %v", args, err)
		}
		return dates.ReplaceAllString(string(out), "Date: *")
	}
	got := func() string {
		var b strings.Builder
		for _, h := range heads {
			b.Write(h.Head)
		}
		heads = nil
		return dates.ReplaceAllString(b.String(), "Date: *")
	}
	for _, path := range []string{"/a.txt", "/redir", "/secret"} {
		u := mustURL(t, "http://"+addr+path)
		if res, err := c.Get(context.Background(), u); err == nil {
			res.Close()
		}
		if g, w := got(), curlHeads("-L", u.String()); g != w || !strings.Contains(g, "\r\nServer: nginx") {
			t.Errorf("GET %s: heads\n%q\nwant curl's\n%q", path, g, w)
		}
		c.Stat(context.Background(), u)
		if g, w := got(), curlHeads("-I", "-L", u.String()); g != w {
			t.Errorf("HEAD %s: heads\n%q\nwant curl's\n%q", path, g, w)
		}
	}
	// The code of each, in order.
	c.Get(context.Background(), mustURL(t, "http://"+addr+"/redir"))
	if len(heads) != 2 || heads[0].Code != 301 || heads[1].Code != 200 || heads[1].URL.Path() != "index.html" {
		t.Errorf("replies %+v", heads)
	}
}

func portOf(t *testing.T, addr string) int {
	_, p, err := splitAddr(addr)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// -H's credentials after a redirection to another origin (CVE-2018-1000007,
// CVE-2022-27776): nginx on two ports, the first redirecting to the
// second, which logs the Authorization, Cookie and Proxy-Authorization
// it was sent. With AuthOrigin the first URL, none of them reach the
// second port; with AuthOrigin nil (--location-trusted) all do; a
// redirection within the origin keeps them.
func TestHeaderCredentialsStayWithOrigin(t *testing.T) {
	peer.Require(t, "/usr/sbin/nginx")
	dir := t.TempDir()
	www := filepath.Join(dir, "www")
	os.MkdirAll(www, 0o755)
	os.WriteFile(filepath.Join(www, "x.txt"), []byte("x\n"), 0o644)
	log2 := filepath.Join(dir, "second.log")
	format := `log_format creds '$uri "$http_authorization" "$http_cookie" "$http_proxy_authorization"';`
	second := peer.Nginx(t, www, peer.NginxConfig{Connections: 16, HTTP: format, Server: "    access_log " + log2 + " creds;"})
	log1 := filepath.Join(dir, "first.log")
	first := peer.Nginx(t, www, peer.NginxConfig{Connections: 16, HTTP: format, Server: "    access_log " + log1 + " creds;\n" +
		"    location /away { return 302 http://" + second.Addr + "/x.txt; }\n    location /near { return 302 /x.txt; }"})
	hdr := map[string][]string{"Authorization": {"Bearer t0ken"}, "Cookie": {"s=c00kie"}, "Proxy-Authorization": {"Basic cHJveHk="}}
	all := `"Bearer t0ken" "s=c00kie" "Basic cHJveHk="`
	none := `"-" "-" "-"`
	for _, tt := range []struct {
		path    string
		trusted bool
		log     string
		want    string
	}{
		{"/away", false, log2, none},
		{"/away", true, log2, all},
		{"/near", false, log1, all},
	} {
		u := mustURL(t, "http://"+first.Addr+tt.path)
		hc := &Client{Header: hdr, AuthOrigin: u}
		if tt.trusted {
			hc.AuthOrigin = nil
		}
		c := &access.Client{Schemes: map[string]access.Fetcher{"http": hc},
			Policy: access.Policy{AllowPorts: []int{portOf(t, first.Addr), portOf(t, second.Addr)}}}
		os.Truncate(tt.log, 0)
		res, err := c.Get(context.Background(), u)
		if err != nil {
			t.Fatalf("%s: %v", tt.path, err)
		}
		res.Close()
		c.CloseIdle()
		line := peer.LogLine(t, tt.log, "/x.txt ")
		if !strings.HasSuffix(line, " "+tt.want) {
			t.Errorf("%s, trusted %v: the server after the redirection logged %q, want %s", tt.path, tt.trusted, line, tt.want)
		}
	}
}

// Method replaces GET, for the redirection followed too, as curl's -X;
// one that is not a token is refused before any connection (RFC 9110
// §9.1).
func TestMethodNginx(t *testing.T) {
	peer.Require(t, "/usr/sbin/nginx")
	dir := t.TempDir()
	www := filepath.Join(dir, "www")
	os.MkdirAll(www, 0o755)
	os.WriteFile(filepath.Join(www, "x.txt"), []byte("x\n"), 0o644)
	log := filepath.Join(dir, "m.log")
	s := peer.Nginx(t, www, peer.NginxConfig{Connections: 16, HTTP: `log_format m '$request_method $uri $status';`,
		Server: "    access_log " + log + " m;\n    location /moved { return 301 /x.txt; }"})
	hc := &Client{Method: "OPTIONS"}
	c := &access.Client{Schemes: map[string]access.Fetcher{"http": hc}, Policy: access.Policy{AllowPorts: []int{portOf(t, s.Addr)}}}
	defer c.CloseIdle()
	_, err := c.Get(context.Background(), mustURL(t, "http://"+s.Addr+"/moved"))
	var se *access.ServerError
	if !errors.As(err, &se) || se.Code != "405" {
		t.Fatalf("OPTIONS: %v", err)
	}
	var got []string
	for range 300 {
		b, _ := os.ReadFile(log)
		got = got[:0]
		for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			if !strings.HasPrefix(l, "HEAD / ") { // peer.Nginx's own: is it up?
				got = append(got, l)
			}
		}
		if len(got) >= 2 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if want := []string{"OPTIONS /moved 301", "OPTIONS /x.txt 405"}; strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("nginx logged %q, want %q", got, want)
	}
	bad := &access.Client{Schemes: map[string]access.Fetcher{"http": &Client{Method: "GET /x"}}, Policy: c.Policy}
	_, err = bad.Get(context.Background(), mustURL(t, "http://"+s.Addr+"/x.txt"))
	var pe *access.PolicyError
	if !errors.As(err, &pe) || pe.Rule != "method" {
		t.Errorf("method %q: %v", "GET /x", err)
	}
}

func mustURL(t *testing.T, s string) *locator.URL {
	t.Helper()
	u, err := locator.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}
