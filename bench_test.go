package locator

import (
	"net/url"
	"testing"
)

// The benchmarks run String over the corpora in ../shared/data/urls
// beside net/url's on the same URLs (paths_bench_test.go has Parse, the
// Parser, ParseBatch and Resolve):
//
//	go test -run '^$' -bench 'String' -benchmem .
//
// One op is one pass over the whole corpus; ns/URL and allocs/URL are
// reported per URL.

func benchCorpus(b *testing.B) ([]string, int64) {
	lines := loadCorpus(b)
	var n int64
	for _, s := range lines {
		n += int64(len(s))
	}
	return lines, n
}

func report(b *testing.B, urls int) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(urls), "ns/URL")
}

func BenchmarkString(b *testing.B) {
	lines, n := benchCorpus(b)
	var us []*URL
	for _, s := range lines {
		if u, err := Parse(s); err == nil {
			us = append(us, u)
		}
	}
	b.SetBytes(n)
	b.ReportAllocs()
	for b.Loop() {
		for _, u := range us {
			_ = u.String()
		}
	}
	report(b, len(us))
}

func BenchmarkNetURLString(b *testing.B) {
	lines, n := benchCorpus(b)
	var us []*url.URL
	for _, s := range lines {
		if u, err := url.Parse(s); err == nil {
			us = append(us, u)
		}
	}
	b.SetBytes(n)
	b.ReportAllocs()
	for b.Loop() {
		for _, u := range us {
			_ = u.String()
		}
	}
	report(b, len(us))
}
