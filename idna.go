package locator

import (
	"strconv"
	"strings"

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
// An IP literal is not a name and is returned as it is, its hex digits in
// lower case: an IPv6 address (it contains ':'; an RFC 6874 zone after
// '%' keeps its case) and a host number of digits and dots.
func ASCIIHost(host string) (string, error) {
	if strings.IndexByte(host, ':') >= 0 {
		if z := strings.IndexByte(host, '%'); z >= 0 {
			return lowerASCII(host[:z]) + host[z:], nil
		}
		return lowerASCII(host), nil
	}
	if allDigitsOrDots(host) {
		return host, nil
	}
	a, err := idna.Lookup.ToASCII(host)
	if err != nil {
		return "", &HostError{Host: host, Err: err}
	}
	return a, nil
}

// A HostError says why ASCIIHost could not write a host in ASCII.
type HostError struct {
	Host string // the host as given
	Err  error  // the IDNA error (UTS #46 §4 Processing and §4.1 Validity Criteria)
}

func (e *HostError) Error() string {
	return "host " + quoteHost(e.Host) + ": not an IDNA host name (RFC 5890, UTS #46 §4): " + e.Err.Error()
}

func (e *HostError) Unwrap() error { return e.Err }

func quoteHost(h string) string {
	const max = 80
	if len(h) > max {
		return strconv.Quote(h[:max]) + "..."
	}
	return strconv.Quote(h)
}
