package loctest

import (
	"runtime"
	"testing"

	"github.com/rfc1738/locator"
)

// ParseRetained parses s and returns the URL and the bytes of live heap
// it holds beyond what was live before (measured after a collection on
// each side), for tests that bound what a hostile input may keep.
func ParseRetained(t testing.TB, s string) (*locator.URL, int64) {
	t.Helper()
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	u, err := locator.Parse(s)
	runtime.GC()
	runtime.ReadMemStats(&m1)
	if err != nil {
		t.Fatal(err)
	}
	return u, int64(m1.HeapAlloc) - int64(m0.HeapAlloc)
}
