package crawl

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// frontierFile writes a frontier of n URLs, some popped and done, to a
// file of dir and returns its path and its octets.
func frontierFile(t testing.TB, dir string, n int) (string, []byte) {
	t.Helper()
	path := filepath.Join(dir, "frontier.db")
	f, err := OpenBolt(path)
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if _, err := f.Push(Item{URL: fmt.Sprintf("http://example.org/dir%d/page%d.html", i%7, i), Depth: i % 4, From: "http://example.org/"}); err != nil {
			t.Fatal(err)
		}
	}
	for range n / 3 {
		it, _, err := f.Pop()
		if err != nil {
			t.Fatal(err)
		}
		if err := f.Done(it.URL); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return path, b
}

// TestOpenBoltDamaged: a frontier file cut short, or with pages zeroed,
// is a *DamagedError when opened (bbolt maps the file: a page missing
// was a SIGBUS, a zeroed page a panic inside bbolt), and a frontier
// whose name is a symbolic link is not opened through it.
func TestOpenBoltDamaged(t *testing.T) {
	const n = 3000
	_, whole := frontierFile(t, t.TempDir(), n)
	const ps = 4096
	pages := len(whole) / ps
	zero := func(b []byte, pages ...int) []byte {
		b = append([]byte(nil), b...)
		for _, p := range pages {
			clear(b[p*ps : (p+1)*ps])
		}
		return b
	}
	open := func(t *testing.T, b []byte) (*BoltFrontier, error) {
		path := filepath.Join(t.TempDir(), "frontier.db")
		if err := os.WriteFile(path, b, 0o600); err != nil {
			t.Fatal(err)
		}
		return OpenBolt(path)
	}
	hwm := 0 // the pages bbolt uses: a file cut before the last lacks it
	for p := 0; p < 2; p++ {
		hwm = max(hwm, int(binary.LittleEndian.Uint64(whole[p*ps+16+40:])))
	}
	t.Logf("a frontier of %d octets, %d pages, %d in use", len(whole), pages, hwm)
	cases := []struct {
		name string
		b    []byte
	}{
		{"cut to one page", whole[:ps]},
		{"cut before its last page in use", whole[:(hwm-1)*ps]},
		{"cut within a page", whole[:len(whole)-100]},
		{"both meta pages zeroed", zero(whole, 0, 1)},
		{"a meta page zeroed", zero(whole, 0)},
		{"pages zeroed", zero(whole, 2, 3, 4, 5, 6, 7, 8, 9)},
		{"all zero", make([]byte, len(whole))},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f, err := open(t, c.b)
			var de *DamagedError
			if !errors.As(err, &de) {
				if f != nil {
					f.Close()
				}
				t.Fatalf("OpenBolt: %v, want a *DamagedError", err)
			}
			t.Log(err)
		})
	}
	// Each page in use zeroed in turn: the file is damaged, or the page
	// was a free one and the frontier is whole.
	detected := 0
	for p := 2; p < hwm; p++ {
		f, err := open(t, zero(whole, p))
		var de *DamagedError
		if errors.As(err, &de) {
			detected++
			continue
		}
		if err != nil {
			t.Fatalf("page %d zeroed: %v", p, err)
		}
		popped := 0
		for {
			_, ok, err := f.Pop()
			if err != nil {
				t.Fatalf("page %d zeroed, not found damaged: %v", p, err)
			}
			if !ok {
				break
			}
			popped++
		}
		f.Close()
		if popped != n-n/3 {
			t.Errorf("page %d zeroed, not found damaged: %d URLs to pop, want %d", p, popped, n-n/3)
		}
	}
	t.Logf("of %d pages zeroed one at a time, %d found damaged (the others free)", hwm-2, detected)
	if detected == 0 {
		t.Error("no zeroed page found damaged")
	}
	// A meta page torn by a crash within a commit (its checksum
	// wrong): bbolt goes on from the other, and so does the crawl.
	torn := append([]byte(nil), whole...)
	torn[16+48] ^= 0xff // meta 0's txid
	if f, err := open(t, torn); err != nil {
		t.Errorf("a meta page torn: %v", err)
	} else {
		f.Close()
	}

	// A symbolic link named as the frontier: not followed, its target
	// left as it was.
	dir := t.TempDir()
	target := filepath.Join(dir, "target")
	os.WriteFile(target, []byte("not yours"), 0o600)
	link := filepath.Join(dir, "frontier.db")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if f, err := OpenBolt(link); err == nil {
		f.Close()
		t.Error("a frontier opened through a symbolic link")
	}
	if b, _ := os.ReadFile(target); string(b) != "not yours" {
		t.Errorf("the link's target now holds %q", b)
	}
}

// FuzzOpenBolt: whatever a frontier file holds, OpenBolt and a crawl's
// use of the frontier return errors, never a panic or a fault.
func FuzzOpenBolt(f *testing.F) {
	for _, n := range []int{3, 60} {
		_, b := frontierFile(f, f.TempDir(), n)
		// What bbolt grew the file by and never used is cut: the
		// pages in use are what is fuzzed.
		hwm := max(binary.LittleEndian.Uint64(b[16+40:]), binary.LittleEndian.Uint64(b[4096+16+40:]))
		f.Add(b[:hwm*4096])
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		path := filepath.Join(t.TempDir(), "frontier.db")
		if err := os.WriteFile(path, b, 0o600); err != nil {
			t.Fatal(err)
		}
		fr, err := OpenBolt(path)
		if err != nil {
			return
		}
		fr.db.NoSync = true // the file is the test's
		defer fr.Close()
		fr.Seen("http://example.org/x")
		fr.Push(Item{URL: "http://example.org/new"})
		for range 500 {
			it, ok, err := fr.Pop()
			if err != nil || !ok {
				break
			}
			fr.Done(it.URL)
		}
		fr.resetChecks()
		fr.addChecks([]string{"http://example.org/c"}, 0)
		fr.eachCheck(func(string) bool { return true })
	})
}
