package locator

import (
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/idna"
)

// ASCIIHost returns host in the form DNS and RFC 1738 §3.1 write it: each
// label of a domain name that holds non-ASCII characters becomes its
// A-label ("BÜCHER.example" is "xn--bcher-kva.example"), by IDNA2008 as
// UTS #46 maps it (RFC 5890–5893, Unicode TS #46 §4 ToASCII,
// nontransitional), and the result is in lower case.
//
// The profile is golang.org/x/net/idna's Lookup, the one for names about
// to be looked up: UTS #46 mapping (case folding, width and compatibility
// forms), the Bidi and ContextJ rules, hyphen checks, and the STD3 ASCII
// rules, which are RFC 1738's own hostname characters (letters, digits,
// '-' and '.'). A host outside them ("a_b.example", a
// label that begins or ends with '-', an A-label that does not decode)
// is an error, a *HostError naming the rule; the host is then best
// written as it is.
//
// A host that is not UTF-8, IP literal or name, is an error too, a
// *HostError whose Err is an *InvalidUTF8Error with the offset of the
// first octet that is not: a U-label is Unicode text (RFC 5890
// §2.3.2.1), and UTS #46 would read each such octet as U+FFFD and give
// the A-label of a name nobody wrote ("\xff.example" is not
// "xn--zn7c.example"). So is a name longer than maxHost octets, refused
// before IDNA reads it.
//
// An IP literal is not a name and is returned as it is, its hex digits in
// lower case: an IPv6 address (it contains ':'; an RFC 6874 zone after
// '%' keeps its case) and a host number of digits and dots.
func ASCIIHost(host string) (string, error) {
	if i := invalidUTF8(host); i >= 0 {
		return "", &HostError{Host: host, Err: &InvalidUTF8Error{Offset: i, Octet: host[i]}}
	}
	if strings.IndexByte(host, ':') >= 0 {
		if z := strings.IndexByte(host, '%'); z >= 0 {
			return lowerASCII(host[:z]) + host[z:], nil
		}
		return lowerASCII(host), nil
	}
	if allDigitsOrDots(host) {
		return host, nil
	}
	if len(host) > maxHost {
		return "", &HostError{Host: host, Err: errHostLength}
	}
	a, err := idna.Lookup.ToASCII(host)
	if err != nil {
		return "", &HostError{Host: host, Err: err}
	}
	return a, nil
}

// maxHost is the length, in octets, of the longest name ASCIIHost
// converts. No DNS name is longer than 255 octets (RFC 1035 §2.3.4), but
// UTS #46 maps some characters to fewer octets or to nothing, so the
// bound is set well past that, at 16 times. It keeps the Punycode
// encoding (RFC 3492 §6.3), whose time grows with the square of a label's
// length, to some tens of milliseconds: a hostile host of 48 KB of
// distinct characters would take seconds.
const maxHost = 4096

var errHostLength = errors.New("longer than " + strconv.Itoa(maxHost) + " octets, which no DNS name is (RFC 1035 §2.3.4)")

// A HostError says why ASCIIHost could not write a host in ASCII.
type HostError struct {
	Host string // the host as given
	Err  error  // the IDNA error (UTS #46 §4 Processing and §4.1 Validity Criteria)
}

func (e *HostError) Error() string {
	return "host " + quoteHost(e.Host) + ": not an IDNA host name (RFC 5890, UTS #46 §4): " + e.Err.Error()
}

func (e *HostError) Unwrap() error { return e.Err }

// An InvalidUTF8Error says where a host that ASCIIHost refused is not
// UTF-8 (RFC 3629 §4).
type InvalidUTF8Error struct {
	Offset int  // of the first octet that does not begin or continue a UTF-8 sequence, in the host
	Octet  byte // the octet at Offset
}

func (e *InvalidUTF8Error) Error() string {
	return "the octet 0x" + strconv.FormatUint(uint64(e.Octet)|0x100, 16)[1:] + " at offset " + strconv.Itoa(e.Offset) +
		" is not UTF-8 (RFC 3629 §4), and a U-label is Unicode text (RFC 5890 §2.3.2.1)"
}

// invalidUTF8 returns the offset of the first octet of s that is not
// UTF-8, or -1 when s is UTF-8.
func invalidUTF8(s string) int {
	for i := 0; i < len(s); {
		if s[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			return i
		}
		i += n
	}
	return -1
}

func quoteHost(h string) string {
	const max = 80
	if len(h) > max {
		return strconv.Quote(h[:max]) + "..."
	}
	return strconv.Quote(h)
}
