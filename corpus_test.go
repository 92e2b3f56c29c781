package locator

import (
	"reflect"
	"strings"
	"testing"

	"github.com/rfc1738/locator/internal/loctest/vectors"
)

// sharedDir is shared/ beside the repository, where the texts,
// conformance vectors and corpora live.
var sharedDir = vectors.Dir()

// corpusFiles are the real URL lists of shared/data/urls (ada-url's
// url-various-datasets; see its README.md).
var corpusFiles = []string{"isaacs_files.txt", "kasztp.txt", "node_files.txt", "userbait.txt"}

// loadCorpus returns every line of the named corpora; it skips the test
// when shared/ is not beside the repository and fails it when a corpus
// file is missing or unreadable there.
func loadCorpus(tb testing.TB) []string {
	tb.Helper()
	var lines []string
	for _, name := range corpusFiles {
		lines = append(lines, vectors.ReadLines(tb, "data", "urls", name)...)
	}
	return lines
}

// TestCorpusRoundTrip: for every URL of the corpora, Parse either fails
// with an Error-severity problem or yields a URL whose String reparses to
// the same components (the round-trip property).
func TestCorpusRoundTrip(t *testing.T) {
	lines := loadCorpus(t)
	var ok, rejected, conforming int
	for _, in := range lines {
		u, err := Parse(in)
		if err != nil {
			pe, isPE := err.(*ParseError)
			if !isPE || pe.Problem.Severity != Error {
				t.Fatalf("Parse(%q): error without an Error problem: %v", in, err)
			}
			rejected++
			continue
		}
		ok++
		if u.Conforms() {
			conforming++
		}
		s := u.String()
		v, err := Parse(s)
		if err != nil {
			t.Fatalf("Parse(%q).String() = %q does not reparse: %v", in, s, err)
		}
		if !u.SameComponents(v) {
			t.Fatalf("round trip changed components:\n in  %q\n out %q\n %+v\n %+v", in, s, *u, *v)
		}
		if v.String() != s {
			t.Fatalf("String not stable: %q then %q", s, v.String())
		}
	}
	t.Logf("%d URLs: %d parsed (%d conform to RFC 1738), %d rejected", len(lines), ok, conforming, rejected)
	// Pinned at the measured counts (core rules only: no scheme package
	// is registered in this package's tests); a change of one URL fails.
	if len(lines) != 109062 || ok != 108887 || conforming != 104302 || rejected != 175 {
		t.Errorf("counts changed: %d URLs, %d parsed, %d conform, %d rejected; measured 109062, 108887, 104302, 175",
			len(lines), ok, conforming, rejected)
	}
}

// TestOnePassAuthorityCorpus: over the corpora, Parse reads the same with
// and without the one-pass reading of a plain authority (plainAuthority),
// and takes it for most URLs (pinned: 102,471 of 109,062).
func TestOnePassAuthorityCorpus(t *testing.T) {
	lines := loadCorpus(t)
	fast := 0
	for _, s := range lines {
		u, err := Parse(s)
		fullAuthority = true
		v, verr := Parse(s)
		fullAuthority = false
		if !reflect.DeepEqual(err, verr) || (err == nil && !reflect.DeepEqual(*u, *v)) {
			t.Fatalf("%q: one pass %+v, %v; full %+v, %v", s, u, err, v, verr)
		}
		var p parser
		p.s, p.syn = s, &genericSyntax
		if i := strings.Index(s, "://"); i > 0 {
			if _, ok := p.plainAuthority(i+3, len(s)); ok {
				fast++
			}
		}
	}
	t.Logf("%d of %d by the one-pass reading", fast, len(lines))
	if len(lines) == 109062 && fast != 102471 {
		t.Errorf("%d URLs by the one-pass reading, measured 102,471", fast)
	}
}
