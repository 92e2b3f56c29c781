// Package gophers reads, builds, plans and follows gophers URLs: Gopher
// over TLS, a scheme RFC 1738 §4 leaves to be registered, which curl and
// several clients speak with no written standard. curl's implementation
// is the reference this package follows: the URL is a gopher URL with
// another prefix, the default port is Gopher's 70 (curl gives the scheme
// PORT_GOPHER), TLS begins with the connection's first octet (curl's
// PROTOPT_SSL: no STARTTLS-like upgrade), and then the request and the
// reply are Gopher's, octet for octet.
//
// Registration of the scheme, as RFC 1738 §4 asks of one ("a mapping
// onto a conforming URL syntax, using a new prefix"; "a definition of an
// algorithm for accessing of resources within that scheme and the syntax
// for representing such a scheme"; "demonstrable utility and
// operability"):
//
//	Scheme name: gophers
//
//	Syntax: that of the gopher URL (RFC 1738 §3.4, §5) with the prefix
//	"gophers://":
//
//	  gophersurl = "gophers://" hostport [ "/" [ gtype [ selector
//	               [ "%09" search [ "%09" gopher+_string ] ] ] ] ]
//
//	  with hostport, gtype, selector, search and gopher+_string as
//	  RFC 1738 §5 defines them. The port defaults to 70, Gopher's. No
//	  character within the gopher-path is reserved (§3.4.1), and an
//	  empty gopher-path is type "1" with the empty selector, the
//	  server's top-level directory.
//
//	Access algorithm: connect by TCP to host at port; begin TLS at
//	once, the client sending host as the server name (SNI) and
//	verifying the server's certificate for host; then carry out the
//	gopher URL's algorithm (RFC 1738 §3.4.1–3.4.9, RFC 1436,
//	Gopher+) over the TLS connection unchanged: send the request line
//	the URL stands for and read the reply until the server closes the
//	connection, which it does with TLS's close_notify alert: a stream
//	that ends without it may have been cut short by a third party (RFC
//	8446 §6.1), and the access fails. A server that answers the
//	handshake in plain Gopher does not speak the scheme: the access
//	fails, and is not tried again without TLS.
//
//	Menus: a Gopher menu line has no field that says whether its
//	server speaks TLS (RFC 1436 §3.8). An item of a menu read over
//	gophers that names the same host and port as the menu's URL is a
//	gophers URL, as the menu itself: the server that sent it over TLS
//	serves it over TLS. An item naming another host or port stays a
//	gopher URL: nothing says that server speaks TLS, and a client that
//	guessed would fail there or send the request in the clear to a port
//	it had not meant.
//
//	Utility and operability: the scheme is in use by Gopher servers
//	behind TLS terminators, by curl and by Gopher clients with TLS;
//	a gateway (this repository's locator gateway) serves gophers
//	objects to HTTP clients, as §4 suggests for a demonstration.
//
//	Objects: gophers URLs locate the data objects gopher URLs locate,
//	of the same item types.
//
// The package reuses package gopher's structure, rules, plan and client:
// URL wraps gopher.URL, Client a gopher.Client whose Connect makes the
// TLS connection.
package gophers

import (
	"errors"
	"strconv"
	"strings"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/gopher"
	"github.com/rfc1738/locator/internal/urlbuild"
)

// defaultPort is the port a gophers URL means when it names none:
// Gopher's 70, as curl's gophers (PORT_GOPHER) has it.
const defaultPort = gopher.DefaultPort

// scheme is the scheme's name.
const scheme = "gophers"

// URL is a gophers URL's decoded structure: a gopher URL's (see
// gopher.URL) reached over TLS.
type URL struct {
	gopher.URL
}

// schemeError is the *locator.SchemeError of a gophers URL's field.
func schemeError(field string, off int, rule, msg string) *locator.SchemeError {
	return &locator.SchemeError{Scheme: scheme, Field: field, Offset: off, Rule: rule, Message: msg}
}

// Parse reads s with locator.Parse and returns its gophers structure. The
// error is a *locator.ParseError when s is not a URL at all, and a
// *locator.SchemeError when it is not a gophers URL.
func Parse(s string) (*URL, error) { return urlbuild.Parse(s, From) }

// From decodes the structure of u, gopher's (gopher.From). It fails only
// when u is not a gophers URL, with a *locator.SchemeError of field
// "url".
func From(u *locator.URL) (*URL, error) {
	if u.Scheme() != scheme {
		return nil, schemeError("url", 0, "gophersurl", "scheme is "+strconv.Quote(u.Scheme())+", not gophers")
	}
	gu, _, err := asGopher(u)
	if err != nil {
		return nil, err
	}
	g, err := gopher.From(gu)
	if err != nil {
		return nil, err
	}
	return &URL{*g}, nil
}

// asGopher returns the gopher URL u stands for: the same text after the
// scheme, with the prefix "gopher". delta is what to add to an offset in
// the gopher URL's input to find the octet in u's.
func asGopher(u *locator.URL) (gu *locator.URL, delta int, err error) {
	p := u.Parts()
	p.Scheme = "gopher"
	gu, err = p.URL()
	if err != nil {
		return nil, 0, err
	}
	c := locator.HostComponent
	if !u.HasAuthority() {
		c = locator.PathComponent
	}
	return gu, u.Offset(c) - gu.Offset(c), nil
}

// Build writes g as a correctly encoded gophers URL, by gopher.URL's
// Build and its rules, with the prefix "gophers".
func (g *URL) Build() (string, error) {
	s, err := g.URL.Build()
	if err != nil {
		var se *locator.SchemeError
		var be *locator.BuildError
		switch {
		case errors.As(err, &se):
			se.Scheme = scheme
		case errors.As(err, &be):
			be.Scheme = scheme
			be.URL = withScheme(be.URL)
		}
		return "", err
	}
	return withScheme(s), nil
}

// withScheme writes the gopher URL s with the prefix "gophers".
func withScheme(s string) string {
	if rest, ok := strings.CutPrefix(s, "gopher:"); ok {
		return scheme + ":" + rest
	}
	return s
}

// A Plan is the exchange a gophers URL stands for: gopher's (connect to
// Host at Port, send Request, read the reply until the server closes the
// connection) over TLS begun at the connection's first octet, the client
// sending ServerName (SNI) and verifying the certificate for it.
type Plan struct {
	gopher.Plan
	// ServerName is the URL's host: the name TLS asks for and the
	// certificate must be valid for (an IP address is checked against
	// the certificate's addresses, and not sent as SNI, RFC 6066 §3).
	ServerName string
}

// Plan returns the exchange g stands for, or gopher.URL.Plan's error.
func (g *URL) Plan() (*Plan, error) {
	p, err := g.URL.Plan()
	if err != nil {
		var se *locator.SchemeError
		if errors.As(err, &se) {
			se.Scheme = scheme
		}
		return nil, err
	}
	return &Plan{Plan: *p, ServerName: p.Host}, nil
}
