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
