// Package printable holds the one rule by which text that came from
// outside (a URL, a server's reply, a name in a listing) is made fit for a
// terminal or a log line: it must not move the cursor, set the window
// title, ring the bell or begin an escape sequence.
//
// The rule: a C0 control (U+0000–U+001F, TAB, CR and LF included), DEL
// (U+007F), a C1 control (U+0080–U+009F, which a terminal may read as
// CSI or OSC whether it comes as one octet or UTF-8 encoded) and an octet
// that is not part of valid UTF-8 are not printable. Everything else
// passes unchanged.
package printable

import (
	"strings"
	"unicode/utf8"
)

const hexDigits = "0123456789abcdef"

// Control reports whether the rune r, decoded from n octets by
// utf8.DecodeRuneInString, is not printable under the package's rule.
func Control(r rune, n int) bool {
	return r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) || (r == utf8.RuneError && n == 1)
}

// Clean reports whether s is printable as it stands.
func Clean(s string) bool { return next(s, 0) == len(s) }

// String returns s with every octet that is not printable written as an
// escape: "\x1b" for a C0 control, DEL or an octet that is not UTF-8,
// "\u009b" for a C1 control. A backslash is left as it is, so the result
// is for reading, not for decoding. s is returned unchanged when it is
// clean, with no allocation.
func String(s string) string {
	return rewrite(s, func(b *strings.Builder, c string, r rune) {
		if len(c) == 1 {
			b.WriteString(`\x`)
			b.WriteByte(hexDigits[c[0]>>4])
			b.WriteByte(hexDigits[c[0]&15])
			return
		}
		b.WriteString(`\u00`)
		b.WriteByte(hexDigits[r>>4&15])
		b.WriteByte(hexDigits[r&15])
	})
}

// Columns returns s with every character that is not printable replaced
// by one '?', so that each takes one column: for output that points at a
// place under the text (a caret under an offset).
func Columns(s string) string {
	return rewrite(s, func(b *strings.Builder, _ string, _ rune) { b.WriteByte('?') })
}

// rewrite returns s with each character that is not printable, the
// octets c decoded as r, replaced by what write writes; s itself when
// there is none.
func rewrite(s string, write func(b *strings.Builder, c string, r rune)) string {
	i := next(s, 0)
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	from := 0
	for i < len(s) {
		b.WriteString(s[from:i])
		r, n := utf8.DecodeRuneInString(s[i:])
		write(&b, s[i:i+n], r)
		from = i + n
		i = next(s, from)
	}
	b.WriteString(s[from:])
	return b.String()
}

// next is the offset of the first character at or after s[i] that is
// not printable, or len(s).
func next(s string, i int) int {
	for i < len(s) {
		if c := s[i]; c < utf8.RuneSelf {
			if Control(rune(c), 1) {
				return i
			}
			i++ // ASCII, decoded inline
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if Control(r, n) {
			return i
		}
		i += n
	}
	return len(s)
}
