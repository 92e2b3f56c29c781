package http

import (
	"strconv"
	"strings"

	"github.com/rfc1738/locator"
)

// Version is the HTTP version of the request line: HTTP/1.0 (RFC 1945),
// the protocol of RFC 1738's time, which HTTP/1.1 servers accept.
const Version = "HTTP/1.0"

// A Request is what an http URL stands for: the server to connect to and
// the request line and Host header to send there.
type Request struct {
	Method string // always "GET": a URL names an object to retrieve
	// Target is the request-target as sent: "/" path ["?" search] for a
	// server, the whole URL for a proxy. Unsafe octets (RFC 1738 §2.2) are
	// encoded so that the line holds no space or control; everything else
	// is sent as written, never decoded.
	Target string
	// Host is the Host header: host[:port] as written in the URL.
	Host string
	// Addr is the host and the port to connect to ("[::1]:80" for IPv6).
	Addr string
	// TLS is true for https (RFC 2818, beyond RFC 1738).
	TLS bool
}

// Line returns the request line without its CRLF: "GET /path?search HTTP/1.0".
func (r *Request) Line() string {
	return r.Method + " " + r.Target + " " + Version
}

// A RequestError says why a URL stands for no request, with the offset
// in the URL's input and the rule.
type RequestError struct {
	Input   string
	Problem locator.Problem
}

func (e *RequestError) Error() string {
	return "http: no request for " + strconv.Quote(e.Input) + ": " + e.Problem.String()
}

func requestError(u *locator.URL, off int, rule, msg string) error {
	return &RequestError{Input: u.Input, Problem: locator.Problem{Offset: off, Severity: locator.Error, Rule: rule, Message: msg}}
}

// NewRequest returns the request an http or https URL stands for, in
// origin form: the path (or "/" when the URL has none) and the search
// part after "?" go to the server; the fragment does not (1993 draft,
// "Specific Schemes", HTTP). It fails with a *RequestError when u is not
// an http or https URL or names no host.
func NewRequest(u *locator.URL) (*Request, error) {
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, requestError(u, u.Offset(locator.SchemeComponent), "httpurl", "not an http or https URL")
	}
	if !u.Authority || u.Host == "" {
		return nil, requestError(u, u.Offset(locator.HostComponent), "host", "the URL names no host to connect to (RFC 1738 §3.1)")
	}
	var b strings.Builder
	b.WriteByte('/')
	b.WriteString(locator.MakeSafe(u.Path))
	if u.HasSearch {
		b.WriteByte('?')
		b.WriteString(locator.MakeSafe(u.Search))
	}
	return &Request{Method: "GET", Target: b.String(), Host: u.Hostport(), Addr: addr(u), TLS: u.Scheme == "https"}, nil
}

// NewProxyRequest returns the request that asks a proxy (the drafts'
// gateway) for u: the target is the whole URL in absolute form, of any
// scheme, without its fragment, and with unsafe octets encoded; an http
// URL's user and password, which §3.3 does not allow, are left out, while
// another scheme's login (an ftp user) goes to the gateway. Addr and
// TLS are left for the caller, who knows the proxy; Host is u's
// host[:port]. A URL of another scheme without a host (news:, mailto:)
// is passed on as written, for the gateway to judge; an http or https URL
// without a host fails with a *RequestError.
func NewProxyRequest(u *locator.URL) (*Request, error) {
	if (u.Scheme == "http" || u.Scheme == "https") && (!u.Authority || u.Host == "") {
		return nil, requestError(u, u.Offset(locator.HostComponent), "host", "the URL names no host (RFC 1738 §3.1)")
	}
	v := *u
	v.HasFragment, v.Fragment = false, ""
	if u.Scheme == "http" || u.Scheme == "https" {
		// §3.3 allows no user or password; none is sent.
		v.HasUser, v.User, v.HasPassword, v.Password = false, "", false, ""
	}
	v.User, v.Password = locator.MakeSafe(v.User), locator.MakeSafe(v.Password)
	v.Path, v.Search = locator.MakeSafe(v.Path), locator.MakeSafe(v.Search)
	return &Request{Method: "GET", Target: v.String(), Host: u.Hostport()}, nil
}

func addr(u *locator.URL) string {
	h := u.Host
	if strings.IndexByte(h, ':') >= 0 {
		h = "[" + h + "]"
	}
	return h + ":" + strconv.Itoa(u.EffectivePort())
}
