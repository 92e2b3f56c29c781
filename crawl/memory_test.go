package crawl

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// TestBoltFrontierMemory: a frontier of 1,000,000 URLs in a BoltFrontier
// (each asked Seen, then pushed, then all popped, as a crawl does) grows
// the heap in use by less than 200 MB: what it holds is in its file.
func TestBoltFrontierMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("a million URLs")
	}
	const urls = 1_000_000
	// The file in memory (tmpfs) where there is one: what is measured
	// is the heap, not the disk's speed.
	dir := t.TempDir()
	if st, err := os.Stat("/dev/shm"); err == nil && st.IsDir() {
		if d, err := os.MkdirTemp("/dev/shm", "crawl-frontier-"); err == nil {
			dir = d
			defer os.RemoveAll(d)
		}
	}
	f, err := OpenBolt(filepath.Join(dir, "frontier.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base, peak := ms.HeapInuse, ms.HeapInuse
	sample := func() {
		runtime.ReadMemStats(&ms)
		peak = max(peak, ms.HeapInuse)
	}
	for i := range urls {
		u := fmt.Sprintf("http://host%d.example.org/dir%d/page%d.html", i%97, i%1000, i)
		if seen, err := f.Seen(u); seen || err != nil {
			t.Fatalf("%s: seen %v, %v", u, seen, err)
		}
		if ok, err := f.Push(Item{URL: u, Depth: i % 7, From: "http://host.example.org/"}); !ok || err != nil {
			t.Fatalf("%s: pushed %v, %v", u, ok, err)
		}
		if i%20000 == 0 {
			sample()
		}
	}
	for i := 0; ; i++ {
		it, ok, err := f.Pop()
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			if i != urls {
				t.Fatalf("%d popped", i)
			}
			break
		}
		if want := fmt.Sprintf("http://host%d.example.org/dir%d/page%d.html", i%97, i%1000, i); it.URL != want {
			t.Fatalf("popped %s, want %s", it.URL, want)
		}
		if i%20000 == 0 {
			sample()
		}
	}
	sample()
	growth := float64(peak-base) / (1 << 20)
	t.Logf("%d URLs: heap in use grew by at most %.1f MB", urls, growth)
	if growth >= 200 {
		t.Errorf("heap grew by %.1f MB, want under 200", growth)
	}
}

// TestChecksSpill: the links to check of a crawl on a BoltFrontier wait
// in its file, boltBatch at most in memory, each once, in the order
// added; a new crawl on the file begins with none.
func TestChecksSpill(t *testing.T) {
	f, err := OpenBolt(filepath.Join(t.TempDir(), "frontier.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	const n = 3*boltBatch + 5
	for round := range 2 {
		var cs checkSet
		if err := cs.init(f); err != nil {
			t.Fatal(err)
		}
		for i := range 2 * n {
			if err := cs.add(parse(t, fmt.Sprintf("http://example.org/%d", i%n))); err != nil {
				t.Fatal(err)
			}
			if len(cs.order) > boltBatch {
				t.Fatalf("%d links in memory", len(cs.order))
			}
		}
		i := 0
		if err := cs.each(func(s string) bool {
			if want := fmt.Sprintf("http://example.org/%d", i); s != want {
				t.Fatalf("round %d: link %d is %s, want %s", round, i, s, want)
			}
			i++
			return true
		}); err != nil {
			t.Fatal(err)
		}
		if i != n || cs.n != n {
			t.Errorf("round %d: %d links, %d counted, want %d", round, i, cs.n, n)
		}
	}
}
