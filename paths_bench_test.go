package locator_test

import (
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

// BenchmarkPathsResolve is Resolve under RFC 3986 on pairs of each
// corpus file's URLs (loctest.ResolvePairs).
func BenchmarkPathsResolve(b *testing.B) { loctest.BenchResolve(b) }

// BenchmarkPathsNetURLResolve is net/url on the same pairs: url.Parse of
// the reference (net/url needs it parsed) and ResolveReference.
func BenchmarkPathsNetURLResolve(b *testing.B) { loctest.BenchNetURLResolve(b) }
