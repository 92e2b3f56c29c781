package locator

import (
	"math/rand/v2"
	"testing"
)

// allOctetSets are the core's octet sets.
var allOctetSets = []*octetSet{&xcharOK, &xcharNoSearch, &xcharNoSearchNoDot, &userOK, &hostOK, &notAuthorityEnd}

// TestOctetSetVectors: each set's nibble table holds exactly the set's
// octets below 0x80, and vec is false only for the set that allows
// octets above 0x7F.
func TestOctetSetVectors(t *testing.T) {
	for k, s := range allOctetSets {
		high := false
		for c := 0x80; c < 256; c++ {
			high = high || s.t[c] != 0
		}
		if s.vec == high {
			t.Errorf("set %d: vec %v, allows an octet above 0x7F: %v", k, s.vec, high)
		}
		for c := range 0x80 {
			if in := s.nib[c&15]>>(c>>4)&1 != 0; in != (s.t[c] != 0) {
				t.Errorf("set %d: octet %#x in the nibble table %v, in the set %v", k, c, in, s.t[c] != 0)
			}
		}
	}
	if notAuthorityEnd.vec || !xcharOK.vec || !hostOK.vec {
		t.Errorf("vec: notAuthorityEnd %v, xcharOK %v, hostOK %v", notAuthorityEnd.vec, xcharOK.vec, hostOK.vec)
	}
}

// TestAllowedPrefix: for every set, a run of n allowed octets followed
// by one the set does not allow (of every kind: below 0x80 and above),
// at every alignment, reads as n; and a run to the end as its length:
// in vectors where the processor has them, and eight octets at a time.
func TestAllowedPrefix(t *testing.T) {
	checkAllowedPrefix(t)
}

func checkAllowedPrefix(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	buf := make([]byte, 128)
	for k, s := range allOctetSets {
		var in, out []byte
		for c := range 256 {
			if s.t[c] != 0 {
				in = append(in, byte(c))
			} else {
				out = append(out, byte(c))
			}
		}
		for n := range 70 {
			for align := range 16 {
				for _, stop := range out {
					b := buf[align : align+n+1]
					for i := range n {
						b[i] = in[r.IntN(len(in))]
					}
					b[n] = stop
					for _, w := range []string{string(b), string(b[:n])} {
						if got := allowedPrefix(w, s); got != n {
							t.Fatalf("set %d: allowedPrefix(%q) = %d, want %d", k, w, got, n)
						}
						if got := allowedPrefixWords(w, s); got != n {
							t.Fatalf("set %d: allowedPrefixWords(%q) = %d, want %d", k, w, got, n)
						}
					}
				}
			}
		}
	}
}
