package gateway_test

import (
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/gateway"
	"github.com/rfc1738/locator/internal/peer"
)

// rewriteSite is a page whose every kind of link the replay rewrites,
// and a style sheet.
const rewritePage = `<!DOCTYPE html><html><head><base href="/d/">
<meta http-equiv="Refresh" content="30; URL='next.html'">
<link rel="stylesheet" href="s.css" integrity="sha384-x">
<style>@import "/i.css"; p{background:url(bg.png)}</style>
<script src="/j.js"></script></head>
<body background="b.png"><a href="/license.html">L</a> <a href="#top">T</a> <a href="x.html#sec">X</a>
<img src="i.png" srcset="i1.png 1x, /i2.png 2x" alt="a&amp;b"><div style="background:url('d.png')">d</div>
<a href="mailto:a@b.example">m</a><img src="data:image/png;base64,AA==">
<a href="gopher://g.example/1/">g</a><form action="/cgi"></form>
<p title="url(no.png)">unchanged <b>tags</b></p></body></html>
`

const rewriteCSS = `@import url("/more.css"); body{background:url(../img/bg.png)} /* url(c.png) */`

// TestReplayRewrite: a replayed page's links are rewritten to the
// gateway's path form against the page's <base href> (HTML 5 §4.2.3),
// those of its style attributes, <style> and style sheets too (CSS
// Syntax Level 3 §4); a fragment, data: and mailto: are left as they
// are, and so is every tag with no link; an integrity attribute is set
// aside. The page keeps the gateway's origin (sandbox allow-same-origin)
// and names itself to the gateway alone (Referrer-Policy same-origin).
// In the proxy form nothing is rewritten.
func TestReplayRewrite(t *testing.T) {
	site := t.TempDir()
	write(t, filepath.Join(site, "page.html"), rewritePage, 0o644)
	write(t, filepath.Join(site, "css", "s.css"), rewriteCSS, 0o644)
	ng := peer.Nginx(t, site, peer.NginxConfig{Connections: 16, HTTP: "types { text/html html; text/css css; }"})
	C := "http://" + ng.Addr
	rd := recordWARC(t, C+"/page.html", C+"/css/s.css")
	gw, _ := startGateway(t, gateway.Config{Archive: rd})

	res, body := get(t, gw.URL+"/"+C+"/page.html")
	want := strings.NewReplacer("{C}", C).Replace(`<!DOCTYPE html><html><head><base href="/{C}/d/">
<meta http-equiv="Refresh" content="30; URL=&#39;/{C}/d/next.html&#39;">
<link rel="stylesheet" href="/{C}/d/s.css" data-integrity="sha384-x">
<style>@import "/{C}/i.css"; p{background:url("/{C}/d/bg.png")}</style>
<script src="/{C}/j.js"></script></head>
<body background="/{C}/d/b.png"><a href="/{C}/license.html">L</a> <a href="#top">T</a> <a href="/{C}/d/x.html#sec">X</a>
<img src="/{C}/d/i.png" srcset="/{C}/d/i1.png 1x, /{C}/i2.png 2x" alt="a&amp;b"><div style="background:url(&#34;/{C}/d/d.png&#34;)">d</div>
<a href="mailto:a@b.example">m</a><img src="data:image/png;base64,AA==">
<a href="/gopher://g.example/1/">g</a><form action="/{C}/cgi"></form>
<p title="url(no.png)">unchanged <b>tags</b></p></body></html>
`)
	if res.StatusCode != 200 || body != want {
		t.Errorf("the page: %d\n%s\nwant\n%s", res.StatusCode, body, want)
	}
	if csp := res.Header.Get("Content-Security-Policy"); !strings.HasPrefix(csp, "sandbox allow-same-origin; default-src 'self' "+gw.URL+" data: blob:;") || !strings.Contains(csp, "script-src 'none'") {
		t.Errorf("Content-Security-Policy: %s", csp)
	}
	if rp, cl := res.Header.Get("Referrer-Policy"), res.Header.Get("Content-Length"); rp != "same-origin" || cl != "" && cl != strconv.Itoa(len(body)) {
		t.Errorf("Referrer-Policy %q, Content-Length %q", rp, cl)
	}
	if xfo, csp := res.Header.Get("X-Frame-Options"), res.Header.Get("Content-Security-Policy"); xfo != "SAMEORIGIN" || !strings.HasSuffix(csp, "; frame-ancestors 'self'") {
		t.Errorf("a replayed page may be framed by another: X-Frame-Options %q, %s", xfo, csp)
	}
	res, body = get(t, gw.URL+"/"+C+"/css/s.css")
	if want := `@import url("/` + C + `/more.css"); body{background:url("/` + C + `/img/bg.png")} /* url(c.png) */`; res.StatusCode != 200 || body != want {
		t.Errorf("the style sheet: %d\n%s\nwant\n%s", res.StatusCode, body, want)
	}
	// The proxy form: the page as it was captured.
	res, body = raw(t, strings.TrimPrefix(gw.URL, "http://"), "GET "+C+"/page.html HTTP/1.1\nHost: "+ng.Addr+"\nConnection: close\n\n")
	if res.StatusCode != 200 || body != rewritePage || !strings.HasPrefix(res.Header.Get("Content-Security-Policy"), "sandbox; ") {
		t.Errorf("the proxy form: %d %s\n%s", res.StatusCode, res.Header.Get("Content-Security-Policy"), body)
	}
}

// TestReplayReferred: a root-relative request that names no URL
// ("/license.html"), made by a replayed page whose Referer names it, is
// sent on (307) to that URL in the page's site, through the gateway;
// without such a Referer, or without an archive, it is the 404 it was.
func TestReplayReferred(t *testing.T) {
	site := t.TempDir()
	write(t, filepath.Join(site, "d", "page.html"), "<p>page</p>\n", 0o644)
	ng := peer.Nginx(t, site, peer.NginxConfig{Connections: 16})
	C := "http://" + ng.Addr
	rd := recordWARC(t, C+"/d/page.html")
	gw, _ := startGateway(t, gateway.Config{Archive: rd})
	for _, c := range []struct {
		target, referer string
		code            int
		location        string
	}{
		{"/license.html?a=b", gw.URL + "/" + C + "/d/page.html", 307, "/" + C + "/license.html?a=b"},
		{"/license.html", gw.URL + "/-/get?url=" + C + "%2Fd%2Fpage.html", 307, "/" + C + "/license.html"},
		{"/license.html", "", 404, ""},
		{"/license.html", "http://elsewhere.example/" + C + "/d/page.html", 404, ""},
		{"/license.html", gw.URL + "/", 404, ""},
	} {
		res, _ := get(t, gw.URL+c.target, "Referer", c.referer)
		if res.StatusCode != c.code || res.Header.Get("Location") != c.location {
			t.Errorf("%s, Referer %q: %d %q, want %d %q", c.target, c.referer, res.StatusCode, res.Header.Get("Location"), c.code, c.location)
		}
	}
	live, _ := startGateway(t, gateway.Config{})
	if res, _ := get(t, live.URL+"/license.html", "Referer", live.URL+"/"+C+"/d/page.html"); res.StatusCode != 404 {
		t.Errorf("without an archive: %d", res.StatusCode)
	}
}

// TestReplayFallbackPageMade: with ArchiveFallback, a URL the archive
// does not hold is fetched from the network when a person asks for it
// (typed in, Sec-Fetch-Site none; a click, Sec-Fetch-User ?1; a client
// without Fetch Metadata or Referer), never when a page asks on its own
// (Fetch Metadata: an image, a refresh without a click; a Referer from
// an older browser), in the path form: the cross-site rule kept for
// the network.
func TestReplayFallbackPageMade(t *testing.T) {
	gs := peer.Pygopherd(t, gopherTree(t))
	site := t.TempDir()
	write(t, filepath.Join(site, "page.html"), "<p>page</p>\n", 0o644)
	ng := peer.Nginx(t, site, peer.NginxConfig{Connections: 16})
	rd := recordWARC(t, "http://"+ng.Addr+"/page.html")
	gw, _ := startGateway(t, gateway.Config{Archive: rd, ArchiveFallback: true, Policy: access.Policy{Allow: rules(t, gs.Addr, ng.Addr)}})
	u := gw.URL + "/gopher://" + gs.Addr + "/0/hello.txt"
	for _, c := range []struct {
		hdr  []string
		code int
	}{
		{nil, 200},
		{[]string{"Sec-Fetch-Site", "none", "Sec-Fetch-Dest", "document"}, 200},
		{[]string{"Sec-Fetch-Site", "same-origin", "Sec-Fetch-Dest", "document", "Sec-Fetch-User", "?1"}, 200},
		{[]string{"Sec-Fetch-Site", "same-origin", "Sec-Fetch-Dest", "image"}, 404},
		{[]string{"Sec-Fetch-Site", "same-origin", "Sec-Fetch-Dest", "document"}, 404},
		{[]string{"Sec-Fetch-Site", "same-origin", "Sec-Fetch-Dest", "iframe", "Sec-Fetch-User", "?1"}, 404},
		{[]string{"Referer", gw.URL + "/http://" + ng.Addr + "/page.html"}, 404},
		{[]string{"Sec-Fetch-Site", "cross-site", "Sec-Fetch-Dest", "document", "Sec-Fetch-User", "?1"}, 403},
	} {
		res, body := get(t, u, c.hdr...)
		if res.StatusCode != c.code || c.code == 200 && body != "Hello from gopher\n" || c.code == 404 && !strings.Contains(body, "on its own") {
			t.Errorf("%q: %d\n%s", c.hdr, res.StatusCode, body)
		}
	}
	// The proxy form is not judged so (nor by crossSite): its clients
	// send the gateway every request.
	res, body := raw(t, strings.TrimPrefix(gw.URL, "http://"), "GET gopher://"+gs.Addr+"/0/hello.txt HTTP/1.1\nHost: "+gs.Addr+
		"\nSec-Fetch-Site: same-origin\nSec-Fetch-Dest: image\nConnection: close\n\n")
	if res.StatusCode != 200 || body != "Hello from gopher\n" {
		t.Errorf("the proxy form, a page's image: %d\n%s", res.StatusCode, body)
	}
	// An http URL the archive does not hold is passed to the browser
	// for a person, and not for a page's image.
	if res, body := get(t, gw.URL+"/http://"+ng.Addr+"/absent.png", "Sec-Fetch-Site", "same-origin", "Sec-Fetch-Dest", "image"); res.StatusCode != 404 {
		t.Errorf("a page's image not archived: %d\n%s", res.StatusCode, body)
	}
	if res, body := get(t, gw.URL+"/http://"+ng.Addr+"/absent.html"); res.StatusCode != http.StatusFound {
		t.Errorf("a person's link not archived: %d\n%s", res.StatusCode, body)
	}
}

// TestReplayStartPage: the start page of a gateway replaying an archive
// says so and lists the URLs it holds, each a link through the gateway;
// a capture of a file URL, not served, is named without a link.
func TestReplayStartPage(t *testing.T) {
	site := t.TempDir()
	write(t, filepath.Join(site, "a.html"), "a\n", 0o644)
	write(t, filepath.Join(site, "b.html"), "b\n", 0o644)
	file := filepath.Join(t.TempDir(), "f.txt")
	write(t, file, "f\n", 0o644)
	ng := peer.Nginx(t, site, peer.NginxConfig{Connections: 16})
	C := "http://" + ng.Addr
	rd := recordWARC(t, C+"/b.html", C+"/a.html", "file://"+file)
	gw, _ := startGateway(t, gateway.Config{Archive: rd})
	res, page := get(t, gw.URL+"/")
	if res.StatusCode != 200 || !strings.Contains(page, "<h1>Replaying an archive</h1>") || !strings.Contains(page, "fetches nothing from the network") ||
		!strings.Contains(page, "They hold captures of 3 URLs.") {
		t.Errorf("start page: %d\n%s", res.StatusCode, page)
	}
	links := hrefs(page)
	if !contains(links, "/"+C+"/a.html") || !contains(links, "/"+C+"/b.html") || !strings.Contains(page, "<li>file://"+file+"</li>") {
		t.Errorf("the archive's URLs: %q\n%s", links, page)
	}
	if strings.Index(page, C+"/a.html") > strings.Index(page, C+"/b.html") {
		t.Errorf("not in the index's order:\n%s", page)
	}
	live, _ := startGateway(t, gateway.Config{})
	if _, page := get(t, live.URL+"/"); strings.Contains(page, "Replaying") {
		t.Errorf("a gateway without an archive says it replays:\n%s", page)
	}
}
