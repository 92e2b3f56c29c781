package locator

import (
	"strconv"

	"github.com/rfc1738/locator/internal/hex"
)

// An Encoding names the characters a component may hold unencoded, per the
// BNF of RFC 1738 §5; Escape encodes every other octet.
type Encoding uint8

const (
	// EncodeUchar leaves only unreserved characters (uchar) unencoded:
	// wais database, wtype and wpath; a gopher type and selector's parts.
	EncodeUchar Encoding = iota
	// EncodeXchar leaves reserved characters alone and encodes only
	// unsafe ones: a whole url-path whose structure is already written.
	EncodeXchar
	// EncodeUser is for user and password: uchar | ";" | "?" | "&" | "=".
	EncodeUser
	// EncodeHSegment is for an http path segment and search:
	// uchar | ";" | ":" | "@" | "&" | "=".
	EncodeHSegment
	// EncodeFSegment is for an ftp, file or prospero path segment:
	// uchar | "?" | ":" | "@" | "&" | "=".
	EncodeFSegment
	// EncodeField is for a prospero fieldname or fieldvalue:
	// uchar | "?" | ":" | "@" | "&".
	EncodeField
	numEncodings
)

var encodeOK [numEncodings][256]bool

func init() {
	extra := [numEncodings]string{
		EncodeUchar:    "",
		EncodeXchar:    ";/?:@&=",
		EncodeUser:     ";?&=",
		EncodeHSegment: ";:@&=",
		EncodeFSegment: "?:@&=",
		EncodeField:    "?:@&",
	}
	for e := range encodeOK {
		for c := 0; c < 256; c++ {
			encodeOK[e][c] = class[c]&cUnreserved != 0
		}
		for i := 0; i < len(extra[e]); i++ {
			encodeOK[e][extra[e][i]] = true
		}
	}
}

// Escape encodes s for the component e as "%" hex hex (upper-case hex),
// every octet included: a "%" in s is data and becomes %25.
func Escape(s string, e Encoding) string {
	ok := &encodeOK[e%numEncodings]
	n := 0
	for i := 0; i < len(s); i++ {
		if !ok[s[i]] {
			n++
		}
	}
	if n == 0 {
		return s
	}
	b := make([]byte, 0, len(s)+2*n)
	for i := 0; i < len(s); i++ {
		c := s[i]
		if ok[c] {
			b = append(b, c)
		} else {
			b = append(b, '%', upperhex[c>>4], upperhex[c&15])
		}
	}
	return string(b)
}

// MakeSafe encodes the unsafe characters of RFC 1738 §2.2 in s (controls,
// space, non-ASCII octets, national and punctuation characters), leaving
// reserved characters and well-formed escapes as they are. A "%" that does
// not begin an escape is encoded as %25. A "#" is encoded too: in a
// component it is data, never a fragment delimiter.
func MakeSafe(s string) string {
	var b []byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		enc := IsUnsafe(c)
		if c == '%' && i+2 < len(s) && IsHex(s[i+1]) && IsHex(s[i+2]) {
			enc = false
		}
		if enc && b == nil {
			b = make([]byte, 0, len(s)+16)
			b = append(b, s[:i]...)
		}
		if b != nil {
			if enc {
				b = append(b, '%', upperhex[c>>4], upperhex[c&15])
			} else {
				b = append(b, c)
			}
		}
	}
	if b == nil {
		return s
	}
	return string(b)
}

// An EscapeError reports a "%" that does not begin "%" hex hex.
type EscapeError struct {
	Offset int    // byte offset of the "%" in the string given
	Text   string // the malformed escape as found (up to three octets)
}

func (e *EscapeError) Error() string {
	return "locator: offset " + strconv.Itoa(e.Offset) + ": escape: " + strconv.Quote(e.Text) +
		" is not \"%\" hex hex (RFC 1738 §2.2)"
}

// Unescape decodes every escape "%" hex hex in s. A malformed escape is
// kept as written, and the first one is reported as an *EscapeError;
// the decoded string is returned either way.
func Unescape(s string) (string, error) {
	i := 0
	for i < len(s) && s[i] != '%' {
		i++
	}
	if i == len(s) {
		return s, nil
	}
	var err error
	b := make([]byte, 0, len(s))
	b = append(b, s[:i]...)
	for ; i < len(s); i++ {
		c := s[i]
		if c != '%' {
			b = append(b, c)
			continue
		}
		if i+2 < len(s) && IsHex(s[i+1]) && IsHex(s[i+2]) {
			b = append(b, hex.Value(s[i+1])<<4|hex.Value(s[i+2]))
			i += 2
			continue
		}
		if err == nil {
			end := min(i+3, len(s))
			err = &EscapeError{Offset: i, Text: s[i:end]}
		}
		b = append(b, c)
	}
	return string(b), err
}

// Decode is Unescape for callers that keep malformed escapes as written
// and need no report: the form shown to a person.
func Decode(s string) string {
	d, _ := Unescape(s)
	return d
}
