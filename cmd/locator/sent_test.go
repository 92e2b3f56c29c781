package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/rfc1738/locator/internal/peer"
)

// TestCrawlSentFile (issue 42, 1): a page on a web server links
// file:///etc/passwd and file:///etc/, sets <base href="file:///etc/">
// before a relative link, and a gopher menu holds an h item whose
// selector is URL:file:///etc/passwd. RFC 1738 §3.10: a file URL names
// a file of the machine that follows it, which a server may not choose
// (§6). With --scope any, --depth 2, --check and --warc, each such link
// is reported refused by policy, nothing of this machine's files is
// read, stat'ed or archived.
func TestCrawlSentFile(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"p.html":    "<!DOCTYPE html>\n<a href=\"file:///etc/passwd\">p</a>\n<a href=\"file:///etc/\">etc</a>\n<a href=\"b.html\">b</a>\n",
		"b.html":    "<!DOCTYPE html>\n<base href=\"file:///etc/\">\n<a href=\"hostname\">h</a>\n",
		"gophermap": "hPasswords\tURL:file:///etc/passwd\n0Text\t/t.txt\n",
		"t.txt":     "text\n",
	})
	n := peer.Nginx(t, root, peer.NginxConfig{Connections: 16, HTTP: "types { text/html html; }"})
	g := peer.Gophernicus(t, root)
	warc := filepath.Join(t.TempDir(), "a.warc.gz")
	code, out, errs := runCLI(t, "", "crawl", "--json", "--delay", "0", "--scope", "any", "--depth", "2", "--check", "--warc", warc,
		"http://"+n.Addr+"/p.html", "gopher://"+g.Addr+"/1/")
	if strings.Contains(out, "root:") || strings.Contains(out, `"url":"file:///etc/hostname","status":"ok"`) {
		t.Fatalf("a local file was read:\n%s", out)
	}
	for _, u := range []string{"file:///etc/passwd", "file:///etc/", "file:///etc/hostname"} {
		if !hasLine(out, `"url":"`+u+`"`, `"reason":"policy"`) {
			t.Errorf("the link to %s is not reported refused by policy (exit %d)\n%s\n%s", u, code, out, errs)
		}
		if hasLine(out, `"url":"`+u+`"`, `"status":"ok"`) || hasLine(out, `"url":"`+u+`"`, `"status":"gone"`) {
			t.Errorf("the link to %s was checked against this machine's disk\n%s", u, out)
		}
	}
	f, err := os.Open(warc)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	io.Copy(&b, zr)
	if bytes.Contains(b.Bytes(), []byte("WARC-Target-URI: file:")) || bytes.Contains(b.Bytes(), []byte("root:x:0:0")) {
		t.Errorf("the WARC holds a local file")
	}
	if !bytes.Contains(b.Bytes(), []byte("WARC-Target-URI: http://"+n.Addr+"/p.html")) {
		t.Errorf("the WARC lacks the page itself")
	}
}

// loopCanary counts the connections made to a listener on loopback.
func loopCanary(t *testing.T) (addr string, hits *atomic.Int32) {
	hits = new(atomic.Int32)
	addr = peer.Hostile(t, func(c net.Conn) {
		hits.Add(1)
		c.Close()
	})
	return addr, hits
}

// TestProtoRedir (issue 42, 2): a web server's redirection to
// gopher://127.0.0.1:PORT/1FLUSHALL would have get write "FLUSHALL" to
// the service there (a Redis). By default a redirection leads only into
// http, https, ftp and its own scheme (curl's list): get exits 4, probe
// says policy, and crawl reports the redirect refused; nothing reaches
// the port. --proto-redir names more.
func TestProtoRedir(t *testing.T) {
	addr, hits := loopCanary(t)
	n := peer.Nginx(t, t.TempDir(), peer.NginxConfig{
		Connections: 16,
		Server:      "    location /to { return 302 gopher://" + addr + "/1FLUSHALL; }",
	})
	u := "http://" + n.Addr + "/to"
	code, _, errs := runCLI(t, "", "get", u)
	if code != 4 || !strings.Contains(errs, "--proto-redir") {
		t.Errorf("get: exit %d, %q", code, errs)
	}
	code, out, _ := runCLI(t, "", "probe", "--json", u)
	if code != 1 || !strings.Contains(out, `"status":"policy"`) {
		t.Errorf("probe: exit %d, %s", code, out)
	}
	if h := hits.Load(); h != 0 {
		t.Fatalf("the port was reached %d times", h)
	}
	runCLI(t, "", "get", "--proto-redir", "http,gopher", u)
	if h := hits.Load(); h != 1 {
		t.Errorf("--proto-redir http,gopher: the port was reached %d times, want 1", h)
	}
}

// TestDenyHostAddress (issue 42, 3): a deny rule is matched against
// every address dialled, whatever spelling of the host led there
// (localhost, [::ffff:127.0.0.1], escapes), and may name a network; a
// rule that could never match is a usage error (exit 2). The same
// rules in get, probe and crawl.
func TestDenyHostAddress(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"hello.txt": "hello\n"})
	n := peer.Nginx(t, root, peer.NginxConfig{Connections: 16})
	_, port, _ := net.SplitHostPort(n.Addr)
	for _, rule := range []string{"127.0.0.1", "127.0.0.0/8", "::ffff:127.0.0.1"} {
		for _, host := range []string{"localhost", "[::ffff:127.0.0.1]", "%31%32%37.0.0.1", "ⓛocalhost", "127.0.0.1"} {
			u := "http://" + host + ":" + port + "/hello.txt"
			if code, out, errs := runCLI(t, "", "get", "--deny-host", rule, u); code != 4 || out != "" {
				t.Errorf("get --deny-host %s %s: exit %d %q %q", rule, u, code, out, errs)
			}
		}
		u := "http://localhost:" + port + "/hello.txt"
		if code, out, _ := runCLI(t, "", "probe", "--json", "--deny-host", rule, u); code != 1 || !strings.Contains(out, `"status":"policy"`) {
			t.Errorf("probe --deny-host %s: exit %d %s", rule, code, out)
		}
		if code, out, _ := runCLI(t, "", "crawl", "--json", "--delay", "0", "--deny-host", rule, u); !strings.Contains(out, "denied by the rule") {
			t.Errorf("crawl --deny-host %s: exit %d %s", rule, code, out)
		}
	}
	// The spellings RFC 1738 §2.2 allows reach the resolver decoded.
	for _, host := range []string{"%31%32%37.0.0.1", "ⓛocalhost", "LOCALHOST"} {
		if code, out, errs := runCLI(t, "", "get", "http://"+host+":"+port+"/hello.txt"); code != 0 || out != "hello\n" {
			t.Errorf("get %s: exit %d %q %q", host, code, out, errs)
		}
	}
	for _, rule := range []string{"2130706433", "0x7f.1", "h:0", "fe80::1%eth0", "10.0.0.0/33", ""} {
		if code, _, errs := runCLI(t, "", "get", "--deny-host", rule, "http://"+n.Addr+"/hello.txt"); code != 2 || !strings.Contains(errs, "rule") {
			t.Errorf("get --deny-host %q: exit %d %q, want a usage error", rule, code, errs)
		}
	}
}
