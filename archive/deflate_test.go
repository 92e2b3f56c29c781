package archive

import (
	"bytes"
	"compress/gzip"
	"io"
	"math/rand"
	"strings"
	"testing"
)

// TestAppendFixed: what appendFixed makes, compress/gzip reads back as
// it was, one member each, whatever the octets: text that repeats,
// octets of few values, copies from near and far (up to 32 KiB, every
// distance code), random ones (stored), the empty record; the same
// matcher throughout, as an encoder keeps it.
func TestAppendFixed(t *testing.T) {
	var m matcher
	rnd := rand.New(rand.NewSource(1))
	inputs := [][]byte{nil, []byte("a"), []byte("abcd"), []byte("abcdabcdabcd"),
		[]byte(strings.Repeat("Some text of the page. ", 1500)[:32<<10])}
	for range 1000 {
		p := make([]byte, rnd.Intn(fixedBelow))
		if rnd.Intn(10) == 0 { // longer, for every distance code
			p = make([]byte, rnd.Intn(32<<10))
		}
		alpha := 1 + rnd.Intn(256)
		run := 1 + rnd.Intn(40)
		for j := range p {
			if j >= run && rnd.Intn(run) == 0 { // a copy of octets before
				k := 1 + rnd.Intn(min(j, 300))
				if rnd.Intn(4) == 0 {
					k = 1 + rnd.Intn(j)
				}
				p[j] = p[j-k]
				continue
			}
			p[j] = byte(rnd.Intn(alpha))
		}
		inputs = append(inputs, p)
	}
	var stored, fixed int
	for _, p := range inputs {
		z := m.appendFixed([]byte("before"), p)
		if !bytes.HasPrefix(z, []byte("before")) {
			t.Fatal("what was before the member is changed")
		}
		z = z[len("before"):]
		checkMember(t, z, p)
		if z[10]&6 == 0 { // BTYPE 00: stored
			stored++
		} else {
			fixed++
		}
	}
	if stored == 0 || fixed == 0 {
		t.Fatalf("%d stored, %d compressed: both were to be made", stored, fixed)
	}
}

// FuzzAppendFixed: whatever the octets, and whatever record came before
// them through the same matcher, compress/gzip reads the member back as
// they were, and nothing after it.
func FuzzAppendFixed(f *testing.F) {
	f.Add([]byte("abcdabcdabcd"), []byte("HTTP/1.1 200 OK\r\n\r\n<html>"))
	f.Add([]byte(""), []byte(strings.Repeat("ab", 400)))
	f.Fuzz(func(t *testing.T, before, p []byte) {
		if len(before) > 32<<10 || len(p) > 32<<10 {
			return
		}
		var m matcher
		for _, q := range [][]byte{before, p} {
			checkMember(t, m.appendFixed(nil, q), q)
		}
	})
}

// checkMember fails unless z is one gzip member that compress/gzip
// reads back as p, with nothing after it.
func checkMember(t *testing.T, z, p []byte) {
	t.Helper()
	br := bytes.NewReader(z)
	r, err := gzip.NewReader(br)
	if err != nil {
		t.Fatal(err)
	}
	r.Multistream(false)
	got, err := io.ReadAll(r)
	if err != nil || !bytes.Equal(got, p) {
		t.Fatalf("%d octets read back as %d: %v", len(p), len(got), err)
	}
	if br.Len() != 0 {
		t.Fatalf("%d octets after the member", br.Len())
	}
}
