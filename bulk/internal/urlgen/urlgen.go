// Package urlgen writes a deterministic set of URL lines for the bulk
// job's tests and measurements: every RFC 1738 scheme and others, hosts
// that break the host rules, escapes that decode to octets that are not
// UTF-8, raw unsafe octets, partial forms (not URLs), blank and CR LF
// lines, and spellings of the same URL that normalize alike.
package urlgen

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
)

var (
	hosts = []string{"host.dom", "HOST.Dom", "ftp.example.com", "www.example.org", "10.0.0.1", "[::1]",
		"bad_host.example", "-edge.example", "a.1com", "x.example.", "gopher.tc.umn.edu", "news.example"}
	users = []string{"", "myname@", "joe:secret@", "@", "anon%40x@", "us%FCr@"}
	ports = []string{"", ":21", ":80", ":70", ":8080", ":25", ":99999"}
	paths = []string{"", "/", "/pub/file.txt", "/%2Fetc/motd;type=a", "/d/;type=d", "/~joe/a b", "/M%FCller.txt",
		"/a/../b/./c", "/q?x=1&y=2", "/x%zzy", "/%0D%0AQUIT", "/caf\xc3\xa9", "/raw\xfcoctet", "/A%2fb", "/{x}"}
	tails = []string{"", "", "", "#frag", "?s", "#%FC", "?a/b"}
	other = []string{"mailto:joe@example.com", "mailto:a%FCb@x", "news:comp.infosystems.www", "news:*",
		"news:123@host.example", "nntp://news.example/comp.lang/42", "telnet://user@host.dom:23/",
		"wais://wais.example:210/db?query", "wais://wais.example/db/TEXT/path", "file://localhost/etc/motd",
		"file:///C:/x", "prospero://pros.example/a/b;k=v", "x-foo:bar", "HTTP://UPPER.EXAMPLE/", "<URL:ftp://h/x>",
		"URL:http://h/", "../relative", "/just/a/path", "", "   ", "ht tp://x", "gopher://h/7search%09ftp",
		"gopher://h/1", "https://[fe80::1%25eth0]/", "http://h:0/"}
	schemes = []string{"ftp", "http", "gopher", "https", "FTP"}
)

// Line returns the next line of the set drawn from r.
func Line(r *rand.Rand) string {
	if r.IntN(6) == 0 {
		s := other[r.IntN(len(other))]
		if r.IntN(10) == 0 {
			s += "\r"
		}
		return s
	}
	sch := schemes[r.IntN(len(schemes))]
	u := users[r.IntN(len(users))]
	if sch == "http" || sch == "gopher" {
		u = ""
	}
	return fmt.Sprintf("%s://%s%s%s%s%s", sch, u, hosts[r.IntN(len(hosts))], ports[r.IntN(len(ports))],
		paths[r.IntN(len(paths))], tails[r.IntN(len(tails))])
}

// Write writes n lines of the set with the given seed to w.
func Write(w io.Writer, n int, seed uint64) error {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	bw := bufio.NewWriterSize(w, 256<<10)
	for range n {
		bw.WriteString(Line(r))
		bw.WriteByte('\n')
	}
	return bw.Flush()
}
