// Package file holds the file scheme of RFC 1738 §3.10: a file on a
// particular host computer, and the conversion between file URLs and the
// local paths of Unix and Windows.
//
//	file://<host>/<path>
//
// (§3.10; §5: fileurl = "file://" [ host | "localhost" ] "/" fpath). The
// host is "the fully qualified domain name of the system on which the
// <path> is accessible"; the empty string and "localhost" mean "the
// machine from which the URL is being interpreted" (IsLocal), so the
// normal form (locator.Normalizer, hence locator.Equal) writes
// "localhost" as the empty host.
//
// The JSON parts are {"host", "path"}: host as written ("" present for
// file:///x), path decoded with its leading "/". A URL written without
// "//" (file:/etc/motd, a violation the core reports) has no host key;
// file://host without a path has no path key.
//
// Check reports, with offsets into the input:
//   - "fileurl": a user, password or port (§5 allows only a host), or no
//     "/" and path after the host;
//   - "fsegment": an unencoded ";" in the path (§5: fpath is made of
//     fsegments, which leave ";" out).
//
// URL is a file URL decoded: Parse and From read it, its Build method
// writes it back. LocalPath and FromLocalPath convert to and from local
// paths; see their docs and docs/schemes-a.md for where they depart
// from libwww-perl's URI::file.
package file

import (
	"strconv"
	"strings"

	"github.com/rfc1738/locator"
)

func init() {
	locator.Register("file", Rules{})
}

// Rules are the file scheme's rules. They implement locator.Rules,
// locator.Explainer and locator.Normalizer.
type Rules struct{}

// Parts is the decoded structure of a file URL, as its JSON parts.
type Parts struct {
	Host *string `json:"host,omitempty"` // as written; "" for this machine
	Path *string `json:"path,omitempty"` // decoded, with its leading "/"
}

// Parts returns u's host and decoded path.
func (Rules) Parts(u *locator.URL) any {
	var p Parts
	if u.HasAuthority() {
		h := u.Host()
		p.Host = &h
	}
	if path, ok := urlPath(u); ok {
		d := locator.Decode(path)
		p.Path = &d
	}
	return p
}

// urlPath returns u's path, still encoded, with its leading "/" in the
// "//" form, and whether there is one.
func urlPath(u *locator.URL) (string, bool) {
	if !u.HasPath() {
		return "", false
	}
	if u.HasAuthority() {
		return "/" + u.Path(), true
	}
	return u.Path(), true
}

// IsLocal reports whether u's host means "the machine from which the URL
// is being interpreted": the empty string or "localhost" (RFC 1738 §3.10),
// in any case. Another name may well be this machine, but only a lookup
// could tell.
func IsLocal(u *locator.URL) bool {
	return !u.HasAuthority() || u.Host() == "" || strings.EqualFold(u.Host(), "localhost")
}

// Normalize writes the host "localhost" (any case) as the empty host:
// RFC 1738 §3.10 gives both the one meaning, "the machine from which the
// URL is being interpreted", so file://localhost/x and file:///x are
// Equal. No other name is rewritten, not even 127.0.0.1: only a lookup
// could tell that it is this machine. A URL with a user or a port (which
// §5 fileurl does not allow) is left as written.
func (Rules) Normalize(p *locator.Parts) {
	if p.HasAuthority && !p.HasUser && !p.HasPort && strings.EqualFold(p.Host, "localhost") {
		p.Host = ""
	}
}

// Check adds to r the file-specific problems of u (RFC 1738 §3.10, §5
// fileurl, fsegment), with offsets into u.Input.
func (Rules) Check(u *locator.URL, r locator.Report) locator.Report {
	add := func(off int, rule, msg string) { r.Add(off, locator.Violation, rule, msg) }
	// The login and the port are absent, and the path present, in almost
	// every file URL: one test of the flags passes them all.
	if u.HasAuthority() && (u.HasUser() || u.HasPort() || !u.HasPath()) {
		if u.HasUser() {
			add(u.Offset(locator.UserComponent), "fileurl", "a file URL has no user name or password: file://<host>/<path> (RFC 1738 §3.10, §5)")
		}
		if u.HasPort() {
			add(u.Offset(locator.PortComponent)-1, "fileurl", "a file URL has no port: file://<host>/<path> (RFC 1738 §3.10, §5)")
		}
		if !u.HasPath() {
			add(u.Offset(locator.PathComponent), "fileurl", "a \"/\" and the path follow the host: file://<host>/<path> (RFC 1738 §5 fileurl)")
		}
	}
	// The core judged every octet of the path already; of them only ";"
	// is this rule's, so the path is searched for it alone, many octets
	// at a time, and most paths, which have none, cost no more.
	path := u.Path()
	i := strings.IndexByte(path, ';')
	if i < 0 {
		return r
	}
	base := u.Offset(locator.PathComponent)
	for ; i < len(path); i++ {
		if path[i] == ';' {
			add(base+i, "fsegment", "';' is reserved in a file path segment and must be encoded as %3B (RFC 1738 §5 fsegment)")
		}
	}
	return r
}

// Explain says for a person what u stands for: a file on this machine
// (with its local path) or on another host, which the URL gives no
// protocol to reach (§3.10).
func (Rules) Explain(u *locator.URL) string {
	var b strings.Builder
	b.WriteString("File (RFC 1738 §3.10): ")
	path, ok := urlPath(u)
	d := locator.Decode(path)
	switch {
	case !ok:
		b.WriteString("no path is given.\n")
		return b.String()
	case IsLocal(u):
		b.WriteString("the file " + strconv.Quote(d) + " on the machine that reads the URL")
		if !u.HasAuthority() || u.Host() == "" {
			b.WriteString(" (empty host).\n")
		} else {
			b.WriteString(" (" + strconv.Quote(u.Host()) + ").\n")
		}
	default:
		b.WriteString("the file " + strconv.Quote(d) + " on host " + strconv.Quote(u.Host()) + ".\n")
		b.WriteString("The URL names no protocol to reach another host; it is useful only there.\n")
	}
	for _, st := range []Style{Unix, Windows} {
		if p, err := LocalPath(u, st); err == nil {
			b.WriteString("  " + st.String() + " path: " + p + "\n")
		} else {
			b.WriteString("  " + st.String() + " path: none (" + err.(*PathError).Problem.Message + ")\n")
		}
	}
	return b.String()
}
