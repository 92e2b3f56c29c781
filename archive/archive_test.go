package archive

import (
	"bufio"
	"bytes"
	"cmp"
	"compress/gzip"
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/internal/peer"
)

func spool(t testing.TB, p []byte) *access.Spool {
	s := access.NewSpool()
	if _, err := s.Write(p); err != nil {
		panic(err)
	}
	return s
}

func mustParse(t testing.TB, s string) *locator.URL {
	u, err := locator.Parse(s)
	if err != nil {
		panic(err)
	}
	return u
}

// exchange makes a RecordExchange as a scheme client's Capture would.
func exchange(t testing.TB, url, protocol, req, resp string) *access.Record {
	return &access.Record{Kind: access.RecordExchange, URL: mustParse(t, url), Protocol: protocol,
		Addr: "127.0.0.1", Date: time.Now().UTC(), Request: spool(t, []byte(req)), Response: spool(t, []byte(resp))}
}

// tlsOf says r crossed TLS of version v: a second WARC-Protocol field.
func tlsOf(r *access.Record, v string) *access.Record {
	r.TLS = v
	return r
}

func resource(t testing.TB, url, protocol, mt, body, dialogue string) *access.Record {
	return &access.Record{Kind: access.RecordResource, URL: mustParse(t, url), Protocol: protocol,
		Addr: "127.0.0.1", Date: time.Now().UTC(), Response: spool(t, []byte(body)), MediaType: mt,
		Dialogue: []byte(dialogue)}
}

const (
	httpResp    = "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 12\r\n\r\n<p>hello</p>"
	httpChunked = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n"
	gopherMenu  = "0About\t/about\tlocalhost\t70\r\n1Sub\t/sub\tlocalhost\t70\r\n.\r\n"
	geminiResp  = "20 text/gemini\r\n# Hi\n=> /x link\n"
)

func sampleRecords(t testing.TB) []*access.Record {
	return []*access.Record{
		exchange(t, "http://Example.COM/a?b=2&a=1", "http/1.1", "GET /a?b=2&a=1 HTTP/1.1\r\nHost: example.com\r\n\r\n", httpResp),
		exchange(t, "http://example.com/chunked", "http/1.1", "GET /chunked HTTP/1.1\r\n\r\n", httpChunked),
		exchange(t, "gopher://localhost/1/", "gopher", "/\r\n", gopherMenu),
		tlsOf(exchange(t, "gemini://localhost/", "gemini", "gemini://localhost/\r\n", geminiResp), "tls/1.3"),
		resource(t, "ftp://user:secret@localhost/pub/f.txt", "ftp", "text/plain", "file octets\n",
			"< 220 ready\n> USER user\n> PASS ****\n< 230 ok\n> RETR pub/f.txt\n"),
		resource(t, "file:///tmp/x.bin", "file", "", "\x00\x01binary", ""),
	}
}

func writeAll(t testing.TB, path string, opt Options, recs []*access.Record) *Writer {
	t.Helper()
	w, err := Create(path, opt)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if err := w.Record(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return w
}

func readAll(t testing.TB, s *access.Spool) string {
	t.Helper()
	b, err := io.ReadAll(s.Reader())
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// checkWarcio has warcio read every file and find every record whole,
// with its digests right, at the offsets the CDXJ index says.
func checkWarcio(t *testing.T, files ...string) []peer.WarcioRecord {
	t.Helper()
	recs := peer.Warcio(t, "testdata/warccheck.cjs", files...)
	offsets := map[string]bool{}
	for _, r := range recs {
		if r.Error != "" {
			t.Errorf("warcio: %s: %s", r.File, r.Error)
			continue
		}
		if r.BlockOK == nil || !*r.BlockOK {
			t.Errorf("warcio: %s@%d %s %s: block digest wrong or missing", r.File, r.Offset, r.Type, r.URI)
		}
		if r.PayloadOK != nil && !*r.PayloadOK {
			t.Errorf("warcio: %s@%d %s %s: payload digest wrong", r.File, r.Offset, r.Type, r.URI)
		}
		if r.Length != r.ContentLength {
			t.Errorf("warcio: %s@%d: block of %d octets, Content-Length %d", r.File, r.Offset, r.Length, r.ContentLength)
		}
		offsets[fmt.Sprintf("%s@%d", r.File, r.Offset)] = true
	}
	for _, f := range files {
		if err := readIndex(f+".cdxj", func(e entry) {
			if !offsets[fmt.Sprintf("%s@%d", f, e.Offset)] {
				t.Errorf("the index names %s@%d (%s), where warcio read no record", f, e.Offset, e.URL)
			}
		}); err != nil {
			t.Error(err)
		}
	}
	return recs
}

func TestRoundTrip(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "t.warc.gz")
	recs := sampleRecords(t)
	writeAll(t, path, Options{Software: "locator test"}, recs)

	wr := checkWarcio(t, path)
	var types []string
	for _, r := range wr {
		types = append(types, r.Type)
	}
	// Each response before its request, as Heritrix writes them; the
	// gopher and gemini captures each followed by the page drawn from
	// it for players (derive.go).
	want := "warcinfo response request response request response request resource response request resource resource metadata resource"
	if got := strings.Join(types, " "); got != want {
		t.Errorf("records %s, want %s", got, want)
	}
	for _, r := range wr {
		if strings.Contains(r.URI, "secret") {
			t.Errorf("a password in WARC-Target-URI %s", r.URI)
		}
	}

	rd, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	for _, want := range recs {
		got, err := rd.Lookup(context.Background(), want.URL)
		if err != nil {
			t.Errorf("%s: %v", want.URL, err)
			continue
		}
		if got.Kind != want.Kind || got.Protocol != want.Protocol || got.TLS != want.TLS || got.Addr != want.Addr ||
			readAll(t, got.Response) != readAll(t, want.Response) || !got.Date.Equal(want.Date.Truncate(time.Microsecond)) {
			t.Errorf("%s: read back %v %q %q %q %v %q, want %v %q %q %q %v %q", want.URL, got.Kind, got.Protocol, got.TLS, got.Addr, got.Date,
				readAll(t, got.Response), want.Kind, want.Protocol, want.TLS, want.Addr, want.Date, readAll(t, want.Response))
		}
		if want.Kind == access.RecordResource && want.MediaType != "" && got.MediaType != want.MediaType {
			t.Errorf("%s: media type %q, want %q", want.URL, got.MediaType, want.MediaType)
		}
		// An exchange's request is the record after its response.
		switch {
		case want.Kind == access.RecordExchange && (got.Request == nil || readAll(t, got.Request) != readAll(t, want.Request)):
			t.Errorf("%s: request read back %v, want %q", want.URL, got.Request, readAll(t, want.Request))
		case want.Kind == access.RecordResource && got.Request != nil:
			t.Errorf("%s: a resource read back with a request %q", want.URL, readAll(t, got.Request))
		}
		got.Close()
	}
	// The key is pywb's SURT: the same capture by another spelling.
	if got, err := rd.Lookup(context.Background(), mustParse(t, "http://www.example.com:80/A?a=1&b=2")); err != nil {
		t.Errorf("SURT spelling: %v", err)
	} else {
		got.Close()
	}
	_, err = rd.Lookup(context.Background(), mustParse(t, "gopher://localhost/0/nothing"))
	var nae *access.NotArchivedError
	if !errors.As(err, &nae) {
		t.Errorf("an absent URL: %v, want a NotArchivedError", err)
	}
	if p := rd.Problems(); len(p) != 0 {
		t.Errorf("problems: %v", p)
	}
}

// TestKey: SURT keys for http(s) (TestKeyAsWarcio checks them against
// warcio.js), the normal form for every other scheme.
func TestKey(t *testing.T) {
	for _, c := range []struct{ url, key string }{
		{"http://www.Example.com/Path?b=1&a=2", "com,example)/path?a=2&b=1"},
		{"http://WWW3.Example.com/", "com,example)/"},
		{"http://www.com/", "com)/"},
		{"http://wwwx.com/", "com,wwwx)/"},
		{"https://example.com:8443/", "com,example:8443)/"},
		{"http://127.0.0.1:8080/x", "1,0,0,127:8080)/x"},
		{"http://0x7f.1/", "1,0,0,127)/"},
		{"http://127.0.0.1./", "1,0,0,127)/"},
		{"http://[::1]:8080/", "[::1]:8080)/"},
		{"http://example.com./", ",com,example)/"},
		{"http://example.com/?", "com,example)/"},
		{"http://example.com/a/./b/../c/..", "com,example)/a/"},
		{"http://example.com", "com,example)/"},
		{"gopher://127.0.0.1:7070/0/Case", "gopher://127.0.0.1:7070/0/Case"},
		{"gopher://[::1]/1/", "gopher://[::1]/1/"},
		{"gopher://LocalHost:70/1/Dir", "gopher://localhost/1/Dir"},
		{"ftp://u:p@h/x;type=i#f", "ftp://u@h/x;type=i"},
		{"news:comp.lang.go", "news:comp.lang.go"},
	} {
		if got := Key(mustParse(t, c.url)); got != c.key {
			t.Errorf("Key(%s) = %q, want %q", c.url, got, c.key)
		}
	}
	// The keys an index written before holds for IP hosts, still found.
	for u, k := range map[string]string{
		"http://127.0.0.1:8080/x": "127.0.0.1:8080)/x",
		"http://[::1]:8080/a":     "::1:8080)/a",
		"http://example.com/":     "",
	} {
		if got := oldIPKey(mustParse(t, u)); got != k {
			t.Errorf("oldIPKey(%s) = %q, want %q", u, got, k)
		}
	}
}

func TestDedup(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "d.warc.gz")
	second := strings.Replace(httpResp, "200 OK\r\n", "200 OK\r\nX-Second: 1\r\n", 1)
	w := writeAll(t, path, Options{Dedup: true}, []*access.Record{
		exchange(t, "http://example.com/a", "http/1.1", "GET /a HTTP/1.1\r\n\r\n", httpResp),
		exchange(t, "http://example.com/b", "http/1.1", "GET /b HTTP/1.1\r\n\r\n", second),
		exchange(t, "gopher://localhost/1/", "gopher", "/\r\n", gopherMenu),
		exchange(t, "gopher://localhost/1/again", "gopher", "/again\r\n", gopherMenu),
		resource(t, "ftp://localhost/a", "ftp", "", "same", "< 220\n"),
		resource(t, "ftp://localhost/b", "ftp", "", "same", "< 220\n"),
	})
	wr := checkWarcio(t, w.Files()...)
	revisits := 0
	for _, r := range wr {
		if r.Type == "revisit" {
			revisits++
		}
	}
	if revisits != 3 {
		t.Errorf("%d revisit records, want 3", revisits)
	}
	rd, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	for url, want := range map[string]string{"http://example.com/b": second, "gopher://localhost/1/again": gopherMenu, "ftp://localhost/b": "same"} {
		got, err := rd.Lookup(context.Background(), mustParse(t, url))
		if err != nil {
			t.Errorf("%s: %v", url, err)
			continue
		}
		if s := readAll(t, got.Response); s != want {
			t.Errorf("%s: revisit resolved to %q, want %q", url, s, want)
		}
		got.Close()
	}

	// Against an earlier capture's index: a second Writer writes only a
	// revisit, which a Reader of both files resolves.
	path2 := filepath.Join(dir, "d2.warc.gz")
	writeAll(t, path2, Options{Dedup: true, DedupIndex: []string{path + ".cdxj"}}, []*access.Record{
		exchange(t, "gopher://localhost/1/third", "gopher", "/third\r\n", gopherMenu),
	})
	wr = checkWarcio(t, path2)
	if n := len(wr); n != 3 || wr[1].Type != "revisit" || wr[2].Type != "request" {
		t.Errorf("second file: %+v, want warcinfo, revisit, request", wr)
	}
	rd2, err := Open(path, path2)
	if err != nil {
		t.Fatal(err)
	}
	defer rd2.Close()
	got, err := rd2.Lookup(context.Background(), mustParse(t, "gopher://localhost/1/third"))
	if err != nil {
		t.Fatal(err)
	}
	if s := readAll(t, got.Response); s != gopherMenu {
		t.Errorf("a revisit of an earlier file resolved to %q", s)
	}
	got.Close()
	only, err := Open(path2)
	if err != nil {
		t.Fatal(err)
	}
	defer only.Close()
	var re *RevisitError
	if _, err := only.Lookup(context.Background(), mustParse(t, "gopher://localhost/1/third")); !errors.As(err, &re) {
		t.Errorf("a revisit whose original is in no file read: %v, want a RevisitError", err)
	}
}

func TestRolloverNeverOverwrites(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "r.warc.gz")
	if err := os.WriteFile(path, []byte("an earlier crawl"), 0o644); err != nil {
		t.Fatal(err)
	}
	var recs []*access.Record
	for i := range 10 {
		recs = append(recs, exchange(t, fmt.Sprintf("gopher://localhost/0/%d", i), "gopher", "x\r\n", noise(2000)))
	}
	w := writeAll(t, path, Options{MaxSize: 1500}, recs)
	if b, _ := os.ReadFile(path); string(b) != "an earlier crawl" {
		t.Fatal("an existing file was overwritten")
	}
	files := w.Files()
	if len(files) != 10 || filepath.Base(files[0]) != "r-00001.warc.gz" || filepath.Base(files[9]) != "r-00010.warc.gz" {
		t.Errorf("files %v, want r-00001 ... r-00010", files)
	}
	checkWarcio(t, files...)
	rd, err := Open(files...)
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	for _, r := range recs {
		got, err := rd.Lookup(context.Background(), r.URL)
		if err != nil {
			t.Fatal(err)
		}
		got.Close()
	}
}

// TestIndexBehind: an index that lacks the lines of a file's last
// records (a writer killed before it wrote them) names the rest, and the
// reader reads the records past the last one it names from the file:
// every capture is found, and nothing is a problem.
func TestIndexBehind(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "i.warc.gz")
	recs := sampleRecords(t)
	writeAll(t, path, Options{}, recs)
	idx, err := os.ReadFile(path + ".cdxj")
	if err != nil {
		t.Fatal(err)
	}
	type line struct {
		off  int64
		text string
	}
	var lines []line
	for _, l := range strings.SplitAfter(string(idx), "\n") {
		if l == "" {
			continue
		}
		e, err := parseLine(strings.TrimSuffix(l, "\n"))
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, line{int64(e.Offset), l})
	}
	slices.SortFunc(lines, func(a, b line) int { return cmp.Compare(a.off, b.off) })
	for _, keep := range []int{0, 1, len(lines) / 2, len(lines) - 1} {
		var b strings.Builder
		for _, l := range lines[:keep] {
			b.WriteString(l.text)
		}
		if err := os.WriteFile(path+".cdxj", []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		rd, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range recs {
			got, err := rd.Lookup(context.Background(), r.URL)
			if err != nil {
				t.Errorf("index of %d lines: %s: %v", keep, r.URL, err)
				continue
			}
			got.Close()
		}
		if p := rd.Problems(); len(p) != 0 {
			t.Errorf("index of %d lines: problems %v", keep, p)
		}
		rd.Close()
	}
}

// TestBadFiles: a file cut short and a file with a corrupt record are
// read up to and past the bad record, which is a problem at its offset.
func TestBadFiles(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "b.warc.gz")
	recs := sampleRecords(t)
	writeAll(t, path, Options{}, recs)
	data, _ := os.ReadFile(path)
	var offs []int64
	readIndex(path+".cdxj", func(e entry) { offs = append(offs, int64(e.Offset)) })
	// The order of the sorted index is not the order of the file.
	sortInts(offs)

	// Cut in the middle of the last record, without and with the index.
	last := offs[len(offs)-1]
	cut := filepath.Join(dir, "cut.warc.gz")
	os.WriteFile(cut, data[:last+20], 0o644)
	for _, withIndex := range []bool{false, true} {
		os.Remove(cut + ".cdxj")
		if withIndex {
			idx, _ := os.ReadFile(path + ".cdxj")
			os.WriteFile(cut+".cdxj", idx, 0o644)
		}
		rd, err := Open(cut)
		if err != nil {
			t.Fatal(err)
		}
		probs := rd.Problems()
		var fe *FormatError
		if len(probs) != 1 || !errors.As(probs[0], &fe) || fe.Offset != last {
			t.Errorf("index %v: problems %v, want one at offset %d", withIndex, probs, last)
		}
		for _, r := range recs[:len(recs)-1] {
			got, err := rd.Lookup(context.Background(), r.URL)
			if err != nil {
				t.Errorf("index %v: %s: %v", withIndex, r.URL, err)
				continue
			}
			got.Close()
		}
		rd.Close()
	}
	wr := peer.Warcio(t, "testdata/warccheck.cjs", cut)
	whole := 0
	for _, r := range wr {
		if r.Error == "" && r.BlockOK != nil && *r.BlockOK && r.Offset < last {
			whole++
		}
	}
	if whole != 13 { // the 11 records of the captures, and the pages drawn from the gopher and gemini ones
		t.Errorf("warcio read %d whole records before the cut, want 13: %+v", whole, wr)
	}

	// A corrupt record in the middle: the gopher response (3rd capture).
	bad := filepath.Join(dir, "bad.warc.gz")
	b := bytes.Clone(data)
	at := offs[2]
	for i := at + 12; i < at+40; i++ {
		b[i] ^= 0x55
	}
	os.WriteFile(bad, b, 0o644)
	for _, withIndex := range []bool{false, true} {
		os.Remove(bad + ".cdxj")
		if withIndex {
			idx, _ := os.ReadFile(path + ".cdxj")
			os.WriteFile(bad+".cdxj", idx, 0o644)
		}
		rd, err := Open(bad)
		if err != nil {
			t.Fatal(err)
		}
		served := 0
		for _, r := range recs {
			got, err := rd.Lookup(context.Background(), r.URL)
			if err == nil {
				served++
				got.Close()
			}
		}
		if served != len(recs)-1 {
			t.Errorf("index %v: %d captures served, want %d", withIndex, served, len(recs)-1)
		}
		probs := rd.Problems()
		var fe *FormatError
		if len(probs) == 0 || !errors.As(probs[0], &fe) || fe.Offset != at {
			t.Errorf("index %v: problems %v, want the first at offset %d", withIndex, probs, at)
		}
		rd.Close()
	}
}

// noise returns n octets that do not compress.
func noise(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return base64.StdEncoding.EncodeToString(b)[:n]
}

func sortInts(a []int64) {
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && a[j] < a[j-1]; j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
}

// TestStoredMember: a member of stored blocks is one gzip member that
// compress/gzip reads back whole, however many 65535-octet blocks it
// takes.
func TestStoredMember(t *testing.T) {
	for _, n := range []int{0, 1, 1023, 0xffff, 0x10000, 3*0xffff + 7} {
		p := []byte(noise(n))
		m := appendStored([]byte("before"), p)
		if string(m[:6]) != "before" {
			t.Fatalf("%d octets: what was before is changed", n)
		}
		br := bytes.NewReader(m[6:])
		zr, err := gzip.NewReader(br)
		if err != nil {
			t.Fatalf("%d octets: %v", n, err)
		}
		zr.Multistream(false)
		got, err := io.ReadAll(zr)
		if err != nil || !bytes.Equal(got, p) {
			t.Fatalf("%d octets: read back %d octets, %v", n, len(got), err)
		}
		if br.Len() != 0 {
			t.Fatalf("%d octets: %d octets after the member", n, br.Len())
		}
	}
}

// TestLargeRecord: a record larger than a Writer compresses in memory
// (inMemory) is compressed straight into the file, between records
// compressed in memory, and reads back whole, at the offsets the index
// says.
func TestLargeRecord(t *testing.T) {
	path := filepath.Join(t.TempDir(), "large.warc.gz")
	big := "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: 5242880\r\n\r\n" + noise(5<<20)
	recs := []*access.Record{
		exchange(t, "http://example.com/before", "http/1.1", "GET /before HTTP/1.1\r\n\r\n", httpResp),
		exchange(t, "http://example.com/large", "http/1.1", "GET /large HTTP/1.1\r\n\r\n", big),
		exchange(t, "http://example.com/after", "http/1.1", "GET /after HTTP/1.1\r\n\r\n", httpResp),
	}
	writeAll(t, path, Options{}, recs)
	checkWarcio(t, path)
	rd, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	for _, want := range recs {
		got, err := rd.Lookup(context.Background(), want.URL)
		if err != nil {
			t.Fatalf("%s: %v", want.URL, err)
		}
		if readAll(t, got.Response) != readAll(t, want.Response) {
			t.Errorf("%s: read back other octets", want.URL)
		}
		got.Close()
	}
	if p := rd.Problems(); len(p) != 0 {
		t.Errorf("problems: %v", p)
	}
}

// TestConcurrentRecords: records written at once from many goroutines,
// compressed outside the Writer's lock while files roll over, are each
// whole in one file, and name that file's warcinfo record.
func TestConcurrentRecords(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.warc.gz")
	w, err := Create(path, Options{MaxSize: 30_000})
	if err != nil {
		t.Fatal(err)
	}
	const workers, each = 8, 40
	errs := make(chan error, workers)
	for g := range workers {
		go func() {
			for i := range each {
				r := exchange(t, fmt.Sprintf("gopher://localhost/0/%d-%d", g, i), "gopher", "x\r\n", noise(2000))
				err := w.Record(r)
				r.Close()
				if err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	for range workers {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	files := w.Files()
	if len(files) < 5 {
		t.Fatalf("%d files: too few rollovers to test", len(files))
	}
	checkWarcio(t, files...)
	records := 0
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		zr, err := gzip.NewReader(fh)
		if err != nil {
			t.Fatal(err)
		}
		br := bufio.NewReader(zr)
		info := ""
		for {
			h, n, err := readHead(br)
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			if _, err := io.CopyN(io.Discard, br, n); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			if info == "" {
				info = h.get("WARC-Record-ID")
				if h.get("WARC-Type") != "warcinfo" {
					t.Fatalf("%s begins with a %s record", f, h.get("WARC-Type"))
				}
				continue
			}
			if got := h.get("WARC-Warcinfo-ID"); got != info {
				t.Errorf("%s: a record names warcinfo %s, the file's is %s", f, got, info)
			}
			records++
		}
		fh.Close()
	}
	// A response, its request and the page drawn from it (derive.go).
	if records != 3*workers*each {
		t.Errorf("%d records in the files, want %d", records, 3*workers*each)
	}
	rd, err := Open(files...)
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	for g := range workers {
		for i := range each {
			got, err := rd.Lookup(context.Background(), mustParse(t, fmt.Sprintf("gopher://localhost/0/%d-%d", g, i)))
			if err != nil {
				t.Fatal(err)
			}
			got.Close()
		}
	}
}
