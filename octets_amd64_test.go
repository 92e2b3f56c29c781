//go:build amd64 && !purego

package locator

import "testing"

// TestAllowedPrefixNoSSSE3: allowedPrefix reads one octet at a time
// where the processor has no SSSE3, as it does for notAuthorityEnd.
func TestAllowedPrefixNoSSSE3(t *testing.T) {
	defer func(v bool) { useSSSE3 = v }(useSSSE3)
	useSSSE3 = false
	checkAllowedPrefix(t)
}
