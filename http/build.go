package http

import (
	"strconv"
	"strings"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/internal/urlbuild"
)

// A URL is what an http or https URL says, decoded (RFC 1738 §3.3).
// Parse and From read one; Build writes it back as a URL.
type URL struct {
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

// Parse reads s with locator.Parse and decodes it with From.
func Parse(s string) (*URL, error) { return urlbuild.Parse(s, From) }

// From returns the components of the http or https URL u, decoded. The
// fragment, which RFC 1738 leaves outside the URL, is not among them.
// Problems of the structure are in u.Problems (Parse applies this
// package's rules); From fails, with a *locator.SchemeError of field
// "url", only when u is neither http nor https.
func From(u *locator.URL) (*URL, error) {
	if u.Scheme() != "http" && u.Scheme() != "https" {
		return nil, &locator.SchemeError{Scheme: "http", Field: "url", Rule: "httpurl", Message: "scheme is " + strconv.Quote(u.Scheme()) + ", not http or https"}
	}
	h := &URL{Scheme: u.Scheme(), Host: u.Host(), Port: u.Port(), Segments: Segments(u), HasSearch: u.HasSearch()}
	if u.HasSearch() {
		h.Search = locator.Decode(u.Search())
	}
	return h, nil
}

// Build writes u as an http (or https) URL, encoding each segment as an
// hsegment and the search as search (RFC 1738 §5: uchar and ";" ":" "@"
// "&" "=" are written as they are, everything else encoded, "/" and "?"
// included). A search without a path is written after "/" as httpurl
// requires.
//
// Build fails with a *locator.BuildError when the result would not
// conform to RFC 1738: a scheme other than http or https, a host that is
// empty or not a host name, number or IPv6 address (written in brackets,
// RFC 2732), a port that is not digits in range.
func (u *URL) Build() (string, error) {
	scheme := u.Scheme
	if scheme == "" {
		scheme = "http"
	}
	var b strings.Builder
	b.WriteString(scheme)
	b.WriteString("://")
	hostAt := urlbuild.WriteHostport(&b, u.Host, u.Port)
	urlbuild.WriteHPath(&b, u.Segments, u.Search, u.HasSearch)
	s := b.String()
	if scheme != "http" && scheme != "https" {
		return "", &locator.BuildError{Scheme: "http", URL: s, Problem: locator.Problem{Severity: locator.Error, Rule: "httpurl", Message: "the scheme is http or https"}}
	}
	if err := urlbuild.CheckBuilt("http", s, hostAt, u.Host, u.Port); err != nil {
		return "", err
	}
	return s, nil
}
