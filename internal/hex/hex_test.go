package hex

import "testing"

// RFC 1738 §2.2: "%" followed by two hexadecimal digits, either case.
func TestDecode(t *testing.T) {
	for _, tt := range []struct {
		hi, lo byte
		want   byte
	}{{'2', '0', ' '}, {'7', 'e', '~'}, {'7', 'E', '~'}, {'f', 'F', 0xff}, {'0', '0', 0}, {'2', '5', '%'}} {
		if got := Decode(tt.hi, tt.lo); got != tt.want {
			t.Errorf("Decode(%q, %q) = %#x, want %#x", tt.hi, tt.lo, got, tt.want)
		}
	}
	if Value('g') != 0 {
		t.Error("Value('g') is not 0")
	}
}
