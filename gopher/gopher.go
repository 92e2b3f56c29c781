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

// An Error reports a gopher URL, component or request that cannot be
// used, with the offset in the text it is about and the rule it breaks.
type Error struct {
	Field   string // "url", "type", "selector", "search", "plus", "host"
	Offset  int    // byte offset in that text
	Rule    string // grammar rule of RFC 1738 §5 or section of the text
	Message string
}

func (e *Error) Error() string {
	return "gopher: " + e.Field + ": offset " + strconv.Itoa(e.Offset) + ": " + e.Rule + ": " + e.Message
}

// Parse reads s with locator.Parse and returns its gopher structure. The
// error is a *locator.ParseError when s is not a URL at all, and an
// *Error when it is not a gopher URL.
func Parse(s string) (*URL, error) {
	u, err := locator.Parse(s)
	if err != nil {
		return nil, err
	}
	return From(u)
}

// From decodes the gopher structure of u. Problems of the structure are
// in u.Problems (Parse applies this package's rules); From fails only
// when u is not a gopher URL.
func From(u *locator.URL) (*URL, error) {
	if u.Scheme() != "gopher" {
		return nil, &Error{Field: "url", Rule: "gopherurl", Message: "scheme is " + strconv.Quote(u.Scheme()) + ", not gopher"}
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
		return unhex(s[i+1])<<4 | unhex(s[i+2]), 3
	}
	return c, 1
}

func unhex(c byte) byte {
	switch {
	case c >= '0' && c <= '9':
		return c - '0'
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}

// Build writes g as a correctly encoded gopher URL. Every octet outside
// xchar is encoded (a "%" in the data becomes %25); the search is written
// whenever a Gopher+ string is, empty if need be (§3.4.3: "the
// %09<search> string must be supplied"). It fails when a field holds an
// octet the protocol cannot carry (TAB, CR or LF in the type, selector or
// search), when the Gopher+ string is not one of the forms of §3.4.4–3.4.9
// (see ParsePlus), or when the host or port is not RFC 1738's.
func (g *URL) Build() (string, error) {
	t := g.Type
	if t == "" {
		t = "1"
	}
	if len(t) != 1 {
		return "", &Error{Field: "type", Rule: "gtype", Message: "the gophertype is one octet, not " + strconv.Quote(t)}
	}
	if i := strings.IndexAny(t, "\t\r\n"); i >= 0 {
		return "", &Error{Field: "type", Rule: "gtype", Message: "the gophertype cannot be " + ctlName(t[i])}
	}
	if i := strings.IndexAny(g.Selector, "\t\r\n"); i >= 0 {
		return "", &Error{Field: "selector", Offset: i, Rule: "selector", Message: "a Gopher selector holds no " + ctlName(g.Selector[i]) + " (RFC 1738 §3.4.1)"}
	}
	if i := strings.IndexAny(g.Search, "\t\r\n"); i >= 0 {
		return "", &Error{Field: "search", Offset: i, Rule: "search", Message: "a Gopher search string holds no " + ctlName(g.Search[i]) + " (RFC 1738 §3.4.2)"}
	}
	if g.HasPlus {
		if _, err := ParsePlus(g.Plus); err != nil {
			return "", err
		}
	}
	if f, i := locator.BadHostport(g.Host, g.Port); i >= 0 {
		return "", &Error{Field: f, Offset: i, Rule: "hostport", Message: "the " + f + " holds a character RFC 1738 §3.1 does not allow there"}
	}
	if g.Host == "" {
		return "", &Error{Field: "host", Rule: "hostport", Message: "a gopher URL names a host (RFC 1738 §3.4.1)"}
	}
	var b strings.Builder
	b.WriteString("gopher://")
	locator.WriteHostport(&b, g.Host, g.Port)
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

// conforming checks that the built URL s is read back without an error or
// violation; the fields were encoded by Build, so any problem is in the
// host or port.
func conforming(s string) error {
	u, err := locator.Parse(s)
	if err != nil {
		pe := err.(*locator.ParseError)
		return &Error{Field: "host", Offset: pe.Problem.Offset, Rule: pe.Problem.Rule, Message: pe.Problem.Message}
	}
	for _, p := range u.Problems() {
		if p.Severity >= locator.Violation {
			return &Error{Field: "host", Offset: p.Offset, Rule: p.Rule, Message: p.Message}
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
