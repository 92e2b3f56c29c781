package text

import "bytes"

// Evidence for a bare URL of an opaque scheme.
//
// In prose a word and a colon are common: signatures hold "Fax:+1 555
// 9999", "IM:johndoe", "tel:home", headers "Re:" and "Note:". Inside a
// wrapper or after "URL:" the writer said "this is a URL", so any scheme
// is taken (RFC 1738 Appendix). A bare URL needs evidence instead:
//
//   - a scheme of the Internet syntax (RFC 1738 §3.1): "//" and a host
//     that validAuthority accepts;
//   - RFC 1738's own opaque schemes: mailto needs the "@" of an
//     addr-spec (§3.5), news the group or article grammar (§3.6);
//   - any other scheme of the list (schemes.go) must be written in lower
//     case — "Fax:", "Tel:", "IM:" with a capital are labels; RFC 3986
//     §3.1 makes lower case the canonical form of a scheme — and its part
//     must be well formed for its registration:
//     tel, fax, sms, callto: a telephone-subscriber of RFC 3966 §3 (a
//     global number "+" and at least 7 digits, the shortest E.164
//     numbers in use, with the visual separators "-.()"; or a local
//     number with ";phone-context="), up to ";", "?" or ",";
//     im, pres: an "@" (RFC 3860, RFC 3859);
//     xmpp, sip, sips, cid, mid: an "@" or a "." (a JID, a SIP
//     address-of-record or a Content-ID with a domain, RFC 5122, RFC
//     3261, RFC 2392; "cid:image.png" as mailers write it);
//     urn: NID ":" NSS (RFC 8141 §2), or RFC 1630's "/" path; geo: two coordinates separated by
//     "," (RFC 5870 §3); magnet: a query ("?"); bitcoin: an address of
//     at least 26 letters and digits, or one followed by a query with
//     "=" (BIP 21); matrix: a "/" (r/, u/,
//     roomid/);
//     the others (skype, facetime, spotify): one of "@ / : ? =" after
//     the first character, some structure beyond a single word.
func evidence(scheme, part []byte) bool {
	if equalFold(scheme, "mailto") || equalFold(scheme, "news") {
		return true // RFC 1738's: judged by their own grammar in body
	}
	for _, c := range scheme {
		if 'A' <= c && c <= 'Z' {
			return false
		}
	}
	if len(part) == 0 {
		return false
	}
	switch string(scheme) {
	case "tel", "fax", "sms", "callto":
		return telephone(part)
	case "im", "pres":
		return bytes.IndexByte(part, '@') > 0
	case "xmpp", "sip", "sips", "cid", "mid":
		return bytes.IndexByte(part, '@') > 0 || bytes.IndexByte(part, '.') > 0
	case "urn":
		return urn(part)
	case "geo":
		return (part[0] == '-' || isDigit(part[0])) && bytes.IndexByte(part, ',') > 0
	case "magnet":
		return part[0] == '?' && len(part) > 1
	case "bitcoin":
		n := 0
		for n < len(part) && (isDigit(part[n]) || isLetter(part[n])) {
			n++
		}
		return n >= 26 || n > 0 && n < len(part) && part[n] == '?' && bytes.IndexByte(part[n:], '=') > 0
	case "matrix":
		return bytes.IndexByte(part, '/') > 0
	}
	return bytes.ContainsAny(part[1:], "@/:?=")
}

// telephone reports whether p begins with a telephone-subscriber of RFC
// 3966 §3 that text can be trusted with: a global number of at least 7
// digits (E.164), or a local number with a phone-context parameter.
func telephone(p []byte) bool {
	num := p
	if k := bytes.IndexAny(p, ";?,"); k >= 0 {
		num = p[:k]
	}
	if len(num) == 0 {
		return false
	}
	global := num[0] == '+'
	if global {
		num = num[1:]
	}
	digits := 0
	for _, c := range num {
		switch {
		case isDigit(c):
			digits++
		case c == '-' || c == '.' || c == '(' || c == ')':
		case !global && (c == '*' || c == '#' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'):
		default:
			return false
		}
	}
	if global {
		return digits >= 7
	}
	return digits > 0 && bytes.Contains(p, []byte(";phone-context="))
}

// urn reports whether p is NID ":" NSS (RFC 8141 §2): NID of 2 to 32
// letters, digits and "-", beginning and ending with a letter or digit;
// or the path form RFC 1630 shows ("urn:/iana/dns/ch/cern/...").
func urn(p []byte) bool {
	if len(p) > 1 && p[0] == '/' && p[1] != '/' {
		return true
	}
	k := bytes.IndexByte(p, ':')
	if k < 2 || k > 32 || k+1 == len(p) || p[0] == '-' || p[k-1] == '-' {
		return false
	}
	for _, c := range p[:k] {
		if !(isDigit(c) || isLetter(c) || c == '-') {
			return false
		}
	}
	return true
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }
