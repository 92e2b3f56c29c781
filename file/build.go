package file

import (
	"strconv"
	"strings"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/internal/urlbuild"
)

// A URL is what a file URL says, decoded: the host and the path (RFC
// 1738 §3.10). Parse and From read one; Build writes it back as a URL.
type URL struct {
	// Host is a host name or number, "localhost", or "" for this machine.
	Host string
	// Path is the decoded path with its leading "/"; "/" separates
	// names, so a name cannot hold one.
	Path string
}

// Parse reads s with locator.Parse and decodes it with From.
func Parse(s string) (*URL, error) { return urlbuild.Parse(s, From) }

// From returns the host and decoded path of the file URL u ("/" for
// file://host, which has none). Problems of the structure are in
// u.Problems (Parse applies this package's rules); From fails, with a
// *locator.SchemeError of field "url", only when u is not a file URL.
func From(u *locator.URL) (*URL, error) {
	if err := urlbuild.NotScheme(u, "file", "fileurl"); err != nil {
		return nil, err
	}
	p, ok := urlPath(u)
	if !ok {
		p = "/"
	}
	f := &URL{Path: locator.Decode(p)}
	if u.HasAuthority() { // a host is written only after "//"
		f.Host = u.Host()
	}
	return f, nil
}

// Build writes u as file://<host>/<path> (RFC 1738 §3.10), each name of
// the path encoded as an fsegment (";", "#", "%", space and the unsafe
// characters encoded; "?" ":" "@" "&" "=" kept). It fails with a
// *locator.BuildError when the path does not begin with "/" or the host
// is not a host name or number.
func (u *URL) Build() (string, error) {
	var b strings.Builder
	b.WriteString("file://")
	b.WriteString(u.Host)
	if !strings.HasPrefix(u.Path, "/") {
		return "", &locator.BuildError{Scheme: "file", URL: b.String(), Problem: locator.Problem{Offset: b.Len(), Severity: locator.Error, Rule: "fileurl", Message: "the path begins with \"/\""}}
	}
	for _, s := range strings.Split(u.Path[1:], "/") {
		b.WriteByte('/')
		b.WriteString(locator.Escape(s, locator.EncodeFSegment))
	}
	s := b.String()
	if !isHostname(u.Host) {
		return "", &locator.BuildError{Scheme: "file", URL: s, Problem: locator.Problem{Offset: len("file://"), Severity: locator.Error, Rule: "host", Message: "not a host name or number: " + strconv.Quote(u.Host)}}
	}
	if err := urlbuild.CheckBuilt("file", s, len("file://"), u.Host, ""); err != nil {
		return "", err
	}
	return s, nil
}
