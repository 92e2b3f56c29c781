package main

// Issue 46, items 1 and 2, as the command showed them against
// gophernicus: get and crawl read a text whose first octet is "3" and a
// text holding a lone "." line as the texts they are, and a crawl's
// verdict does not depend on --warc.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/rfc1738/locator/internal/peer"
)

// gophernicusTexts serves, with gophernicus, a Debian source/format file
// ("3.0 (native)") and a Perl script of about 260 KB whose format ends
// with a lone "." line past its first 151,000 octets (RFC 1436 §3.8: no
// server dot-stuffs). It returns the server's address and each file's
// selector with what gophernicus sends for it (the file, CR LF ended).
func gophernicusTexts(t *testing.T) (string, map[string]string) {
	t.Helper()
	var b strings.Builder
	b.WriteString("#!/usr/bin/perl\nuse strict;\n")
	for i := 0; b.Len() < 262_000; i++ {
		fmt.Fprintf(&b, "my @names_%d = map { \"name$_\" } 1 .. %d; # one line per name\n", i, i%40+1)
		if i == 2439 || i == 4000 {
			fmt.Fprintf(&b, "format REPORT_%d =\n@<<<<<<<<<<<<<<< @>>>>>>\n$name, $value\n.\n", i)
		}
	}
	b.WriteString("write;\n")
	script := b.String()
	if i := strings.Index(script, "\n.\n"); i < 151_000 || i > 200_000 {
		t.Fatalf("the script's first \".\" line is at %d", i)
	}
	files := map[string]string{"debian/source/format": "3.0 (native)\n", "report.pl": script}
	root := t.TempDir()
	writeTree(t, root, files)
	s := peer.Gophernicus(t, root)
	sent := map[string]string{}
	for p, c := range files {
		sent["/"+p] = strings.ReplaceAll(c, "\n", "\r\n")
	}
	return s.Addr, sent
}

// TestGetGophernicusText: get writes every octet gophernicus sends, live,
// while writing a WARC, and from that WARC; a directory gophernicus does
// not have is its type-3 error reply, exit 1 (RFC 1436 §3.8).
func TestGetGophernicusText(t *testing.T) {
	addr, sent := gophernicusTexts(t)
	dir := t.TempDir()
	for sel, want := range sent {
		u := "gopher://" + addr + "/0" + sel
		warc := filepath.Join(dir, strings.ReplaceAll(sel, "/", "_")+".warc.gz")
		for _, args := range [][]string{{"get", u}, {"get", "--warc", warc, u}, {"get", "--from-warc", warc, u}} {
			code, out, errs := runCLIBytes(t, args...)
			if code != exitOK || !bytes.Equal(out, []byte(want)) {
				t.Errorf("%q: exit %d, %d octets of %d\n%s", args, code, len(out), len(want), errs)
			}
		}
	}
	missing := "gopher://" + addr + "/1/nodir/"
	warc := filepath.Join(dir, "missing.warc.gz")
	for _, args := range [][]string{{"get", "--warc", warc, missing}, {"get", "--from-warc", warc, missing}} {
		if code, _, errs := runCLIBytes(t, args...); code != exitNegative || !strings.Contains(errs, "the server says 3 Error: File or directory not found!") {
			t.Errorf("%q: exit %d\n%s", args, code, errs)
		}
	}
}

// TestCrawlGophernicusTextWARC: a crawl of the menus and texts judges
// every page the same with and without --warc, and finds none broken.
func TestCrawlGophernicusTextWARC(t *testing.T) {
	addr, sent := gophernicusTexts(t)
	seed := "gopher://" + addr + "/1/"
	// read: the octets each page's body gave, by URL.
	verdicts := func(read map[string]float64, args ...string) ([]string, string) {
		t.Helper()
		code, out, errs := runCLI(t, "", append([]string{"crawl", "--delay", "0", "--check", "--json"}, append(args, seed)...)...)
		if code != exitOK {
			t.Errorf("%q: exit %d\n%s", args, code, errs)
		}
		var v []string
		for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
			var rec map[string]any
			if err := json.Unmarshal([]byte(l), &rec); err != nil {
				t.Fatalf("%v: %s", err, l)
			}
			switch rec["event"] {
			case "page":
				v = append(v, fmt.Sprint("page ", rec["url"], " ", rec["status"]))
				n, _ := rec["read"].(float64)
				read[fmt.Sprint(rec["url"])] = n
			case "broken":
				v = append(v, fmt.Sprint("broken ", rec["url"]))
			}
		}
		sort.Strings(v)
		return v, errs
	}
	plain, errs := verdicts(map[string]float64{})
	// With --warc the crawl reads each text whole to record it (without,
	// it reads no text's body: read is 0).
	read := map[string]float64{}
	withWARC, errs2 := verdicts(read, "--warc", filepath.Join(t.TempDir(), "crawl.warc.gz"))
	for sel, want := range sent {
		if u := "gopher://" + addr + "/0" + sel; read[u] != float64(len(want)) {
			t.Errorf("%s: %v octets read with --warc, %d sent", u, read[u], len(want))
		}
	}
	if strings.Join(plain, "\n") != strings.Join(withWARC, "\n") {
		t.Errorf("without --warc:\n%s\nwith --warc:\n%s", strings.Join(plain, "\n"), strings.Join(withWARC, "\n"))
	}
	// The top menu, debian/, debian/source/, the two texts.
	texts := 0
	for _, l := range plain {
		if strings.HasPrefix(l, "broken ") {
			t.Errorf("%s\n%s", l, errs)
		}
		for sel := range sent {
			if strings.HasPrefix(l, "page gopher://"+addr+"/0"+sel+" ") {
				texts++
			}
		}
	}
	if len(plain) != 5 || texts != 2 {
		t.Errorf("%d pages, %d of them the texts:\n%s\n%s\n%s", len(plain), texts, strings.Join(plain, "\n"), errs, errs2)
	}
}
