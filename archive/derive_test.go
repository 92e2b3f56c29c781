package archive

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rfc1738/locator/access"
)

type rawRec struct {
	h     header
	block []byte
}

// recordsOf reads every record of the WARC file path.
func recordsOf(t *testing.T, path string) []rawRec {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(zr)
	var out []rawRec
	for {
		h, n, err := readHead(br)
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		b := make([]byte, n)
		if _, err := io.ReadFull(br, b); err != nil {
			t.Fatal(err)
		}
		out = append(out, rawRec{h, b})
	}
}

// TestDerivedPages: beside a capture of a protocol other than HTTP the
// Writer writes the page a player shows (a 'resource' record of the
// capture's URI and date, WARC 1.1 §6.5), naming the capture
// (WARC-Concurrent-To, §5.7, and Locator-Derived-From); its links
// climb out of the page's own URL, one "%2e%2e/" per "/"; the capture's
// own record is untouched, and Lookup still gives it, by the index or
// by reading the file.
func TestDerivedPages(t *testing.T) {
	menu := "iWelcome\tfake\t(NULL)\t0\r\n" +
		"0About\t/about\tlocalhost\t70\r\n" +
		"1Elsewhere\t/pub\tother.example\t7070\r\n" +
		"hWeb\tURL:http://example.com/a\tlocalhost\t70\r\n" +
		"8Session\t\tbbs.example\t23\r\n" +
		".\r\n"
	recs := []*access.Record{
		exchange(t, "gopher://localhost/1/", "gopher", "/\r\n", menu),
		exchange(t, "gopher://localhost/0/about", "gopher", "/about\r\n", "About this hole.\r\n.\r\n"),
		exchange(t, "gemini://localhost/dir/page.gmi", "gemini", "gemini://localhost/dir/page.gmi\r\n",
			"20 text/gemini\r\n# Title\n=> gopher://localhost/1/ the menu\n* item\n"),
		exchange(t, "http://example.com/a", "http/1.1", "GET /a HTTP/1.1\r\n\r\n", httpResp),
		resource(t, "ftp://localhost/pub/f.txt", "ftp", "text/plain", "file octets\n", "< 220 ready\n"),
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "d.warc.gz")
	writeAll(t, path, Options{}, recs)
	all := recordsOf(t, path)
	var types []string
	for _, r := range all {
		types = append(types, r.h.get("WARC-Type"))
	}
	// The HTTP response and the FTP file are read by players as they
	// are: no page beside them.
	want := "warcinfo response request resource response request resource response request resource response request resource metadata"
	if got := strings.Join(types, " "); got != want {
		t.Fatalf("records %s, want %s", got, want)
	}
	byID := map[string]rawRec{}
	for _, r := range all {
		byID[r.h.get("WARC-Record-ID")] = r
	}
	pages := map[string]rawRec{}
	for _, r := range all {
		from := r.h.get(derivedFrom)
		if from == "" {
			continue
		}
		src, ok := byID[from]
		if !ok || src.h.get("WARC-Type") != "response" {
			t.Fatalf("%s names %s, not a response of the file", derivedFrom, from)
		}
		if r.h.get("WARC-Concurrent-To") != from {
			t.Errorf("WARC-Concurrent-To %q, want %q", r.h.get("WARC-Concurrent-To"), from)
		}
		for _, f := range []string{"WARC-Target-URI", "WARC-Date", "WARC-Warcinfo-ID"} {
			if r.h.get(f) != src.h.get(f) {
				t.Errorf("%s %q, the capture's %q", f, r.h.get(f), src.h.get(f))
			}
		}
		if r.h.get("WARC-Block-Digest") != digestOf(r.block) {
			t.Errorf("%s: block digest %s", r.h.get("WARC-Target-URI"), r.h.get("WARC-Block-Digest"))
		}
		pages[r.h.get("WARC-Target-URI")] = r
	}
	gm := pages["gopher://localhost/1/"]
	if ct := gm.h.get("Content-Type"); ct != "text/html; charset=utf-8" {
		t.Errorf("menu page Content-Type %q", ct)
	}
	html := string(gm.block)
	for _, s := range []string{
		// "gopher://localhost/1/" has 4 "/": 4 steps up from its directory.
		`<a href="./%2e%2e/%2e%2e/%2e%2e/%2e%2e/gopher://localhost/0/about">About</a>`,
		`<a href="./%2e%2e/%2e%2e/%2e%2e/%2e%2e/gopher://other.example:7070/1/pub">Elsewhere</a>`,
		`<a href="http://example.com/a">Web</a>`,
		`<a href="telnet://bbs.example/">Session</a>`,
		`<li class="info">Welcome</li>`,
	} {
		if !strings.Contains(html, s) {
			t.Errorf("menu page lacks %s:\n%s", s, html)
		}
	}
	if got := string(pages["gopher://localhost/0/about"].block); got != "About this hole.\r\n" {
		t.Errorf("text page %q, want the text without its end line", got)
	}
	gp := string(pages["gemini://localhost/dir/page.gmi"].block)
	// "gemini://localhost/dir/page.gmi": 4 "/".
	if !strings.Contains(gp, `<h1>Title</h1>`) || !strings.Contains(gp, `<a href="./%2e%2e/%2e%2e/%2e%2e/%2e%2e/gopher://localhost/1/">the menu</a>`) {
		t.Errorf("gemini page:\n%s", gp)
	}
	// The index names each page with its capture; Lookup passes over
	// them, by the index and by reading the file.
	idx, err := os.ReadFile(path + ".cdxj")
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(idx), `"derived":"\u003curn:uuid:`); n != 3 {
		t.Errorf("%d index lines of pages, want 3:\n%s", n, idx)
	}
	checkWarcio(t, path) // before the index is removed: it checks the index too
	for _, indexed := range []bool{true, false} {
		if !indexed {
			os.Remove(path + ".cdxj")
		}
		rd, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		for i, r := range recs[:3] {
			got, err := rd.Lookup(context.Background(), r.URL)
			if err != nil {
				t.Fatalf("index %v: %s: %v", indexed, r.URL, err)
			}
			b, _ := io.ReadAll(got.Response.Reader())
			want, _ := io.ReadAll(recs[i].Response.Reader())
			if got.Kind != access.RecordExchange || !bytes.Equal(b, want) {
				t.Errorf("index %v: %s: Lookup gave a %v record of %q, want the capture %q", indexed, r.URL, got.Kind, b, want)
			}
			got.Close()
		}
		rd.Close()
	}
}

// TestCompareLines: index lines sort by key and timestamp, and a page's
// line after its capture's even where its octets sort first (the same
// media type, and the capture's "status" after the page's "digest").
func TestCompareLines(t *testing.T) {
	capture := `gemini://h/a.png 20261207185728 {"url":"gemini://h/a.png","mime":"image/png","status":"20","digest":"sha1:B","length":"9","offset":"9","filename":"f"}`
	page := `gemini://h/a.png 20261207185728 {"url":"gemini://h/a.png","mime":"image/png","digest":"sha1:A","length":"9","offset":"99","filename":"f","derived":"<urn:uuid:x>"}`
	for _, c := range []struct {
		a, b string
		want int
	}{
		{capture, page, -1},
		{page, capture, 1},
		{capture, capture, 0},
		{`a 20261207185728 {"url":"z"}`, `b 20200101000000 {"url":"a"}`, -1},
		{`a 20261207185728 {"url":"z","derived":"1"}`, `a 20261207185729 {"url":"a"}`, -1},
		{`a 20261207185728 {"url":"a"}`, `a 20261207185728 {"url":"b"}`, -1},
	} {
		if got := compareLines([]byte(c.a), []byte(c.b)); got != c.want {
			t.Errorf("compareLines(%s, %s) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
	if bytes.Compare([]byte(capture), []byte(page)) != 1 {
		t.Fatal("the case is not the one meant: the capture's octets must sort after the page's")
	}
}

// FuzzDerive: whatever a server sent (a Gopher menu, a Gemini reply),
// the page drawn from it is bounded by deriveMax, and a text of the
// reply never reaches it as markup, nor a link as a script.
func FuzzDerive(f *testing.F) {
	f.Add("gopher", gopherMenu)
	f.Add("gopher", "iHello\tfake\t(NULL)\t0\r\n1<script>\t/x\"y\th\t70\r\nhURL\tURL:javascript:alert(1)\th\t70\r\n.\r\n")
	f.Add("gemini", geminiResp)
	f.Add("gemini", "20 text/gemini\r\n```<b>\n<script>\n```\n=> javascript:alert(1) x\n* <i>\n")
	f.Add("gemini", "20 image/png\r\n\x89PNG")
	f.Fuzz(func(t *testing.T, proto, resp string) {
		u := "gopher://h/1/x"
		if proto != "gopher" {
			proto, u = "gemini", "gemini://h/a/b"
		}
		r := exchange(t, u, proto, "x\r\n", resp)
		defer r.Close()
		o := derive(r, r.Request, r.Response, "<urn:uuid:1>", "2026-12-07T00:00:00.000000Z")
		if o == nil {
			return
		}
		page := []byte(o.b.(bytesBlock))
		if len(page) > deriveMax {
			t.Fatalf("a page of %d octets", len(page))
		}
		if ct := o.h.get("Content-Type"); strings.HasPrefix(ct, "text/html") {
			low := bytes.ToLower(page)
			if bytes.Contains(low, []byte("<script")) || bytes.Contains(low, []byte(`href="javascript:`)) {
				t.Fatalf("the page holds a script:\n%s", page)
			}
		}
	})
}

// BenchmarkDerive: the page of a Gopher menu of 50 items, what a
// recorded menu costs beyond its capture's records.
func BenchmarkDerive(b *testing.B) {
	var menu strings.Builder
	for i := range 50 {
		fmt.Fprintf(&menu, "0Item number %d of the hole\t/dir/item%d.txt\tgopher.example.org\t70\r\n", i, i)
	}
	menu.WriteString(".\r\n")
	r := exchange(b, "gopher://gopher.example.org/1/dir", "gopher", "/dir\r\n", menu.String())
	defer r.Close()
	b.ReportAllocs()
	cpu := cpuTime()
	n := 0
	for b.Loop() {
		if derive(r, r.Request, r.Response, "<urn:uuid:1>", "2026-12-07T00:00:00.000000Z") == nil {
			b.Fatal("no page")
		}
		n++
	}
	b.ReportMetric(float64(cpuTime()-cpu)/float64(n), "cpu-ns/op")
}
