package locator

import (
	"net/url"
	"testing"
)

// The benchmarks run Parse and String over the corpora in
// ../shared/data/urls beside net/url.Parse on the same inputs:
//
//	go test -run '^$' -bench 'Parse|String' -benchmem .
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

func BenchmarkParse(b *testing.B) {
	lines, n := benchCorpus(b)
	b.SetBytes(n)
	b.ReportAllocs()
	for b.Loop() {
		for _, s := range lines {
			Parse(s)
		}
	}
	report(b, len(lines))
}

func BenchmarkNetURLParse(b *testing.B) {
	lines, n := benchCorpus(b)
	b.SetBytes(n)
	b.ReportAllocs()
	for b.Loop() {
		for _, s := range lines {
			url.Parse(s)
		}
	}
	report(b, len(lines))
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

// BenchmarkParseWork is Parse's work without the allocation of the value
// it returns: one URL is reused. It shows how the time of BenchmarkParse
// divides between reading and judging the text and allocating the result.
func BenchmarkParseWork(b *testing.B) {
	lines, n := benchCorpus(b)
	b.SetBytes(n)
	b.ReportAllocs()
	var u URL
	for b.Loop() {
		for _, s := range lines {
			u = URL{in: s}
			p := parser{u: &u, s: s}
			p.parse()
		}
	}
	report(b, len(lines))
}
