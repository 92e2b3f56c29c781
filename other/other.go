// Package other holds the schemes RFC 1738 names but does not define, and
// the rules for scheme names in general (§2.1, §4, §5):
//
//   - new schemes follow the generic syntax, otherurl = genericurl;
//   - "Scheme names starting with the characters "x-" are reserved for
//     experimental purposes" (§4), used "by mutual agreement between
//     parties";
//   - §4 asks IANA to reserve afs, mid, cid, nfs, tn3270, mailserver and
//     z39.50 "for future definition";
//   - the drafts give rlogin and tn3270 the telnet form ("telnet, rlogin
//     and tn3270 ... Reference to interactive sessions", draft 03), mid
//     an RFC 822 addr-spec and cid a content-identifier (draft 03,
//     RFC 1630), and keep afs://cellname/path as a historical note (the
//     October 1993 draft).
//
// Each reserved and draft name is registered with locator.Register, with
// Parts and Explain; Check judges only what a text defines: the telnet
// form of rlogin and tn3270 (rule "telneturl"), the addr-spec of mid and
// cid (rules "midaddress", "cidaddress"), and RFC 2111's later
// mid:message-id/content-id, reported as beyond RFC 1738. The other
// reserved names have no syntax to break. An "x-" scheme cannot be
// registered by prefix: Describe says what any scheme name is.
package other

import (
	"strings"
)

// Describe says, for a person, what the lower-case scheme name is under
// RFC 1738 and the drafts: a name §4 reserves, a draft's scheme, an "x-"
// experimental scheme or a name reserved for URNs. It returns false for
// names it does not know (the schemes RFC 1738 §3 defines have their own
// packages and explanations).
func Describe(scheme string) (string, bool) {
	if d, ok := names[scheme]; ok {
		return d, true
	}
	if strings.HasPrefix(scheme, "x-") {
		return "An experimental scheme: names starting with \"x-\" are reserved for experimental purposes and used by mutual agreement between parties (RFC 1738 §4; the 1993 draft: experimental scheme identifiers \"must start with the characters x-\"). It follows the generic syntax, otherurl = genericurl (§5).", true
	}
	return "", false
}

const reserved = " RFC 1738 §4 reserves the name without defining its syntax or use: such a URL follows only the generic syntax, otherurl = genericurl (§5)."

var names = map[string]string{
	"afs": "Andrew File System global file names." + reserved +
		" The October 1993 draft wrote afs://cellname/path, \"left in as historical note, but ... not a url production\".",
	"mid": "Message identifiers for electronic mail." + reserved +
		" Draft 03 and RFC 1630 define mid:addr-spec, the RFC 822 Message-ID without its \"<\" \">\", naming a message in mail already received; RFC 2111 (1997) later adds \"/\" and a Content-ID for a body part.",
	"cid": "Content identifiers for MIME body parts." + reserved +
		" Draft 03 and RFC 1630 define cid:content-identifier, a body part of the same MIME message, \"only meaningful within the context of the same MIME message\".",
	"nfs":        "Network File System (NFS) file names." + reserved + " (RFC 2224 later defines nfs://server/path.)",
	"tn3270":     "Interactive 3270 emulation sessions." + reserved + " Draft 03 gives it the telnet form, tn3270://[user[:password]@]host[:port][/] (default port 23).",
	"mailserver": "Access to data available from mail servers." + reserved,
	"z39.50":     "Access to ANSI Z39.50 services." + reserved + " (The WAIS scheme, though WAIS is based on Z39.50-1988, \"is not intended for use with arbitrary Z39.50 services\", §3.9; RFC 2056 later defines z39.50r and z39.50s.)",
	"rlogin":     "Interactive rlogin sessions: draft 03 and RFC 1630 name \"telnet, rlogin and tn3270\" together as references to interactive sessions, in the telnet form rlogin://[user[:password]@]host[:port][/] (default port 513, RFC 1282). RFC 1738 does not define it; it follows the generic syntax.",
	"urn":        "Uniform Resource Names: the 1993 draft reserves the name \"urn:\" \"for the work in progress on a scheme for more persistent names\"; RFC 1738 does not define it.",
	"x500":       "X.500 directory names: the 1993 draft leaves their mapping onto URLs \"a subject for study\"; no syntax is defined.",
	"whois":      "Whois++ queries: the 1993 draft describes whois://host/handle-or-query as \"a subject for further study\"; no syntax is defined.",
}
