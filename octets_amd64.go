//go:build amd64 && !purego

package locator

// useSSSE3: the processor has SSSE3's PSHUFB, which the vector scan
// classifies sixteen octets with.
var useSSSE3 = hasSSSE3()

// allowedPrefix returns the length of the longest prefix of s of octets
// ok allows: sixteen at a time with SSSE3 (octets_amd64.s) when ok holds
// no octet above 0x7F, as every set but notAuthorityEnd does; otherwise
// eight at a time (allowedPrefixWords).
func allowedPrefix(s string, ok *octetSet) int {
	if ok.vec && useSSSE3 {
		return allowedPrefixSSSE3(s, &ok.nib)
	}
	return allowedPrefixWords(s, ok)
}

// allowedPrefixSSSE3 is allowedPrefix for a set in its nibble table
// (octetSet.nib).
//
//go:noescape
func allowedPrefixSSSE3(s string, nib *[16]uint8) int

func hasSSSE3() bool
