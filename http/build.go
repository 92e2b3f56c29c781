package http

import (
	"strings"

	"github.com/rfc1738/locator"
)

// A Ref is what an http or https URL says, decoded. Build writes a Ref as
// a URL; Decode reads one back.
type Ref struct {
	// Scheme is "http" (when empty) or "https".
	Scheme string
	// Host is a host name or number, or an IPv6 address without brackets.
	Host string
	// Port is the port's digits, or "" for the scheme's default.
	Port string
	// Segments are the decoded hsegments of the path; nil for none.
	Segments []string
	// Search is the decoded search part; HasSearch reports its presence.
	Search    string
	HasSearch bool
}

// Decode returns the components of the http URL u, decoded. The fragment,
// which RFC 1738 leaves outside the URL, is not among them.
func Decode(u *locator.URL) Ref {
	r := Ref{Scheme: u.Scheme(), Host: u.Host(), Port: u.Port(), Segments: Segments(u), HasSearch: u.HasSearch()}
	if u.HasSearch() {
		r.Search = locator.Decode(u.Search())
	}
	return r
}

// A BuildError says why components cannot be written as a conforming URL.
type BuildError = locator.BuildError

// Build writes r as an http (or https) URL, encoding each segment as an
// hsegment and the search as search (RFC 1738 §5: uchar and ";" ":" "@"
// "&" "=" are written as they are, everything else encoded, "/" and "?"
// included). A search without a path is written after "/" as httpurl
// requires.
//
// Build fails with a *BuildError when the result would not conform to
// RFC 1738: a scheme other than http or https, a host that is empty or
// not a host name, number or IPv6 address (written in brackets, RFC
// 2732), a port that is not digits in range.
func Build(r Ref) (string, error) {
	scheme := r.Scheme
	if scheme == "" {
		scheme = "http"
	}
	var b strings.Builder
	b.WriteString(scheme)
	b.WriteString("://")
	hostAt := locator.WriteHostport(&b, r.Host, r.Port)
	segs := r.Segments
	if segs == nil && r.HasSearch {
		segs = []string{""}
	}
	for _, s := range segs {
		b.WriteByte('/')
		b.WriteString(locator.Escape(s, locator.EncodeHSegment))
	}
	if r.HasSearch {
		b.WriteByte('?')
		b.WriteString(locator.Escape(r.Search, locator.EncodeHSegment))
	}
	s := b.String()
	if scheme != "http" && scheme != "https" {
		return "", &BuildError{Scheme: "http", URL: s, Problem: locator.Problem{Severity: locator.Error, Rule: "httpurl", Message: "the scheme is http or https"}}
	}
	if err := locator.CheckBuilt("http", s, hostAt, r.Host, r.Port); err != nil {
		return "", err
	}
	return s, nil
}
