//go:build amd64 && !purego

package locator

// useSSSE3: the processor has SSSE3's PSHUFB, which allowedPrefix
// classifies sixteen octets at a time with.
var useSSSE3 = hasSSSE3()

// allowedPrefix returns the length of the longest prefix of s of octets
// ok allows: sixteen at a time with SSSE3 (octets_amd64.s) when ok holds
// no octet above 0x7F, as every set but notAuthorityEnd does; otherwise
// one at a time.
//
//go:noescape
func allowedPrefix(s string, ok *octetSet) int

func hasSSSE3() bool
