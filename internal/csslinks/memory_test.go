package csslinks

import (
	"io"
	"runtime"
	"strings"
	"testing"
)

// sheetReader gives n octets of a style sheet: a 16 MiB comment, a 16
// MiB string, a 16 MiB url token, then rules with url()s, read in
// pieces as a network body is.
type sheetReader struct {
	parts []string
	reps  []int
	i     int
	off   int
	probe func()
}

func (r *sheetReader) Read(p []byte) (int, error) {
	for r.i < len(r.parts) && r.reps[r.i] == 0 {
		r.i++
	}
	if r.i == len(r.parts) {
		return 0, io.EOF
	}
	part := r.parts[r.i]
	n := copy(p, part[r.off:])
	r.off += n
	if r.off == len(part) {
		r.off = 0
		r.reps[r.i]--
	}
	r.probe()
	return n, nil
}

// TestMemory: a 64 MiB sheet whose comment, string and url token are
// each 16 MiB is rewritten with the heap in use growing by less than
// 16 MiB: one token is held at most, and no longer than MaxToken.
func TestMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("64 MiB")
	}
	const mib = 1 << 20
	chunk := strings.Repeat("x", 64<<10)
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base, peak := ms.HeapInuse, ms.HeapInuse
	reads := 0
	rule := "p.c{background:url(img/a.png) no-repeat; list-style:url(\"b.png\")}\n"
	r := &sheetReader{
		parts: []string{"/*", chunk, "*/ a{content:\"", chunk, "\"} b{c:url(", chunk, ")}\n", rule},
		reps:  []int{1, 16 * mib / len(chunk), 1, 16 * mib / len(chunk), 1, 16 * mib / len(chunk), 1, 16 * mib / len(rule)},
		probe: func() {
			if reads++; reads%64 == 0 {
				runtime.ReadMemStats(&ms)
				peak = max(peak, ms.HeapInuse)
			}
		},
	}
	links := 0
	if err := Rewrite(io.Discard, r, func(l Link) (string, bool) {
		links++
		return "/gw/" + l.Ref, true
	}); err != nil {
		t.Fatal(err)
	}
	if want := 2 * (16 * mib / len(rule)); links != want {
		t.Errorf("%d links rewritten, want %d", links, want)
	}
	if grew := peak - base; grew > 16*mib {
		t.Errorf("the heap in use grew by %d MiB", grew/mib)
	}
	t.Logf("heap in use grew by at most %.1f MiB", float64(peak-base)/mib)
}
