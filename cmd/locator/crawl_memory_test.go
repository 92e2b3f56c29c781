package main

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rfc1738/locator/internal/loctest"
	"github.com/rfc1738/locator/internal/peer"
)

// lineCounter counts the lines written to it, and keeps the first.
type lineCounter struct {
	lines int
	first []byte
}

func (c *lineCounter) Write(p []byte) (int, error) {
	c.lines += bytes.Count(p, []byte{'\n'})
	if len(c.first) < 4096 {
		c.first = append(c.first, p[:min(len(p), 4096)]...)
	}
	return len(p), nil
}

// TestCrawlReportMemory: a crawl with --check of a site whose pages hold
// 200,000 broken links in all (each page 2,000 links to one page of
// another host, which is not there) reports each of them, in the summary
// and in --junit's file, and the heap in use grows by less than 48 MB:
// the report waits on disk, not in memory (held in memory, the report
// took 540 MB).
func TestCrawlReportMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("200,000 broken links")
	}
	const pages, perPage = 100, 2000
	root := t.TempDir()
	n := peer.Nginx(t, root, peer.NginxConfig{HTTP: "types { text/html html; }", Connections: 16})
	port := strings.Split(n.Addr, ":")[1]
	files := map[string]string{}
	for i := 0; i < pages; i++ {
		var b strings.Builder
		fmt.Fprintf(&b, "<a href=\"p%d.html\">next</a>\n", (i+1)%pages)
		for j := 0; j < perPage; j++ {
			fmt.Fprintf(&b, "<a href=\"http://localhost:%s/gone.html\">%d</a>\n", port, j)
		}
		files[fmt.Sprintf("p%d.html", i)] = b.String()
	}
	writeTree(t, root, files)
	junit := filepath.Join(t.TempDir(), "crawl.xml")

	grown := loctest.WatchHeap()
	var out lineCounter
	var errb bytes.Buffer
	code := run([]string{"crawl", "--delay", "0", "--depth", "0", "--check", "--junit", junit, "http://" + n.Addr + "/p0.html"},
		&env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb})
	growth := float64(grown()) / (1 << 20)
	t.Logf("%d broken links: heap in use grew by at most %.1f MB; %s", pages*perPage, growth, strings.TrimSpace(errb.String()))
	if code != exitNegative {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	// One target (issue 46: "a missing page linked 1,450 times prints
	// 1,450 lines"): its line, the first summaryPlaces places, the count
	// of the rest.
	if out.lines != 1+summaryPlaces+1 || !strings.Contains(errb.String(), fmt.Sprintf(": %d broken links on %d pages", pages*perPage, pages)) {
		t.Errorf("%d lines of summary:\n%.500s", out.lines, out.first)
	}
	want := fmt.Sprintf("http://localhost:%s/gone.html: gone (the server says 404 Not Found (to \"HEAD /gone.html\")): %d links\n  http://%s/p0.html <a href> line 2 column 10\n",
		port, pages*perPage, n.Addr)
	more := fmt.Sprintf("  and %d more (--json lists every link)\n", pages*perPage-summaryPlaces)
	if !strings.HasPrefix(string(out.first), want) || !strings.HasSuffix(string(out.first), more) {
		t.Errorf("summary begins:\n%.300s\nwant:\n%s", out.first, want)
	}
	f, err := os.Open(junit)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	d := xml.NewDecoder(f)
	cases, suites := 0, 0
	for {
		tok, err := d.Token()
		if err != nil {
			break
		}
		if se, ok := tok.(xml.StartElement); ok {
			switch se.Name.Local {
			case "testcase":
				cases++
			case "testsuite":
				suites++
			}
		}
	}
	if cases != pages*perPage || suites != pages {
		t.Errorf("junit: %d testcases in %d testsuites", cases, suites)
	}
	if growth >= 48 {
		t.Errorf("heap grew by %.1f MB, want under 48", growth)
	}
}
