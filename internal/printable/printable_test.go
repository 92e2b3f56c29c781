package printable

import (
	"testing"
	"unicode/utf8"
)

func TestString(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"plain text", "plain text"},
		{"caf\u00e9 \u00e0 la cr\u00e8me", "caf\u00e9 \u00e0 la cr\u00e8me"},
		{"550 \x1b]0;owned\x07 nope", `550 \x1b]0;owned\x07 nope`},
		{"tab\there\r\n", `tab\x09here\x0d\x0a`},
		{"del\x7f", `del\x7f`},
		{"c1 \u009b31m red", `c1 \u009b31m red`},
		{"c1 \u0085 nel", `c1 \u0085 nel`},
		{"bare \x9b octet", `bare \x9b octet`},
		{"nul\x00", `nul\x00`},
		{"\u00a0nbsp stays", "\u00a0nbsp stays"},
	} {
		if got := String(c.in); got != c.want {
			t.Errorf("String(%q) = %q, want %q", c.in, got, c.want)
		}
		if Clean(c.in) != (c.in == c.want) {
			t.Errorf("Clean(%q) = %v", c.in, Clean(c.in))
		}
	}
}

func TestColumns(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"ok", "ok"},
		{"a\x1bb\u009bc\xffd\u00e9", "a?b?c?d\u00e9"},
	} {
		if got := Columns(c.in); got != c.want {
			t.Errorf("Columns(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestStringAllocatesNothingWhenClean(t *testing.T) {
	s := "gopher://example.org/1/caf\u00e9"
	if n := testing.AllocsPerRun(100, func() { _ = String(s) }); n != 0 {
		t.Fatalf("String of clean text: %v allocations", n)
	}
}

// FuzzPresentations: whatever s holds, String and Columns give printable
// text, leave a printable s as it is, and Columns keeps one character
// for each of s's (an octet that is not UTF-8 counts as one).
func FuzzPresentations(f *testing.F) {
	for _, s := range []string{"", "ok", "\x1b[2J", "\u009b", "\xc2", "caf\u00e9\x7f", "\xff\xfe"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		str, col := String(s), Columns(s)
		if !Clean(str) || !Clean(col) {
			t.Fatalf("%q: String %q, Columns %q", s, str, col)
		}
		if Clean(s) != (str == s) || Clean(s) != (col == s) {
			t.Fatalf("%q: Clean %v, String %q, Columns %q", s, Clean(s), str, col)
		}
		if utf8.RuneCountInString(col) != utf8.RuneCountInString(s) {
			t.Fatalf("%q: Columns %q", s, col)
		}
	})
}
