// Package gopher reads, judges, builds and plans Gopher URLs as RFC 1738
// §3.4 and draft 03's Gopher+ notes describe them:
//
//	gopher://<host>:<port>/<gophertype><selector>%09<search>%09<gopher+_string>
//
// The gopher-path is split at the first and second TAB octet (encoded
// %09; an unencoded TAB, which the core reports as unsafe, splits too,
// since it is the same octet on the wire): the first octet is the
// gophertype, the rest up to the first TAB the selector, then the search,
// then the Gopher+ string, which may itself hold the TAB, CR and LF of a
// filled-out ASK block (§3.4.9). "Within the <gopher-path>, no characters
// are reserved" (§3.4.1): a "?" is part of the selector, never a query.
//
// Parts (the JSON "parts" of locator parse) are {type, selector, search,
// plus}, decoded. type and selector are always present: an empty
// gopher-path means type "1" and the empty selector, the server's
// top-level directory (§3.4.1). search is present when the first %09 is,
// even if empty; plus when the second %09 is, even if empty.
//
// The normal form (locator.Normalizer) always writes the gophertype, so
// that gopher://host, gopher://host/ and gopher://host/1 all become
// gopher://host/1, and re-encodes the selector, search and Gopher+ string
// uniformly: octets outside xchar as upper-case %XX, everything else as
// itself (no character is reserved within the gopher-path, so the choice
// changes no meaning).
package gopher

import (
	"strconv"
	"strings"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/internal/hex"
	"github.com/rfc1738/locator/internal/urlbuild"
)

// DefaultPort is the port a gopher URL means when it names none (§3.4.1).
const DefaultPort = 70

// URL is a gopher URL's decoded structure.
type URL struct {
	// Host is the host as written (an IPv6 literal without brackets);
	// Port the port as written, "" for the default 70.
	Host string
	Port string

	// Type is the gophertype, one octet; "" stands for the default "1"
	// when building. From always sets it.
	Type string
	// Selector is the decoded selector string; "" is the top-level
	// directory.
	Selector string

	// Search is the decoded search string after the first %09
	// (§3.4.2); HasSearch records that the %09 was there.
	Search    string
	HasSearch bool

	// Plus is the decoded Gopher+ string after the second %09 (§3.4.3);
	// HasPlus records that the %09 was there. ParsePlus reads its
	// structure.
	Plus    string
	HasPlus bool
}

// schemeError is the *locator.SchemeError of a gopher URL's field: the
// field ("url", "type", "selector", "search", "plus", "port", "host"),
// the offset in its text and the rule broken.
func schemeError(field string, off int, rule, msg string) *locator.SchemeError {
	return &locator.SchemeError{Scheme: "gopher", Field: field, Offset: off, Rule: rule, Message: msg}
}

// Parse reads s with locator.Parse and returns its gopher structure. The
// error is a *locator.ParseError when s is not a URL at all, and a
// *locator.SchemeError when it is not a gopher URL.
func Parse(s string) (*URL, error) { return urlbuild.Parse(s, From) }

// From decodes the gopher structure of u. Problems of the structure are
// in u.Problems (Parse applies this package's rules); From fails only
// when u is not a gopher URL, with a *locator.SchemeError of field "url".
func From(u *locator.URL) (*URL, error) {
	if u.Scheme() != "gopher" {
		return nil, schemeError("url", 0, "gopherurl", "scheme is "+strconv.Quote(u.Scheme())+", not gopher")
	}
	g := &URL{Type: "1"}
	if u.HasAuthority() { // a host and port are written only after "//"
		g.Host = u.Host()
		if u.HasPort() {
			g.Port = u.Port()
		}
	}
	sp := split(u.Path())
	if sp.typeEnd > 0 {
		g.Type = locator.Decode(u.Path()[:sp.typeEnd])
	}
	g.Selector = locator.Decode(u.Path()[sp.typeEnd:sp.selEnd])
	if sp.searchAt >= 0 {
		g.HasSearch = true
		g.Search = locator.Decode(u.Path()[sp.searchAt:sp.searchEnd])
	}
	if sp.plusAt >= 0 {
		g.HasPlus = true
		g.Plus = locator.Decode(u.Path()[sp.plusAt:])
	}
	return g, nil
}

// pathSplit holds the boundaries of a gopher-path's fields in its
// encoded text; searchAt and plusAt are -1 when absent.
type pathSplit struct {
	typeEnd, selEnd     int
	searchAt, searchEnd int
	plusAt              int
	typeOctet           byte
	selTab, searchTab   int // offsets of the separating TABs, -1 when none
}

// split finds the fields of the encoded gopher-path p: the first octet is
// the gophertype, then the selector up to the first TAB octet, the search
// up to the second and the Gopher+ string to the end.
func split(p string) pathSplit {
	sp := pathSplit{searchAt: -1, searchEnd: -1, plusAt: -1, selTab: -1, searchTab: -1}
	if p == "" {
		return sp
	}
	c, n := octet(p, 0)
	sp.typeOctet = c
	sp.typeEnd = n
	sp.selEnd = len(p)
	for i := n; i < len(p); {
		c, n := octet(p, i)
		if c == '\t' {
			if sp.searchAt < 0 {
				sp.selEnd = i
				sp.selTab = i
				sp.searchAt = i + n
				sp.searchEnd = len(p)
			} else {
				sp.searchEnd = i
				sp.searchTab = i
				sp.plusAt = i + n
				break
			}
		}
		i += n
	}
	return sp
}

// octet returns the octet at s[i], decoding an escape "%" hex hex, and
// the number of bytes it takes. A "%" that begins no escape is itself.
func octet(s string, i int) (byte, int) {
	c := s[i]
	if c == '%' && i+2 < len(s) && locator.IsHex(s[i+1]) && locator.IsHex(s[i+2]) {
		return hex.Decode(s[i+1], s[i+2]), 3
	}
	return c, 1
}

// Build writes g as a correctly encoded gopher URL. Every octet outside
// xchar is encoded (a "%" in the data becomes %25); the search is written
// whenever a Gopher+ string is, empty if need be (§3.4.3: "the
// %09<search> string must be supplied"). It fails, with a
// *locator.SchemeError naming the field, when a field holds an octet the
// protocol cannot carry (TAB, CR or LF in the type, selector or search),
// when the Gopher+ string is not one of the forms of §3.4.4–3.4.9 (see
// ParsePlus), or when the host or port is not RFC 1738's; and with a
// *locator.BuildError when what it wrote does not conform (an IPv6 host,
// which RFC 1738's hostport cannot write, among them).
func (g *URL) Build() (string, error) {
	t := g.Type
	if t == "" {
		t = "1"
	}
	if len(t) != 1 {
		return "", schemeError("type", 0, "gtype", "the gophertype is one octet, not "+strconv.Quote(t))
	}
	if i := strings.IndexAny(t, "\t\r\n"); i >= 0 {
		return "", schemeError("type", 0, "gtype", "the gophertype cannot be "+ctlName(t[i]))
	}
	if i := strings.IndexAny(g.Selector, "\t\r\n"); i >= 0 {
		return "", schemeError("selector", i, "selector", "a Gopher selector holds no "+ctlName(g.Selector[i])+" (RFC 1738 §3.4.1)")
	}
	if i := strings.IndexAny(g.Search, "\t\r\n"); i >= 0 {
		return "", schemeError("search", i, "search", "a Gopher search string holds no "+ctlName(g.Search[i])+" (RFC 1738 §3.4.2)")
	}
	if g.HasPlus {
		if _, err := ParsePlus(g.Plus); err != nil {
			return "", err
		}
	}
	if f, i := urlbuild.BadHostport(g.Host, g.Port); i >= 0 {
		return "", schemeError(f, i, "hostport", "the "+f+" holds a character RFC 1738 §3.1 does not allow there")
	}
	if g.Host == "" {
		return "", schemeError("host", 0, "hostport", "a gopher URL names a host (RFC 1738 §3.4.1)")
	}
	var b strings.Builder
	b.WriteString("gopher://")
	urlbuild.WriteHostport(&b, g.Host, g.Port)
	b.WriteByte('/')
	b.WriteString(locator.Escape(t, locator.EncodeXchar))
	b.WriteString(locator.Escape(g.Selector, locator.EncodeXchar))
	if g.HasSearch || g.HasPlus {
		b.WriteString("%09")
		b.WriteString(locator.Escape(g.Search, locator.EncodeXchar))
	}
	if g.HasPlus {
		b.WriteString("%09")
		b.WriteString(locator.Escape(g.Plus, locator.EncodeXchar))
	}
	s := b.String()
	if err := conforming(s); err != nil {
		return "", err
	}
	return s, nil
}

// conforming reads the built URL s back and fails, with a
// *locator.BuildError, at its first error or violation. The fields were
// encoded by Build, so any problem is in the host or port; unlike
// urlbuild.CheckBuilt it allows no IPv6 literal, so that every URL Build
// writes conforms to RFC 1738.
func conforming(s string) error {
	u, err := locator.Parse(s)
	if err != nil {
		return &locator.BuildError{Scheme: "gopher", URL: s, Problem: err.(*locator.ParseError).Problem}
	}
	for _, p := range u.Problems() {
		if p.Severity >= locator.Violation {
			return &locator.BuildError{Scheme: "gopher", URL: s, Problem: p}
		}
	}
	return nil
}

func ctlName(c byte) string {
	switch c {
	case '\t':
		return "TAB"
	case '\r':
		return "CR"
	case '\n':
		return "LF"
	case 0:
		return "NUL"
	}
	return strconv.QuoteRune(rune(c))
}
