package archive

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestHoldings: the URLs held, one per index key in the keys' order
// (the order of a CDXJ index), bounded by max, with their count.
func TestHoldings(t *testing.T) {
	path := filepath.Join(t.TempDir(), "h.warc.gz")
	writeAll(t, path, Options{}, sampleRecords(t))
	r, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	all, total := r.Holdings(100)
	if total != 6 || len(all) != 6 {
		t.Fatalf("%d of %d: %q", len(all), total, all)
	}
	for i := 1; i < len(all); i++ {
		if a, b := Key(mustParse(t, all[i-1])), Key(mustParse(t, all[i])); a >= b {
			t.Errorf("%q before %q", a, b)
		}
	}
	for _, max := range []int{1, 2, 5} {
		got, n := r.Holdings(max)
		if n != 6 || strings.Join(got, " ") != strings.Join(all[:max], " ") {
			t.Errorf("Holdings(%d): %q of %d, want %q", max, got, n, all[:max])
		}
	}
	if got, n := r.Holdings(0); got != nil || n != 6 {
		t.Errorf("Holdings(0): %q %d", got, n)
	}
}
