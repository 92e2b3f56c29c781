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
// size limit (Compressed), a POST (Data), the page of a refusal kept
// (ErrorBody).
package http

import (
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
func (Rules) Check(u *locator.URL, r locator.Report) locator.Report {
	add := func(off int, rule, msg string) { r.Add(off, locator.Violation, rule, msg) }
	if u.HasUser() {
		add(u.Offset(locator.UserComponent), "httpurl", "no user name or password is allowed in an "+u.Scheme()+" URL (RFC 1738 §3.3)")
	}
	if u.HasSearch() {
		base := u.Offset(locator.SearchComponent)
		if u.HasAuthority() && !u.HasPath() {
			add(base-1, "httpurl", "the search part follows \"/\" and the path: write "+u.Scheme()+"://host/?search (RFC 1738 §5 httpurl)")
		}
		// The core judged every octet of the search part already; of
		// them only "/" and "?" are this rule's, so it is searched for
		// them alone, many octets at a time, and the loop begins at the
		// first.
		search := u.Search()
		i := strings.IndexByte(search, '/')
		if j := strings.IndexByte(search, '?'); j >= 0 && (i < 0 || j < i) {
			i = j
		}
		if i < 0 {
			return r
		}
		for ; i < len(search); i++ {
			switch search[i] {
			case '/':
				add(base+i, "search", "'/' is reserved within the search part and must be encoded as %2F (RFC 1738 §3.3, §5 search)")
			case '?':
				add(base+i, "search", "'?' is reserved within the search part and must be encoded as %3F (RFC 1738 §3.3, §5 search)")
			}
		}
	}
	return r
}
