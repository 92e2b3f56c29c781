// Package http holds the http scheme of RFC 1738 §3.3, and https with the
// same rules: the structure of an http URL (path and search), the rules
// of §3.3 and §5 (httpurl, hpath, hsegment, search), the decoded URL
// (URL: Parse and From read it, its Build method writes it back), and the
// request an http URL stands for.
//
// https is not in RFC 1738: it is HTTP over TLS (RFC 2818), written with
// the syntax of http and default port 443. It is registered with the same
// rules, and its explanation says so.
//
// # Structure
//
// An HTTP URL takes the form http://<host>:<port>/<path>?<searchpart>
// (§3.3). The JSON parts are {"path", "search"}, both decoded; path is
// the <path> of §3.3, without the "/" that precedes it. A key is absent
// when its part is: http://host has no path, http://host/ has path "",
// http://host/? has search "".
//
// # Rules
//
// Check reports, with offsets into the input:
//   - "httpurl": a user name or password (§3.3: "No user name or
//     password is allowed"); a search part not preceded by "/" and a path
//     (§5: httpurl = "http://" hostport [ "/" hpath [ "?" search ]]);
//   - "search": an unencoded "/" or "?" in the search part. §5 reads
//     search = *[ uchar | ";" | ":" | "@" | "&" | "=" ], which leaves both
//     out, and §3.3 calls "/" and "?" reserved within the searchpart.
//     Many URLs on the web break this rule (RFC 3986 later allowed both
//     in a query); it is reported, and the URL is read all the same.
//
// hsegment allows every reserved character but "/" and "?", which cannot
// occur inside a segment once the path is split, so the generic xchar
// check of the core is all hpath needs.
//
// # Request
//
// NewRequest gives the request line the URL stands for: the path and
// search are passed on as written, the fragment never (the 1993 draft's
// HTTP notes: "The fragmentid part is not sent with the request. The
// search part, if present, is sent."). NewProxyRequest gives the absolute
// form sent to a proxy, for a URL of any scheme (draft 03: when an http
// server is used as a gateway or proxy "the entire URI, whether HTTP or
// some other scheme" is sent).
//
// # Client
//
// Client follows http and https URLs for package access, to the server
// or through a proxy (access.Client.Proxy: the absolute form, a CONNECT
// tunnel for https), and, as an access.ProxyFetcher, URLs of every other
// scheme through an HTTP proxy or gateway (gopher_proxy, ftp_proxy).
// It resumes a transfer with a Range (RFC 9110 §14.2). Its other fields
// are what curl's users expect: header fields (Header), Basic
// authorization (User, RFC 7617, or the access.Client's Login), the TLS
// roots or none verified (TLSConfig), a gzip body decoded within the
// size limit (Compressed), a POST (Data), another method (Method), the
// page of a refusal kept (ErrorBody), each reply's head as the server
// sent it (OnReply), and credentials kept to one origin (AuthOrigin).
package http

import (
	"math/bits"
	"strings"

	"github.com/rfc1738/locator"
)

func init() {
	locator.Register("http", Rules{})
	locator.Register("https", Rules{})
}

// Rules are the rules of http (RFC 1738 §3.3) and https. They implement
// locator.Rules and locator.Explainer.
type Rules struct{}

// Parts is the decoded structure of an http URL, as its JSON parts.
type Parts struct {
	Path   *string `json:"path,omitempty"`   // §3.3 <path>, decoded, without its leading "/"
	Search *string `json:"search,omitempty"` // §3.3 <searchpart>, decoded
}

// Parts returns u's path and search, decoded.
func (Rules) Parts(u *locator.URL) any {
	var p Parts
	if u.HasPath() {
		s := locator.Decode(u.Path())
		p.Path = &s
	}
	if u.HasSearch() {
		s := locator.Decode(u.Search())
		p.Search = &s
	}
	return p
}

// Segments returns the decoded hsegments of u's path: the path is split
// at each "/" first, so an encoded "%2F" stays inside its segment. It
// returns nil when u has no path; "http://host/" has one empty segment.
func Segments(u *locator.URL) []string {
	if !u.HasPath() {
		return nil
	}
	segs := strings.Split(u.Path(), "/")
	for i, s := range segs {
		segs[i] = locator.Decode(s)
	}
	return segs
}

// Check adds to r the http-specific problems of u (RFC 1738 §3.3 and §5
// httpurl, search), with offsets into u.Input.
//
// The core judged every octet of the search part already; of them only
// "/" and "?" are this rule's. Parse calls Check only for an http URL
// with a user or a search (Screen); a search with neither octet costs
// it one pass, eight octets at a time (slashOrQuery), and the problems
// are written by searchProblems.
func (Rules) Check(u *locator.URL, r locator.Report) locator.Report {
	if u.HasUser() {
		r.Add(u.Offset(locator.UserComponent), locator.Violation, "httpurl", "no user name or password is allowed in an "+u.Scheme()+" URL (RFC 1738 §3.3)")
	}
	if !u.HasSearch() {
		return r
	}
	if u.HasAuthority() && !u.HasPath() {
		r.Add(u.Offset(locator.SearchComponent)-1, locator.Violation, "httpurl", "the search part follows \"/\" and the path: write "+u.Scheme()+"://host/?search (RFC 1738 §5 httpurl)")
	}
	search := u.Search()
	if i := slashOrQuery(search); i >= 0 {
		r = searchProblems(r, u.Offset(locator.SearchComponent), search, i)
	}
	return r
}

// Screen names the components Check reads: a URL with neither a user
// nor a search has nothing for it to report, and Parse does not call it
// (locator.Screener).
func (Rules) Screen() []locator.Component {
	return []locator.Component{locator.UserComponent, locator.SearchComponent}
}

// searchProblems adds to r a "search" problem for each "/" and "?" of
// search from its offset i on, the first of them; base is the offset of
// search in the input. It is kept out of Check, which it would slow on
// the common URL.
//
//go:noinline
func searchProblems(r locator.Report, base int, search string, i int) locator.Report {
	for ; i < len(search); i++ {
		switch search[i] {
		case '/':
			r.Add(base+i, locator.Violation, "search", "'/' is reserved within the search part and must be encoded as %2F (RFC 1738 §3.3, §5 search)")
		case '?':
			r.Add(base+i, locator.Violation, "search", "'?' is reserved within the search part and must be encoded as %3F (RFC 1738 §3.3, §5 search)")
		}
	}
	return r
}

// slashOrQuery returns the offset of the first "/" or "?" in s, or -1.
// "/" (0x2F) and "?" (0x3F) differ in bit 0x10 alone, and no other octet
// becomes 0x3F when that bit is set, so one search finds both: eight
// octets at a time, each with the bit set, compared with "?" by the
// classic zero-octet test, whose lowest marked octet is exact (a borrow
// only marks octets above a true one).
func slashOrQuery(s string) int {
	const (
		lo = 0x0101010101010101
		hi = 0x8080808080808080
		q  = 0x3F3F3F3F3F3F3F3F
		b4 = 0x1010101010101010
	)
	i := 0
	for ; i+8 <= len(s); i += 8 {
		w := (load8(s[i:]) | b4) ^ q
		if z := (w - lo) &^ w & hi; z != 0 {
			return i + bits.TrailingZeros64(z)>>3
		}
	}
	for ; i < len(s); i++ {
		if s[i]|0x10 == '?' {
			return i
		}
	}
	return -1
}

// load8 returns the eight octets of s from 0 as a little-endian word (the
// compiler makes it one load).
func load8(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}
