package gophers

import (
	"strconv"
	"strings"

	"github.com/rfc1738/locator"
)

func init() {
	// The core splits a gophers URL as a gopher one (RFC 1738 §3.4):
	// "//" hostport, no "?" search (a "?" is part of the selector), and
	// the %09 and CR LF of the gopher-path judged by the rules below.
	locator.RegisterSyntax(scheme, locator.Syntax{DefaultPort: defaultPort, Internet: true, Delims: "\t\r\n"})
	locator.Register(scheme, rules{})
}

// gopherRules are package gopher's rules, which judge a gophers URL's
// structure: it is a gopher URL's.
func gopherRules() locator.Rules { return locator.Lookup("gopher") }

// rules are the gophers rules Parse applies (locator.Rules), with
// Explainer and Normalizer: gopher's on the same structure.
type rules struct{}

// Check reports what gopher's rules report (RFC 1738 §3.4): a user or
// password, a decoded TAB, CR or LF where the protocol would read it as
// a delimiter, a Gopher+ string that is none of §3.4.4–3.4.9's forms.
// The offsets are u's own: gopher's rules read only the login and the
// path.
func (rules) Check(u *locator.URL, r locator.Report) locator.Report {
	return gopherRules().Check(u, r)
}

// Parts returns gopher's {type, selector, search, plus}, decoded.
func (rules) Parts(u *locator.URL) any {
	gu, _, err := asGopher(u)
	if err != nil {
		return nil
	}
	return gopherRules().Parts(gu)
}

// Explain says what the URL asks of the server, as for gopher, and that
// the exchange is carried over TLS.
func (rules) Explain(u *locator.URL) string {
	gu, _, err := asGopher(u)
	if err != nil {
		return ""
	}
	ex, ok := gopherRules().(locator.Explainer)
	if !ok {
		return ""
	}
	host := ""
	if u.HasAuthority() {
		host = u.Host()
	}
	return strings.Replace(ex.Explain(gu), "Gopher item", "Gopher-over-TLS (gophers) item", 1) +
		" TLS begins with the connection's first octet, the client sending " + strconv.Quote(host) +
		" as the server name and verifying the certificate for it; the request and reply are Gopher's, unchanged (curl's gophers)."
}

// Normalize writes the gopher-path as gopher's normal form does (the
// gophertype always; the selector, search and Gopher+ string re-encoded
// uniformly). A URL without "//" is left alone.
func (rules) Normalize(p *locator.Parts) {
	n, ok := gopherRules().(locator.Normalizer)
	if !ok || !p.HasAuthority {
		return
	}
	q := *p
	q.Scheme = "gopher"
	n.Normalize(&q)
	p.Path, p.HasPath = q.Path, q.HasPath
}
