package gateway_test

// The gateway as an attacker tries it: local files through a
// redirection, the per-destination bound through redirections, a page
// of another site making the gateway connect, passwords in the access
// log, hosts spelled with escapes or internationalised characters; and
// what its policy must still let through (Prospero over UDP, FTP data
// connections under a rule that names the server).

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/gateway"
	"github.com/rfc1738/locator/internal/peer"
)

// holder is a TCP listener of 127.0.0.1 that holds every connection it
// accepts without a word until release: a destination whose
// connections stay open as long as the test wants.
type holder struct {
	l        net.Listener
	mu       sync.Mutex
	held     []net.Conn
	n        int
	released bool
}

func newHolder(t *testing.T) *holder {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	h := &holder{l: l}
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			h.mu.Lock()
			h.n++
			if h.released {
				c.Close() // accepted after release: not held
			} else {
				h.held = append(h.held, c)
			}
			h.mu.Unlock()
		}
	}()
	t.Cleanup(func() { l.Close(); h.release() })
	return h
}

func (h *holder) port() int { return h.l.Addr().(*net.TCPAddr).Port }

func (h *holder) count() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.n
}

func (h *holder) release() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.released = true
	for _, c := range h.held {
		c.Close()
	}
	h.held = nil
}

// TestMaxPerDestThroughRedirects: the bound on connections to one
// destination counts where each connection goes, not the host the URL
// names: requests wrapped as Gopher h items whose URL: selector names
// the destination (a redirection made before any connection) each
// under another host name, and a direct one, together get no more than
// MaxPerDest connections to it; the others are answered 503 with
// Retry-After.
func TestMaxPerDestThroughRedirects(t *testing.T) {
	h := newHolder(t)
	gw, _ := startGateway(t, gateway.Config{Policy: access.Policy{Allow: rules(t, "127.0.0.1")}, MaxPerDest: 2})
	target := fmt.Sprintf("gopher://127.0.0.1:%d/0/x", h.port())
	type result struct {
		code  int
		retry string
		err   error
	}
	results := make(chan result, 8)
	for i := 0; i < 8; i++ {
		u := gw.URL + fmt.Sprintf("/gopher://hop%d.invalid/hURL:%s", i, target)
		if i == 0 {
			u = gw.URL + "/" + target
		}
		go func() {
			res, err := noRedirect.Get(u)
			if err != nil {
				results <- result{err: err}
				return
			}
			res.Body.Close()
			results <- result{code: res.StatusCode, retry: res.Header.Get("Retry-After")}
		}()
	}
	// Six answers come while two connections are held: each a 503.
	timeout := time.After(time.Minute) // a bound against a hang
	for i := 0; i < 6; i++ {
		select {
		case r := <-results:
			if r.err != nil || r.code != 503 || r.retry == "" {
				t.Errorf("a request beyond the bound: %d (Retry-After %q) %v, want 503", r.code, r.retry, r.err)
			}
		case <-timeout:
			t.Fatalf("only %d of 6 requests answered; the destination has %d connections (bound 2)", i, h.count())
		}
	}
	// A slot is taken before its connection is accepted, so the second
	// connection may arrive after the six refusals: wait for it.
	for wait := time.Now().Add(10 * time.Second); h.count() < 2 && time.Now().Before(wait); {
		time.Sleep(10 * time.Millisecond)
	}
	if n := h.count(); n != 2 {
		t.Errorf("the destination had %d connections, want 2", n)
	}
	h.release()
	for i := 0; i < 2; i++ {
		<-results
	}
}

// TestNoLocalFileThroughRedirect: a redirection never leads to a file
// of the gateway's machine (RFC 1738 §3.10: a file URL names a file of
// "the machine from which the URL is being interpreted"): neither a
// Gopher h item whose selector is URL:file:..., which redirects before
// any connection, nor an HTTP 302 from a real nginx whose Location is a
// file URL. The page says why.
func TestNoLocalFileThroughRedirect(t *testing.T) {
	www := t.TempDir()
	write(t, filepath.Join(www, "ok.txt"), "ok\n", 0o644)
	ng := peer.Nginx(t, www, peer.NginxConfig{
		Connections: 16,
		HTTP:        "types { text/plain txt; }",
		Server: `    location /to-file { return 302 file:///etc/hostname; }
    location /to-dir { return 301 file:///var/; }`,
	})
	gw, log := startGateway(t, gateway.Config{Policy: access.Policy{Allow: rules(t, "127.0.0.1")}})
	hostname, _ := os.ReadFile("/etc/hostname")
	for _, target := range []string{
		"/gopher://x/hURL:file:///etc/passwd",
		"/gopher://x/hURL:file://localhost/etc/passwd",
		"/gopher://x/hURL:file:///var/",
		"/gopher://x/hURL:FILE:///etc/passwd",
		"/gopher://x/hURL:http://" + ng.Addr + "/to-file",
		"/gopher://x/hURL:http://" + ng.Addr + "/to-dir",
	} {
		// The target as curl --path-as-is sends it.
		res, page := raw(t, gw.Listener.Addr().String(), "GET "+target+" HTTP/1.1\nHost: "+gw.Listener.Addr().String()+"\nConnection: close\n\n")
		if res.StatusCode != 403 || !strings.Contains(page, "redirect") {
			t.Errorf("%s: %d, want 403 saying why\n%s", target, res.StatusCode, page)
		}
		if strings.Contains(page, "root:") || strings.Contains(page, "<li") && strings.Contains(page, "lib") ||
			len(hostname) > 2 && strings.Contains(page, strings.TrimSpace(string(hostname))+"\n") {
			t.Errorf("%s: a local file or directory served:\n%s", target, page)
		}
	}
	// nginx was asked (the HTTP hop was made), and the file hop refused.
	if !strings.Contains(log.String(), "/to-file 403 ") {
		t.Errorf("log:\n%s", log)
	}
}

// TestCrossSite: a page of another site cannot make the gateway
// connect: a request that the browser marks cross-site or same-site
// (Fetch Metadata's Sec-Fetch-Site; on loopback another port of
// 127.0.0.1 is the same site), or whose Origin or Referer names another
// host, is refused before any connection, in the path form and the
// query form; the person's own requests ("none", "same-origin", no
// header) are served.
func TestCrossSite(t *testing.T) {
	gs := peer.Gophernicus(t, gopherTree(t))
	c := newCanary(t)
	gw, _ := startGateway(t, gateway.Config{Policy: access.Policy{Allow: rules(t, "127.0.0.1")}})
	self := gw.Listener.Addr().String()
	victim := "gopher://127.0.0.1:" + c.port() + "/0/FLUSHALL"
	for _, path := range []string{"/" + victim, "/-/get?url=" + url.QueryEscape(victim), "/-/search?url=" + url.QueryEscape(victim) + "&q=x"} {
		for _, hdr := range [][]string{
			{"Sec-Fetch-Site", "cross-site"},
			{"Sec-Fetch-Site", "same-site"},
			{"Origin", "http://127.0.0.1:1"},
			{"Origin", "null"},
			{"Referer", "http://evil.example/page.html"},
			{"Sec-Fetch-Site", "same-origin", "Origin", "http://evil.example"},
		} {
			res, page := get(t, gw.URL+path, hdr...)
			if res.StatusCode != 403 || !strings.Contains(page, "another site") {
				t.Errorf("%s %q: %d, want 403\n%s", path, hdr, res.StatusCode, page)
			}
		}
	}
	if n := c.n.Load(); n != 0 {
		t.Errorf("the destination was reached %d times by cross-site requests", n)
	}
	menu := "/gopher://" + gs.Addr + "/1/"
	for _, hdr := range [][]string{
		{"Sec-Fetch-Site", "none"},
		{"Sec-Fetch-Site", "same-origin", "Origin", "http://" + self},
		{"Referer", "http://" + self + "/"},
		nil,
	} {
		res, page := get(t, gw.URL+menu, hdr...)
		if res.StatusCode != 200 {
			t.Errorf("%q: %d, want 200\n%s", hdr, res.StatusCode, page)
		}
	}
	// The proxy form comes from clients configured to use the gateway
	// (Lynx, curl -x): no such check.
	res, _ := raw(t, self, "GET gopher://"+gs.Addr+"/1/ HTTP/1.1\nHost: x\nSec-Fetch-Site: cross-site\n\n")
	if res.StatusCode != 200 {
		t.Errorf("proxy form: %d", res.StatusCode)
	}
}

// TestCrossSiteChromium: a page served by nginx on another port of
// 127.0.0.1 (another origin of the same site) puts an image whose
// address is the gateway's path form of a URL to a loopback service the
// gateway is allowed to reach; Chromium asks for it, and the gateway
// refuses it without connecting.
func TestCrossSiteChromium(t *testing.T) {
	peer.Require(t, "chromium")
	c := newCanary(t)
	gw, log := startGateway(t, gateway.Config{Policy: access.Policy{Allow: rules(t, "127.0.0.1")}})
	www := t.TempDir()
	img := gw.URL + "/gopher://127.0.0.1:" + c.port() + "/0/FLUSHALL"
	write(t, filepath.Join(www, "index.html"), `<!doctype html><title>elsewhere</title><img src="`+img+`"><p>page of another site</p>`, 0o644)
	ng := peer.Nginx(t, www, peer.NginxConfig{Connections: 16, HTTP: "types { text/html html; }"})
	dom := chromium(t, "http://"+ng.Addr+"/index.html")
	if !strings.Contains(dom, "page of another site") {
		t.Fatalf("the page was not loaded:\n%s", dom)
	}
	want := " GET /gopher://127.0.0.1:" + c.port() + "/0/FLUSHALL 403 "
	// The image is asked for before the page's load event; the log line
	// may follow Chromium's exit by a moment (a bound, not a timing).
	for end := time.Now().Add(30 * time.Second); !strings.Contains(log.String(), want) && time.Now().Before(end); {
		time.Sleep(50 * time.Millisecond)
	}
	if !strings.Contains(log.String(), want) {
		t.Errorf("the gateway did not refuse Chromium's request:\n%s\n%s", log, dom)
	}
	if n := c.n.Load(); n != 0 {
		t.Errorf("the destination was reached %d times", n)
	}
}

// TestLogMasksPasswords: the access log and the error page carry no
// password, whatever the URL's form: a URL of the start page's query that does not parse,
// a URL inside a Gopher h item's URL: selector (as written and
// escaped), in the path form and the proxy form.
func TestLogMasksPasswords(t *testing.T) {
	gw, log := startGateway(t, gateway.Config{})
	addr := gw.Listener.Addr().String()
	for _, target := range []string{
		"/-/get?url=" + url.QueryEscape("ftp://u:sekrit1@127.0.0.1:99999/"),
		"/-/get?url=" + url.QueryEscape("ftp://u:sekrit2@h w/"),
		"/-/get?url=ftp://u:sekrit3@[zz]/",
		"/gopher://x/hURL:ftp://u:sekrit4@127.0.0.1/",
		"/gopher://x/hURL:ftp%3A%2F%2Fu%3Asekrit5%40127.0.0.1%2F",
		"/gopher://x/hURL:telnet://u:sekrit6@127.0.0.1:23",
		"/-/get?url=" + url.QueryEscape("gopher://x/hURL:ftp://u:sekrit7@127.0.0.1/"),
		"/ftp://u:sekrit8@127.0.0.1:99999/",
	} {
		res, page := raw(t, addr, "GET "+target+" HTTP/1.1\nHost: "+addr+"\nConnection: close\n\n")
		if res.StatusCode == 200 {
			t.Errorf("%s: 200", target)
		}
		if strings.Contains(page, "sekrit") {
			t.Errorf("%s: the password is in the page:\n%s", target, page)
		}
	}
	res, _ := raw(t, addr, "GET gopher://x/hURL:ftp://u:sekrit9@127.0.0.1/ HTTP/1.1\nHost: x\nConnection: close\n\n")
	if res.StatusCode == 200 {
		t.Errorf("proxy form: 200")
	}
	l := log.String()
	if strings.Count(l, "\n") < 9 {
		t.Fatalf("log:\n%s", l)
	}
	if strings.Contains(l, "sekrit") {
		t.Errorf("a password is in the log:\n%s", l)
	}
}

// TestEncodedHosts: a host written with escapes or internationalised
// characters is decoded before it is resolved and checked: every
// spelling of loopback below is refused under the default policy, and
// nothing reaches the destination.
func TestEncodedHosts(t *testing.T) {
	c := newCanary(t)
	p := c.port()
	gw, _ := startGateway(t, gateway.Config{})
	for _, host := range []string{
		"%e2%93%9bocalhost", "%E2%93%9BOCALHOST", "%6c%6f%63%61%6c%68%6f%73%74", "%31%32%37.0.0.1",
		"%31%32%37%2e%30%2e%30%2e%31", "ｌｏｃａｌｈｏｓｔ", "%ef%bc%91%ef%bc%92%ef%bc%97.0.0.1", "LOCALHOST",
	} {
		for _, form := range []string{"path", "proxy"} {
			u := "gopher://" + host + ":" + p + "/0/x"
			var res *http.Response
			var page string
			if form == "path" {
				res, page = raw(t, gw.Listener.Addr().String(), "GET /"+u+" HTTP/1.1\nHost: "+gw.Listener.Addr().String()+"\nConnection: close\n\n")
			} else {
				res, page = raw(t, gw.Listener.Addr().String(), "GET "+u+" HTTP/1.1\nHost: x\nConnection: close\n\n")
			}
			if res.StatusCode != 403 && res.StatusCode != 400 {
				t.Errorf("%s (%s form): %d, want 403\n%s", u, form, res.StatusCode, page)
			}
			if strings.Contains(page, "lookup") {
				t.Errorf("%s (%s form): the resolver was asked for it undecoded:\n%s", u, form, page)
			}
		}
	}
	if n := c.n.Load(); n != 0 {
		t.Errorf("the canary was reached %d times", n)
	}
}

// TestProsperoThroughGateway: a Prospero URL through the gateway is
// asked of the real dirsrv over UDP (ARDP, RFC 1738 §3.11), under the
// same policy as TCP destinations: its listing is the directory's
// links; under the default policy the loopback server is refused.
func TestProsperoThroughGateway(t *testing.T) {
	r := t.TempDir()
	for _, d := range []string{"info-tree/docs", "shadow", "security", "pfsdat"} {
		if err := os.MkdirAll(filepath.Join(r, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write(t, filepath.Join(r, "info-tree", "readme.txt"), "hello\n", 0o644)
	write(t, filepath.Join(r, "info-tree", "docs", "a.txt"), "doc\n", 0o644)
	s, _ := peer.Dirsrv(t, r)
	u := "/prospero://" + s.Addr + "/" + filepath.Join(r, "info-tree")
	gw, _ := startGateway(t, gateway.Config{Policy: access.Policy{Allow: rules(t, "127.0.0.1")}, IdleTimeout: 20 * time.Second})
	res, page := get(t, gw.URL+u)
	if res.StatusCode != 200 || !strings.Contains(page, "readme.txt") || !strings.Contains(page, "docs") {
		t.Errorf("%s: %d\n%s", u, res.StatusCode, page)
	}
	gw2, _ := startGateway(t, gateway.Config{})
	res, page = get(t, gw2.URL+u)
	if res.StatusCode != 403 || !strings.Contains(page, "loopback") {
		t.Errorf("%s under the default policy: %d\n%s", u, res.StatusCode, page)
	}
}

// startVsftpd serves files (path → content) anonymously with vsftpd.
func startVsftpd(t *testing.T, files map[string]string) *peer.Server {
	t.Helper()
	return peer.Vsftpd(t, "", func(root string) {
		for p, c := range files {
			write(t, filepath.Join(root, filepath.FromSlash(p)), c, 0o644)
		}
	}).Server
}

// nameResolver answers each name of its map, and nothing else.
type nameResolver map[string]string

func (m nameResolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	if a, ok := m[host]; ok {
		return []netip.Addr{netip.MustParseAddr(a)}, nil
	}
	return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
}

// TestFTPDataConnectionRule: under a rule that names the FTP server by
// address and port, or by name and port, the passive-mode data
// connection to the same server (RFC 959 §3.2: on a port the server
// names) is admitted, and vsftpd's file and directory come through; a
// Deny rule still wins over it.
func TestFTPDataConnectionRule(t *testing.T) {
	v := startVsftpd(t, map[string]string{"pub/hello.txt": "hello from vsftpd\n"})
	port := fmt.Sprint(v.Port)
	res := nameResolver{"ftp.test": "127.0.0.1"}
	for _, tc := range []struct {
		allow []string
		host  string
	}{
		{[]string{"127.0.0.1:" + port}, "127.0.0.1"},
		{[]string{"ftp.test:" + port}, "ftp.test"},
		{[]string{"ftp.test"}, "ftp.test"},
		{[]string{".test:" + port + "-" + port}, "ftp.test"},
	} {
		gw, _ := startGateway(t, gateway.Config{Policy: access.Policy{Allow: rules(t, tc.allow...)}, Resolver: res})
		base := gw.URL + "/ftp://" + tc.host + ":" + port
		r, page := get(t, base+"/pub/hello.txt")
		if r.StatusCode != 200 || page != "hello from vsftpd\n" {
			t.Errorf("--allow %s, file: %d %q", tc.allow, r.StatusCode, page)
		}
		r, page = get(t, base+"/pub/")
		if r.StatusCode != 200 || !strings.Contains(page, "hello.txt") {
			t.Errorf("--allow %s, directory: %d\n%s", tc.allow, r.StatusCode, page)
		}
	}
	// Every port but the control connection's denied: the data
	// connection is refused.
	gw, _ := startGateway(t, gateway.Config{Policy: access.Policy{Allow: rules(t, "127.0.0.1:"+port), Deny: rules(t, "127.0.0.1:1-"+fmt.Sprint(v.Port-1), "127.0.0.1:"+fmt.Sprint(v.Port+1)+"-65535")}})
	r, page := get(t, gw.URL+"/ftp://127.0.0.1:"+port+"/pub/hello.txt")
	if r.StatusCode != 403 || !strings.Contains(page, "denied") {
		t.Errorf("a denied data port: %d\n%s", r.StatusCode, page)
	}
}

// TestRedirectToAnotherPort: a server a rule admits by address and port
// cannot lead the gateway to another port of its address by a
// redirection: nginx's 302 to a gopher URL on another port of 127.0.0.1
// is refused, and that port sees no connection.
func TestRedirectToAnotherPort(t *testing.T) {
	c := newCanary(t)
	www := t.TempDir()
	ng := peer.Nginx(t, www, peer.NginxConfig{
		Connections: 16,
		Server:      "    location /away { return 302 gopher://127.0.0.1:" + c.port() + "/0/x; }",
	})
	gw, _ := startGateway(t, gateway.Config{Policy: access.Policy{Allow: rules(t, ng.Addr)}})
	res, page := get(t, gw.URL+"/gopher://x/hURL:http://"+ng.Addr+"/away")
	if res.StatusCode != 403 || !strings.Contains(page, "127.0.0.1:"+c.port()) {
		t.Errorf("%d\n%s", res.StatusCode, page)
	}
	if n := c.n.Load(); n != 0 {
		t.Errorf("the other port was reached %d times", n)
	}
}
