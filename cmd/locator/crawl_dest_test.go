package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rfc1738/locator/internal/peer"
)

// TestCrawlDestinations: a page may not steer the crawl (or --check)
// into addresses of special networks the person did not name. The site
// is on 127.0.0.1 (a seed names it); its page links to 127.0.0.2, a
// loopback address no seed names, where nginx listens too: --check
// reports the link refused by policy, and nginx on 127.0.0.2 sees no
// request. With --allow-host 127.0.0.2 the link is checked (and found).
// A link to localhost, which resolves to the seed's address, is
// followed. A link to 0x7f.2, inet_aton's reading of 127.0.0.2, is
// refused even then (by access's policy, before any dialling): RFC 1738
// §3.1 has only dotted decimal, and a crawl does not guess which address
// a resolver would make of it.
func TestCrawlDestinations(t *testing.T) {
	root := t.TempDir()
	log := filepath.Join(t.TempDir(), "access.log")
	p2 := strconv.Itoa(peer.FreePort(t))
	n := peer.Nginx(t, root, peer.NginxConfig{
		Connections: 64,
		HTTP:        "types { text/html html; } log_format dest '$server_addr \"$request\" $status';",
		Server:      "listen 127.0.0.2:" + p2 + "; access_log " + log + " dest;",
	})
	port := strings.Split(n.Addr, ":")[1]
	other := "http://127.0.0.2:" + p2 + "/other.html"
	writeTree(t, root, map[string]string{
		"index.html": "<!DOCTYPE html>\n<a href=\"" + other + "\">other</a>\n<a href=\"http://localhost:" + port + "/local.html\">local</a>\n<a href=\"http://0x7f.2:" + p2 + "/hex.html\">hex</a>\n",
		"other.html": "<!DOCTYPE html>\nother\n",
		"local.html": "<!DOCTYPE html>\nlocal\n",
	})
	seed := "http://" + n.Addr + "/index.html"
	code, out, errs := runCLI(t, "", "crawl", "--json", "--delay", "0", "--scope", "any", "--check", seed)
	if code != 0 || !hasLine(out, `"url":"`+other+`"`, `"status":"policy"`, "loopback") {
		t.Errorf("exit %d: want the link to 127.0.0.2 refused by the crawl's destination policy\n%s\n%s", code, out, errs)
	}
	logged := waitLog(t, log, "\"GET /local.html HTTP/1.1\" 200")
	if strings.Contains(logged, "127.0.0.2 ") {
		t.Errorf("nginx on 127.0.0.2 was asked:\n%s", logged)
	}
	if !strings.Contains(logged, "\"GET /local.html HTTP/1.1\" 200") {
		t.Errorf("localhost (the seed's address) was not followed:\n%s", logged)
	}
	code, out, errs = runCLI(t, "", "crawl", "--json", "--delay", "0", "--scope", "any", "--allow-host", "127.0.0.1,localhost,127.0.0.2", seed)
	if code != 0 || hasLine(out, `"url":"`+other+`"`, `"status":"policy"`) || !strings.Contains(waitLog(t, log, "127.0.0.2 \"GET /other.html HTTP/1.1\" 200"), "127.0.0.2 \"GET /other.html HTTP/1.1\" 200") {
		t.Errorf("--allow-host 127.0.0.2: exit %d\n%s\n%s\n%s", code, out, errs, readFile(t, log))
	}
	if !hasLine(out, `"url":"http://0x7f.2:`+p2+`/hex.html"`, `"status":"policy"`) || strings.Contains(readFile(t, log), "hex.html") {
		t.Errorf("--allow-host 127.0.0.2: want the link to 0x7f.2 refused\n%s\n%s", out, readFile(t, log))
	}
}

// hasLine says whether a line of out holds each of parts.
func hasLine(out string, parts ...string) bool {
	for _, l := range strings.Split(out, "\n") {
		n := 0
		for _, p := range parts {
			if strings.Contains(l, p) {
				n++
			}
		}
		if n == len(parts) {
			return true
		}
	}
	return false
}

// waitLog returns nginx's access log once it holds want, or after 5 s:
// nginx writes a request's line after its last octet is sent, and a
// client that has read it may have ended before the line is written.
func waitLog(t *testing.T, name, want string) string {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		s := readFile(t, name)
		if strings.Contains(s, want) || time.Now().After(deadline) {
			return s
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func readFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
