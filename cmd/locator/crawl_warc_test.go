package main

import (
	"bufio"
	"compress/gzip"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// warcResponses returns the target URI of each response record of the
// WARC file name (gzip members, read as one stream), in order.
func warcResponses(t *testing.T, name string) []string {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	sc := bufio.NewScanner(zr)
	sc.Buffer(nil, 1<<20)
	typ := ""
	for sc.Scan() {
		l := strings.TrimRight(sc.Text(), "\r")
		switch {
		case l == "WARC/1.1" || l == "WARC/1.0":
			typ = ""
		case strings.HasPrefix(l, "WARC-Type: "):
			typ = strings.TrimPrefix(l, "WARC-Type: ")
		case strings.HasPrefix(l, "WARC-Target-URI: ") && typ == "response":
			out = append(out, strings.Trim(strings.TrimPrefix(l, "WARC-Target-URI: "), "<>"))
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return out
}

// pagesFetched returns the URLs of the pages a --json crawl fetched (not
// skipped), and the robots.txt of each service it fetched from
// (robots: service → its robots.txt URL).
func pagesFetched(t *testing.T, out string, robots map[string]string) []string {
	t.Helper()
	var want []string
	asked := map[string]bool{}
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if strings.Contains(l, `"event":"page"`) && !strings.Contains(l, `"status":"skipped"`) {
			u := l[strings.Index(l, `"url":"`)+7:]
			u = u[:strings.IndexByte(u, '"')]
			want = append(want, u)
			for svc, r := range robots {
				if strings.HasPrefix(u, svc) && !asked[r] {
					asked[r] = true
					want = append(want, r)
				}
			}
		}
	}
	sort.Strings(want)
	return want
}

// TestCrawlWARC: a crawl with --warc writes a WARC file holding one
// response record for each page it fetched, from nginx and from
// Gophernicus, and for each robots.txt it read; a resumed crawl writes a new file beside it, which holds the
// pages of its own run.
func TestCrawlWARC(t *testing.T) {
	s := startCrawlSite(t, false)
	seed := "http://" + s.http + "/"
	robots := map[string]string{seed: seed + "robots.txt", "gopher://" + s.gopher + "/": "gopher://" + s.gopher + "/0robots.txt"}
	dir := t.TempDir()
	warc := filepath.Join(dir, "crawl.warc.gz")
	code, out, errs := runCLI(t, "", "crawl", "--delay", "0", "--depth", "0", "--json", "--warc", warc, seed)
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	got := warcResponses(t, warc)
	sort.Strings(got)
	want := pagesFetched(t, out, robots)
	// The two robots.txt, the index, the 50 pages, the image, the
	// gopher menu and its file.
	if len(want) != 56 {
		t.Fatalf("%d pages fetched", len(want))
	}
	diffLines(t, "responses", got, want)
	// A resumed crawl: the first run's file is kept, the second run's
	// is the next name.
	state := filepath.Join(dir, "state")
	warc2 := filepath.Join(dir, "resumed.warc.gz")
	code, out1, errs := runCLI(t, "", "crawl", "--delay", "0", "--depth", "0", "--json", "--state", state, "--max-urls", "10", "--warc", warc2, seed)
	if code != exitOK {
		t.Fatalf("first run: exit %d\n%s", code, errs)
	}
	code, out2, errs := runCLI(t, "", "crawl", "--delay", "0", "--depth", "0", "--json", "--state", state, "--resume", "--warc", warc2)
	if code != exitOK {
		t.Fatalf("resume: exit %d\n%s", code, errs)
	}
	first, second := warcResponses(t, warc2), warcResponses(t, filepath.Join(dir, "resumed-00001.warc.gz"))
	sort.Strings(first)
	sort.Strings(second)
	want1, want2 := pagesFetched(t, out1, robots), pagesFetched(t, out2, robots)
	diffLines(t, "first run's responses", first, want1)
	diffLines(t, "second run's responses", second, want2)
	// Each page in one of the two files; a robots.txt in each file
	// whose run asked its server.
	all := map[string]bool{}
	for _, u := range append(append([]string{}, first...), second...) {
		all[u] = true
	}
	if len(all) != len(want) || len(first)+len(second) > len(want)+2 {
		t.Errorf("%d and %d responses, %d URLs, want %d", len(first), len(second), len(all), len(want))
	}
}

// diffLines reports the lines of got and want (both sorted) that differ.
func diffLines(t *testing.T, what string, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("%s: %d, want %d:\n  %s\nwant:\n  %s", what, len(got), len(want), strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}
