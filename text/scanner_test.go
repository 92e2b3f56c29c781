package text_test

import (
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/text"
)

// urls returns the URLs of ms, for compact tables.
func urls(ms []text.Match) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m.URL)
	}
	return out
}

func TestFindAll(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string
	}{
		// RFC 1738 Appendix: wrappers, white space removed, fragment inside.
		{"appendix example", "Yes, Jim, I found it under <URL:ftp://info.cern.ch/pub/www/doc;\n      type=d> but you can probably pick it up from <URL:ftp://ds.in\n      ternic.net/rfc>.  Note the warning in <URL:http://ds.internic.\n      net/instructions/overview.html#WARNING>.",
			[]string{"ftp://info.cern.ch/pub/www/doc;type=d", "ftp://ds.internic.net/rfc", "http://ds.internic.net/instructions/overview.html#WARNING"}},
		{"1993 draft wrapper", "I found it under <ftp://info.cern.ch/pub> but", []string{"ftp://info.cern.ch/pub"}},
		{"any scheme in a wrapper", "<x-acme:whatever/you?like> <URL:g:h>", []string{"x-acme:whatever/you?like", "g:h"}},
		{"wrapper, lower-case prefix and spaces", "< url: http://a.example/ >", []string{"http://a.example/"}},
		{"break after scheme", "<ftp:\n   //quake.think.com/pub/wais/doc/doc-ids.txt>", []string{"ftp://quake.think.com/pub/wais/doc/doc-ids.txt"}},
		{"CRLF breaks", "<URL:http://a.example/very/\r\n   long/path>", []string{"http://a.example/very/long/path"}},
		{"not a url", "<not a url> <b>bold</b> a <= b, c > d <!-- x --> <Note: this> <12:30>", nil},
		{"html attribute", `<a href="http://a.example/x">link</a>`, []string{"http://a.example/x"}},
		{"unclosed wrapper falls back", "see <http://a.example/x and more", []string{"http://a.example/x"}},
		{"blank line ends a wrapper", "<http://a.example/x\n\ny>", []string{"http://a.example/x"}},
		{"nested <", "<URL:<http://a.example/>>", []string{"http://a.example/"}},
		{"empty wrapper", "<URL:> <> <URL: >", nil},
		{"partial form without base", "<URL:../g> <URL:#frag>", nil},

		// Bare URLs.
		{"prose", "See http://example.com/foo. And (http://foo.com/path_(more)), ok?", []string{"http://example.com/foo", "http://foo.com/path_(more)"}},
		{"trailing punctuation", "what is http://foo.com/path?! go to ftp://a.example/b... or http://a.example/x;", []string{"http://foo.com/path", "ftp://a.example/b", "http://a.example/x"}},
		{"kept trailing", "http://a.example/p# http://a.example/p/ http://a.example/p- http://a.example/p=", []string{"http://a.example/p#", "http://a.example/p/", "http://a.example/p-", "http://a.example/p="}},
		{"brackets", "[http://a.example/x] {http://a.example/[y]} (see http://a.example/z)", []string{"http://a.example/x", "http://a.example/[y]", "http://a.example/z"}},
		{"quotes", `"http://a.example/x" 'http://a.example/y' http://a.example/it's`, []string{"http://a.example/x", "http://a.example/y", "http://a.example/it's"}},
		{"unsafe delimiters", "http://a.example/x|y http://a.example/x<y http://a.example/x`y http://a.example/x\\y http://a.example/x^y", []string{"http://a.example/x", "http://a.example/x", "http://a.example/x", "http://a.example/x", "http://a.example/x"}},
		{"not URLs", "note: 10:30 http:// http:// foo ://x foo: a:b hppt://example.com mailto: C://x", nil},
		{"host rules", "http://.a.com http://-a.com http://a.com_ http://a..com http://a.com:99999 http://a.com:8x", nil},
		{"ports and logins", "http://u:p@a.example:8080/x telnet://u@h.example:23/ http://[::1]:80/", []string{"http://u:p@a.example:8080/x", "telnet://u@h.example:23/", "http://[::1]:80/"}},
		{"upper case", "HTTP://A.EXAMPLE/X", []string{"HTTP://A.EXAMPLE/X"}},
		{"file", "file:///etc/motd file://vms.host.edu/disk$user/x file:notes.txt", []string{"file:///etc/motd", "file://vms.host.edu/disk$user/x"}},
		{"news group grammar", "read news:comp.infosystems.www, or news:alt.fan.go+tea. news:*", []string{"news:comp.infosystems.www", "news:alt.fan.go+tea", "news:*"}},
		{"news message-id", "article news:12345@news.example.com. Next", []string{"news:12345@news.example.com"}},
		{"news not a group", "news: today, news:1234 news:-x", nil},
		{"mailto needs @", "mailto:timbl@info.cern.ch, mailto:nobody", []string{"mailto:timbl@info.cern.ch"}},
		{"opaque known schemes", "call tel:+1-816-555-1212 or urn:ietf:rfc:1738.", []string{"tel:+1-816-555-1212", "urn:ietf:rfc:1738"}},
		{"ten schemes", "ftp://h.example/ gopher://h.example/00x nntp://h.example/g/1 telnet://h.example/ wais://h.example/db?x prospero://h.example/p file://h.example/f http://h.example/ https://h.example/",
			[]string{"ftp://h.example/", "gopher://h.example/00x", "nntp://h.example/g/1", "telnet://h.example/", "wais://h.example/db?x", "prospero://h.example/p", "file://h.example/f", "http://h.example/", "https://h.example/"}},
		{"URL: prefix", "URL:ftp://a.example/x and URL:x-acme:thing, but URL: http://b.example/", []string{"ftp://a.example/x", "x-acme:thing", "http://b.example/"}},
		{"glued scheme", "seehttp://a.example/x git+ssh://h.example/r", []string{"http://a.example/x", "git+ssh://h.example/r"}},
		{"non-ASCII", "http://bücher.example/straße。 “http://a.example/q” http://a.example/x\u00a0y ｜http://a.example/z｜", []string{"http://bücher.example/straße", "http://a.example/q", "http://a.example/x", "http://a.example/z"}},
		{"invalid UTF-8 ends", "http://a.example/x\xff\xfe", []string{"http://a.example/x"}},
		{"json", `{"url":"http://foo.com/bar","u2":"ftp://x.example/"}`, []string{"http://foo.com/bar", "ftp://x.example/"}},
		{"two in a row", "http://a.example/ http://b.example/\nhttp://c.example/", []string{"http://a.example/", "http://b.example/", "http://c.example/"}},
		{"URL inside a URL", "http://web.archive.org/web/2000/http://a.example/", []string{"http://web.archive.org/web/2000/http://a.example/"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := urls(text.FindAll(tt.in))
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("FindAll(%q)\n got %q\nwant %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestMatchFields(t *testing.T) {
	in := "line one\nsee <URL:http://a.example/x> and\n  http://b.example/y\tURL:news:comp.x\n<http://c.example/long-\n   path>"
	want := []text.Match{
		{URL: "http://a.example/x", Offset: 13, End: 37, Line: 2, Column: 5, Wrapped: true, Prefixed: true},
		{URL: "http://b.example/y", Offset: 44, End: 62, Line: 3, Column: 3},
		{URL: "news:comp.x", Offset: 63, End: 78, Line: 3, Column: 22, Prefixed: true},
		{URL: "http://c.example/long-path", Offset: 79, End: 111, Line: 4, Column: 1, Wrapped: true,
			Ambiguous: true, Alternatives: []string{"http://c.example/longpath"}},
	}
	got := text.FindAll(in)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got  %+v\nwant %+v", got, want)
	}
	for _, m := range got {
		raw := in[m.Offset:m.End]
		if !m.Wrapped && !strings.HasSuffix(raw, m.URL) {
			t.Errorf("span %q does not hold %q", raw, m.URL)
		}
	}
}

func TestAmbiguous(t *testing.T) {
	tests := []struct {
		in   string
		url  string
		alts []string
	}{
		// RFC 1738 Appendix: a line break after a hyphen keeps it, and the
		// hyphen "may or may not actually be part of the URL".
		{"<URL:http://www.ics.uci.edu/pub/ietf/uri-\n   archive/>", "http://www.ics.uci.edu/pub/ietf/uri-archive/",
			[]string{"http://www.ics.uci.edu/pub/ietf/uriarchive/"}},
		{"<URL:http://a.example/a-\n b-\n c>", "http://a.example/a-b-c",
			[]string{"http://a.example/ab-c", "http://a.example/a-bc", "http://a.example/abc"}},
		// A space away from a line break: dropped as the Appendix says,
		// kept (encoded) as the alternative.
		{"<ftp://quake.think.com/pub/wa is/doc/protspec.txt>", "ftp://quake.think.com/pub/wais/doc/protspec.txt",
			[]string{"ftp://quake.think.com/pub/wa%20is/doc/protspec.txt"}},
		// A hyphen in the host: the hyphen-less alternative parses too.
		{"<http://my-\n  host.example/>", "http://my-host.example/", []string{"http://myhost.example/"}},
		// A hyphen not before a break is no choice.
		{"<http://a.example/x-y\n/z>", "http://a.example/x-y/z", nil},
	}
	for _, tt := range tests {
		ms := text.FindAll(tt.in)
		if len(ms) != 1 {
			t.Errorf("%q: %d matches", tt.in, len(ms))
			continue
		}
		m := ms[0]
		if m.URL != tt.url || !reflect.DeepEqual(m.Alternatives, tt.alts) || m.Ambiguous != (len(tt.alts) > 0) {
			t.Errorf("%q:\n got %q %v %q\nwant %q %q", tt.in, m.URL, m.Ambiguous, m.Alternatives, tt.url, tt.alts)
		}
	}
}

func TestManyChoices(t *testing.T) {
	// 40 hyphen breaks: beyond maxChoices only the all-flipped reading.
	var b strings.Builder
	b.WriteString("<http://a.example/")
	for range 40 {
		b.WriteString("x-\n")
	}
	b.WriteString("y>")
	ms := text.FindAll(b.String())
	if len(ms) != 1 || len(ms[0].Alternatives) != 1 || ms[0].Alternatives[0] != "http://a.example/"+strings.Repeat("x", 40)+"y" {
		t.Fatalf("got %+v", ms)
	}
}

func TestBase(t *testing.T) {
	base, err := locator.Parse("http://a/b/c/d;p?q")
	if err != nil {
		t.Fatal(err)
	}
	in := "<URL:g> <URL:../g> <URL:#s> <g> <URL:http://x/y> </b> <URL:../../\n  g-\n  h>"
	s := text.NewScanner(strings.NewReader(in), &text.Options{Base: base})
	type res struct{ url, ref string }
	var got []res
	var alts [][]string
	for s.Scan() {
		got = append(got, res{s.Match().URL, s.Match().Ref})
		alts = append(alts, s.Match().Alternatives)
	}
	want := []res{{"http://a/b/c/g", "g"}, {"http://a/b/g", "../g"}, {"http://a/b/c/d;p?q#s", "#s"},
		{"http://x/y", ""}, {"http://a/g-h", "../../g-h"}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %q\nwant %q", got, want)
	}
	if a := alts[4]; len(a) != 1 || a[0] != "http://a/gh" {
		t.Errorf("alternatives %q", a)
	}
	// RFC 1808 rules by name.
	s = text.NewScanner(strings.NewReader("<URL:?y>"), &text.Options{Base: base, Resolution: locator.RFC1808})
	if !s.Scan() || s.Match().URL != "http://a/b/c/d;p?y" {
		t.Errorf("RFC 1808 ?y: %+v", s.Match())
	}
}

// TestChunking checks that the way the input arrives changes nothing:
// one byte at a time, with errors at the end, through the streaming
// buffer's compaction.
func TestChunking(t *testing.T) {
	var b strings.Builder
	for i := range 3000 {
		b.WriteString("text <URL:http://a.example/")
		b.WriteString(strings.Repeat("p", i%97))
		b.WriteString("-\n  q> and http://b.example/")
		b.WriteString(strings.Repeat("r", i%53))
		b.WriteString(". news:comp.x URL:ftp://c.example/ note: 10:30\n")
	}
	in := b.String()
	want := text.FindAll(in)
	if len(want) != 4*3000 {
		t.Fatalf("found %d, want %d", len(want), 4*3000)
	}
	for name, r := range map[string]io.Reader{
		"one byte":  iotest.OneByteReader(strings.NewReader(in)),
		"half":      iotest.HalfReader(strings.NewReader(in)),
		"data+EOF":  iotest.DataErrReader(strings.NewReader(in)),
		"plain":     strings.NewReader(in),
		"small max": strings.NewReader(in),
	} {
		opts := &text.Options{}
		if name == "small max" {
			opts.MaxLen = 300
		}
		s := text.NewScanner(r, opts)
		var got []text.Match
		for s.Scan() {
			got = append(got, s.Match())
		}
		if s.Err() != nil {
			t.Errorf("%s: %v", name, s.Err())
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %d matches differ from FindAll's %d", name, len(got), len(want))
		}
	}
}

func TestLimit(t *testing.T) {
	long := "http://a.example/" + strings.Repeat("x", 200)
	in := "a " + long + " b <URL:" + long + "> c http://ok.example/ <URL:http://ok2.example/>"
	var skipped []*text.LimitError
	s := text.NewScanner(strings.NewReader(in), &text.Options{MaxLen: 100, Skipped: func(e *text.LimitError) { skipped = append(skipped, e) }})
	var got []string
	for s.Scan() {
		got = append(got, s.Match().URL)
	}
	if want := []string{"http://ok.example/", "http://ok2.example/"}; !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	// The bare URL, the wrapper, then the URL inside the wrapper once the
	// wrapper is given up.
	if len(skipped) != 3 || skipped[0].Offset != 2 || skipped[1].Offset != int64(2+len(long)+3) || !skipped[1].Wrapped ||
		skipped[0].Limit != 100 || skipped[0].Line != 1 || skipped[0].Column != 3 {
		for _, e := range skipped {
			t.Log(e)
		}
		t.Fatalf("skipped %d", len(skipped))
	}
	if msg := skipped[0].Error(); !strings.Contains(msg, "offset 2") || !strings.Contains(msg, "100 bytes") {
		t.Errorf("message %q", msg)
	}
	// Exactly MaxLen is allowed.
	u := "http://a.example/" + strings.Repeat("y", 100-17)
	s = text.NewScanner(strings.NewReader(u+" "), &text.Options{MaxLen: 100})
	if !s.Scan() || s.Match().URL != u {
		t.Errorf("a URL of exactly MaxLen bytes was not found")
	}
}

// TestStream scans 64 MiB generated on the fly: the input is never held.
func TestStream(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	const line = "Mail from a friend: see <URL:http://a.example/path/to/a/file.html> or http://b.example/x?y=1.\n"
	const n = 64 << 20 / len(line)
	r := &repeatReader{s: line, n: n}
	s := text.NewScanner(r, nil)
	count := 0
	var last text.Match
	for s.Scan() {
		count++
		last = s.Match()
	}
	if s.Err() != nil || count != 2*n {
		t.Fatalf("count %d err %v", count, s.Err())
	}
	if last.Line != n || last.Offset != int64((n-1)*len(line)+strings.Index(line, "http://b")) {
		t.Errorf("last match %+v", last)
	}
}

type repeatReader struct {
	s   string
	n   int
	off int
}

func (r *repeatReader) Read(p []byte) (int, error) {
	if r.n == 0 {
		return 0, io.EOF
	}
	k := 0
	for k < len(p) && r.n > 0 {
		c := copy(p[k:], r.s[r.off:])
		k += c
		r.off += c
		if r.off == len(r.s) {
			r.off = 0
			r.n--
		}
	}
	return k, nil
}

func TestReadError(t *testing.T) {
	boom := errors.New("boom")
	r := io.MultiReader(strings.NewReader("http://a.example/ x "), iotest.ErrReader(boom))
	s := text.NewScanner(r, nil)
	n := 0
	for s.Scan() {
		n++
	}
	if n != 1 || !errors.Is(s.Err(), boom) {
		t.Errorf("n=%d err=%v", n, s.Err())
	}
}

// TestLongQuotePrefix: a wrapper continued in a quoted reply whose quote
// prefix (36,839 marks, 147 KB of text in two lines) is longer than the
// Scanner's buffer is a candidate longer than MaxLen: it is cut and
// reported to Skipped, and the scan goes on (RFC 1738 Appendix, a
// wrapper across quoted lines; the input's size must not end the
// stream). It ended the scan with "candidate outgrew the buffer", and
// every URL after it was lost.
func TestLongQuotePrefix(t *testing.T) {
	q := strings.Repeat("> ", 36839)
	in := "first http://before.example/a\n" +
		q + "<URL:http://wrapped.example/x\n" + q + "y/z>\n" +
		"after http://after.example/b and <URL:ftp://after2.example/c>\n"
	for name, r := range map[string]io.Reader{
		"plain":    strings.NewReader(in),
		"one byte": iotest.OneByteReader(strings.NewReader(in)),
	} {
		var skipped []*text.LimitError
		s := text.NewScanner(r, &text.Options{Skipped: func(e *text.LimitError) { skipped = append(skipped, e) }})
		var got []string
		for s.Scan() {
			got = append(got, s.Match().URL)
		}
		if s.Err() != nil {
			t.Errorf("%s: %v", name, s.Err())
		}
		// The wrapper given up, its text is read again as prose, where
		// "URL:" marks the URL up to the line break.
		want := []string{"http://before.example/a", "http://wrapped.example/x", "http://after.example/b", "ftp://after2.example/c"}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: got %q, want %q", name, got, want)
		}
		at := int64(len("first http://before.example/a\n") + len(q))
		if len(skipped) != 1 || !skipped[0].Wrapped || skipped[0].Offset != at || skipped[0].Line != 2 || skipped[0].Column != len(q)+1 {
			t.Errorf("%s: skipped %v, want the wrapper at offset %d", name, skipped, at)
		}
	}
}
