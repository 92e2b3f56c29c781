//go:build !amd64 || purego

package locator

// allowedPrefix returns the length of the longest prefix of s of octets
// ok allows, eight at a time (allowedPrefixWords); amd64 reads sixteen
// at a time with SSSE3 (octets_amd64.go).
func allowedPrefix(s string, ok *octetSet) int {
	return allowedPrefixWords(s, ok)
}
