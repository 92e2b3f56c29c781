package http

import (
	"strconv"
	"strings"

	"github.com/rfc1738/locator"
)

// version is the HTTP version of the request line: HTTP/1.0 (RFC 1945),
// the protocol of RFC 1738's time, which HTTP/1.1 servers accept.
const version = "HTTP/1.0"

// connectVersion is the version of a CONNECT request line: the method
// belongs to HTTP/1.1 (RFC 9110 §9.3.6; RFC 7231 §4.3.6 before it) and
// has no HTTP/1.0 definition.
const connectVersion = "HTTP/1.1"

// A Request is what an http URL stands for: the server to connect to and
// the request line and Host header to send there.
type Request struct {
	// Method is "GET": a URL names an object to retrieve; or "CONNECT"
	// when an https URL goes through a proxy (NewProxyRequest).
	Method string
	// Target is the request-target as sent: "/" path ["?" search] for a
	// server (origin form), the whole URL for a proxy (absolute form),
	// host:port for CONNECT (authority form, RFC 9110 §7.1, §9.3.6).
	// Unsafe octets (RFC 1738 §2.2) are encoded so that the line holds no
	// space or control; everything else is sent as written, never decoded.
	Target string
	// Host is the Host header: host[:port] as written in the URL, a host
	// name with non-ASCII characters in its A-label form (see wireHost);
	// for CONNECT the authority of the target, port included.
	Host string
	// Addr is the host and the port to connect to ("[::1]:80" for IPv6).
	Addr string
	// TLS is true for https (RFC 2818, beyond RFC 1738).
	TLS bool
	// Tunnel is, for CONNECT, the request sent through the tunnel once it
	// is open and TLS is set up in it: NewRequest's origin-form request.
	Tunnel *Request
}

// Line returns the request line without its CRLF: "GET /path?search
// HTTP/1.0", or "CONNECT host:443 HTTP/1.1".
func (r *Request) Line() string {
	if r.Method == "CONNECT" {
		return r.Method + " " + r.Target + " " + connectVersion
	}
	return r.Method + " " + r.Target + " " + version
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
	return &RequestError{Input: u.Input(), Problem: locator.Problem{Offset: off, Severity: locator.Error, Rule: rule, Message: msg}}
}

// NewRequest returns the request an http or https URL stands for, in
// origin form: the path (or "/" when the URL has none) and the search
// part after "?" go to the server; the fragment does not (1993 draft,
// "Specific Schemes", HTTP). It fails with a *RequestError when u is not
// an http or https URL or names no host.
func NewRequest(u *locator.URL) (*Request, error) {
	if u.Scheme() != "http" && u.Scheme() != "https" {
		return nil, requestError(u, u.Offset(locator.SchemeComponent), "httpurl", "not an http or https URL")
	}
	if !u.HasAuthority() || u.Host() == "" {
		return nil, requestError(u, u.Offset(locator.HostComponent), "host", "the URL names no host to connect to (RFC 1738 §3.1)")
	}
	var b strings.Builder
	b.WriteByte('/')
	b.WriteString(locator.MakeSafe(u.Path()))
	if u.HasSearch() {
		b.WriteByte('?')
		b.WriteString(locator.MakeSafe(u.Search()))
	}
	return &Request{Method: "GET", Target: b.String(), Host: hostport(u), Addr: addr(u), TLS: u.Scheme() == "https"}, nil
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
//
// An https URL is not sent to a proxy: the proxy is asked to open a
// tunnel, "CONNECT host:port HTTP/1.1" with the port always written (443
// by default) and the same authority as Host (RFC 9110 §9.3.6, RFC 7231
// §4.3.6), and the request itself, NewRequest's origin form, goes through
// the tunnel under TLS (RFC 2818 §2; RFC 9112 §3.2.3): it is the
// returned request's Tunnel.
func NewProxyRequest(u *locator.URL) (*Request, error) {
	if (u.Scheme() == "http" || u.Scheme() == "https") && (!u.HasAuthority() || u.Host() == "") {
		return nil, requestError(u, u.Offset(locator.HostComponent), "host", "the URL names no host (RFC 1738 §3.1)")
	}
	if u.Scheme() == "https" {
		inner, err := NewRequest(u)
		if err != nil {
			return nil, err
		}
		authority := hostOnly(u) + ":" + strconv.Itoa(u.EffectivePort())
		return &Request{Method: "CONNECT", Target: authority, Host: authority, Tunnel: inner}, nil
	}
	v := u.Parts()
	if u.HasAuthority() {
		v.Host = wireName(u.Host())
	}
	v.HasFragment, v.Fragment = false, ""
	if u.Scheme() == "http" || u.Scheme() == "https" {
		// §3.3 allows no user or password; none is sent.
		v.HasUser, v.User, v.HasPassword, v.Password = false, "", false, ""
	}
	v.User, v.Password = locator.MakeSafe(v.User), locator.MakeSafe(v.Password)
	v.Path, v.Search = locator.MakeSafe(v.Path), locator.MakeSafe(v.Search)
	return &Request{Method: "GET", Target: v.String(), Host: hostport(u)}, nil
}

// wireName is a host as a request carries it: as written when it is
// ASCII; a name with non-ASCII characters in its A-label form
// (locator.ASCIIHost: IDNA2008 as UTS #46 maps it), since DNS, the
// request line and the Host header hold ASCII only (RFC 1738 §3.1: a
// fully qualified domain name; RFC 5890 §2.3.2.1). A name that has no
// A-label form is left as written; the URL's problems say why.
func wireName(h string) string {
	for i := 0; i < len(h); i++ {
		if h[i] >= 0x80 {
			if a, err := locator.ASCIIHost(h); err == nil {
				return a
			}
			return h
		}
	}
	return h
}

// hostOnly is u's host for the wire (wireName), an IPv6 literal in
// brackets.
func hostOnly(u *locator.URL) string {
	h := wireName(u.Host())
	if strings.IndexByte(h, ':') >= 0 {
		h = "[" + h + "]"
	}
	return h
}

// hostport is the Host header's value: hostOnly and the port as written.
func hostport(u *locator.URL) string {
	if u.HasPort() {
		return hostOnly(u) + ":" + u.Port()
	}
	return hostOnly(u)
}

func addr(u *locator.URL) string {
	return hostOnly(u) + ":" + strconv.Itoa(u.EffectivePort())
}
