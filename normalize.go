package locator

import (
	"strconv"
	"strings"

	"github.com/rfc1738/locator/internal/hex"
)

// Normalize returns u in its normal form, a new URL; u is not changed.
// Two URLs are equivalent (Equal) when their normal forms have the same
// components. The steps, in order:
//
//  1. The scheme is written in lower case: "programs interpreting URLs
//     should treat upper case letters as equivalent to lower case" (RFC
//     1738 §2.1). The host is taken in two steps, in this order: first
//     its escapes as in step 3 (an escaped unreserved octet decoded,
//     hex digits in upper case; %50 is "P"), then the name itself:
//     written in ASCII, each internationalized label as its A-label, in
//     lower case (ASCIIHost: IDNA2008/UTS #46; "BÜCHER.example" is
//     "xn--bcher-kva.example"), for host names are case-insensitive (RFC
//     1738 §3.1, RFC 3986 §6.2.2.1) and DNS knows a name only in its
//     ASCII form (RFC 5890 §2.3.2.1). A host IDNA refuses ("a_b", a
//     label edged with '-') keeps its characters, its ASCII letters
//     lowered (those of an escape excepted). Decoding before lowering
//     is what makes the normal form a fixed point: "%50" becomes "p",
//     not "P".
//  2. A port that is the scheme's default (RFC 1738 §3: http 80, ftp 21,
//     gopher 70, ...) or empty ("http://h:/") is removed; another port
//     is written without leading zeros (RFC 3986 §6.2.3).
//  3. In every other component, escapes get upper-case hex digits (RFC
//     3986 §6.2.2.1); an escape of an unreserved character (alpha,
//     digit, safe "$-_.+" or extra "!*'(),") is decoded, for RFC 1738
//     §2.2 says such characters "may be encoded ... as long as they are
//     not being used for a reserved purpose", so both forms name the same
//     thing; an escape of a reserved character is kept, for "a%2Fb" is
//     not "a/b"; and unsafe characters (controls, space, non-ASCII,
//     national and punctuation characters, a "%" that begins no escape)
//     are encoded ("All unsafe characters must always be encoded within a
//     URL", §2.2). One exception: in a search part %2B stays encoded,
//     because the search of the 1993 draft is "xalphas [ + search ]" and
//     HTML forms read "+" as a space, so there "+" is used for a purpose.
//  4. Dot segments are removed (RFC 3986 §5.2.4 remove_dot_segments,
//     §6.2.2.3) where the scheme is hierarchical (SchemeSyntax
//     Hierarchical: http, https, ftp, file) and the path is rooted;
//     never in a gopher selector, a news article or any opaque part, where
//     "/" and "." are data.
//  5. An http or https URL with no path gets the path "/" (RFC 1738
//     §3.3: "If neither <path> nor <searchpart> is present, the "/" may
//     also be omitted"; RFC 3986 §6.2.3).
//  6. The scheme's own normal form, when its rules (Lookup) implement
//     Normalizer: the ftp typecode's case, gopher's default type "1".
//
// The result is parsed again, so its Input is its text and its Problems
// describe the normal form; when that text is u's, the result is u.
// Normalize(Normalize(u)) has the components of Normalize(u). Should the
// normal form not parse, u is its own normal form.
func Normalize(u *URL) *URL {
	if u == nil {
		return nil
	}
	n := Parts{
		Scheme: u.Scheme(), Host: normHost(u.Host()),
		User: normEscapes(u.User(), false, false), Password: normEscapes(u.Password(), false, false),
		Path: normEscapes(u.Path(), false, false), Search: normEscapes(u.Search(), true, false),
		Fragment: normEscapes(u.Fragment(), false, false), Port: u.Port(),
		HasAuthority: u.HasAuthority(), HasUser: u.HasUser(), HasPassword: u.HasPassword(), HasPort: u.HasPort(),
		HasPath: u.HasPath(), HasSearch: u.HasSearch(), HasFragment: u.HasFragment(),
	}
	syn, _ := SchemeSyntax(n.Scheme)
	if n.HasPort {
		if v, ok := portNumber(n.Port); !ok {
			// Not a number: kept as written.
		} else if n.Port == "" || v == syn.DefaultPort {
			n.HasPort, n.Port = false, ""
		} else {
			n.Port = strconv.Itoa(v)
		}
	}
	if syn.Hierarchical {
		switch {
		case n.HasAuthority && n.HasPath:
			b := make([]byte, 0, len(n.Path)+1)
			b = append(b, '/')
			b = append(b, n.Path...)
			k, _ := removeDotSegments(b)
			b = b[:k]
			if len(b) > 0 && b[0] == '/' {
				b = b[1:]
			}
			n.Path = string(b)
		case !n.HasAuthority && len(n.Path) > 0 && n.Path[0] == '/':
			b := []byte(n.Path)
			k, _ := removeDotSegments(b)
			b = guardPath(b[:k], 0, false)
			n.Path = string(b)
		}
	}
	if (n.Scheme == "http" || n.Scheme == "https") && n.HasAuthority && !n.HasPath {
		n.HasPath = true
	}
	if nz, ok := Lookup(n.Scheme).(Normalizer); ok {
		nz.Normalize(&n)
	}
	s := n.String()
	if u.in == s {
		return u
	}
	if v, err := Parse(s); err == nil {
		return v
	}
	// The normal form does not read back (a step made a component Parse
	// refuses): u stands for itself.
	return u
}

// portNumber reads a port of decimal digits; "" is 0 and ok.
func portNumber(s string) (int, bool) {
	v := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' || v > 65535 {
			return 0, false
		}
		v = v*10 + int(c-'0')
	}
	return v, v <= 65535
}

func lowerASCII(s string) string {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if 'A' <= b[j] && b[j] <= 'Z' {
					b[j] += 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}

// normEscapes is step 3 of Normalize for one component. In a search,
// %2B stays encoded. In a host (host true) unsafe octets are left as
// they are: a host is judged by the host grammar, not escaped.
func normEscapes(s string, search, host bool) string {
	clean := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '%' || (!host && IsUnsafe(c)) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	b := make([]byte, 0, len(s)+8)
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '%' {
			if i+2 < len(s) && IsHex(s[i+1]) && IsHex(s[i+2]) {
				v := hex.Value(s[i+1])<<4 | hex.Value(s[i+2])
				if IsUnreserved(v) && !(search && v == '+') {
					b = append(b, v)
				} else {
					b = append(b, '%', upperhex[v>>4], upperhex[v&15])
				}
				i += 2
				continue
			}
			b = append(b, '%', '2', '5')
			continue
		}
		if !host && IsUnsafe(c) {
			b = append(b, '%', upperhex[c>>4], upperhex[c&15])
			continue
		}
		b = append(b, c)
	}
	return string(b)
}

// normHost is step 1 of Normalize for a host: escapes first, then the
// name (ASCIIHost, or lower case where IDNA refuses it).
func normHost(h string) string {
	h = normEscapes(h, false, true)
	if a, err := ASCIIHost(h); err == nil {
		return a
	}
	return lowerHost(h)
}

// lowerHost lowers the ASCII letters of h but those of an escape's hex
// digits, which normEscapes wrote in upper case.
func lowerHost(h string) string {
	if strings.IndexByte(h, '%') < 0 {
		return lowerASCII(h)
	}
	b := []byte(h)
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case c == '%' && i+2 < len(b) && IsHex(b[i+1]) && IsHex(b[i+2]):
			i += 2
		case 'A' <= c && c <= 'Z':
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}
