// Package mailto reads, judges and builds mailto URLs as RFC 1738 §3.5
// describes them:
//
//	mailto:<rfc822-addr-spec>
//
// The address is "(the encoding of an) addr-spec, as specified in RFC 822"
// (§6.1: local-part "@" domain, where local-part is dot-separated atoms
// or quoted strings and domain dot-separated atoms or domain literals).
// "Within mailto URLs, there are no reserved characters", and "%" in an
// address "must be encoded" as %25.
//
// RFC 2368's extensions are read and reported as beyond RFC 1738 (a
// Violation with rule "mailtourl"): headers after "?" (hname=hvalue
// pairs separated by "&"; the core splits them off as the search), and
// more than one address separated by ",".
//
// Parts (the JSON "parts") are {address}: the decoded address, always
// present (an empty address, as in RFC 2368's "mailto:?to=...", is "").
// The headers stay in the URL's "search"; From returns them decoded.
//
// The normal form (locator.Normalizer, hence locator.Equal) writes each
// address's domain in lower case and keeps its local part as written
// (RFC 5321 §2.4).
package mailto

import (
	"strings"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/internal/hex"
	"github.com/rfc1738/locator/internal/urlbuild"
)

// URL is a mailto URL's decoded structure.
type URL struct {
	// Address is the decoded addr-spec; under RFC 2368 a comma-separated
	// list, or empty when the headers name the recipients.
	Address string
	// Headers are RFC 2368's header fields, decoded, in the order given.
	Headers []Header
}

// A Header is one RFC 2368 hname=hvalue pair, decoded.
type Header struct {
	Name, Value string
}

// Parse reads s with locator.Parse and returns its mailto structure. The
// error is a *locator.ParseError when s is not a URL at all, and a
// *locator.SchemeError (field "url") when it is not a mailto URL.
func Parse(s string) (*URL, error) { return urlbuild.Parse(s, From) }

// From decodes the mailto structure of u; problems are in u.Problems. It
// fails, with a *locator.SchemeError of field "url", only when u is not a
// mailto URL.
func From(u *locator.URL) (*URL, error) {
	if err := urlbuild.NotScheme(u, "mailto", "mailtourl"); err != nil {
		return nil, err
	}
	a, _ := addressText(u)
	m := &URL{Address: locator.Decode(a)}
	if u.HasSearch() {
		eachHeader(u.Search(), func(name, value string, _, _ int, _ bool) {
			m.Headers = append(m.Headers, Header{locator.Decode(name), locator.Decode(value)})
		})
	}
	return m, nil
}

// addressText returns the encoded address of u and its offset in u.Input:
// the path, or for a URL written with "//" (a violation: the core reads
// a login and host there) everything from the "//" to the end of the
// path, written from u's components as String writes them.
func addressText(u *locator.URL) (string, int) {
	off := u.Offset(locator.PathComponent)
	if !u.HasAuthority() {
		return u.Path(), off
	}
	var b strings.Builder
	b.WriteString("//")
	if u.HasUser() {
		b.WriteString(u.User())
		if u.HasPassword() {
			b.WriteString(":" + u.Password())
		}
		b.WriteByte('@')
	}
	if strings.IndexByte(u.Host(), ':') >= 0 {
		b.WriteString("[" + u.Host() + "]")
	} else {
		b.WriteString(u.Host())
	}
	if u.HasPort() {
		b.WriteString(":" + u.Port())
	}
	if u.HasPath() {
		b.WriteString("/" + u.Path())
	}
	return b.String(), u.Offset(locator.SchemeComponent) + len(u.Scheme()) + 1
}

// eachHeader calls fn for each "&"-separated hname=hvalue of the encoded
// search s, with their offsets in s; eq is false when no "=" was found.
func eachHeader(s string, fn func(name, value string, nameAt, valueAt int, eq bool)) {
	for start := 0; start <= len(s); {
		end := strings.IndexByte(s[start:], '&')
		if end < 0 {
			end = len(s)
		} else {
			end += start
		}
		h := s[start:end]
		if i := strings.IndexByte(h, '='); i >= 0 {
			fn(h[:i], h[i+1:], start, start+i+1, true)
		} else {
			fn(h, "", start, end, false)
		}
		start = end + 1
	}
}

// SplitAddrSpec splits a decoded RFC 822 addr-spec (RFC 822 §6.1) into
// its local-part and domain, as written (quoted strings and domain
// literals keep their quotes and brackets). The error, a
// *locator.SchemeError (field "address"), names the offset and what
// breaks the grammar.
func SplitAddrSpec(s string) (local, domain string, err error) {
	var first *locator.SchemeError
	at := addrSpec(s, 0, len(s), false, func(off int, msg string) {
		if first == nil {
			first = &locator.SchemeError{Scheme: "mailto", Field: "address", Offset: off, Rule: "addr-spec", Message: msg}
		}
	})
	if first != nil {
		return "", "", first
	}
	return s[:at], s[at+1:], nil
}

// special is RFC 822's specials: ( ) < > @ , ; : \ " . [ ]
var special [128]bool

func init() {
	for _, c := range "()<>@,;:\\\".[]" {
		special[c] = true
	}
}

func isAtom(c byte) bool {
	return c > ' ' && c < 0x7f && !special[c]
}

// octet returns the octet at s[i] and its width, decoding an escape when
// encoded is true.
func octet(s string, i int, encoded bool) (byte, int) {
	c := s[i]
	if encoded && c == '%' && i+2 < len(s) && locator.IsHex(s[i+1]) && locator.IsHex(s[i+2]) {
		return hex.Decode(s[i+1], s[i+2]), 3
	}
	return c, 1
}

func describe(c byte) string {
	switch {
	case c == ' ':
		return "space"
	case c < ' ' || c == 0x7f:
		return "control octet %" + string("0123456789ABCDEF"[c>>4]) + string("0123456789ABCDEF"[c&15])
	case c >= 0x80:
		return "non-ASCII octet %" + string("0123456789ABCDEF"[c>>4]) + string("0123456789ABCDEF"[c&15])
	}
	return "'" + string(c) + "'"
}

// addrSpec reads local-part "@" domain from s[i:end] (escapes decoded when
// encoded), calling bad for each departure from RFC 822 §6.1 with its
// offset in s, and returns the offset of the "@" (-1 when none).
func addrSpec(s string, i, end int, encoded bool, bad func(off int, msg string)) int {
	// words reads word *("." word) where word is atom or quoted-string
	// (local-part) or atom or domain-literal (domain), up to a stop octet.
	words := func(i int, open, close byte, what string) int {
		for {
			if i == end {
				bad(i, "the "+what+" ends with an empty word")
				return i
			}
			c, n := octet(s, i, encoded)
			switch {
			case c == open:
				i += n
				closed := false
				for i < end {
					c, n := octet(s, i, encoded)
					if c == close {
						i += n
						closed = true
						break
					}
					if c == '\\' {
						i += n
						if i == end {
							break
						}
						c, n = octet(s, i, encoded)
						if c >= 0x80 {
							bad(i, describe(c)+" in a quoted pair: RFC 822 is ASCII")
						}
						i += n
						continue
					}
					if c == '\r' || c >= 0x80 || (open == '[' && c == '[') {
						bad(i, describe(c)+" is not allowed inside "+string(open)+"..."+string(close)+" (RFC 822 §3.3)")
					}
					i += n
				}
				if !closed {
					bad(i, string(open)+" is not closed by "+string(close)+" (RFC 822 §3.3)")
					return -1
				}
			case isAtom(c):
				for i < end {
					c, n := octet(s, i, encoded)
					if !isAtom(c) {
						break
					}
					i += n
				}
			case c == '.':
				bad(i, "empty word in the "+what+": a dot at its start or two dots in a row (RFC 822 §6.1)")
			default:
				bad(i, "a word of the "+what+" cannot begin with "+describe(c)+" (RFC 822 §6.1)")
				// Skip to the next "." or "@" to go on.
				for i < end {
					c, n := octet(s, i, encoded)
					if c == '.' || c == '@' {
						break
					}
					i += n
				}
			}
			if i == end {
				return i
			}
			c, n = octet(s, i, encoded)
			if c != '.' {
				return i
			}
			i += n
		}
	}
	i = words(i, '"', '"', "local-part")
	if i < 0 {
		return -1
	}
	if i == end {
		bad(i, "an addr-spec is local-part \"@\" domain: the \"@\" and domain are missing (RFC 822 §6.1)")
		return -1
	}
	c, n := octet(s, i, encoded)
	if c != '@' {
		bad(i, describe(c)+" cannot appear in the local-part (RFC 822 §6.1); a quoted string holds it")
		for i < end {
			if c, n := octet(s, i, encoded); c == '@' {
				break
			} else {
				i += n
			}
		}
		if i == end {
			return -1
		}
		_, n = octet(s, i, encoded)
	}
	at := i
	i += n
	i = words(i, '[', ']', "domain")
	if i >= 0 && i < end {
		c, _ := octet(s, i, encoded)
		bad(i, describe(c)+" cannot appear in the domain (RFC 822 §6.2)")
	}
	return at
}

// eachAddress calls fn with the bounds of each ","-separated address of
// s[i:end], commas inside quoted strings and domain literals excepted.
func eachAddress(s string, i, end int, encoded bool, fn func(from, to int)) {
	start := i
	quote, bracket := false, false
	for i < end {
		c, n := octet(s, i, encoded)
		switch {
		case c == '\\' && (quote || bracket):
			i += n
			if i < end {
				_, n = octet(s, i, encoded)
			} else {
				n = 0
			}
		case c == '"' && !bracket:
			quote = !quote
		case c == '[' && !quote:
			bracket = true
		case c == ']' && !quote:
			bracket = false
		case c == ',' && !quote && !bracket:
			fn(start, i)
			start = i + n
		}
		i += n
	}
	fn(start, end)
}
