package wayback

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/rfc1738/locator"
)

// benchIndex writes n sorted CDXJ lines (1000 hosts, n/10000 paths,
// 10 captures each, as bench/cdx.sh makes them) and opens them,
// reporting the heap the Index keeps.
func benchIndex(b *testing.B, n int) (ix *Index, heapPerCapture, openSeconds float64) {
	path := filepath.Join(b.TempDir(), "x.cdxj")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriter(f)
	paths := n / 10000
	for h := 0; h < 1000; h++ {
		for p := 0; p < paths; p++ {
			for c := 0; c < 10; c++ {
				fmt.Fprintf(w, "com,example,host%04d)/path%05d 20%02d%02d01000000 {\"url\":\"http://host%04d.example.com/path%05d\",\"mime\":\"text/html\",\"status\":\"200\",\"digest\":\"sha1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\",\"length\":\"800\",\"offset\":\"400\",\"filename\":\"a.warc.gz\"}\n",
					h, p, 16+c, 1+p%12, h, p)
			}
		}
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	f.Close()
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	t0 := time.Now()
	ix, err = Open(Source{Name: path, Open: func() (io.ReadCloser, error) { return os.Open(path) }})
	if err != nil {
		b.Fatal(err)
	}
	open := time.Since(t0)
	runtime.GC()
	runtime.ReadMemStats(&m1)
	b.Cleanup(func() { ix.Close() })
	return ix, float64(m1.HeapAlloc-m0.HeapAlloc) / float64(n), open.Seconds()
}

// BenchmarkTimeGate1M: the TimeGate's choice (Closest) in an index of
// 1,000,000 captures.
func BenchmarkTimeGate1M(b *testing.B) {
	ix, heap, open := benchIndex(b, 1000000)
	at := time.Date(2020, 3, 1, 0, 0, 0, 0, time.UTC)
	var us []*locator.URL
	for i := range 1000 {
		u, _ := locator.Parse(fmt.Sprintf("http://host%04d.example.com/path%05d", (i*7919)%1000, (i*104729)%100))
		us = append(us, u)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if r, err := ix.Closest(us[i%len(us)], at); err != nil || r == nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(heap, "heap-B/capture")
	b.ReportMetric(open, "open-s")
}

// BenchmarkPrefix1M: a prefix query of one host (1000 rows) in an
// index of 1,000,000 captures, written as output=json.
func BenchmarkPrefix1M(b *testing.B) {
	ix, heap, open := benchIndex(b, 1000000)
	q := &Query{Limit: MaxRows, From: "00000000000000", To: "99999999999999", Output: "json", prefix: "com,example,host0500)/"}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := ix.WriteRows(context.Background(), io.Discard, q, nil, "web"); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(heap, "heap-B/capture")
	b.ReportMetric(open, "open-s")
}
