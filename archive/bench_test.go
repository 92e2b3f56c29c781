package archive

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/crawl"
	"github.com/rfc1738/locator/internal/peer"
)

// BenchmarkRecord: one HTTP exchange of a 1.3 KB page, as a crawl of
// bench/warc.sh's site records it.
func BenchmarkRecord(b *testing.B) {
	w, err := Create(filepath.Join(b.TempDir(), "b.warc.gz"), Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	page := "HTTP/1.1 200 OK\r\nServer: nginx\r\nContent-Type: text/html\r\nContent-Length: 1200\r\n\r\n" + strings.Repeat("Some text of the page. ", 52)
	// A thousand records, recorded over and over: made all ahead, b.N
	// of them would be garbage the collector works through while the
	// Writer is timed.
	recs := make([]*access.Record, 1000)
	for i := range recs {
		recs[i] = exchange(b, fmt.Sprintf("http://127.0.0.1:8080/d%d/p%d.html", i/100, i), "http/1.1", "GET / HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nUser-Agent: locator\r\n\r\n", page)
	}
	b.ReportAllocs()
	b.ResetTimer()
	cpu := cpuTime()
	for i := 0; i < b.N; i++ {
		if err := w.Record(recs[i%len(recs)]); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op")
}

// cpuTime is the process's CPU time (user and system) so far: on a
// machine shared with other work, a steadier measure than the wall
// clock's ns/op.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

type discard struct{}

func (discard) Record(*access.Record) error { return nil }

// BenchmarkCrawl: a crawl of 300 pages from nginx without a Recorder,
// with one that keeps nothing (the access layer's capture alone) and
// with a Writer: what archiving adds, and which part is the Writer's.
func BenchmarkCrawl(b *testing.B) {
	root := b.TempDir()
	for i := range 300 {
		os.MkdirAll(filepath.Join(root, fmt.Sprintf("d%d", i/100)), 0o755)
		os.WriteFile(filepath.Join(root, fmt.Sprintf("d%d/p%d.html", i/100, i)), []byte(fmt.Sprintf(
			`<html><body><a href="/d%d/p%d.html">next</a> <a href="/">index</a> <p>%s</p></body></html>`,
			(i+1)%300/100, (i+1)%300, strings.Repeat("Some text of the page. ", 40))), 0o644)
	}
	os.WriteFile(filepath.Join(root, "index.html"), []byte(`<a href="d0/p0.html">start</a>`), 0o644)
	s := peer.Nginx(b, root, peer.NginxConfig{Connections: 256})
	seed, _ := locator.Parse("http://" + s.Addr + "/")
	for _, c := range []struct {
		name string
		rec  func(b *testing.B) (access.Recorder, func())
	}{
		{"none", func(*testing.B) (access.Recorder, func()) { return nil, func() {} }},
		{"capture", func(*testing.B) (access.Recorder, func()) { return discard{}, func() {} }},
		{"writer", func(b *testing.B) (access.Recorder, func()) {
			w, err := Create(filepath.Join(b.TempDir(), "c.warc.gz"), Options{})
			if err != nil {
				b.Fatal(err)
			}
			return w, func() { w.Close() }
		}},
	} {
		b.Run(c.name, func(b *testing.B) {
			cpu := cpuTime()
			for i := 0; i < b.N; i++ {
				rec, done := c.rec(b)
				cl := &access.Client{}
				if rec != nil {
					cl.Recorder = rec
				}
				cr := &crawl.Crawler{Client: cl, Delay: crawl.NoDelay, PerHost: 8, Depth: -1}
				if err := cr.Crawl(context.Background(), []*locator.URL{seed}, func(crawl.Event) error { return nil }); err != nil {
					b.Fatal(err)
				}
				done()
			}
			b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op")
		})
	}
}
