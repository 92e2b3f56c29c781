package access

import (
	"bytes"
	"io"
	"testing"
)

// A Spool keeps octets in memory up to SpoolMemory and in a temporary
// file beyond, and reads back exactly what was written either way.
func TestSpool(t *testing.T) {
	for _, n := range []int{0, 1, SpoolMemory, SpoolMemory + 1, 3*SpoolMemory + 7} {
		s := NewSpool()
		want := make([]byte, n)
		for i := range want {
			want[i] = byte(i * 7)
		}
		for p := want; len(p) > 0; {
			k := min(len(p), 1000)
			if _, err := s.Write(p[:k]); err != nil {
				t.Fatal(err)
			}
			p = p[k:]
		}
		got, err := io.ReadAll(s.Reader())
		if err != nil || !bytes.Equal(got, want) || s.Size() != int64(n) {
			t.Errorf("%d octets: read back %d, size %d, err %v", n, len(got), s.Size(), err)
		}
		if inMem := s.Bytes() != nil || n == 0; inMem != (n <= SpoolMemory) {
			t.Errorf("%d octets: in memory %v", n, inMem)
		}
		if err := s.Close(); err != nil {
			t.Error(err)
		}
	}
}
