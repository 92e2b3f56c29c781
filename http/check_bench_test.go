package http

import (
	"testing"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/internal/loctest/vectors"
)

// BenchmarkCheck times Check alone on the http and https URLs of the web
// corpus files of the test data's data/urls, parsed beforehand: the cost
// the rules add to Parse with every scheme linked (schemes/bench_test.go).
//
//	go test -run '^$' -bench Check ./http/
func BenchmarkCheck(b *testing.B) {
	for _, name := range []string{"kasztp", "userbait"} {
		var us []*locator.URL
		for _, s := range vectors.ReadLines(b, "data", "urls", name+".txt") {
			if u, err := locator.Parse(s); err == nil && (u.Scheme() == "http" || u.Scheme() == "https") {
				us = append(us, u)
			}
		}
		b.Run("file="+name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for _, u := range us {
					_ = (Rules{}).Check(u, locator.Report{})
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(us)), "ns/URL")
		})
	}
}
