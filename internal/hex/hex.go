// Package hex reads the two hex digits of RFC 1738 §2.2's escape,
// "%" hex hex, for the core and every scheme package.
package hex

// Value returns the value of the hex digit c (either case), or 0 when c
// is not one: callers check the digits first (locator.IsHex).
func Value(c byte) byte {
	switch {
	case c >= '0' && c <= '9':
		return c - '0'
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10
	}
	return 0
}

// Decode returns the octet "%" hi lo stands for.
func Decode(hi, lo byte) byte { return Value(hi)<<4 | Value(lo) }
