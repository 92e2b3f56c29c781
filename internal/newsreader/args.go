package newsreader

import (
	"fmt"
	"strings"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/internal/hex"
)

// ArgOffset returns the offset in the encoded text enc of the first
// octet that, once %XX escapes are decoded, would break a command line
// (CR, LF, NUL, space, TAB) or extra holds; -1 when there is none.
func ArgOffset(enc, extra string) int {
	for i := 0; i < len(enc); i++ {
		c, w := octet(enc, i)
		if checkArg(string(c)) >= 0 || strings.IndexByte(extra, c) >= 0 {
			return i
		}
		i += w - 1
	}
	return -1
}

// DecodedAt returns the octet of enc at i, decoded when it begins an
// escape.
func DecodedAt(enc string, i int) byte {
	c, _ := octet(enc, i)
	return c
}

// octet returns the octet of enc at i and the width it is written in: 3
// for a %XX escape, else 1.
func octet(enc string, i int) (byte, int) {
	if enc[i] == '%' && i+2 < len(enc) && locator.IsHex(enc[i+1]) && locator.IsHex(enc[i+2]) {
		return hex.Decode(enc[i+1], enc[i+2]), 3
	}
	return enc[i], 1
}

// ArgPolicyError is the refusal of an octet at offset (in the URL's
// input) that would break an NNTP command line: CR, LF and NUL under
// RFC 1738 §6, a space or TAB under RFC 3977 §3.1 (it would split the
// argument in two).
func ArgPolicyError(u *locator.URL, offset int, c byte) *access.PolicyError {
	rule, what := "RFC 3977 §3.1", "would split the NNTP command's argument in two"
	if c == '\r' || c == '\n' || c == 0 {
		rule, what = "RFC 1738 §6", "would end the NNTP command line and begin another"
	}
	return &access.PolicyError{URL: access.Masked(u), Offset: offset, Rule: rule,
		Reason: fmt.Sprintf("decoded octet %%%02X %s", c, what)}
}
