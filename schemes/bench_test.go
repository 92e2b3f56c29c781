package schemes_test

import (
	"testing"

	"github.com/rfc1738/locator/internal/loctest"
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

// BenchmarkPathsParseSchemes is Parse with every scheme's rules linked.
func BenchmarkPathsParseSchemes(b *testing.B) { loctest.BenchParse(b) }

// BenchmarkPathsParserSchemes is a Parser with every scheme's rules linked.
func BenchmarkPathsParserSchemes(b *testing.B) { loctest.BenchParser(b) }

// BenchmarkPathsNetURLParse is net/url's url.Parse on the same lines.
func BenchmarkPathsNetURLParse(b *testing.B) { loctest.BenchNetURLParse(b) }

// BenchmarkPathsResolveSchemes is Resolve with every scheme's rules
// linked (http's a Screener: most web results are read without them).
func BenchmarkPathsResolveSchemes(b *testing.B) { loctest.BenchResolve(b) }

// BenchmarkPathsNetURLResolve is net/url on the same pairs.
func BenchmarkPathsNetURLResolve(b *testing.B) { loctest.BenchNetURLResolve(b) }
