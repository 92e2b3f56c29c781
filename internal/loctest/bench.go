package loctest

import (
	"net/url"
	"runtime"
	"strings"
	"testing"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/internal/cputime"
	"github.com/rfc1738/locator/internal/loctest/vectors"
)

// CorpusFiles are the files of the test data's data/urls the path
// benchmarks read (109,062 URLs in all).
var CorpusFiles = []string{"isaacs_files.txt", "kasztp.txt", "node_files.txt", "userbait.txt"}

// EachCorpusFile runs f as a sub-benchmark on every corpus file
// ("file=kasztp") and on all of them together ("file=all"), the names
// bench/parse.sh reads.
func EachCorpusFile(b *testing.B, f func(b *testing.B, lines []string)) {
	var all []string
	files := map[string][]string{}
	for _, name := range CorpusFiles {
		files[name] = vectors.ReadLines(b, "data", "urls", name)
		all = append(all, files[name]...)
	}
	b.Run("file=all", func(b *testing.B) { f(b, all) })
	for _, name := range CorpusFiles {
		b.Run("file="+strings.TrimSuffix(name, ".txt"), func(b *testing.B) { f(b, files[name]) })
	}
}

// PerURL runs run, one pass over n URLs, as b's loop, and reports
// ns/URL, allocs/URL and B/URL, the allocations counted from the
// runtime's statistics before and after; and cpu-ns/URL, the process's
// CPU time (user and system, collector included) over the same passes,
// which other processes sharing the machine disturb far less than the
// time on the clock.
func PerURL(b *testing.B, n int, run func()) {
	b.ReportAllocs()
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	c0 := cputime.Process()
	passes := 0
	for b.Loop() {
		run()
		passes++
	}
	c1 := cputime.Process()
	runtime.ReadMemStats(&m1)
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(passes)/float64(n), "ns/URL")
	b.ReportMetric(float64(c1-c0)/float64(passes)/float64(n), "cpu-ns/URL")
	b.ReportMetric(float64(m1.Mallocs-m0.Mallocs)/float64(passes)/float64(n), "allocs/URL")
	b.ReportMetric(float64(m1.TotalAlloc-m0.TotalAlloc)/float64(passes)/float64(n), "B/URL")
}

// SinkURL and SinkNetURL keep the last value a benchmark made, so that
// the compiler cannot drop the work.
var (
	SinkURL    *locator.URL
	SinkNetURL *url.URL
)

// BenchParse times Parse over each corpus file: the core alone or with
// the scheme rules the calling test binary links.
func BenchParse(b *testing.B) {
	EachCorpusFile(b, func(b *testing.B, lines []string) {
		PerURL(b, len(lines), func() {
			for _, s := range lines {
				SinkURL, _ = locator.Parse(s)
			}
		})
	})
}

// BenchParser times a Parser (no allocation) over each corpus file.
func BenchParser(b *testing.B) {
	EachCorpusFile(b, func(b *testing.B, lines []string) {
		var p locator.Parser
		var u locator.URL
		PerURL(b, len(lines), func() {
			for _, s := range lines {
				p.Parse(&u, s)
			}
		})
	})
}

// BenchNetURLParse times net/url's url.Parse on the same lines, the peer
// each path's time is divided by.
func BenchNetURLParse(b *testing.B) {
	EachCorpusFile(b, func(b *testing.B, lines []string) {
		PerURL(b, len(lines), func() {
			for _, s := range lines {
				SinkNetURL, _ = url.Parse(s)
			}
		})
	})
}

// ResolvePairs makes (base, reference) pairs from the URLs of lines that
// conform and have a host, of a scheme whose paths are hierarchical: each
// with the next of its scheme, written as a relative path, an absolute
// path, "../" and a name, a network path or a query, in turn; "all"
// holds RFC 3986 §5.4.1's references against its base too.
func ResolvePairs(tb testing.TB, lines []string) (bases []*locator.URL, netBases []*url.URL, refs []string) {
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
		ref := PairRef(i, base, t)
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

// PairRef is the i-th kind of reference from base to t: a relative path
// (Relative's shortest form), an absolute path, "../" and a name, a
// network path or a query.
func PairRef(i int, base, t *locator.URL) string {
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

// BenchResolve times Resolve under RFC 3986 on the pairs of each corpus
// file (ResolvePairs): the core alone or with every scheme's rules,
// by the test binary it runs in.
func BenchResolve(b *testing.B) {
	EachCorpusFile(b, func(b *testing.B, lines []string) {
		bases, _, refs := ResolvePairs(b, lines)
		PerURL(b, len(refs), func() {
			for k, ref := range refs {
				SinkURL, _ = locator.Resolve(bases[k], ref, locator.RFC3986)
			}
		})
	})
}

// BenchNetURLResolve is net/url on the same pairs: url.Parse of the
// reference (net/url needs it parsed) and ResolveReference.
func BenchNetURLResolve(b *testing.B) {
	EachCorpusFile(b, func(b *testing.B, lines []string) {
		_, bases, refs := ResolvePairs(b, lines)
		PerURL(b, len(refs), func() {
			for k, ref := range refs {
				if r, err := url.Parse(ref); err == nil {
					SinkNetURL = bases[k].ResolveReference(r)
				}
			}
		})
	})
}
