package gemini

import (
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/rfc1738/locator"
)

// A Plan is the exchange a gemini URL stands for: connect to Host at
// Port, complete a TLS handshake naming Host, send Request, and read the
// response header and, for status 2x, the body until the server closes
// the connection (Gemini §1.1).
type Plan struct {
	// Host is the host connected to and named in the handshake (SNI):
	// the URL's, or for an internationalised name (non-ASCII or
	// percent-encoded) its ASCII form, each label an A-label (IDNA,
	// locator.ASCIIHost); an IPv6 literal without brackets.
	Host string
	Port int
	// Request is every octet the client sends: the URL, absolute and
	// without its fragment, then CR LF (Gemini §2). The URL is sent as
	// written (its scheme in lower case), still encoded, except for an
	// internationalised host, sent as Host is: a server compares the
	// host of the request with its own name, which DNS and its
	// certificate hold in ASCII.
	Request []byte
}

// sent is the URL a request for u sends and where its host is in it.
type sent struct {
	url    string
	hostAt int    // the offset of the host in url, and in u.String()
	host   string // the host as the URL writes it
	ascii  string // the host as sent
}

// request returns the URL a request for u sends: u as written, scheme in
// lower case, without the fragment and any wrapper or white space, and
// with an internationalised host (one with a non-ASCII octet or a
// percent-encoded one) in its ASCII form, decoded and written with
// A-labels by locator.ASCIIHost. A host that has no ASCII form (its
// octets, decoded, are not UTF-8, or IDNA refuses it) fails with a
// *locator.HostError, and the URL is then the one as written.
func request(u *locator.URL) (sent, error) {
	s := u.String()
	if u.HasFragment() {
		s = s[:len(s)-len(u.Fragment())-1]
	}
	r := sent{url: s, host: u.Host(), ascii: u.Host()}
	if !international(r.host) {
		return r, nil
	}
	d := locator.Decode(r.host)
	if !utf8.ValidString(d) {
		// ASCIIHost would read the octets as U+FFFD and send a
		// name nobody wrote.
		return r, &locator.HostError{Host: d, Err: errors.New("the host's octets are not UTF-8")}
	}
	a, err := locator.ASCIIHost(d)
	if err != nil {
		return r, err
	}
	r.hostAt = u.Offset(locator.HostComponent) - u.Offset(locator.SchemeComponent)
	if r.hostAt < 0 || r.hostAt+len(r.host) > len(s) || s[r.hostAt:r.hostAt+len(r.host)] != r.host {
		// Not where the input says: String is not the input as
		// written (it never happens; the host is then sent as written).
		return r, nil
	}
	r.url, r.ascii = s[:r.hostAt]+a+s[r.hostAt+len(r.host):], a
	return r, nil
}

// international reports whether host is a name that is not written as
// DNS holds it: a non-ASCII octet, or a percent-encoded one. An IPv6
// literal (with a ":") is not a name.
func international(host string) bool {
	if strings.IndexByte(host, ':') >= 0 {
		return false
	}
	for i := 0; i < len(host); i++ {
		if host[i] >= 0x80 || host[i] == '%' {
			return true
		}
	}
	return false
}

// requestURL is the URL a request for u sends (request), the URL as
// written when its host has no ASCII form.
func requestURL(u *locator.URL) string {
	r, _ := request(u)
	return r.url
}

// requestLen returns the length of the request URL for u, as sent, and
// the offset in u.Input() of the octet where it passes maxRequest
// (meaningful when the length does): the octet of the input that is
// sent as the first octet past the limit, or the host's first when that
// octet is in a host rewritten in ASCII.
func requestLen(u *locator.URL) (n, off int) {
	r, _ := request(u)
	base := u.Offset(locator.SchemeComponent)
	switch {
	case r.ascii == r.host || maxRequest < r.hostAt:
		off = base + maxRequest
	case maxRequest < r.hostAt+len(r.ascii):
		off = u.Offset(locator.HostComponent)
	default:
		off = base + maxRequest - len(r.ascii) + len(r.host)
	}
	return len(r.url), off
}

// A RequestError says that a URL cannot be asked for: its request would
// be longer than maxRequest octets (Gemini §2). Offset is the octet of
// the URL's input at which it passes the limit.
type RequestError struct {
	Length int // the request URL's length in octets
	Offset int // in the URL's input, where maxRequest is passed
}

func (e *RequestError) Error() string {
	return "the request URL is " + strconv.Itoa(e.Length) + " octets, over Gemini's limit of " + strconv.Itoa(maxRequest) +
		", which it passes at offset " + strconv.Itoa(e.Offset) + " (Gemini §2)"
}

// NewPlan returns the exchange u stands for. It fails, before anything
// is sent, with a *locator.SchemeError when u is not a gemini URL with a
// host (one that has an ASCII form) and a port from 1 to 65535, and with
// a *RequestError when the request, as sent, would be longer than
// maxRequest octets.
func NewPlan(u *locator.URL) (*Plan, error) {
	if _, err := From(u); err != nil {
		return nil, err
	}
	if !u.HasAuthority() || u.Host() == "" {
		return nil, schemeError("host", 0, "geminiurl", "a gemini URL names a host (Gemini §1.2)")
	}
	r, err := request(u)
	if err != nil {
		return nil, schemeError("host", 0, "host", err.Error())
	}
	pl := &Plan{Host: r.ascii, Port: defaultPort}
	if u.HasPort() {
		n, err := strconv.Atoi(u.Port())
		if err != nil || n < 1 || n > 65535 {
			return nil, schemeError("port", 0, "port", "port "+strconv.Quote(u.Port())+" is not a number from 1 to 65535")
		}
		pl.Port = n
	}
	s := r.url
	if n, off := requestLen(u); n > maxRequest {
		return nil, &RequestError{Length: n, Offset: off}
	}
	if i := strings.IndexAny(s, "\r\n\x00"); i >= 0 {
		return nil, schemeError("url", i, "request", "a CR, LF or NUL in the URL would end the request line early (RFC 1738 §6)")
	}
	pl.Request = append([]byte(s), '\r', '\n')
	return pl, nil
}
