package text_test

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/text"
)

// FuzzScanner checks the scanner's promises on any input: it never
// panics; matches come in order, inside the input, with the right line
// and column; every URL and alternative parses; a bare URL is the text at
// its span; and the way the input is read (all at once, or one byte at a
// time through a small buffer) changes nothing.
func FuzzScanner(f *testing.F) {
	for _, s := range []string{
		"Yes, Jim, I found it under <URL:ftp://info.cern.ch/pub/www/doc;\n      type=d> but",
		"see http://example.com/foo. and (http://foo.com/path_(more)) news:comp.lang.go, mailto:a@b.c",
		"<http://a.com/some-\n  thing> <gopher://h/00/Information\n About Gopher>",
		"URL:x-y:z <URL:../g> http://[::1]:80/ file:///etc «http://a/b» http://bücher.example/",
		"<URL:a-\n-\n-\n-\nb:c>",
		"http://a.b/" + strings.Repeat("x", 70) + " <" + strings.Repeat("y", 70),
	} {
		f.Add([]byte(s))
	}
	base, err := locator.Parse("http://a/b/c/d;p?q")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		opts := &text.Options{MaxLen: 64, Base: base}
		var all []text.Match
		s := text.NewScanner(bytes.NewReader(data), opts)
		for s.Scan() {
			all = append(all, s.Match())
		}
		if s.Err() != nil {
			t.Fatal(s.Err())
		}
		var prevEnd int64
		for _, m := range all {
			if m.Offset < prevEnd || m.End <= m.Offset || m.End > int64(len(data)) {
				t.Fatalf("span [%d,%d) after %d in %d bytes", m.Offset, m.End, prevEnd, len(data))
			}
			prevEnd = m.End
			before := data[:m.Offset]
			line := bytes.Count(before, []byte{'\n'}) + 1
			col := int(m.Offset) - (bytes.LastIndexByte(before, '\n') + 1) + 1
			if m.Line != line || m.Column != col {
				t.Fatalf("offset %d: line %d col %d, want %d %d", m.Offset, m.Line, m.Column, line, col)
			}
			for _, u := range append([]string{m.URL}, m.Alternatives...) {
				if _, err := locator.Parse(u); err != nil {
					t.Fatalf("reported %q does not parse: %v", u, err)
				}
			}
			if !m.Wrapped && !m.Prefixed && string(data[m.Offset:m.End]) != m.URL {
				t.Fatalf("bare URL %q at %q", m.URL, data[m.Offset:m.End])
			}
			if m.Ambiguous != (len(m.Alternatives) > 0) {
				t.Fatalf("ambiguous %v with %d alternatives", m.Ambiguous, len(m.Alternatives))
			}
		}
		var one []text.Match
		s = text.NewScanner(iotest.OneByteReader(bytes.NewReader(data)), opts)
		for s.Scan() {
			one = append(one, s.Match())
		}
		if !reflect.DeepEqual(all, one) {
			t.Fatalf("one byte at a time:\n%+v\nall at once:\n%+v", one, all)
		}
		if len(data) < 64 {
			// FindAll has no base: the same matches but the partial forms.
			var abs []text.Match
			for _, m := range all {
				if m.Ref == "" {
					abs = append(abs, m)
				}
			}
			if fa := text.FindAll(string(data)); !reflect.DeepEqual(fa, abs) {
				t.Fatalf("FindAll:\n%+v\nScanner:\n%+v", fa, abs)
			}
		}
	})
}
