// Package gemini holds the gemini scheme, a scheme RFC 1738 does not
// define, added as its §4 asks new schemes to be: the small-internet
// protocol that grew out of the gopher community (one request line over
// TLS, a status line, a body), in the terms of the Gemini specification
// (v0.16.1; "Gemini §N" below). It has the shape of the other scheme
// packages: the decoded structure (URL: Parse and From read it, Build
// writes it), the rules Parse applies, the exchange a URL stands for
// (Plan), and the client package access follows it with (Client), which
// reads text/gemini documents for a renderer and a crawler as
// access.Lines.
//
// # Registration (RFC 1738 §4)
//
// RFC 1738 §4: "Any submission of a new URL scheme must include a
// definition of an algorithm for accessing of resources within that
// scheme and the syntax for representing such a scheme"; the scheme
// "must have demonstrable utility and operability", and new schemes
// "should try to follow the same syntactic conventions of existing
// schemes". For gemini:
//
// Scheme name: gemini.
//
// Syntax. The common Internet scheme syntax of §3.1 with http's path and
// search (§3.3), in the BNF of §5:
//
//	geminiurl = "gemini://" hostport [ "/" hpath [ "?" search ]]
//
// with hostport, hpath and search as §5 defines them. The port defaults
// to 1965. There is no user or password: "the authority component is
// allowed and required, but its userinfo subcomponent is NOT allowed"
// (Gemini §1.2). An empty path is the same as "/" (Gemini §1.2). The
// search part carries the input a server asks for (status 10, Gemini
// §3.2.1). "/" separates the levels of a hierarchy, so partial forms are
// resolved as http's are.
//
// Access algorithm. The client connects to the host at the port by TCP,
// completes a TLS handshake (TLS 1.2 or later, the host name sent in the
// server_name extension, RFC 6066 §3, when it is a name) and checks the
// server's certificate (below); when the server asks for a client
// certificate, it presents the one it was given for the URL, or none
// (Gemini §4.3). It then sends the URL, absolute, without its fragment,
// followed by CR LF; the URL is at most 1024 octets (Gemini §2), counted
// as sent. An internationalised host name (non-ASCII, or
// percent-encoded) is sent, and named in server_name, in its ASCII form,
// each label an A-label (IDNA, RFC 5890): the form DNS, certificates and
// a server's own name are in. The server answers with one header line, two digits, a
// space and a META string of at most 1024 octets, ending in CR LF (Gemini
// §3.1), and for status 2x the object's octets until it closes the
// connection (§3.3): META is then the object's media type, by default
// "text/gemini; charset=utf-8". The first digit says the rest (§3.2):
// 1x the server asks for input, prompted by META, to be sent as the
// URL's search part (Client sends it once, from its Answers or Ask); 3x
// the object is at the URL META names (counted against the redirect
// limit); 4x a temporary and 5x a permanent failure, META saying why; 6x
// a client certificate is required (60), the one presented is not
// authorised (61) or not valid (62). A first digit outside 1–6 is not
// Gemini. Each connection carries one request.
//
// Trust. Servers mostly present self-signed certificates. The client
// trusts a server's certificate on first use (Gemini §4.2): it keeps the
// SHA-256 fingerprint of the certificate and its expiry date per server
// (serverKey: the host as a resolver reads it, whatever its spelling, and
// the port) in a known-hosts file, or in memory (TrustStore, a
// gateway's), and refuses a certificate that differs from the one kept
// while that one has not expired, naming both fingerprints. Either store
// is bounded; when full it refuses new servers and still trusts those it
// holds.
//
// Utility and operability. Gemini serves documents of the text/gemini
// type, whose link lines name other URLs (Gemini §5.4.2), from many
// independent servers; Debian ships servers (molly-brown, which the
// tests of this package run) and clients. A gateway in the sense of §4
// (package gateway) hands a Gemini object to the clients of http;
// lines reads what an HTML rendering of a text/gemini document needs,
// links what a crawler follows.
//
// # Structure
//
// The JSON parts are {"path", "search"}, both decoded, as http's: path is
// the hpath without the "/" before it, absent for gemini://host; search
// is the search part, present when "?" is.
//
// # Rules
//
// Check reports a user or password ("geminiurl", Gemini §1.2) and a URL
// whose request, as sent (an internationalised host in ASCII), would be
// longer than 1024 octets ("request", Gemini §2), at the octet where it
// passes the limit. A URL without "//" or a host
// the core reports, as for every Internet scheme.
//
// An encoded CR, LF or NUL stays encoded on the request line (the whole
// URL is sent as written, not decoded), so it cannot end the line early
// (RFC 1738 §6): the server decodes it as a part of the path.
package gemini

import (
	"strconv"
	"strings"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/internal/urlbuild"
)

// defaultPort is the port a gemini URL means when it names none (Gemini
// §1.2).
const defaultPort = 1965

// maxRequest bounds the URL of a request, in octets, CR LF not counted
// (Gemini §2: "The <URL> is ... of maximum length 1024 bytes").
const maxRequest = 1024

// A URL is what a gemini URL says, decoded. Parse and From read one;
// Build writes it back.
type URL struct {
	// Host is a host name or number, or an IPv6 address without
	// brackets; Port the port's digits, "" for the default 1965.
	Host string
	Port string
	// Segments are the decoded hsegments of the path; nil for none
	// (gemini://host).
	Segments []string
	// Search is the decoded search part (the input a status 10 asks
	// for); HasSearch reports its presence.
	Search    string
	HasSearch bool
}

// schemeError is the *locator.SchemeError of a gemini URL's field.
func schemeError(field string, off int, rule, msg string) *locator.SchemeError {
	return &locator.SchemeError{Scheme: "gemini", Field: field, Offset: off, Rule: rule, Message: msg}
}

// Parse reads s with locator.Parse and decodes it with From.
func Parse(s string) (*URL, error) { return urlbuild.Parse(s, From) }

// From returns the components of the gemini URL u, decoded; the fragment,
// which is never sent, is not among them. Problems of the structure are
// in u.Problems (Parse applies this package's rules); From fails, with a
// *locator.SchemeError of field "url", only when u is not a gemini URL.
func From(u *locator.URL) (*URL, error) {
	if err := urlbuild.NotScheme(u, "gemini", "geminiurl"); err != nil {
		return nil, err
	}
	g := &URL{Host: u.Host(), Port: u.Port(), Segments: segments(u), HasSearch: u.HasSearch()}
	if u.HasSearch() {
		g.Search = locator.Decode(u.Search())
	}
	return g, nil
}

// segments returns the decoded hsegments of u's path, split at "/"
// before decoding so that an encoded "%2F" stays inside its segment; nil
// when u has no path.
func segments(u *locator.URL) []string {
	if !u.HasPath() {
		return nil
	}
	segs := strings.Split(u.Path(), "/")
	for i, s := range segs {
		segs[i] = locator.Decode(s)
	}
	return segs
}

// Build writes g as a gemini URL, encoding each segment and the search
// as http's hsegment and search (RFC 1738 §5: uchar and ";" ":" "@" "&"
// "=" as they are, everything else encoded). A search without a path is
// written after "/".
//
// It fails with a *locator.SchemeError when the host is empty or the
// host or port holds a character §3.1 does not allow there, or when the
// URL would be longer than maxRequest octets and so could not be asked
// for (field "url", rule "request", the offset where it passes the
// limit); and with a *locator.BuildError when what it wrote does not
// conform to RFC 1738 (an IPv6 host is written in brackets, RFC 2732).
func (g *URL) Build() (string, error) {
	if g.Host == "" {
		return "", schemeError("host", 0, "geminiurl", "a gemini URL names a host (Gemini §1.2)")
	}
	if f, i := urlbuild.BadHostport(g.Host, g.Port); i >= 0 {
		return "", schemeError(f, i, "hostport", "the "+f+" holds a character RFC 1738 §3.1 does not allow there")
	}
	var b strings.Builder
	b.WriteString("gemini://")
	hostAt := urlbuild.WriteHostport(&b, g.Host, g.Port)
	urlbuild.WriteHPath(&b, g.Segments, g.Search, g.HasSearch)
	s := b.String()
	if len(s) > maxRequest {
		return "", schemeError("url", maxRequest, "request", "the URL is "+strconv.Itoa(len(s))+" octets; a Gemini request's URL is at most "+strconv.Itoa(maxRequest)+" (Gemini §2)")
	}
	if err := urlbuild.CheckBuilt("gemini", s, hostAt, g.Host, g.Port); err != nil {
		return "", err
	}
	return s, nil
}
