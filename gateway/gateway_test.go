package gateway_test

import (
	"bufio"
	"bytes"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/gateway"
	"github.com/rfc1738/locator/internal/peer"
	_ "github.com/rfc1738/locator/schemes"
)

// syncBuffer is a log the server writes while the test reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func rules(t *testing.T, ss ...string) []access.Rule {
	t.Helper()
	var rs []access.Rule
	for _, s := range ss {
		r, err := access.ParseRule(s)
		if err != nil {
			t.Fatal(err)
		}
		rs = append(rs, r)
	}
	return rs
}

// startGateway serves a gateway with cfg on a free port of 127.0.0.1;
// the log is returned.
func startGateway(t *testing.T, cfg gateway.Config) (*httptest.Server, *syncBuffer) {
	t.Helper()
	log := &syncBuffer{}
	cfg.Log = log
	ts := httptest.NewUnstartedServer(gateway.New(cfg))
	ts.Start()
	t.Cleanup(ts.Close)
	return ts, log
}

// raw sends request (CR LF written for each "\n") to addr and reads the
// response.
func raw(t *testing.T, addr, request string) (*http.Response, string) {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(60 * time.Second))
	if _, err := io.WriteString(c, strings.ReplaceAll(request, "\n", "\r\n")); err != nil {
		t.Fatal(err)
	}
	res, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("%q: %v", request, err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	return res, string(b)
}

func get(t *testing.T, u string, hdr ...string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest("GET", u, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	res, err := noRedirect.Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", u, err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	return res, string(b)
}

// noRedirect does not follow a redirection: the gateway's are checked.
var noRedirect = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }, Timeout: 2 * time.Minute}

var hrefRE = regexp.MustCompile(`href="([^"]*)"`)

func hrefs(page string) []string {
	var h []string
	for _, m := range hrefRE.FindAllStringSubmatch(page, -1) {
		h = append(h, strings.ReplaceAll(m[1], "&amp;", "&"))
	}
	return h
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// gopherTree is a small tree with a text, a 1 MiB file, a directory
// and a file whose Gopher+ length frames it.
func gopherTree(t *testing.T) string {
	root := t.TempDir()
	write(t, root+"/hello.txt", "Hello from gopher\n", 0o644)
	write(t, root+"/docs/inner.txt", "inner\n", 0o644)
	write(t, root+"/big.bin", strings.Repeat("0123456789abcdef", 1<<16), 0o644)
	return root
}

// TestPygopherd: a menu in the path form and in the proxy form (RFC
// 9112 §3.2.2 absolute-form), links back through the gateway, a
// document streamed with its type and (Gopher+ "+N") length, the
// access log.
func TestPygopherd(t *testing.T) {
	s := peer.Pygopherd(t, gopherTree(t))
	gw, log := startGateway(t, gateway.Config{Policy: access.Policy{Allow: rules(t, s.Addr)}})
	base := "gopher://" + s.Addr + "/"

	res, page := get(t, gw.URL+"/"+base)
	if res.StatusCode != 200 || res.Header.Get("Content-Type") != "text/html; charset=utf-8" {
		t.Fatalf("menu: %d %s\n%s", res.StatusCode, res.Header.Get("Content-Type"), page)
	}
	links := hrefs(page)
	for _, want := range []string{"/" + base + "0/hello.txt", "/" + base + "1/docs", "/" + base + "9/big.bin"} {
		if !contains(links, want) {
			t.Errorf("menu has no link %q: %q", want, links)
		}
	}
	if strings.Contains(page, "<script") {
		t.Errorf("a page with a script")
	}

	// The proxy form, as Lynx sends it to its gopher_proxy: links are
	// absolute, to the gateway.
	res, page = raw(t, gw.Listener.Addr().String(), "GET "+base+" HTTP/1.0\nHost: "+s.Addr+"\n\n")
	if res.StatusCode != 200 || !contains(hrefs(page), gw.URL+"/"+base+"0/hello.txt") {
		t.Errorf("proxy form: %d %q", res.StatusCode, hrefs(page))
	}

	// A document: its octets, its type; with Gopher+ its length.
	res, body := get(t, gw.URL+"/"+base+"0/hello.txt")
	if res.StatusCode != 200 || body != "Hello from gopher\n" || res.Header.Get("Content-Type") != "text/plain" {
		t.Errorf("text: %d %q %q", res.StatusCode, res.Header.Get("Content-Type"), body)
	}
	if res.Header.Get("Content-Security-Policy") != "sandbox" {
		t.Errorf("a server's document runs in the gateway's origin: CSP %q", res.Header.Get("Content-Security-Policy"))
	}
	res, body = get(t, gw.URL+"/"+base+"0/hello.txt%09%09+")
	if res.StatusCode != 200 || body != "Hello from gopher\n" || res.ContentLength != 18 {
		t.Errorf("Gopher+ text: %d length %d %q", res.StatusCode, res.ContentLength, body)
	}
	req, _ := http.NewRequest("HEAD", gw.URL+"/"+base+"0/hello.txt%09%09+", nil)
	if res, err := noRedirect.Do(req); err != nil || res.StatusCode != 200 || res.ContentLength != 18 {
		t.Errorf("HEAD of a Gopher+ text: %v %v", res, err)
	} else {
		res.Body.Close()
	}
	res, body = get(t, gw.URL+"/"+base+"9/big.bin")
	if res.StatusCode != 200 || len(body) != 1<<20 || body[:16] != "0123456789abcdef" {
		t.Errorf("1 MiB: %d, %d octets", res.StatusCode, len(body))
	}
	// Absent: the server's type 3 line is a 404 with its text.
	res, page = get(t, gw.URL+"/"+base+"0/nonexist")
	if res.StatusCode != 404 || !strings.Contains(page, "does not exist") {
		t.Errorf("absent: %d\n%s", res.StatusCode, page)
	}
	// The URL is taken from the raw request target: %09 reached the
	// server (the log shows the URL as sent, escapes kept).
	if !strings.Contains(log.String(), " GET "+base+"0/hello.txt%09%09+ 200 18 ") {
		t.Errorf("log:\n%s", log)
	}
}

// TestSearchAndLynxRewrite: a type 7 item is a search form; its words
// reach gophernicus's script; Lynx's "?" for %09 is read back.
func TestSearchAndLynxRewrite(t *testing.T) {
	root := t.TempDir()
	write(t, root+"/hello.txt", "Hello\n", 0o644)
	write(t, root+"/cgi-bin/find", "#!/bin/sh\nprintf '0Result for %s\\t/r\\th\\t70\\r\\n' \"$SEARCHREQUEST\"\n", 0o755)
	write(t, root+"/gophermap", "7Find things\t/cgi-bin/find\n0Hello\t/hello.txt\n", 0o644)
	s := peer.Gophernicus(t, root)
	gw, _ := startGateway(t, gateway.Config{Policy: access.Policy{Allow: rules(t, s.Addr)}})
	base := "gopher://" + s.Addr + "/"

	_, page := get(t, gw.URL+"/"+base)
	search := "/" + base + "7/cgi-bin/find"
	if !contains(hrefs(page), search) {
		t.Fatalf("no search link %q in %q", search, hrefs(page))
	}
	res, page := get(t, gw.URL+search)
	if res.StatusCode != 200 || !strings.Contains(page, `<form action="/-/search" method="get">`) || !strings.Contains(page, `name="q"`) {
		t.Fatalf("search form: %d\n%s", res.StatusCode, page)
	}
	res, page = get(t, gw.URL+"/-/search?url="+url.QueryEscape(base+"7/cgi-bin/find")+"&q=gopher+holes")
	if res.StatusCode != 200 || !strings.Contains(page, "Result for gopher holes") {
		t.Errorf("search results: %d\n%s", res.StatusCode, page)
	}
	// Lynx sends gopher://h/7/sel%09words to its proxy as .../7/sel?words.
	res, page = raw(t, gw.Listener.Addr().String(), "GET "+base+"7/cgi-bin/find?lynx%20words HTTP/1.0\nHost: "+s.Addr+"\n\n")
	if res.StatusCode != 200 || !strings.Contains(page, "Result for lynx words") {
		t.Errorf("Lynx's search: %d\n%s", res.StatusCode, page)
	}
}

// TestAskForm: a Gopher+ ASK item (RFC 1738 §3.4.5) is shown as an HTML
// form without being submitted; the form posted is sent as the filled
// block, and UMN gopherd's script prints the lines it got.
func TestAskForm(t *testing.T) {
	s := startUMN(t)
	gw, log := startGateway(t, gateway.Config{Policy: access.Policy{Allow: rules(t, s.Addr)}})
	item := "/gopher://" + s.Addr + "/00/form%09%09?"
	res, page := get(t, gw.URL+item)
	if res.StatusCode != 200 {
		t.Fatalf("form: %d\n%s", res.StatusCode, page)
	}
	for _, want := range []string{
		`<form action="` + item + `" method="post">`,
		`<p class="note">Please fill in this test form</p>`,
		`<input type="text" id="a1" name="a1" value="Gopher User">`,
		`<input type="password" id="a2" name="a2" value="" autocomplete="off">`,
		`<select id="a3" name="a3"><option selected>yes</option><option>no</option></select>`,
		`<select id="a4" name="a4"><option>red</option><option>green</option><option>blue</option></select>`,
		`<textarea id="a5" name="a5" rows="5"></textarea>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("form lacks %s\n%s", want, page)
		}
	}
	form := url.Values{"a1": {"Ann"}, "a2": {"s3cret"}, "a3": {"no"}, "a4": {"blue"}, "a5": {"first\r\nsecond"}}
	res, err := http.PostForm(gw.URL+item, form)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	want := "ASK script output\nline 1: [Ann]\nline 2: [s3cret]\nline 3: [0]\nline 4: [blue]\nline 5: [2]\nline 6: [first]\nline 7: [second]\ntotal lines: 7\n"
	if res.StatusCode != 200 || string(b) != want {
		t.Errorf("submitted: %d %q, want %q", res.StatusCode, b, want)
	}
	if strings.Contains(log.String(), "s3cret") {
		t.Errorf("the secret answer is in the log:\n%s", log)
	}
}

// TestFTPPassword: a user's password is asked with a 401 (as Apache's
// mod_proxy_ftp asks), taken from Authorization, never shown or logged;
// %2F reaches the server as written (RFC 1738 §3.2.2).
func TestFTPPassword(t *testing.T) {
	s := startPyftpd(t, map[string]string{"pub/hello.txt": "anonymous hello\n"}, map[string]string{"private/secret.txt": "for ftpuser only\n", "notes.txt": "notes\n"})
	gw, log := startGateway(t, gateway.Config{Policy: access.Policy{Allow: rules(t, "127.0.0.1")}})
	user := "/ftp://ftpuser@" + s.Addr + "/"

	res, page := get(t, gw.URL+user)
	if res.StatusCode != 401 || res.Header.Get("WWW-Authenticate") != `Basic realm="ftpuser@`+s.Addr+`", charset="UTF-8"` {
		t.Fatalf("no password: %d %q\n%s", res.StatusCode, res.Header.Get("WWW-Authenticate"), page)
	}
	auth := func(u, p string) []string {
		return []string{"Authorization", "Basic " + basic(u, p)}
	}
	res, page = get(t, gw.URL+user, auth("ftpuser", "ftppass")...)
	if res.StatusCode != 200 || !contains(hrefs(page), user+"private/") || !contains(hrefs(page), user+"notes.txt") {
		t.Errorf("listing: %d %q\n%s", res.StatusCode, hrefs(page), page)
	}
	res, body := get(t, gw.URL+user+"private/secret.txt", auth("ftpuser", "ftppass")...)
	if res.StatusCode != 200 || body != "for ftpuser only\n" {
		t.Errorf("file: %d %q", res.StatusCode, body)
	}
	res, _ = get(t, gw.URL+user, auth("ftpuser", "wrong")...)
	if res.StatusCode != 401 {
		t.Errorf("wrong password: %d, want 401", res.StatusCode)
	}
	// The password in the URL (curl -x sends it so): used, never shown.
	res, page = raw(t, gw.Listener.Addr().String(), "GET ftp://ftpuser:ftppass@"+s.Addr+"/ HTTP/1.1\nHost: "+s.Addr+"\n\n")
	if res.StatusCode != 200 || strings.Contains(page, "ftppass") || !contains(hrefs(page), gw.URL+user+"notes.txt") {
		t.Errorf("password in the URL: %d\n%s", res.StatusCode, page)
	}
	res, page = raw(t, gw.Listener.Addr().String(), "GET ftp://ftpuser:wrongpass@"+s.Addr+"/ HTTP/1.1\nHost: "+s.Addr+"\n\n")
	if res.StatusCode == 200 || strings.Contains(page, "wrongpass") {
		t.Errorf("a refused password in the URL: %d\n%s", res.StatusCode, page)
	}
	// %2F: an absolute CWD, from the raw request target.
	res, body = get(t, gw.URL+"/ftp://"+s.Addr+"/%2Fpub/hello.txt")
	if res.StatusCode != 200 || body != "anonymous hello\n" {
		t.Errorf("%%2F: %d %q", res.StatusCode, body)
	}
	if cmds := s.commands(t); !strings.Contains(cmds, "CWD /pub") {
		t.Errorf("%%2F did not reach the server as CWD /pub:\n%s", cmds)
	}
	for _, secret := range []string{"ftppass", "wrongpass", "d3Jvbmc", basic("ftpuser", "ftppass")} {
		if strings.Contains(log.String(), secret) {
			t.Errorf("the log holds %q:\n%s", secret, log)
		}
	}
}

func basic(u, p string) string {
	r, _ := http.NewRequest("GET", "http://x/", nil)
	r.SetBasicAuth(u, p)
	return strings.TrimPrefix(r.Header.Get("Authorization"), "Basic ")
}

// canary is a TCP listener that counts the connections it accepts and
// holds them open without a word: a destination that must never be
// reached, or a server that stalls.
type canary struct {
	l net.Listener
	n atomic.Int32
}

func newCanary(t *testing.T) *canary {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	c := &canary{l: l}
	var held []net.Conn
	var mu sync.Mutex
	go func() {
		for {
			conn, err := l.Accept()
			if err != nil {
				return
			}
			c.n.Add(1)
			mu.Lock()
			held = append(held, conn)
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		l.Close()
		mu.Lock()
		for _, c := range held {
			c.Close()
		}
		mu.Unlock()
	})
	return c
}

func (c *canary) port() string { return strconv.Itoa(c.l.Addr().(*net.TCPAddr).Port) }

// TestSSRF: loopback, private and link-local destinations are refused
// unless allowed, in every way of writing them (RFC 1738 §3.1's dotted
// decimal only; inet_aton's decimal, octal and hexadecimal forms, IPv6
// forms of an IPv4 address, a name that resolves to loopback), on the
// address resolved; a redirection into denied space is refused; nothing
// reaches the destination.
func TestSSRF(t *testing.T) {
	c := newCanary(t)
	p := c.port()
	gw, _ := startGateway(t, gateway.Config{IdleTimeout: 2 * time.Second})
	for _, u := range []string{
		"gopher://127.0.0.1:" + p + "/",
		"gopher://2130706433:" + p + "/",
		"gopher://0x7f.1:" + p + "/",
		"gopher://0177.0.0.1:" + p + "/",
		"gopher://127.1:" + p + "/",
		"gopher://127.0.0.1.:" + p + "/",
		"gopher://[::ffff:127.0.0.1]:" + p + "/",
		"gopher://[::ffff:7f00:1]:" + p + "/",
		"gopher://[::1]:" + p + "/",
		"gopher://[64:ff9b::7f00:1]:" + p + "/",
		"gopher://localhost:" + p + "/",
		"ftp://127.0.0.1:" + p + "/",
		"nntp://127.0.0.1:" + p + "/local.test",
		"gopher://10.0.0.1:" + p + "/",
		"gopher://169.254.169.254/",
		"gopher://0.0.0.0:" + p + "/",
		"http://127.0.0.1:" + p + "/",
		"file:///etc/passwd",
		"file://localhost/etc/passwd",
	} {
		for _, form := range []string{"path", "proxy"} {
			var res *http.Response
			var page string
			if form == "path" {
				res, page = get(t, gw.URL+"/"+u)
			} else {
				res, page = raw(t, gw.Listener.Addr().String(), "GET "+u+" HTTP/1.1\nHost: x\n\n")
			}
			if res.StatusCode != 403 && !(strings.HasPrefix(u, "http:") && form == "path" && res.StatusCode == 302) {
				t.Errorf("%s (%s form): %d, want 403\n%s", u, form, res.StatusCode, page)
			}
			if strings.Contains(page, "root:") {
				t.Errorf("%s: a local file served", u)
			}
		}
	}
	// A redirection (a Gopher h item's URL: selector) into loopback:
	// the gopher server is allowed, the target port is not.
	gs := peer.Pygopherd(t, gopherTree(t))
	gw2, _ := startGateway(t, gateway.Config{Policy: access.Policy{Allow: rules(t, gs.Addr)}})
	res, page := get(t, gw2.URL+"/gopher://"+gs.Addr+"/hURL:gopher://127.0.0.1:"+p+"/")
	if res.StatusCode != 403 || !strings.Contains(page, "loopback") {
		t.Errorf("redirection into loopback: %d\n%s", res.StatusCode, page)
	}
	if n := c.n.Load(); n != 0 {
		t.Errorf("the canary was reached %d times", n)
	}
	// The http URL in the path form is passed through (left to the
	// browser), never fetched.
	res, err := noRedirect.Get(gw.URL + "/http://127.0.0.1:" + p + "/x")
	if err != nil || res.StatusCode != 302 || res.Header.Get("Location") != "http://127.0.0.1:"+p+"/x" {
		t.Errorf("http passed through: %v %v", res, err)
	}
	if n := c.n.Load(); n != 0 {
		t.Errorf("the canary was reached %d times", n)
	}
}

// TestBrowserOwnRequests: what a browser asks of its proxy on its own
// (CONNECT to update and account servers, plain http to time servers)
// is refused, and a page under another name (DNS rebinding of the
// gateway itself) gets nothing.
func TestBrowserOwnRequests(t *testing.T) {
	gw, log := startGateway(t, gateway.Config{})
	addr := gw.Listener.Addr().String()
	for _, tc := range []struct {
		req  string
		code int
	}{
		{"CONNECT update.googleapis.com:443 HTTP/1.1\nHost: update.googleapis.com:443\n\n", 405},
		{"CONNECT accounts.google.com:443 HTTP/1.1\nHost: accounts.google.com:443\n\n", 405},
		{"GET http://clients2.google.com/time/1/current?cup2key=x HTTP/1.1\nHost: clients2.google.com\n\n", 403},
		{"GET /favicon.ico HTTP/1.1\nHost: " + addr + "\n\n", 404},
		{"GET /gopher://example.org/ HTTP/1.1\nHost: evil.example:80\n\n", 421},
		{"DELETE /gopher://example.org/ HTTP/1.1\nHost: " + addr + "\n\n", 405},
	} {
		res, page := raw(t, addr, tc.req)
		if res.StatusCode != tc.code {
			t.Errorf("%q: %d, want %d\n%s", tc.req, res.StatusCode, tc.code, page)
		}
	}
	if !strings.Contains(log.String(), "CONNECT update.googleapis.com:443 405") {
		t.Errorf("log:\n%s", log)
	}
}

// TestSmuggling: CR and LF, raw or encoded, never reach a server as a
// line end (RFC 1738 §6); the request line cannot carry them raw.
func TestSmuggling(t *testing.T) {
	s := peer.Pygopherd(t, gopherTree(t))
	gw, _ := startGateway(t, gateway.Config{Policy: access.Policy{Allow: rules(t, s.Addr)}})
	addr := gw.Listener.Addr().String()
	for _, tc := range []struct {
		req  string
		code int
	}{
		{"GET gopher://" + s.Addr + "/0/hello.txt%0D%0AINJECTED HTTP/1.1\nHost: x\n\n", 403},
		{"GET /gopher://" + s.Addr + "/0/hello.txt%0d%0aINJECTED HTTP/1.1\nHost: " + addr + "\n\n", 403},
		{"GET gopher://" + s.Addr + "/0/hello.txt%00INJECTED HTTP/1.1\nHost: x\n\n", 403},
		{"GET gopher://" + s.Addr + "/7/x%09a%0D%0AINJECTED HTTP/1.1\nHost: x\n\n", 403},
		{"GET ftp://a%0D%0AINJECTED@" + s.Addr + "/ HTTP/1.1\nHost: x\n\n", 403},
		{"GET gopher://" + s.Addr + "/0/hello.txt\rINJECTED HTTP/1.1\nHost: x\n\n", 400},
	} {
		res, page := raw(t, addr, tc.req)
		if res.StatusCode != tc.code {
			t.Errorf("%q: %d, want %d\n%s", tc.req, res.StatusCode, tc.code, page)
		}
	}
	out, _ := readFile(s.Output)
	if strings.Contains(out, "INJECTED") {
		t.Errorf("the server saw the injected line:\n%s", out)
	}
}

// TestPorts: RFC 1738 §6's port rule (a port of another service is
// refused unless allowed) and port rules of the policy.
func TestPorts(t *testing.T) {
	gw, _ := startGateway(t, gateway.Config{Policy: access.Policy{Allow: rules(t, "127.0.0.1")}})
	for _, u := range []string{"gopher://127.0.0.1:25/", "gopher://127.0.0.1:6667/", "ftp://127.0.0.1:22/", "nntp://127.0.0.1:143/x"} {
		res, page := get(t, gw.URL+"/"+u)
		if res.StatusCode != 403 || !strings.Contains(page, "RFC 1738 §6") {
			t.Errorf("%s: %d\n%s", u, res.StatusCode, page)
		}
	}
	c := newCanary(t)
	gw2, _ := startGateway(t, gateway.Config{Policy: access.Policy{Allow: rules(t, "127.0.0.1:70"), Deny: rules(t, ":"+c.port())}})
	for _, u := range []string{"gopher://127.0.0.1:" + c.port() + "/"} {
		res, page := get(t, gw2.URL+"/"+u)
		if res.StatusCode != 403 || !strings.Contains(page, "denied by the rule") {
			t.Errorf("%s: %d\n%s", u, res.StatusCode, page)
		}
	}
	if c.n.Load() != 0 {
		t.Errorf("a denied port was connected to")
	}
}

// TestLimits: requests at once per destination, the request target's
// size, the object's size, and time.
func TestLimits(t *testing.T) {
	c := newCanary(t)
	gw, _ := startGateway(t, gateway.Config{Policy: access.Policy{Allow: rules(t, "127.0.0.1")}, MaxPerDest: 1, IdleTimeout: 3 * time.Second, MaxTarget: 200})
	stalled := gw.URL + "/gopher://127.0.0.1:" + c.port() + "/0/x"
	done := make(chan int)
	go func() {
		res, err := http.Get(stalled)
		if err != nil {
			done <- 0
			return
		}
		res.Body.Close()
		done <- res.StatusCode
	}()
	for c.n.Load() == 0 {
		time.Sleep(10 * time.Millisecond)
	}
	res, page := get(t, stalled)
	if res.StatusCode != 503 || res.Header.Get("Retry-After") == "" {
		t.Errorf("a second request to a busy destination: %d\n%s", res.StatusCode, page)
	}
	if code := <-done; code != 504 {
		t.Errorf("a stalled server: %d, want 504", code)
	}
	// Requests at once, whatever their destination.
	gw1, _ := startGateway(t, gateway.Config{Policy: access.Policy{Allow: rules(t, "127.0.0.1")}, MaxConns: 1, IdleTimeout: 3 * time.Second})
	before := c.n.Load()
	go func() {
		res, err := http.Get(gw1.URL + "/gopher://127.0.0.1:" + c.port() + "/0/y")
		if err == nil {
			res.Body.Close()
		}
		done <- 0
	}()
	for c.n.Load() == before {
		time.Sleep(10 * time.Millisecond)
	}
	res, page = get(t, gw1.URL+"/")
	if res.StatusCode != 503 {
		t.Errorf("a request beyond MaxConns: %d\n%s", res.StatusCode, page)
	}
	<-done
	res, _ = get(t, gw.URL+"/gopher://127.0.0.1:"+c.port()+"/0/"+strings.Repeat("x", 200))
	if res.StatusCode != 414 {
		t.Errorf("a long target: %d, want 414", res.StatusCode)
	}

	s := peer.Pygopherd(t, gopherTree(t))
	gw2, _ := startGateway(t, gateway.Config{Policy: access.Policy{Allow: rules(t, s.Addr)}, MaxSize: 1000})
	res, page = get(t, gw2.URL+"/gopher://"+s.Addr+"/9/big.bin%09%09+")
	if res.StatusCode != 502 || !strings.Contains(page, "size limit") {
		t.Errorf("an object over MaxSize: %d\n%s", res.StatusCode, page)
	}
	// No length known: the first octets are sent, then the connection is
	// cut, so that the client does not take a part for the whole.
	resp, err := http.Get(gw2.URL + "/gopher://" + s.Addr + "/9/big.bin")
	if err == nil {
		b, rerr := io.ReadAll(resp.Body)
		resp.Body.Close()
		if rerr == nil && resp.StatusCode == 200 {
			t.Errorf("an object over MaxSize ended cleanly after %d octets", len(b))
		}
	}
}

// TestStartPage: the start page's form leads to the path form.
func TestStartPage(t *testing.T) {
	s := peer.Pygopherd(t, gopherTree(t))
	gw, _ := startGateway(t, gateway.Config{Policy: access.Policy{Allow: rules(t, s.Addr)}})
	res, page := get(t, gw.URL+"/")
	if res.StatusCode != 200 || !strings.Contains(page, `<form action="/-/get" method="get">`) || strings.Contains(page, "<script") {
		t.Errorf("start page: %d\n%s", res.StatusCode, page)
	}
	res, page = get(t, gw.URL+"/-/get?url="+url.QueryEscape("gopher://"+s.Addr+"/1/docs"))
	if res.StatusCode != 200 || !contains(hrefs(page), "/gopher://"+s.Addr+"/0/docs/inner.txt") {
		t.Errorf("the form's URL: %d\n%s", res.StatusCode, page)
	}
}
