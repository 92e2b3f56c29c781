package wayback

import (
	"context"
	"errors"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestParseQuery: pywb's CDX server API parameters (its
// cdxserver-api reference: url and its wildcards, matchType, from, to
// padded, limit, sort, closest, output, fl, filter).
func TestParseQuery(t *testing.T) {
	for _, c := range []struct {
		q      string
		prefix string // the key range read
		match  MatchType
		from   string
		to     string
		limit  int
		check  func(*Query) bool
	}{
		{q: "url=example.com", prefix: "com,example)/ ", match: Exact},
		{q: "url=" + url.QueryEscape("http://www.Example.com/A?b=1&a=2"), prefix: "com,example)/a?a=2&b=1 ", match: Exact},
		{q: "url=example.com/path/*", prefix: "com,example)/path/", match: Prefix},
		{q: "url=example.com/path/&matchType=prefix", prefix: "com,example)/path/", match: Prefix},
		{q: "url=*.example.com", prefix: "com,example", match: Domain},
		{q: "url=http://*.example.com/", prefix: "com,example", match: Domain},
		{q: "url=example.com:8080/x&matchType=host", prefix: "com,example:8080)/", match: Host},
		{q: "url=sub.example.com:8080/x&matchType=domain", prefix: "com,example,sub", match: Domain},
		// Other schemes: the normalized URL, case kept in the path.
		{q: "url=gopher://Host.Example:70/0/Read.Me", prefix: "gopher://host.example/0/Read.Me ", match: Exact},
		{q: "url=gopher://host:7070/1/Dir/*", prefix: "gopher://host:7070/1/Dir/", match: Prefix},
		{q: "url=gopher://host:7070/1/Dir/&matchType=host", prefix: "gopher://host:7070/", match: Host},
		{q: "url=ftp://ftp.example.org/pub/&matchType=domain", prefix: "ftp://", match: Domain},
		{q: "url=news:comp.lang.go", prefix: "news:comp.lang.go ", match: Exact},
		{q: "url=example.com&from=2014&to=2014", prefix: "com,example)/ ", from: "20140000000000", to: "20149999999999"},
		{q: "url=example.com&limit=5", prefix: "com,example)/ ", limit: 5},
		{q: "url=example.com&limit=99999999999999999999999", prefix: "com,example)/ ", limit: MaxRows},
		{q: "url=example.com&sort=reverse", prefix: "com,example)/ ", check: func(q *Query) bool { return q.Reverse }},
		{q: "url=example.com&sort=closest&closest=2015", prefix: "com,example)/ ", check: func(q *Query) bool { return q.Closest == "20150000000000" }},
		{q: "url=example.com&output=json&fl=timestamp,url", prefix: "com,example)/ ", check: func(q *Query) bool {
			return q.Output == "json" && slices.Equal(q.Fields, []string{"timestamp", "url"})
		}},
		{q: "url=example.com&fields=mime", prefix: "com,example)/ ", check: func(q *Query) bool { return slices.Equal(q.Fields, []string{"mime"}) }},
		{q: "url=example.com&filter=!=status:200&filter=~mime:text/.*&filter=url:x", prefix: "com,example)/ ", check: func(q *Query) bool {
			f := q.Filters
			return len(f) == 3 && f[0].Negate && f[0].Mode == '=' && f[0].Field == "status" && f[0].Value == "200" &&
				!f[1].Negate && f[1].Mode == '~' && f[1].re != nil && f[2].Mode == 0 && f[2].Value == "x"
		}},
	} {
		v, err := url.ParseQuery(c.q)
		if err != nil {
			t.Fatal(err)
		}
		q, err := parseQuery(v)
		if err != nil {
			t.Errorf("%s: %v", c.q, err)
			continue
		}
		if c.from == "" {
			c.from = "00000000000000"
		}
		if c.to == "" {
			c.to = "99999999999999"
		}
		if c.limit == 0 {
			c.limit = MaxRows
		}
		if q.prefix != c.prefix || q.Match != c.match || q.From != c.from || q.To != c.to || q.Limit != c.limit {
			t.Errorf("%s: prefix %q match %d from %s to %s limit %d", c.q, q.prefix, q.Match, q.From, q.To, q.Limit)
		}
		if c.check != nil && !c.check(q) {
			t.Errorf("%s: %+v", c.q, q)
		}
	}
}

// TestParseQueryErrors: a parameter that cannot be used is a
// *QueryError naming it.
func TestParseQueryErrors(t *testing.T) {
	for _, c := range []struct{ q, param string }{
		{"", "url"},
		{"url=example.com&matchType=everything", "matchType"},
		{"url=news:comp.lang.go&matchType=host", "url"},
		{"url=example.com&from=2014-01", "from"},
		{"url=example.com&to=201401010000000", "to"},
		{"url=example.com&limit=0", "limit"},
		{"url=example.com&limit=-3", "limit"},
		{"url=example.com&limit=ten", "limit"},
		{"url=example.com&sort=random", "sort"},
		{"url=example.com&sort=closest", "closest"},
		{"url=example.com/*&sort=closest&closest=2014", "sort"},
		{"url=example.com&output=xml", "output"},
		{"url=example.com&fl=urlkey,size", "fl"},
		{"url=example.com&filter=status", "filter"},
		{"url=example.com&filter=size:1", "filter"},
		{"url=example.com&filter=~url:(", "filter"},
		{"url=example.com&filter=~url:" + url.QueryEscape("((((a{100}){100}){100}){100})"), "filter"},
		{"url=example.com&filter=url:" + strings.Repeat("a", maxFilterLen+1), "filter"},
		{"url=example.com" + strings.Repeat("&filter=url:a", maxFilters+1), "filter"},
		{"url=http://[bad", "url"},
	} {
		v, _ := url.ParseQuery(c.q)
		_, err := parseQuery(v)
		var qe *QueryError
		if !errors.As(err, &qe) || qe.Param != c.param {
			t.Errorf("%s: %v, want a *QueryError of %s", c.q, err, c.param)
		}
	}
}

const testIndex = `!meta 0 {"format": "cdxj-gzip-1.0"}
com,example)/ 20140101000000 {"url":"http://example.com/","mime":"text/html","status":"200","digest":"sha1:A","length":"10","offset":"0","filename":"a.warc.gz"}
com,example)/ 20150601000000 {"url":"http://example.com/","mime":"text/html","status":"200","digest":"sha1:B","length":"10","offset":"10","filename":"a.warc.gz"}
com,example)/ 20160101000000 {"url":"https://www.example.com/","mime":"text/html","status":"404","digest":"sha1:C","length":"10","offset":"20","filename":"b.warc.gz"}
com,example)/about 20150101000000 {"url":"http://example.com/about","mime":"text/plain","status":"200","digest":"sha1:D","length":12,"offset":30,"filename":"a.warc.gz"}
com,example,sub)/ 20150101000000 {"url":"http://sub.example.com/","mime":"text/html","status":"200","digest":"sha1:E","length":"10","offset":"40","filename":"a.warc.gz"}
com,example:8080)/ 20150101000000 {"url":"http://example.com:8080/","mime":"text/html","status":"200","digest":"sha1:F","length":"10","offset":"50","filename":"a.warc.gz"}
com,examplex)/ 20150101000000 {"url":"http://examplex.com/","mime":"text/html","status":"200","digest":"sha1:G","length":"10","offset":"60","filename":"a.warc.gz"}
gopher://gopher.example.com/0/ReadMe 20150101000000 {"url":"gopher://gopher.example.com/0/ReadMe","mime":"application/gopher","digest":"sha1:H","length":"10","offset":"70","filename":"a.warc.gz"}
gopher://gopher.example.com/0/readme 20150101000000 {"url":"gopher://gopher.example.com/0/readme","mime":"application/gopher","digest":"sha1:I","length":"10","offset":"80","filename":"a.warc.gz"}
gopher://other.org/1/ 20150101000000 {"url":"gopher://other.org/1/","mime":"application/gopher","digest":"sha1:J","length":"10","offset":"90","filename":"a.warc.gz"}
gopher://user@example.com:7070/1/ 20150101000000 {"url":"gopher://user@example.com:7070/1/","digest":"sha1:K","length":"10","offset":"100","filename":"a.warc.gz"}
`

// source is an index held in memory; its two halves are two sources,
// merged.
func testSources(t testing.TB) []Source {
	lines := strings.SplitAfter(testIndex, "\n")
	var a, b strings.Builder
	for i, l := range lines {
		if i%2 == 0 {
			a.WriteString(l)
		} else {
			b.WriteString(l)
		}
	}
	mk := func(name, s string) Source {
		return Source{Name: name, Open: func() (io.ReadCloser, error) { return io.NopCloser(strings.NewReader(s)), nil }}
	}
	return []Source{mk("a", a.String()), mk("b", b.String())}
}

func openTest(t *testing.T) *Index {
	ix, err := Open(testSources(t)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	return ix
}

// TestQueryRows: what each query selects, in its order.
func TestQueryRows(t *testing.T) {
	ix := openTest(t)
	if ix.Len() != 11 {
		t.Fatalf("%d lines, want 11", ix.Len())
	}
	for _, c := range []struct {
		q    string
		want string // digests, in order
	}{
		{"url=example.com", "ABC"},
		{"url=https://www.example.com/", "ABC"},
		{"url=example.com&sort=reverse", "CBA"},
		{"url=example.com&sort=reverse&limit=2", "CB"},
		{"url=example.com&sort=closest&closest=20150101", "BAC"},
		{"url=example.com&sort=closest&closest=2017", "CBA"},
		{"url=example.com&from=2015&to=2015", "B"},
		{"url=example.com/*", "ABCD"},
		{"url=example.com&matchType=host", "ABCD"},
		{"url=*.example.com", "ABCDEF"},
		{"url=sub.example.com&matchType=domain", "E"},
		{"url=example.com/*&filter=mime:plain", "D"},
		{"url=example.com/*&filter=!=status:200", "C"},
		{"url=example.com/*&filter=~url:https?://example", "ABD"},
		{"url=example.com/*&filter=!~url:http://", "C"},
		{"url=gopher://gopher.example.com/0/ReadMe", "H"},
		{"url=gopher://gopher.example.com/0/readme", "I"},
		{"url=gopher://gopher.example.com/0/Read*", "H"},
		{"url=gopher://gopher.example.com/&matchType=host", "HI"},
		{"url=gopher://example.com/&matchType=domain", "HIK"},
		{"url=gopher://other.org/&matchType=domain", "J"},
	} {
		v, _ := url.ParseQuery(c.q)
		q, err := parseQuery(v)
		if err != nil {
			t.Fatalf("%s: %v", c.q, err)
		}
		var got strings.Builder
		if err := ix.Query(context.Background(), q, func(r *Row) error {
			got.WriteString(strings.TrimPrefix(r.Digest, "sha1:"))
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if got.String() != c.want {
			t.Errorf("%s: %s, want %s", c.q, got.String(), c.want)
		}
	}
}

// TestWriteRows: pywb's output formats of one row.
func TestWriteRows(t *testing.T) {
	ix := openTest(t)
	for _, c := range []struct{ q, want string }{
		{"url=example.com/about", `com,example)/about 20150101000000 {"url":"http://example.com/about","mime":"text/plain","status":"200","digest":"sha1:D","length":12,"offset":30,"filename":"a.warc.gz"}` + "\n"},
		{"url=example.com/about&output=text", "com,example)/about 20150101000000 http://example.com/about text/plain 200 sha1:D 12 30 a.warc.gz\n"},
		{"url=example.com/about&output=text&fl=timestamp,status", "20150101000000 200\n"},
		{"url=example.com/about&output=json&fl=url,length", `{"url": "http://example.com/about", "length": "12"}` + "\n"},
		{"url=example.com/about&fl=urlkey,mime", `com,example)/about {"mime": "text/plain"}` + "\n"},
		{"url=example.com/about&output=link", `<http://gw/web/20150101000000/http://example.com/about>; rel="memento"; datetime="Thu, 01 Jan 2015 00:00:00 GMT"; collection="web"` + "\n"},
		{"url=gopher://user@example.com:7070/1/&output=text", "gopher://user@example.com:7070/1/ 20150101000000 gopher://user@example.com:7070/1/ - - sha1:K 10 100 a.warc.gz\n"},
	} {
		v, _ := url.ParseQuery(c.q)
		q, err := parseQuery(v)
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		if err := ix.WriteRows(context.Background(), &b, q, func(r *Row) string { return "http://gw/web/" + r.Timestamp + "/" + r.URL }, "web"); err != nil {
			t.Fatal(err)
		}
		if b.String() != c.want {
			t.Errorf("%s:\n%q\nwant\n%q", c.q, b.String(), c.want)
		}
	}
}

// TestOpenBadIndex: a line that is not CDXJ, or lines out of order, in
// a source without a fallback: an *IndexError naming the line.
func TestOpenBadIndex(t *testing.T) {
	for _, c := range []struct {
		text string
		line int
	}{
		{"com,a)/ 2014 {}\nno-timestamp\n", 2},
		{"com,a)/ 2014x {}\n", 1},
		{"com,a)/ 2014 not-json\n", 1},
		{"com,b)/ 2014 {}\ncom,a)/ 2014 {}\n", 2},
		{"com,a)/ 2014 {\"url\":\"" + strings.Repeat("x", maxLine) + "\"}\n", 1},
	} {
		_, err := Open(Source{Name: "x", Open: func() (io.ReadCloser, error) { return io.NopCloser(strings.NewReader(c.text)), nil }})
		var ie *IndexError
		if !errors.As(err, &ie) || ie.Line != c.line {
			t.Errorf("%.40q: %v, want an *IndexError at line %d", c.text, err, c.line)
		}
	}
}

// TestSearchAcrossBlocks: an index of many blocks (Index.samples, one
// read a search) finds every key's lines as a scan of them does, the
// keys absent and the prefixes too.
func TestSearchAcrossBlocks(t *testing.T) {
	var b strings.Builder
	want := map[string]int{}
	for k := 0; k < 300; k++ {
		key := "com,example)/k" + strings.Repeat("0", 4-len(itoa(k))) + itoa(k)
		if k%10 == 3 {
			continue // absent
		}
		for c := 0; c < k%7+1; c++ {
			b.WriteString(key + " 20" + itoa(10+c) + "0101000000 {\"url\":\"http://example.com/\",\"filename\":\"f\"}\n")
			want[key]++
		}
	}
	text := b.String()
	ix, err := Open(Source{Name: "x", Open: func() (io.ReadCloser, error) { return io.NopCloser(strings.NewReader(text)), nil }})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if ix.Len() < 10*blockLines || len(ix.samples) != (ix.Len()+blockLines-1)/blockLines {
		t.Fatalf("%d lines, %d samples", ix.Len(), len(ix.samples))
	}
	total := 0
	for k := 0; k < 300; k++ {
		key := "com,example)/k" + strings.Repeat("0", 4-len(itoa(k))) + itoa(k)
		lo, hi, err := ix.keyRange(key + " ")
		if err != nil || hi-lo != want[key] {
			t.Errorf("%s: [%d, %d), want %d lines (%v)", key, lo, hi, want[key], err)
		}
		if hi > lo {
			if l, _ := ix.line(lo); !strings.HasPrefix(string(l), key+" ") {
				t.Errorf("%s: line %d is %q", key, lo, l)
			}
			if lo != total {
				t.Errorf("%s begins at %d, want %d", key, lo, total)
			}
		}
		total += want[key]
	}
	for _, c := range []struct {
		prefix string
		n      int
	}{{"com,example)/k01", 0}, {"com,example)/k", total}, {"a", 0}, {"z", 0}, {"com,example)/k029", 0}} {
		if c.n == 0 && c.prefix == "com,example)/k01" {
			for k := 100; k < 200; k++ {
				c.n += want["com,example)/k0"+itoa(k)]
			}
		}
		if c.prefix == "com,example)/k029" {
			for k := 290; k < 300; k++ {
				c.n += want["com,example)/k0"+itoa(k)]
			}
		}
		lo, hi, err := ix.keyRange(c.prefix)
		if err != nil || hi-lo != c.n {
			t.Errorf("prefix %q: %d lines, want %d", c.prefix, hi-lo, c.n)
		}
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestFileSourceNotAnArchive: a file without an index of which no
// record reads is an error naming it, not an empty collection.
func TestFileSourceNotAnArchive(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.warc.gz")
	if err := os.WriteFile(path, []byte("not a WARC file\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Open(FileSource(path))
	if err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("%v, want an error naming %s", err, path)
	}
}

// TestClosestShortTimestamp: a short closest= or TIMESTAMP is the start
// of its period ("2016" is 2016-01-01), not a time that is none.
func TestClosestShortTimestamp(t *testing.T) {
	ix := openTest(t)
	for _, c := range []struct{ closest, want string }{{"2016", "CBA"}, {"201506", "BCA"}, {"2014", "ABC"}, {"20151231", "CBA"}} {
		v, _ := url.ParseQuery("url=example.com&sort=closest&closest=" + c.closest)
		q, err := parseQuery(v)
		if err != nil {
			t.Fatal(err)
		}
		var got strings.Builder
		ix.Query(context.Background(), q, func(r *Row) error { got.WriteString(strings.TrimPrefix(r.Digest, "sha1:")); return nil })
		if got.String() != c.want {
			t.Errorf("closest=%s: %s, want %s", c.closest, got.String(), c.want)
		}
	}
}
