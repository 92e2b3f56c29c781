package locator

import (
	"strings"
	"testing"
)

// TestCharacterClasses checks each predicate against the class's members
// exactly as RFC 1738 §5 lists them, over all 256 octets.
func TestCharacterClasses(t *testing.T) {
	const (
		lowalpha    = "abcdefghijklmnopqrstuvwxyz"
		hialpha     = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
		digit       = "0123456789"
		safe        = "$-_.+"
		extra       = "!*'(),"
		national    = "{}|\\^~[]`"
		punctuation = "<>#%\""
		reserved    = ";/?:@&="
		hex         = digit + "ABCDEFabcdef"
		unreserved  = lowalpha + hialpha + digit + safe + extra
	)
	tests := []struct {
		name    string
		is      func(byte) bool
		members string
	}{
		{"safe", isSafe, safe},
		{"extra", isExtra, extra},
		{"national", isNational, national},
		{"punctuation", isPunctuation, punctuation},
		{"reserved", IsReserved, reserved},
		{"hex", IsHex, hex},
		{"unreserved", IsUnreserved, unreserved},
		{"uchar", IsUchar, unreserved},
		{"xchar", isXchar, unreserved + reserved},
	}
	for _, tt := range tests {
		for c := 0; c < 256; c++ {
			want := strings.IndexByte(tt.members, byte(c)) >= 0
			if got := tt.is(byte(c)); got != want {
				t.Errorf("%s(%q) = %v, want %v", tt.name, rune(c), got, want)
			}
		}
	}
	// RFC 1738 §2.2: every octet is exactly one of unreserved, reserved
	// or unsafe (with "%" unsafe unless it begins an escape).
	for c := 0; c < 256; c++ {
		b := byte(c)
		n := 0
		for _, in := range []bool{IsUnreserved(b), IsReserved(b), IsUnsafe(b)} {
			if in {
				n++
			}
		}
		if n != 1 {
			t.Errorf("octet %#02x is in %d of unreserved/reserved/unsafe, want 1", c, n)
		}
	}
}

// TestHostnameLengths: plainHostname takes labels of 63 octets and names
// of 253, not longer ones.
func TestHostnameLengths(t *testing.T) {
	l63, l64 := strings.Repeat("a", 63), strings.Repeat("a", 64)
	for h, want := range map[string]bool{
		l63: true, l64: false, l63 + "." + l63: true, l63 + "." + l64: false, l64 + ".a": false,
		"a." + l64: false, strings.Repeat(l63+".", 3) + strings.Repeat("b", 61): true,
		strings.Repeat(l63+".", 3) + strings.Repeat("b", 62): false,
	} {
		if got := plainHostname(h); got != want {
			t.Errorf("plainHostname(%d octets) = %v, want %v", len(h), got, want)
		}
	}
}
