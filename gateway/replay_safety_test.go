package gateway_test

// The gateway serving an archive (Config.Archive) as safely as the
// network: no capture of a file URL unless asked, no replayed page that
// makes the browser reach the live server; and its pages masking a
// password by field, never by its text.

import (
	"bufio"
	"context"
	"io"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/archive"
	"github.com/rfc1738/locator/gateway"
	"github.com/rfc1738/locator/internal/loctest"
	"github.com/rfc1738/locator/internal/peer"
)

// recordWARC fetches the URLs with a Client whose Recorder is a WARC
// Writer and returns the file, opened as an archive.Reader.
func recordWARC(t *testing.T, urls ...string) *archive.Reader {
	t.Helper()
	path := filepath.Join(t.TempDir(), "rec.warc.gz")
	w, err := archive.Create(path, archive.Options{})
	if err != nil {
		t.Fatal(err)
	}
	c := &access.Client{Recorder: w}
	for _, u := range urls {
		res, err := c.Get(context.Background(), loctest.MustParse(t, u))
		if err != nil {
			t.Fatalf("%s: %v", u, err)
		}
		if _, err := io.Copy(io.Discard, res.Body); err != nil {
			t.Fatalf("%s: %v", u, err)
		}
		if err := res.Close(); err != nil {
			t.Fatalf("%s: %v", u, err)
		}
	}
	c.CloseIdle()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	r, err := archive.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	if p := r.Problems(); len(p) > 0 {
		t.Fatalf("problems: %v", p)
	}
	return r
}

// TestReplayFileURLs: a capture of a file URL (RFC 1738 §3.10: a file
// of the machine that made the archive, which a hostile page may have
// led a crawl to) is refused with 403 unless Config.ArchiveFileURLs
// says to serve it; an http capture of the same archive is served.
func TestReplayFileURLs(t *testing.T) {
	dir := t.TempDir()
	secret := filepath.Join(dir, "passwd")
	write(t, secret, "root:x:0:0:root:/root:/bin/sh\n", 0o644)
	write(t, filepath.Join(dir, "www", "index.html"), "<p>served</p>\n", 0o644)
	ng := peer.Nginx(t, filepath.Join(dir, "www"), peer.NginxConfig{Connections: 16})
	page := "http://" + ng.Addr + "/index.html"
	rd := recordWARC(t, "file://"+secret, page)

	gw, _ := startGateway(t, gateway.Config{Archive: rd})
	res, body := get(t, gw.URL+"/file://"+secret)
	if res.StatusCode != 403 || strings.Contains(body, "root:x:0") || !strings.Contains(body, "--warc-serve-file") {
		t.Errorf("a file URL's capture by default: %d\n%s", res.StatusCode, body)
	}
	if res, body := get(t, gw.URL+"/"+page); res.StatusCode != 200 || body != "<p>served</p>\n" {
		t.Errorf("the http capture: %d %q", res.StatusCode, body)
	}
	// The fallback fetches from the network, never from the disk.
	fb, _ := startGateway(t, gateway.Config{Archive: rd, ArchiveFallback: true})
	if res, body := get(t, fb.URL+"/file://"+secret); res.StatusCode != 403 || strings.Contains(body, "root:x:0") {
		t.Errorf("with the fallback: %d\n%s", res.StatusCode, body)
	}
	served, _ := startGateway(t, gateway.Config{Archive: rd, ArchiveFileURLs: true})
	if res, body := get(t, served.URL+"/file://"+secret); res.StatusCode != 200 || body != "root:x:0:0:root:/root:/bin/sh\n" {
		t.Errorf("with ArchiveFileURLs: %d %q", res.StatusCode, body)
	}
}

// TestReplayStaysInArchiveChromium: a page captured from one nginx
// whose images, style sheet, script, frame, background and refresh
// point at another (the live web), replayed by the gateway to headless
// Chromium: the replayed document's Content-Security-Policy (CSP 3
// default-src, with sandbox) and its links rewritten to the gateway
// let Chromium ask the gateway for the page's archived image, served,
// and for the rest, not archived, refused, and nothing of the live
// server, whose access log gains no line; the server it was captured
// from is not asked again either.
func TestReplayStaysInArchiveChromium(t *testing.T) {
	peer.Require(t, "chromium")
	liveDir, siteDir := t.TempDir(), t.TempDir()
	live := peer.Nginx(t, t.TempDir(), peer.NginxConfig{Dir: liveDir, Connections: 16})
	L := "http://" + live.Addr
	png := "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89\x00\x00\x00\rIDATx\x9cc\xf8\x0f\x00\x00\x01\x01\x00\x05\x18\xd8N\x00\x00\x00\x00IEND\xaeB`\x82"
	site := t.TempDir()
	write(t, filepath.Join(site, "pic.png"), png, 0o644)
	write(t, filepath.Join(site, "page.html"), `<!doctype html><html><head><title>archived</title>
<meta http-equiv="refresh" content="0;url=`+L+`/refresh.html">
<link rel="stylesheet" href="`+L+`/live.css"><link rel="prefetch" href="`+L+`/prefetch.bin">
<style>@import url("`+L+`/import.css"); body{background:url(`+L+`/bg.png)}</style>
<script src="`+L+`/live.js"></script></head>
<body><p>archived page</p><img src="pic.png"><img src="`+L+`/live.png">
<div style="background-image:url(`+L+`/div.png)">x</div><iframe src="`+L+`/frame.html"></iframe>
<video poster="`+L+`/poster.png" src="`+L+`/video.mp4"></video><object data="`+L+`/object.swf"></object>
<img srcset="`+L+`/srcset.png 2x"></body></html>
`, 0o644)
	captured := peer.Nginx(t, site, peer.NginxConfig{Dir: siteDir, Connections: 16, HTTP: "types { text/html html; image/png png; }"})
	C := "http://" + captured.Addr
	rd := recordWARC(t, C+"/page.html", C+"/pic.png")
	// What each server was asked before (peer.Nginx's readiness probe,
	// the recording): nginx writes a request's line once its reply is
	// sent, which may follow the client's end by a moment (a bound,
	// not a timing).
	for end := time.Now().Add(30 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if l := logLines(t, filepath.Join(siteDir, "access.log")); strings.Contains(strings.Join(l, "\n"), "GET /pic.png ") {
			break
		}
	}
	before := logLines(t, filepath.Join(siteDir, "access.log"))
	liveBefore := logLines(t, filepath.Join(liveDir, "access.log"))

	gw, log := startGateway(t, gateway.Config{Archive: rd})
	dom := chromium(t, gw.URL+"/"+C+"/page.html")
	if !strings.Contains(dom, "archived page") {
		t.Fatalf("the page was not loaded:\n%s", dom)
	}
	// The archived image is asked of the gateway, which serves it from
	// the archive (rewrite.go: the page keeps the gateway's origin, its
	// links lead to the gateway); the live server's style sheet, image
	// and frame are asked of the gateway too, which has no capture of
	// them (404) and fetches nothing.
	want := " GET " + C + "/pic.png 200 "
	// The image is asked for before the page's load event; the log line
	// may follow Chromium's exit by a moment (a bound, not a timing).
	for end := time.Now().Add(30 * time.Second); !strings.Contains(log.String(), want) && time.Now().Before(end); {
		time.Sleep(50 * time.Millisecond)
	}
	if !strings.Contains(log.String(), want) {
		t.Errorf("the archived image was not asked of the gateway:\n%s", log)
	}
	for _, p := range []string{"/live.css", "/live.png", "/frame.html"} {
		if w := " GET " + L + p + " 404 "; !strings.Contains(log.String(), w) {
			t.Errorf("%s was not asked of the gateway:\n%s", L+p, log)
		}
	}
	if l := logLines(t, filepath.Join(liveDir, "access.log")); len(l) != len(liveBefore) {
		t.Errorf("the replayed page reached the live server:\n%s", strings.Join(l[len(liveBefore):], "\n"))
	}
	if l := logLines(t, filepath.Join(siteDir, "access.log")); len(l) != len(before) {
		t.Errorf("the replay reached the server the page was captured from:\n%s", strings.Join(l[len(before):], "\n"))
	}
}

// logLines reads an nginx access log's lines.
func logLines(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var l []string
	for _, s := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if s != "" {
			l = append(l, s)
		}
	}
	return l
}

var (
	titleRE  = regexp.MustCompile(`(?s)<title>(.*?)</title>`)
	headerRE = regexp.MustCompile(`(?s)<header>(.*?)</header>`)
	h1RE     = regexp.MustCompile(`(?s)<h1>(.*?)</h1>`)
)

// shownText is the text of a page's title, header and heading.
func shownText(page string) string {
	var b strings.Builder
	for _, re := range []*regexp.Regexp{titleRE, headerRE, h1RE} {
		if m := re.FindStringSubmatch(page); m != nil {
			b.WriteString(m[1] + "\n")
		}
	}
	return b.String()
}

// TestPagesMaskByField: a page shows a URL's password masked in its
// field (RFC 1738 §3.1's <password>), wherever the URL is, a Gopher
// hURL: selector's included, and masks a password where a server's text
// echoes it; it never masks the password's text elsewhere, so a
// password of one letter leaves the gateway's own words whole.
func TestPagesMaskByField(t *testing.T) {
	gw, _ := startGateway(t, gateway.Config{})
	// Refused by the default policy (loopback): the message names the
	// policy, the header the URL without its password.
	res, page := get(t, gw.URL+"/ftp://u:p@127.0.0.1:2121/pub/")
	if res.StatusCode != 403 || !strings.Contains(page, "<span>ftp://u@127.0.0.1:2121/pub/</span>") || !strings.Contains(page, "refused by local policy") ||
		strings.Contains(page, "ft****") || strings.Contains(page, "****olicy") {
		t.Errorf("a refused URL whose password is \"p\": %d\n%s", res.StatusCode, page)
	}
	// A search form (a Gopher type 7 item) for a selector that holds a
	// URL with a password: its title, header and heading show it
	// masked; the form's own value keeps it, to search what was asked.
	res, page = get(t, gw.URL+"/gopher://127.0.0.1/7hURL:ftp://u:sekrit@h/")
	text := shownText(page)
	if res.StatusCode != 200 || strings.Count(text, "hURL:ftp://u:****@h/") != 3 || strings.Contains(text, "sekrit") {
		t.Errorf("a search form's title, header and heading: %d\n%s", res.StatusCode, text)
	}
	for _, target := range []string{"/gopher://127.0.0.1/1hURL:ftp://u:sekrit@h/", "/gopher://127.0.0.1/hURL:ftp%3A%2F%2Fu%3Asekrit%40h%2F"} {
		res, page = get(t, gw.URL+target)
		if res.StatusCode == 200 || strings.Contains(page, "sekrit") || !strings.Contains(page, "****") {
			t.Errorf("%s: %d\n%s", target, res.StatusCode, page)
		}
	}

	// An FTP server that echoes the password in its reply to PASS (none
	// of the real ones does): masked in the server's text, wherever it
	// is there, and only there.
	echo := peer.Hostile(t, func(c net.Conn) {
		c.SetDeadline(time.Now().Add(30 * time.Second))
		r := bufio.NewReader(c)
		c.Write([]byte("220 echo\r\n"))
		user := ""
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				return
			}
			cmd, arg, _ := strings.Cut(strings.TrimRight(line, "\r\n"), " ")
			switch cmd = strings.ToUpper(cmd); {
			case cmd == "USER":
				user = arg
				c.Write([]byte("331 password please\r\n"))
			case cmd == "PASS" && user == "solo":
				c.Write([]byte("530 " + arg + "\r\n")) // the password is the whole text
			case cmd == "PASS":
				c.Write([]byte("530 password " + arg + " is wrong, please retry (" + arg + "x kept)\r\n"))
			default:
				c.Write([]byte("502 no\r\n"))
			}
		}
	})
	allowed, _ := startGateway(t, gateway.Config{Policy: access.Policy{Allow: rules(t, echo)}})
	for _, c := range []struct{ user, pw, want string }{
		{"u", "p", "530 ****assword **** is wrong, ****lease retry (****x ke****t)"},
		{"u", "hunter2", "530 password **** is wrong, please retry (****x kept)"},
		{"solo", "p", "the server says 530 **** (to"},
	} {
		res, page := get(t, allowed.URL+"/ftp://"+c.user+":"+c.pw+"@"+echo+"/f.txt")
		if res.StatusCode == 200 || !strings.Contains(page, c.want) || !strings.Contains(page, "ftp://"+c.user+":****@"+echo+"/f.txt") ||
			strings.Contains(page, "ft****") || !strings.Contains(page, "(to &#34;PASS ****&#34;)") {
			t.Errorf("password %q echoed: %d\n%s", c.pw, res.StatusCode, page)
		}
	}
}
