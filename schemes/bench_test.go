package schemes_test

import (
	"net/url"
	"runtime"
	"strings"
	"testing"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/internal/cputime"
	"github.com/rfc1738/locator/internal/loctest/vectors"
	_ "github.com/rfc1738/locator/schemes"
)

// The root package's BenchmarkPathsParse times the core alone; these time
// Parse and a Parser with every scheme's rules linked in (as the command
// runs them) beside net/url.Parse, on the same corpus files of the test
// data's data/urls, each and all together:
//
//	go test -run '^$' -bench Paths -benchmem ./schemes/
//
// (bench/parse.sh runs them beside the root package's paths.) One op is
// one pass over the file; ns/URL, allocs/URL and B/URL are per URL.

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

var (
	sinkURL    *locator.URL
	sinkNetURL *url.URL
)

// BenchmarkPathsParseSchemes is Parse with every scheme's rules linked.
func BenchmarkPathsParseSchemes(b *testing.B) {
	eachFile(b, func(b *testing.B, lines []string) {
		perURL(b, len(lines), func() {
			for _, s := range lines {
				sinkURL, _ = locator.Parse(s)
			}
		})
	})
}

// BenchmarkPathsParserSchemes is a Parser with every scheme's rules linked.
func BenchmarkPathsParserSchemes(b *testing.B) {
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

func BenchmarkPathsNetURLParse(b *testing.B) {
	eachFile(b, func(b *testing.B, lines []string) {
		perURL(b, len(lines), func() {
			for _, s := range lines {
				sinkNetURL, _ = url.Parse(s)
			}
		})
	})
}
