package locator_test

import (
	"net/url"
	"strings"
	"testing"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/internal/loctest"
)

// The public paths (Parse, a Parser, ParseBatch, Resolve) beside net/url
// on the same inputs, per corpus file of the test data's data/urls and over
// all of them:
//
//	go test -run '^$' -bench 'Paths' -benchmem .
//
// (bench/parse.sh runs them several times and prints the medians and the
// ratios.) One op is one pass over the file; ns/URL, allocs/URL and
// B/URL are per URL (per pair for Resolve).

var (
	sinkURL    *locator.URL
	sinkNetURL *url.URL
)

func BenchmarkPathsParse(b *testing.B)  { loctest.BenchParse(b) }
func BenchmarkPathsParser(b *testing.B) { loctest.BenchParser(b) }

func BenchmarkPathsParseBatch(b *testing.B) {
	loctest.EachCorpusFile(b, func(b *testing.B, lines []string) {
		loctest.PerURL(b, len(lines), func() {
			for i := 0; i < len(lines); i += 1024 {
				locator.ParseBatch(lines[i:min(i+1024, len(lines))])
			}
		})
	})
}

func BenchmarkPathsNetURLParse(b *testing.B) { loctest.BenchNetURLParse(b) }

// resolvePairs makes (base, reference) pairs from the URLs of lines that
// conform and have a host, of a scheme whose paths are hierarchical: each
// with the next of its scheme, written as a relative path, an absolute
// path, "../" and a name, a network path or a query, in turn; "all"
// holds RFC 3986 §5.4.1's references against its base too.
func resolvePairs(tb testing.TB, lines []string) (bases []*locator.URL, netBases []*url.URL, refs []string) {
	last := map[string]*locator.URL{}
	add := func(base *locator.URL, ref string) {
		nb, err := url.Parse(base.String())
		if err != nil {
			return
		}
		bases, netBases, refs = append(bases, base), append(netBases, nb), append(refs, ref)
	}
	for i, s := range lines {
		t, err := locator.Parse(s)
		if err != nil || !t.Conforms() || !t.HasAuthority() || (t.Host() == "" && t.Scheme() != "file") {
			continue
		}
		if syn, _ := locator.SchemeSyntax(t.Scheme()); !syn.Hierarchical {
			continue
		}
		base := last[t.Scheme()]
		last[t.Scheme()] = t
		if base == nil {
			continue
		}
		ref := pairRef(i, base, t)
		add(base, ref)
	}
	if len(lines) > 100000 {
		b, _ := locator.Parse("http://a/b/c/d;p?q")
		for _, r := range []string{"g", "./g", "g/", "/g", "//g", "?y", "g?y", "#s", "g#s", ";x", "g;x", ".", "./", "..", "../", "../g", "../..", "../../g", "../../../g", "/./g", "g/../h"} {
			add(b, r)
		}
	}
	return bases, netBases, refs
}

// pairRef is the i-th kind of reference from base to t: a relative path
// (Relative's shortest form), an absolute path, "../" and a name, a
// network path or a query.
func pairRef(i int, base, t *locator.URL) string {
	switch i % 5 {
	case 0:
		return locator.Relative(base, t, locator.RFC3986)
	case 1:
		return "/" + t.Path()
	case 2:
		return "../" + t.Path()[strings.LastIndexByte(t.Path(), '/')+1:]
	case 3:
		return "//" + t.Host() + "/" + t.Path()
	}
	return "?" + t.Search()
}

func BenchmarkPathsResolve(b *testing.B) {
	loctest.EachCorpusFile(b, func(b *testing.B, lines []string) {
		bases, _, refs := resolvePairs(b, lines)
		loctest.PerURL(b, len(refs), func() {
			for k, ref := range refs {
				sinkURL, _ = locator.Resolve(bases[k], ref, locator.RFC3986)
			}
		})
	})
}

// BenchmarkPathsNetURLResolve is net/url on the same pairs: url.Parse of
// the reference (net/url needs it parsed) and ResolveReference.
func BenchmarkPathsNetURLResolve(b *testing.B) {
	loctest.EachCorpusFile(b, func(b *testing.B, lines []string) {
		_, bases, refs := resolvePairs(b, lines)
		loctest.PerURL(b, len(refs), func() {
			for k, ref := range refs {
				if r, err := url.Parse(ref); err == nil {
					sinkNetURL = bases[k].ResolveReference(r)
				}
			}
		})
	})
}
