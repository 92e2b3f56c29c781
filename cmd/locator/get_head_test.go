package main

// locator get --head against real servers on loopback (package
// internal/peer): nginx (HEAD), pyftpdlib (SIZE and MDTM), UMN gopherd
// (Gopher+ attributes), INN (STAT) and this machine's files (stat):
// HTTP's answer as the server sent it, every other written in the one
// header form for every scheme.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rfc1738/locator/internal/peer"
)

// headTree is the tree the HTTP, FTP and Gopher servers serve: one file
// of 6 octets in a directory, both dated 1994-12-20 12:00 UTC.
func headTree(t *testing.T) string {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"pub/hello.txt": "hello\n"})
	stamp := time.Date(1994, 12, 20, 12, 0, 0, 0, time.UTC)
	if err := os.Chtimes(filepath.Join(root, "pub", "hello.txt"), stamp, stamp); err != nil {
		t.Fatal(err)
	}
	openUp(t, root)
	if err := os.Chtimes(filepath.Join(root, "pub"), stamp, stamp); err != nil {
		t.Fatal(err)
	}
	return root
}

const headDate = "Last-Modified: Tue, 20 Dec 1994 12:00:00 GMT\n"

// headCase is one URL given to get --head, with the exit status and
// standard output wanted, and a text standard error must hold ("" for
// an empty standard error).
type headCase struct {
	url    string
	code   int
	out    string
	stderr string
}

func checkHead(t *testing.T, cases []headCase, extra ...string) {
	t.Helper()
	for _, c := range cases {
		args := append(append([]string{"get"}, extra...), "--head", c.url)
		code, out, errs := runCLI(t, "", args...)
		if code != c.code || out != c.out || (c.stderr == "") != (errs == "") || !strings.Contains(errs, c.stderr) {
			t.Errorf("get --head %s: exit %d, stdout %q, stderr %q;\nwant exit %d, stdout %q, stderr with %q", c.url, code, out, errs, c.code, c.out, c.stderr)
		}
	}
}

// HTTP HEAD (RFC 9110 §9.3.2) to nginx: the server's own head, as
// curl's -I writes it (TestGetLikeCurl compares the two), each hop's
// of a redirection; 404 and 403 answered, exit 1.
func TestGetHeadHTTP(t *testing.T) {
	root := headTree(t)
	s := peer.Nginx(t, root, peer.NginxConfig{Connections: 64, Server: `    location /moved { return 301 /pub/hello.txt; }
    location /secret { deny all; }`})
	base := "http://" + s.Addr
	ok := "HTTP/1.1 200 OK\r\nServer: nginx/"
	for _, c := range []struct {
		url, status string
		heads, code int
		has, stderr string
	}{
		{base + "/pub/hello.txt", ok, 1, 0, "\r\nContent-Length: 6\r\nLast-Modified: Tue, 20 Dec 1994 12:00:00 GMT\r\n", ""},
		{base + "/moved", "HTTP/1.1 301 Moved Permanently\r\n", 2, 0, "\r\n\r\n" + ok, ""},
		{base + "/pub/missing", "HTTP/1.1 404 Not Found\r\n", 1, 1, "\r\nContent-Type: text/html\r\n", "the server says 404 Not Found"},
		{base + "/secret", "HTTP/1.1 403 Forbidden\r\n", 1, 1, "\r\nContent-Type: text/html\r\n", "the server says 403 Forbidden"},
	} {
		code, out, errs := runCLI(t, "", "get", "--head", c.url)
		if code != c.code || !strings.HasPrefix(out, c.status) || strings.Count(out, "\r\n\r\n") != c.heads || !strings.HasSuffix(out, "\r\n\r\n") ||
			!strings.Contains(out, c.has) || strings.Contains(out, "X-Locator") || (c.stderr == "") != (errs == "") || !strings.Contains(errs, c.stderr) {
			t.Errorf("get --head %s: exit %d, stdout %q, stderr %q", c.url, code, out, errs)
		}
	}
	// The body is not sent: --head writes only the header lines, and --head
	// with -o or --views is a usage error.
	for _, args := range [][]string{{"get", "--head", "-o", filepath.Join(t.TempDir(), "x"), base + "/"}, {"get", "--head", "--views", base + "/"}} {
		if code, _, errs := runCLI(t, "", args...); code != 2 || !strings.Contains(errs, "usage: locator get") {
			t.Errorf("%q: exit %d %q", args, code, errs)
		}
	}
}

// FTP SIZE and MDTM (RFC 3659 §4, §3) to pyftpdlib; a directory is a
// listing; a missing file the server's 550.
func TestGetHeadFTP(t *testing.T) {
	root := headTree(t)
	s := peer.Pyftpdlib(t, root, peer.PyftpdOptions{})
	base := "ftp://" + s.Addr
	checkHead(t, []headCase{
		{base + "/pub/hello.txt", 0, "X-Locator-State: ok\nX-Locator-Reply: 213 6\nContent-Length: 6\n" + headDate, ""},
		{base + "/pub/", 0, "X-Locator-State: ok\nX-Locator-Reply: 250\nX-Locator-Listing: yes\n", ""},
		{base + "/pub/missing.txt", 1, "X-Locator-State: gone\nX-Locator-Reply: 550 /pub/missing.txt is not retrievable.\n",
			`the server says 550 /pub/missing.txt is not retrievable. (to "SIZE missing.txt")`},
	})
}

// Gopher+ attributes (the +INFO and +ADMIN blocks, Gopher+ §2.5) from
// UMN gopherd.
func TestGetHeadGopher(t *testing.T) {
	root := headTree(t)
	s := peer.UMNGopherd(t, filepath.Join(root, "pub"))
	base := "gopher://" + s.Addr
	checkHead(t, []headCase{
		// The +VIEWS size "<0k>" is the server's estimate (Gopher+ §2.5).
		{base + "/00/hello.txt", 0, "X-Locator-State: ok\nX-Locator-Reply: +\nX-Locator-Approximate-Length: 0\n" + headDate, ""},
		{base + "/11/", 0, "X-Locator-State: ok\nX-Locator-Reply: +\nX-Locator-Approximate-Length: 0\n" + headDate + "X-Locator-Listing: yes\n", ""},
		{base + "/00/missing.txt", 1, "X-Locator-State: gone\nX-Locator-Reply: 1 Cannot find item information for that item (administrator: Test Admin <admin@example.invalid>)\n",
			"the server says 1 Cannot find item information for that item"},
	})
}

// NNTP STAT (RFC 3977 §6.2.4) to INN: an article there by its number
// and by its message-id, and one that is not.
func TestGetHeadNNTP(t *testing.T) {
	in := peer.INN(t)
	id := "<head." + in.Tag + "@locator.test>"
	in.Post(t, "From: tester@locator.test\r\nNewsgroups: "+in.Group+"\r\nSubject: Head\r\nMessage-ID: "+id+"\r\n\r\nBody.\r\n")
	base := "nntp://" + in.Addr + "/" + in.Group
	checkHead(t, []headCase{
		{base + "/1", 0, "X-Locator-State: ok\nX-Locator-Reply: 223 1 " + id + " status\n", ""},
		{base + "/2", 1, "X-Locator-State: gone\nX-Locator-Reply: 423 No such article number 2\n", `the server says 423 No such article number 2 (to "STAT 2")`},
	})
	t.Setenv("NNTPSERVER", in.Addr)
	checkHead(t, []headCase{
		{"news:" + strings.Trim(id, "<>"), 0, "X-Locator-State: ok\nX-Locator-Reply: 223 0 " + id + " status\n", ""},
		{"news:none." + in.Tag + "@locator.test", 1, "X-Locator-State: gone\nX-Locator-Reply: 430 No such article\n", "the server says 430 No such article"},
	})
}

// A file's stat (RFC 1738 §3.10): the same lines.
func TestGetHeadFile(t *testing.T) {
	root := headTree(t)
	checkHead(t, []headCase{
		{"file://" + root + "/pub/hello.txt", 0, "X-Locator-State: ok\nContent-Length: 6\n" + headDate, ""},
		{"file://" + root + "/pub/missing", 1, "X-Locator-State: gone\nX-Locator-Reply: ENOENT no such file or directory\n", "ENOENT"},
		{"file://elsewhere.example/x", 4, "", "refused by local policy"},
	})
}
