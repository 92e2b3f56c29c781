package text_test

import (
	"bytes"
	"html"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/text"
)

// fuzzRun is what one pass of the Scanner over the fuzz input reports.
type fuzzRun struct {
	matches  []text.Match
	skipped  []text.LimitError
	partials []text.Partial
}

func fuzzScan(t *testing.T, data []byte, opts text.Options, oneByte bool) fuzzRun {
	t.Helper()
	var run fuzzRun
	opts.Skipped = func(e *text.LimitError) { run.skipped = append(run.skipped, *e) }
	opts.Partial = func(p text.Partial) { run.partials = append(run.partials, p) }
	r := bytes.NewReader(data)
	s := text.NewScanner(r, &opts)
	if oneByte {
		s = text.NewScanner(iotest.OneByteReader(r), &opts)
	}
	for s.Scan() {
		run.matches = append(run.matches, s.Match())
	}
	if s.Err() != nil {
		t.Fatal(s.Err())
	}
	return run
}

// position is the 1-based line and byte column of off in data, by a naive
// count.
func position(data []byte, off int64) (int, int) {
	before := data[:off]
	return bytes.Count(before, []byte{'\n'}) + 1, int(off) - (bytes.LastIndexByte(before, '\n') + 1) + 1
}

// FuzzScanner checks the scanner's promises on any input, with a 64-byte
// MaxLen so that the Skipped path (over-long candidates) is exercised:
//
//   - it never panics and never returns an error on a good reader;
//   - matches come in order, without overlap, inside the input, with the
//     line and column a naive count gives; so do the candidates passed
//     over (Skipped, each longer than MaxLen: its span is not a match)
//     and the partial forms reported (Partial);
//   - every URL and alternative parses; a bare URL is the text of its
//     span (HTML: the text with its character references decoded);
//     Ambiguous iff there are alternatives; a resolved partial form's
//     Ref has no ":" in its first segment (RFC 3986 §4.2);
//   - one byte at a time gives what all at once gives;
//   - FindAll gives what a Scanner with its options gives, and a Scanner
//     without a base reports a Partial where one with a base resolves it.
func FuzzScanner(f *testing.F) {
	for _, s := range []string{
		"Yes, Jim, I found it under <URL:ftp://info.cern.ch/pub/www/doc;\n      type=d> but",
		"see http://example.com/foo. and (http://foo.com/path_(more)) news:comp.lang.go, mailto:a@b.c",
		"<http://a.com/some-\n  thing> <gopher://h/00/Information\n About Gopher>",
		"URL:x-y:z <URL:../g> http://[::1]:80/ file:///etc «http://a/b» http://bücher.example/",
		"<URL:a-\n-\n-\n-\nb:c>",
		"http://a.b/" + strings.Repeat("x", 70) + " <" + strings.Repeat("y", 70),
		"<URL:http://a.b/" + strings.Repeat("x", 70) + "> <URL:" + strings.Repeat("../", 30) + ">",
		"> see <URL:ftp://host.dom/pub/some/\n> file.txt> ok\n>> <URL:http://a.b/c-\n>> d>",
		"JD> <URL:http://a.b/c\nJD> /d> | <URL:x:y\n| z>",
		"Fax:+1 555 9999 IM:johndoe tel:home tel:+1-816-555-1212 urn:ietf:rfc:1738 sip:a@b.example",
		`<a href="http://a.b/?x=1&amp;y=2">&lt;URL:ftp://a.b/c&gt;</a> &lt;http://a.b/&#100;&gt;`,
		// A quote prefix longer than the buffer on a wrapper's next
		// line: it ended the scan with an internal error.
		strings.Repeat("> ", 36839) + "<URL:http://a.b/c\n" + strings.Repeat("> ", 36839) + "d>\nhttp://after.example/",
	} {
		f.Add([]byte(s), false)
	}
	f.Add([]byte(`<p><a href="http://a.b/?x=1&amp;y=2">x</a> &lt;URL:ftp://a.b/c&gt; &lt;URL:../g&gt;`), true)
	base, err := locator.Parse("http://a/b/c/d;p?q")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte, isHTML bool) {
		opts := text.Options{MaxLen: 64, Base: base, HTML: isHTML}
		run := fuzzScan(t, data, opts, false)
		var prevEnd int64
		for _, m := range run.matches {
			if m.Offset < prevEnd || m.End <= m.Offset || m.End > int64(len(data)) {
				t.Fatalf("span [%d,%d) after %d in %d bytes", m.Offset, m.End, prevEnd, len(data))
			}
			prevEnd = m.End
			if line, col := position(data, m.Offset); m.Line != line || m.Column != col {
				t.Fatalf("offset %d: line %d col %d, want %d %d", m.Offset, m.Line, m.Column, line, col)
			}
			for _, u := range append([]string{m.URL}, m.Alternatives...) {
				if _, err := locator.Parse(u); err != nil {
					t.Fatalf("reported %q does not parse: %v", u, err)
				}
			}
			if span := string(data[m.Offset:m.End]); !m.Wrapped && !m.Prefixed {
				if isHTML {
					span = html.UnescapeString(span)
				}
				if span != m.URL {
					t.Fatalf("bare URL %q at %q", m.URL, data[m.Offset:m.End])
				}
			}
			if m.Ambiguous != (len(m.Alternatives) > 0) {
				t.Fatalf("ambiguous %v with %d alternatives", m.Ambiguous, len(m.Alternatives))
			}
			if m.Ref != "" {
				first, _, _ := strings.Cut(m.Ref, "/")
				first, _, _ = strings.Cut(first, "?")
				first, _, _ = strings.Cut(first, "#")
				if strings.Contains(first, ":") {
					t.Fatalf("partial form %q has a \":\" in its first segment (RFC 3986 §4.2)", m.Ref)
				}
			}
		}
		var prevSkip int64 = -1
		for _, e := range run.skipped {
			if e.Offset <= prevSkip || e.Offset >= int64(len(data)) || e.Limit != 64 {
				t.Fatalf("skipped %+v after %d in %d bytes", e, prevSkip, len(data))
			}
			prevSkip = e.Offset
			if line, col := position(data, e.Offset); e.Line != line || e.Column != col {
				t.Fatalf("skipped at offset %d: line %d col %d, want %d %d", e.Offset, e.Line, e.Column, line, col)
			}
			for _, m := range run.matches {
				if m.Offset == e.Offset {
					t.Fatalf("offset %d both skipped and matched", e.Offset)
				}
			}
			if e.Offset+int64(e.Limit) > int64(len(data)) {
				t.Fatalf("skipped at %d as longer than %d, but the input ends at %d", e.Offset, e.Limit, len(data))
			}
		}
		if len(run.partials) != 0 {
			t.Fatalf("a Partial reported with a base: %+v", run.partials)
		}

		if one := fuzzScan(t, data, opts, true); !reflect.DeepEqual(run, one) {
			t.Fatalf("one byte at a time:\n%+v\nall at once:\n%+v", one, run)
		}

		// FindAll: default options, no base. A partial form the based
		// Scanner resolved is a Partial there.
		opts = text.Options{HTML: isHTML}
		plain := fuzzScan(t, data, opts, false)
		if !isHTML {
			if fa := text.FindAll(string(data)); !reflect.DeepEqual(fa, plain.matches) {
				t.Fatalf("FindAll:\n%+v\nScanner:\n%+v", fa, plain.matches)
			}
		}
		for _, p := range plain.partials {
			if line, col := position(data, p.Offset); p.Line != line || p.Column != col || p.End > int64(len(data)) || p.End <= p.Offset {
				t.Fatalf("partial %+v: want line %d col %d", p, line, col)
			}
		}
		if len(data) < 64 {
			var refs, resolved []string
			for _, p := range plain.partials {
				refs = append(refs, p.Ref)
			}
			for _, m := range run.matches {
				if m.Ref != "" {
					resolved = append(resolved, m.Ref)
				}
			}
			// A partial form that does not resolve (an error from
			// locator.Resolve) is neither; every one that does is both.
			for _, r := range resolved {
				if !containsStr(refs, r) {
					t.Fatalf("resolved %q with a base, not reported without: %q", r, refs)
				}
			}
		}
	})
}

func containsStr(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}
