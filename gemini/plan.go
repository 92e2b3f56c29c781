package gemini

import (
	"strconv"
	"strings"

	"github.com/rfc1738/locator"
)

// A Plan is the exchange a gemini URL stands for: connect to Host at
// Port, complete a TLS handshake naming Host, send Request, and read the
// response header and, for status 2x, the body until the server closes
// the connection (Gemini §1.1).
type Plan struct {
	Host string // as in the URL, an IPv6 literal without brackets
	Port int
	// Request is every octet the client sends: the URL, absolute and
	// without its fragment, then CR LF (Gemini §2). The URL is sent as
	// written (its scheme in lower case), still encoded.
	Request []byte
}

// requestURL is the URL a request for u sends: u as written, scheme in
// lower case, without the fragment and any wrapper or white space.
func requestURL(u *locator.URL) string {
	s := u.String()
	if u.HasFragment() {
		s = s[:len(s)-len(u.Fragment())-1]
	}
	return s
}

// requestLen returns the length of the request URL for u and the offset
// in u.Input() of the octet where it passes MaxRequest (meaningful when
// the length does).
func requestLen(u *locator.URL) (n, off int) {
	return len(requestURL(u)), u.Offset(locator.SchemeComponent) + MaxRequest
}

// A RequestError says that a URL cannot be asked for: its request would
// be longer than MaxRequest octets (Gemini §2). Offset is the octet of
// the URL's input at which it passes the limit.
type RequestError struct {
	Length int // the request URL's length in octets
	Offset int // in the URL's input, where MaxRequest is passed
}

func (e *RequestError) Error() string {
	return "the request URL is " + strconv.Itoa(e.Length) + " octets, over Gemini's limit of " + strconv.Itoa(MaxRequest) +
		", which it passes at offset " + strconv.Itoa(e.Offset) + " (Gemini §2)"
}

// NewPlan returns the exchange u stands for. It fails, before anything
// is sent, with a *locator.SchemeError when u is not a gemini URL with a
// host and a port from 1 to 65535, and with a *RequestError when the
// request would be longer than MaxRequest octets.
func NewPlan(u *locator.URL) (*Plan, error) {
	if _, err := From(u); err != nil {
		return nil, err
	}
	if !u.HasAuthority() || u.Host() == "" {
		return nil, schemeError("host", 0, "geminiurl", "a gemini URL names a host (Gemini §1.2)")
	}
	pl := &Plan{Host: u.Host(), Port: DefaultPort}
	if u.HasPort() {
		n, err := strconv.Atoi(u.Port())
		if err != nil || n < 1 || n > 65535 {
			return nil, schemeError("port", 0, "port", "port "+strconv.Quote(u.Port())+" is not a number from 1 to 65535")
		}
		pl.Port = n
	}
	s := requestURL(u)
	if n, off := requestLen(u); n > MaxRequest {
		return nil, &RequestError{Length: n, Offset: off}
	}
	if i := strings.IndexAny(s, "\r\n\x00"); i >= 0 {
		return nil, schemeError("url", i, "request", "a CR, LF or NUL in the URL would end the request line early (RFC 1738 §6)")
	}
	pl.Request = append([]byte(s), '\r', '\n')
	return pl, nil
}
