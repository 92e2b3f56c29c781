package gateway_test

// Real clients through the gateway, all on loopback: Lynx with gopher_proxy and ftp_proxy (the proxy form),
// w3m with ftp_proxy and in the path form, curl -x for ftp (the user in
// the URL and an Authorization header), and headless Chromium in the
// path form with its resolver and background traffic kept on loopback.

import (
	"context"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/gateway"
	"github.com/rfc1738/locator/internal/peer"
)

// client runs a client program with env (and no other proxy setting),
// bounded in time, and returns its standard output.
func client(t *testing.T, env []string, name string, args ...string) string {
	t.Helper()
	path := peer.Require(t, name)[0]
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, args...)
	home := t.TempDir()
	cmd.Env = append([]string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "TERM=dumb", "no_proxy=", "NO_PROXY="}, env...)
	out, err := cmd.Output()
	if err != nil {
		var stderr string
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		t.Logf("%s %q: %v\n%s", name, args, err, lastLines(stderr, 5))
	}
	return string(out)
}

func lastLines(s string, n int) string {
	l := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(l) > n {
		l = l[len(l)-n:]
	}
	return strings.Join(l, "\n")
}

func TestLynx(t *testing.T) {
	peer.Require(t, "lynx")
	root := t.TempDir()
	write(t, root+"/hello.txt", "Hello through Lynx\n", 0o644)
	write(t, root+"/cgi-bin/find", "#!/bin/sh\nprintf '0Result for %s\\t/r\\th\\t70\\r\\n' \"$SEARCHREQUEST\"\n", 0o755)
	write(t, root+"/gophermap", "7Find things\t/cgi-bin/find\n0Hello\t/hello.txt\n", 0o644)
	gs := peer.Gophernicus(t, root)
	fs := startPyftpd(t, map[string]string{"pub/hello.txt": "anonymous hello via lynx\n"}, nil)
	gw, log := startGateway(t, gateway.Config{Policy: access.Policy{Allow: rules(t, gs.Addr, fs.Addr, "127.0.0.1")}})
	proxy := []string{"gopher_proxy=" + gw.URL + "/", "ftp_proxy=" + gw.URL + "/"}

	out := client(t, proxy, "lynx", "-dump", "-nolist", "gopher://"+gs.Addr+"/1/")
	if !strings.Contains(out, "Find things") || !strings.Contains(out, "Hello") {
		t.Errorf("lynx menu:\n%s", out)
	}
	out = client(t, proxy, "lynx", "-dump", "-listonly", "gopher://"+gs.Addr+"/1/")
	if !strings.Contains(out, gw.URL+"/gopher://"+gs.Addr+"/0/hello.txt") {
		t.Errorf("lynx menu links:\n%s", out)
	}
	out = client(t, proxy, "lynx", "-dump", "gopher://"+gs.Addr+"/0/hello.txt")
	if !strings.Contains(out, "Hello through Lynx") {
		t.Errorf("lynx text:\n%s", out)
	}
	// A search: Lynx turns %09 into "?", which the gateway reads back.
	out = client(t, proxy, "lynx", "-dump", "gopher://"+gs.Addr+"/7/cgi-bin/find%09gopher%20holes")
	if !strings.Contains(out, "Result for gopher holes") {
		t.Errorf("lynx search:\n%s", out)
	}
	out = client(t, proxy, "lynx", "-dump", "ftp://"+fs.Addr+"/pub/hello.txt")
	if !strings.Contains(out, "anonymous hello via lynx") {
		t.Errorf("lynx ftp:\n%s", out)
	}
	for _, want := range []string{" GET gopher://" + gs.Addr + "/1/ 200 ", " GET gopher://" + gs.Addr + "/7/cgi-bin/find%09gopher%20holes 200 ", " GET ftp://" + fs.Addr + "/pub/hello.txt 200 "} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("the log lacks %q:\n%s", want, log)
		}
	}
}

func TestW3m(t *testing.T) {
	peer.Require(t, "w3m")
	gs := peer.Pygopherd(t, gopherTree(t))
	fs := startPyftpd(t, map[string]string{"pub/hello.txt": "anonymous hello via w3m\n"}, nil)
	gw, _ := startGateway(t, gateway.Config{Policy: access.Policy{Allow: rules(t, gs.Addr, "127.0.0.1")}})
	out := client(t, nil, "w3m", "-dump", gw.URL+"/gopher://"+gs.Addr+"/1/")
	if !strings.Contains(out, "[dir] docs") || !strings.Contains(out, "[file] hello") {
		t.Errorf("w3m, path form:\n%s", out)
	}
	out = client(t, []string{"ftp_proxy=" + gw.URL + "/"}, "w3m", "-dump", "ftp://"+fs.Addr+"/pub/hello.txt")
	if !strings.Contains(out, "anonymous hello via w3m") {
		t.Errorf("w3m, ftp_proxy:\n%s", out)
	}
}

// TestCurlFTP: curl -x sends ftp://user:pass@host/... on the request
// line and an Authorization header (debian.md §7).
func TestCurlFTP(t *testing.T) {
	peer.Require(t, "curl")
	fs := startPyftpd(t, nil, map[string]string{"notes.txt": "notes for ftpuser\n"})
	gw, log := startGateway(t, gateway.Config{Policy: access.Policy{Allow: rules(t, "127.0.0.1")}})
	out := client(t, nil, "curl", "-s", "-x", gw.URL, "ftp://ftpuser:ftppass@"+fs.Addr+"/notes.txt")
	if out != "notes for ftpuser\n" {
		t.Errorf("curl -x, password in the URL: %q", out)
	}
	out = client(t, nil, "curl", "-s", "-x", gw.URL, "-u", "ftpuser:ftppass", "ftp://"+fs.Addr+"/notes.txt")
	if out != "notes for ftpuser\n" {
		t.Errorf("curl -x -u: %q", out)
	}
	out = client(t, nil, "curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "-x", gw.URL, "ftp://ftpuser@"+fs.Addr+"/notes.txt")
	if out != "401" {
		t.Errorf("curl -x without the password: %q, want 401", out)
	}
	if strings.Contains(log.String(), "ftppass") {
		t.Errorf("the password is in the log:\n%s", log)
	}
}

// chromium runs headless Chromium on u (debian.md §7's flags: every name
// but loopback unresolvable, background traffic off) and returns the
// DOM it built.
func chromium(t *testing.T, u string) string {
	t.Helper()
	profile := t.TempDir()
	return client(t, nil, "chromium", "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-default-apps",
		"--disable-extensions", "--user-data-dir="+profile,
		"--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost",
		"--dump-dom", u)
}

// TestChromium: a gopher menu through the path form, a link followed,
// a search submitted (the URL the form's GET makes), each read in the
// DOM Chromium built.
func TestChromium(t *testing.T) {
	peer.Require(t, "chromium")
	root := t.TempDir()
	write(t, root+"/hello.txt", "Hello through Chromium\n", 0o644)
	write(t, root+"/docs/inner.txt", "inner\n", 0o644)
	write(t, root+"/cgi-bin/find", "#!/bin/sh\nprintf '0Result for %s\\t/r\\th\\t70\\r\\n' \"$SEARCHREQUEST\"\n", 0o755)
	write(t, root+"/gophermap", "7Find things\t/cgi-bin/find\n1Documents\t/docs\n0Hello\t/hello.txt\n", 0o644)
	gs := peer.Gophernicus(t, root)
	gw, log := startGateway(t, gateway.Config{Policy: access.Policy{Allow: rules(t, gs.Addr)}})
	dom := chromium(t, gw.URL+"/gopher://"+gs.Addr+"/1/")
	docs := "/gopher://" + gs.Addr + "/1/docs"
	if !contains(hrefs(dom), docs) || !strings.Contains(dom, ">Documents</a>") {
		t.Fatalf("menu DOM: %q\n%s", hrefs(dom), dom)
	}
	dom = chromium(t, gw.URL+docs)
	if !contains(hrefs(dom), "/gopher://"+gs.Addr+"/0/docs/inner.txt") {
		t.Errorf("the link followed: %q\n%s", hrefs(dom), dom)
	}
	search := "/gopher://" + gs.Addr + "/7/cgi-bin/find"
	dom = chromium(t, gw.URL+search)
	if !strings.Contains(dom, `<form action="/-/search" method="get">`) {
		t.Fatalf("search form DOM:\n%s", dom)
	}
	dom = chromium(t, gw.URL+"/-/search?url="+url.QueryEscape("gopher://"+gs.Addr+"/7/cgi-bin/find")+"&q=chromium+words")
	if !strings.Contains(dom, "Result for chromium words") {
		t.Errorf("search results DOM:\n%s", dom)
	}
	// Chromium asked nothing of the gateway but the pages (and perhaps
	// its favicon, answered 404 and never forwarded).
	for _, l := range strings.Split(strings.TrimSpace(log.String()), "\n") {
		if !strings.Contains(l, " GET gopher://"+gs.Addr+"/") && !strings.Contains(l, " GET /favicon.ico 404 ") {
			t.Errorf("an unexpected request: %s", l)
		}
	}
}
