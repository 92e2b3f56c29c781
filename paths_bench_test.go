package locator_test

import (
	"net/url"
	"runtime"
	"strings"
	"testing"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/internal/cputime"
	"github.com/rfc1738/locator/internal/loctest/vectors"
)

// The public paths (Parse, a Parser, ParseBatch, Resolve) beside net/url
// on the same inputs, per corpus file of ../shared/data/urls and over
// all of them:
//
//	go test -run '^$' -bench 'Paths' -benchmem .
//
// (bench/parse.sh runs them several times and prints the medians and the
// ratios.) One op is one pass over the file; ns/URL, allocs/URL and
// B/URL are per URL (per pair for Resolve).

var benchFiles = []string{"isaacs_files.txt", "kasztp.txt", "node_files.txt", "userbait.txt"}

// eachFile runs f on every corpus file and on all of them together.
func eachFile(b *testing.B, f func(b *testing.B, lines []string)) {
	var all []string
	files := map[string][]string{}
	for _, name := range benchFiles {
		files[name] = vectors.ReadLines(b, "data", "urls", name)
		all = append(all, files[name]...)
	}
	b.Run("file=all", func(b *testing.B) { f(b, all) })
	for _, name := range benchFiles {
		b.Run("file="+strings.TrimSuffix(name, ".txt"), func(b *testing.B) { f(b, files[name]) })
	}
}

// perURL reports ns/URL, allocs/URL and B/URL over n URLs a pass, the
// allocations counted from the runtime's statistics before and after;
// and cpu-ns/URL, the process's CPU time (user and system, collector
// included) over the same passes, which other processes sharing the
// machine disturb far less than the time on the clock.
func perURL(b *testing.B, n int, run func()) {
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

var sinkURL *locator.URL

func BenchmarkPathsParse(b *testing.B) {
	eachFile(b, func(b *testing.B, lines []string) {
		perURL(b, len(lines), func() {
			for _, s := range lines {
				sinkURL, _ = locator.Parse(s)
			}
		})
	})
}

func BenchmarkPathsParser(b *testing.B) {
	eachFile(b, func(b *testing.B, lines []string) {
		var p locator.Parser
		var u locator.URL
		perURL(b, len(lines), func() {
			for _, s := range lines {
				p.Parse(&u, s)
			}
		})
	})
}

func BenchmarkPathsParseBatch(b *testing.B) {
	eachFile(b, func(b *testing.B, lines []string) {
		perURL(b, len(lines), func() {
			for i := 0; i < len(lines); i += 1024 {
				locator.ParseBatch(lines[i:min(i+1024, len(lines))])
			}
		})
	})
}

var sinkNetURL *url.URL

func BenchmarkPathsNetURLParse(b *testing.B) {
	eachFile(b, func(b *testing.B, lines []string) {
		perURL(b, len(lines), func() {
			for _, s := range lines {
				sinkNetURL, _ = url.Parse(s)
			}
		})
	})
}

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
	eachFile(b, func(b *testing.B, lines []string) {
		bases, _, refs := resolvePairs(b, lines)
		perURL(b, len(refs), func() {
			for k, ref := range refs {
				sinkURL, _ = locator.Resolve(bases[k], ref, locator.RFC3986)
			}
		})
	})
}

// BenchmarkPathsNetURLResolve is net/url on the same pairs: url.Parse of
// the reference (net/url needs it parsed) and ResolveReference.
func BenchmarkPathsNetURLResolve(b *testing.B) {
	eachFile(b, func(b *testing.B, lines []string) {
		_, bases, refs := resolvePairs(b, lines)
		perURL(b, len(refs), func() {
			for k, ref := range refs {
				if r, err := url.Parse(ref); err == nil {
					sinkNetURL = bases[k].ResolveReference(r)
				}
			}
		})
	})
}
