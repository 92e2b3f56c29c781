package locator

// Equal reports whether a and b are equivalent: whether their normal
// forms (Normalize) have the same components. Case in the scheme and
// host, a default port, the case of an escape's hex digits, an escaped
// unreserved character and dot segments in a hierarchical path make no
// difference; an escaped reserved character is never equal to the
// character itself ("a%2Fb" is not "a/b": RFC 1738 §2.2, "If the
// character corresponding to an octet is reserved in a scheme, the octet
// must be encoded"). Two nil URLs are equal; nil and a URL are not.
func Equal(a, b *URL) bool {
	if a == nil || b == nil {
		return a == b
	}
	return Normalize(a).SameComponents(Normalize(b))
}
