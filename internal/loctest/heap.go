package loctest

import (
	"runtime"
	"sync"
	"time"
)

// WatchHeap samples the heap in use (runtime.MemStats.HeapInuse) every
// 10 ms from now, after a collection, until the function it returns is
// called; that returns how many octets above its level at the start the
// heap rose at most: what a test of bounded memory pins.
func WatchHeap() (stop func() uint64) {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base, peak := ms.HeapInuse, ms.HeapInuse
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		var m runtime.MemStats
		for {
			select {
			case <-done:
				runtime.ReadMemStats(&m)
				peak = max(peak, m.HeapInuse)
				return
			case <-tick.C:
				runtime.ReadMemStats(&m)
				peak = max(peak, m.HeapInuse)
			}
		}
	}()
	return func() uint64 {
		close(done)
		wg.Wait()
		return peak - base
	}
}
