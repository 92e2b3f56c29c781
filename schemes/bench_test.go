package schemes_test

import (
	"bufio"
	"net/url"
	"os"
	"path/filepath"
	"testing"

	"github.com/rfc1738/locator"
	_ "github.com/rfc1738/locator/schemes"
)

// The root package's BenchmarkParse times the core alone; these time
// Parse with every scheme's rules linked in (as the command runs it)
// beside net/url.Parse, on the same corpora of ../shared/data/urls:
//
//	go test -run '^$' -bench . -benchmem ./schemes/

func corpus(b *testing.B) []string {
	var lines []string
	for _, name := range []string{"isaacs_files.txt", "kasztp.txt", "node_files.txt", "userbait.txt"} {
		f, err := os.Open(filepath.Join("..", "..", "shared", "data", "urls", name))
		if err != nil {
			b.Skipf("corpus not available (%v): run with ../shared beside the repository", err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			lines = append(lines, sc.Text())
		}
		f.Close()
	}
	return lines
}

func BenchmarkParseWithSchemeRules(b *testing.B) {
	lines := corpus(b)
	b.ReportAllocs()
	for b.Loop() {
		for _, s := range lines {
			locator.Parse(s)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(lines)), "ns/URL")
}

func BenchmarkNetURLParse(b *testing.B) {
	lines := corpus(b)
	b.ReportAllocs()
	for b.Loop() {
		for _, s := range lines {
			url.Parse(s)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(lines)), "ns/URL")
}
