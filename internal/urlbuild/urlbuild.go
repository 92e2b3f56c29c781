// Package urlbuild holds what the scheme packages' builders share:
// writing a host and port as RFC 1738 §3.1's hostport and a path and
// search as §3.3's hpath and search, screening the host and port
// beforehand, and reading a built URL back to check that it conforms.
package urlbuild

import (
	"strconv"
	"strings"

	"github.com/rfc1738/locator"
)

// WriteHostport writes host and port to b as RFC 1738 §3.1's
// hostport, host [ ":" port ]: a host holding a ":" is an IPv6 address
// and is written in brackets (RFC 2732, which RFC 1738 predates), an
// empty port is left out. It returns the offset in b at which the host
// begins, to be given to CheckBuilt.
func WriteHostport(b *strings.Builder, host, port string) (hostAt int) {
	hostAt = b.Len()
	if strings.IndexByte(host, ':') >= 0 {
		b.WriteString("[" + host + "]")
	} else {
		b.WriteString(host)
	}
	if port != "" {
		b.WriteString(":" + port)
	}
	return hostAt
}

// WriteHPath writes segs and search to b as the path and search part of
// RFC 1738 §3.3's httpurl, "/" hpath [ "?" search ], which gemini URLs
// share: each segment after a "/", encoded as an hsegment, and the
// search after "?" when hasSearch, encoded the same way (§5: uchar and
// ";" ":" "@" "&" "=" as they are, everything else encoded, "/" and "?"
// included). nil segs write no path, except that a search without a
// path is written after "/", since httpurl has no "?" without one.
func WriteHPath(b *strings.Builder, segs []string, search string, hasSearch bool) {
	if segs == nil && hasSearch {
		segs = []string{""}
	}
	for _, s := range segs {
		b.WriteByte('/')
		b.WriteString(locator.Escape(s, locator.EncodeHSegment))
	}
	if hasSearch {
		b.WriteByte('?')
		b.WriteString(locator.Escape(search, locator.EncodeHSegment))
	}
}

// BadHostport reports the first octet of host or port that RFC 1738
// §3.1 does not allow there, as the field ("host" or "port") and its
// offset in that field; off is -1 when there is none. A host is made of
// letters, digits, "-" and "." (hostname and hostnumber, §5), or, when
// it holds a ":", of an IPv6 address's hex digits, ":" and "."; a port is
// digits. Anything else ("/", "#", "@", ...) would change the structure
// of the URL the host is written into, not just break a rule.
func BadHostport(host, port string) (field string, off int) {
	v6 := strings.IndexByte(host, ':') >= 0
	for i := 0; i < len(host); i++ {
		c := host[i]
		ok := '0' <= c && c <= '9' || 'a' <= c|0x20 && c|0x20 <= 'z' || c == '-' || c == '.'
		if v6 {
			ok = locator.IsHex(c) || c == ':' || c == '.'
		}
		if !ok {
			return "host", i
		}
	}
	for i := 0; i < len(port); i++ {
		if port[i] < '0' || port[i] > '9' {
			return "port", i
		}
	}
	return "", -1
}

// CheckBuilt reads back s, a URL that the builder of scheme wrote with
// host and port at offset hostAt (as WriteHostport returned it), and
// fails with a *BuildError when s does not conform to RFC 1738: when
// Parse cannot read it, when it does not read the host and port that
// were asked for (a "/", "#", "@" or the like in them ends the
// hostport of §3.1 early), or at the first problem of severity Violation
// or worse (§5's grammar). The one violation allowed is rule "host" at
// hostAt for a host holding a ":": the IPv6 literal in brackets that the
// builder writes when asked (RFC 2732).
func CheckBuilt(scheme, s string, hostAt int, host, port string) error {
	u, err := locator.Parse(s)
	if err != nil {
		return &locator.BuildError{Scheme: scheme, URL: s, Problem: err.(*locator.ParseError).Problem}
	}
	if u.Host() != host || u.Port() != port || u.HasPort() != (port != "") {
		return &locator.BuildError{Scheme: scheme, URL: s, Problem: locator.Problem{Offset: u.Offset(locator.HostComponent), Severity: locator.Error,
			Rule: "hostport", Message: "host " + strconv.Quote(host) + " and port " + strconv.Quote(port) + " cannot be written as hostport (RFC 1738 §3.1)"}}
	}
	v6 := strings.IndexByte(host, ':') >= 0
	for _, q := range u.Problems() {
		if q.Severity >= locator.Violation && !(v6 && q.Offset == hostAt && q.Rule == "host") {
			return &locator.BuildError{Scheme: scheme, URL: s, Problem: q}
		}
	}
	return nil
}

// Parse reads s with locator.Parse and gives the URL to from, a scheme
// package's From: every scheme package's Parse.
func Parse[T any](s string, from func(*locator.URL) (*T, error)) (*T, error) {
	u, err := locator.Parse(s)
	if err != nil {
		return nil, err
	}
	return from(u)
}

// NotScheme returns the *locator.SchemeError a scheme package's From
// gives for a URL of another scheme (field "url", rule the scheme's
// production of RFC 1738 §5), or nil when u is of scheme.
func NotScheme(u *locator.URL, scheme, rule string) error {
	if u.Scheme() == scheme {
		return nil
	}
	return &locator.SchemeError{Scheme: scheme, Field: "url", Rule: rule, Message: "scheme is " + strconv.Quote(u.Scheme()) + ", not " + scheme}
}
