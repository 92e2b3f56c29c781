// Package dest names the destinations a program connects to and bounds
// what is open to each: the one reading of a URL's host (Host), the keys
// by which destinations are counted (Name, Addr), and the Limiter that
// counts them, shared by the gateway (connections open to one address
// and port), the link checker and a crawler (requests under way to one
// server).
package dest

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strconv"
	"strings"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/internal/printable"
)

// Host returns host, a URL's host or a configured server's, as a
// resolver, a dialer and a policy must see it. RFC 1738 §2.2 lets any
// octet of a URL be written as an escape, and §3.1 says the host is a
// domain name or an address: escapes are decoded ("%31%32%37.0.0.1" is
// 127.0.0.1), a name with non-ASCII characters is mapped to its A-labels
// by IDNA as UTS #46 maps it for lookup (locator.ASCIIHost: "ⓛocalhost"
// is "localhost", full-width digits are digits), and the result is in
// lower case. A final "." (an absolute name) is kept, for the resolver.
// What remains must be made of the characters of host names and
// addresses (letters, digits, '-', '.', '_', and ':' of an IPv6
// address); anything else (a space, a control, '/', '@', '%', a
// malformed escape, an IPv6 zone, RFC 6874, which names an interface of
// this machine) is refused, as no resolver or dialer should be asked for
// it.
func Host(h string) (string, error) {
	if h == "" {
		return "", errors.New("the host is empty")
	}
	if strings.IndexByte(h, '%') >= 0 {
		if strings.IndexByte(h, ':') >= 0 {
			if _, err := netip.ParseAddr(h); err == nil {
				return "", errors.New("an IPv6 address with a zone names an interface of this machine")
			}
		}
		d, err := locator.Unescape(h)
		if err != nil {
			return "", fmt.Errorf("the host %s has a malformed escape: %v", strconv.Quote(printable.String(h)), err)
		}
		h = d
	}
	ascii := true
	for i := 0; i < len(h); i++ {
		if h[i] >= 0x80 {
			ascii = false
			break
		}
	}
	if !ascii {
		a, err := locator.ASCIIHost(h)
		if err != nil {
			return "", fmt.Errorf("the host %s is not a host name: %v", strconv.Quote(printable.String(h)), err)
		}
		h = a
	}
	h = strings.ToLower(h)
	for i := 0; i < len(h); i++ {
		c := h[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_' || c == ':') {
			return "", fmt.Errorf("the host %s holds %s, which no host name or address has (RFC 1738 §3.1)", strconv.Quote(printable.String(h)), strconv.QuoteRune(rune(c)))
		}
	}
	if h == "" || h == "." {
		return "", errors.New("the host is empty")
	}
	return h, nil
}

// Name is the key of the server a host names, for counting what is
// under way to it before any connection: the host as Host reads it,
// without its final "." ("EXAMPLE.org." and "%65xample.org" are one
// server), any port. A host Host refuses is its own key in lower case:
// no connection will be made to it (policy refuses it), so what it is
// counted against does not matter. "" is no server (a file URL).
func Name(h string) string {
	if h == "" {
		return ""
	}
	n, err := Host(h)
	if err != nil {
		n = strings.ToLower(h)
	}
	if n != "." {
		n = strings.TrimSuffix(n, ".")
	}
	return n
}

// Addr is the key of one connection's destination: the address actually
// connected to and its port ("192.0.2.1:70", "[2001:db8::1]:21"),
// whatever name or redirection led there.
func Addr(a netip.Addr, port string) string {
	return net.JoinHostPort(a.Unmap().String(), port)
}
