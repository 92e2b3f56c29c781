package file

import (
	"strconv"
	"strings"

	"github.com/rfc1738/locator"
)

// A Ref is what a file URL says, decoded: the host and the path. Build
// writes it; Decode reads one back.
type Ref struct {
	// Host is a host name or number, "localhost", or "" for this machine.
	Host string
	// Path is the decoded path with its leading "/"; "/" separates
	// names, so a name cannot hold one.
	Path string
}

// Decode returns the host and decoded path of the file URL u ("/" for
// file://host, which has none).
func Decode(u *locator.URL) Ref {
	p, ok := urlPath(u)
	if !ok {
		p = "/"
	}
	r := Ref{Path: locator.Decode(p)}
	if u.HasAuthority() { // a host is written only after "//"
		r.Host = u.Host()
	}
	return r
}

// A BuildError says why components cannot be written as a conforming URL.
type BuildError = locator.BuildError

// Build writes r as file://<host>/<path> (RFC 1738 §3.10), each name of
// the path encoded as an fsegment (";", "#", "%", space and the unsafe
// characters encoded; "?" ":" "@" "&" "=" kept). It fails with a
// *BuildError when the path does not begin with "/" or the host is not a
// host name or number.
func Build(r Ref) (string, error) {
	var b strings.Builder
	b.WriteString("file://")
	b.WriteString(r.Host)
	if !strings.HasPrefix(r.Path, "/") {
		return "", &BuildError{Scheme: "file", URL: b.String(), Problem: locator.Problem{Offset: b.Len(), Severity: locator.Error, Rule: "fileurl", Message: "the path begins with \"/\""}}
	}
	for _, s := range strings.Split(r.Path[1:], "/") {
		b.WriteByte('/')
		b.WriteString(locator.Escape(s, locator.EncodeFSegment))
	}
	s := b.String()
	if !isHostname(r.Host) {
		return "", &BuildError{Scheme: "file", URL: s, Problem: locator.Problem{Offset: len("file://"), Severity: locator.Error, Rule: "host", Message: "not a host name or number: " + strconv.Quote(r.Host)}}
	}
	if err := locator.CheckBuilt("file", s, len("file://"), r.Host, ""); err != nil {
		return "", err
	}
	return s, nil
}
