package mailto

import (
	"strconv"
	"strings"

	"github.com/rfc1738/locator"
)

// ParseAddrSpec checks a decoded address as an RFC 5322 addr-spec
// (§3.4.1), with RFC 6068 §2's restrictions for addresses taken from a
// URL, and returns it as it goes on the wire:
//
//	addr-spec     = local-part "@" domain
//	local-part    = dot-atom / quoted-string     (no obs-local-part, §2 item 2)
//	domain        = dot-atom / "[" *dtext-no-obs "]"
//	dot-atom-text = 1*atext *("." 1*atext)
//
// No white space, comment or control octet is allowed (RFC 6068 §2 items
// 2 and 3), the local-part is at most 64 octets and the domain 255 (RFC
// 5321 §4.5.3.1). A non-ASCII domain name is transformed to its IDNA
// A-labels (RFC 6068 §2 item 4); a non-ASCII local-part is refused, since
// RFC 6068 §2 item 5 leaves its transformation to a "future
// specification" that this composer does not implement. The error is a
// *locator.SchemeError (Field "address") whose Offset is in s.
func ParseAddrSpec(s string) (string, error) {
	bad := func(off int, msg string) (string, error) {
		return "", &locator.SchemeError{Scheme: "mailto", Field: "address", Offset: off, Rule: "addr-spec", Message: msg}
	}
	if s == "" {
		return bad(0, "the address is empty: addr-spec = local-part \"@\" domain (RFC 5322 §3.4.1)")
	}
	i := 0
	// local-part
	if s[0] == '"' {
		i = 1
		for {
			if i >= len(s) {
				return bad(i, "the quoted-string is not closed by '\"' (RFC 5322 §3.2.4)")
			}
			c := s[i]
			if c == '"' {
				i++
				break
			}
			if c == '\\' {
				i++
				if i >= len(s) {
					return bad(i, "a quoted-pair '\\' at the end of the address (RFC 5322 §3.2.1)")
				}
				if q := s[i]; q != ' ' && q != '\t' && (q < 0x21 || q > 0x7e) {
					return bad(i, describe(q)+" cannot be quoted: quoted-pair = \"\\\" (VCHAR / WSP) (RFC 5322 §3.2.1)")
				}
				i++
				continue
			}
			if c == ' ' || c == '\t' {
				i++ // FWS inside a quoted-string, without a line break
				continue
			}
			if c < 0x21 || c > 0x7e {
				return bad(i, localMsg(c, "inside a quoted-string: qtext is printable US-ASCII (RFC 5322 §3.2.4)"))
			}
			i++
		}
	} else {
		n, err := dotAtom(s, 0, "local-part")
		if err != nil {
			return "", err
		}
		i = n
	}
	if i > 64 {
		return bad(64, "the local-part is "+strconv.Itoa(i)+" octets; at most 64 (RFC 5321 §4.5.3.1.1)")
	}
	if i >= len(s) {
		return bad(i, "the \"@\" and domain are missing: addr-spec = local-part \"@\" domain (RFC 5322 §3.4.1)")
	}
	if s[i] != '@' {
		return bad(i, describe(s[i])+" cannot appear in the local-part (RFC 5322 §3.2.3); a quoted-string holds it")
	}
	local, at := s[:i], i
	i++
	if i >= len(s) {
		return bad(i, "the domain is empty (RFC 5322 §3.4.1)")
	}
	domain := s[i:]
	if s[i] == '[' {
		j := i + 1
		for ; j < len(s) && s[j] != ']'; j++ {
			c := s[j]
			if c < 33 || c > 126 || c == '[' || c == '\\' {
				return bad(j, describe(c)+" is not allowed in a domain literal: dtext-no-obs = %d33-90 / %d94-126 (RFC 6068 §2)")
			}
		}
		if j >= len(s) {
			return bad(j, "the domain literal is not closed by ']' (RFC 5322 §3.4.1)")
		}
		if j+1 != len(s) {
			return bad(j+1, describe(s[j+1])+" after the domain literal (RFC 5322 §3.4.1)")
		}
	} else {
		n, err := dotAtom(s, i, "domain")
		if err != nil {
			return "", err
		}
		if n != len(s) {
			return bad(n, describe(s[n])+" cannot appear in the domain (RFC 5322 §3.4.1)")
		}
		if !isASCII(domain) {
			if j := invalidUTF8(domain); j >= 0 {
				return bad(i+j, describe(domain[j])+" in the domain is not UTF-8, which an internationalized domain name is (RFC 6068 §2 item 4)")
			}
			a, err := locator.ASCIIHost(domain)
			if err != nil {
				return bad(i, "the internationalized domain name has no IDNA form (RFC 6068 §2 item 4): "+err.Error())
			}
			// UTS #46 maps some characters to nothing (U+00AD, the soft
			// hyphen): what remains must still be a domain.
			if n, err := dotAtom(a, 0, "domain"); a == "" || err != nil || n != len(a) {
				return bad(i, "the internationalized domain name "+strconv.Quote(domain)+" maps to "+strconv.Quote(a)+", which is not a domain (RFC 6068 §2 item 4, UTS #46 §4)")
			}
			domain = a
		}
	}
	if len(domain) > 255 {
		return bad(at+1, "the domain is "+strconv.Itoa(len(domain))+" octets; at most 255 (RFC 5321 §4.5.3.1.2)")
	}
	return local + "@" + domain, nil
}

// dotAtom reads 1*atext *("." 1*atext) from s[i:] up to "@" or the end
// and returns where it stopped. A non-ASCII octet is allowed in a domain
// (an internationalized name, transformed by the caller), not in a
// local-part.
func dotAtom(s string, i int, what string) (int, error) {
	bad := func(off int, msg string) (int, error) {
		return 0, &locator.SchemeError{Scheme: "mailto", Field: "address", Offset: off, Rule: "addr-spec", Message: msg}
	}
	start := i
	for {
		w := i
		for i < len(s) && (isAText(s[i]) || what == "domain" && s[i] >= 0x80) {
			i++
		}
		if i == w {
			if i < len(s) && s[i] != '.' && (s[i] != '@' || what == "domain") {
				if s[i] >= 0x80 {
					return bad(i, localMsg(s[i], "in the local-part"))
				}
				return bad(i, describe(s[i])+" cannot appear in the "+what+": dot-atom-text = 1*atext *(\".\" 1*atext) (RFC 5322 §3.2.3)")
			}
			if i == start && (i == len(s) || s[i] == '@') {
				return bad(i, "the "+what+" is empty (RFC 5322 §3.4.1)")
			}
			return bad(i, "an empty word in the "+what+": a dot at its start or end, or two in a row (RFC 5322 §3.2.3)")
		}
		if i < len(s) && s[i] == '.' {
			i++
			continue
		}
		if i < len(s) && s[i] != '@' && s[i] >= 0x80 {
			return bad(i, localMsg(s[i], "in the local-part"))
		}
		return i, nil
	}
}

func localMsg(c byte, where string) string {
	if c >= 0x80 {
		return describe(c) + " " + where + ": RFC 6068 §2 item 5 reserves non-ASCII local-parts for a future specification, which this composer does not implement"
	}
	return describe(c) + " " + where
}

// isAText reports RFC 5322 §3.2.3's atext: ALPHA / DIGIT and
// "!#$%&'*+-/=?^_`{|}~".
func isAText(c byte) bool {
	switch {
	case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		return true
	}
	return c < 0x80 && strings.IndexByte("!#$%&'*+-/=?^_`{|}~", c) >= 0
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
