package main

// -O, --remote-name: the local file name a URL gives its object, as
// curl's, read from the URL's own structure by its scheme package.

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/file"
	"github.com/rfc1738/locator/ftp"
	"github.com/rfc1738/locator/gopher"
	lochttp "github.com/rfc1738/locator/http"
	"github.com/rfc1738/locator/internal/printable"
	"github.com/rfc1738/locator/news"
	"github.com/rfc1738/locator/nntp"
	"github.com/rfc1738/locator/prospero"
	"github.com/rfc1738/locator/wais"
)

// remoteName returns the file name -O writes u's object to: the last
// name the URL decodes to in its scheme's terms: an ftp URL's <name>
// (RFC 1738 §3.2.2), the last segment of an http path (§3.3), of a
// gopher selector (§3.4), of a file or Prospero path; a news article's
// message-id (§3.6), made safe, or a group's name; an nntp URL's article
// number (§3.7), or its group; a WAIS database.
//
// The name must stay a name in the output directory: one that is empty,
// "." or "..", or holds a "/" or NUL once decoded (an encoded %2F,
// %00), is refused, never turned into a path.
func remoteName(u *locator.URL) (string, error) {
	name, err := schemeName(u)
	if err != nil {
		return "", err
	}
	switch {
	case name == "":
		return "", fmt.Errorf("-O: %s names no file (nothing after its last \"/\"); give -o FILE", printable.String(u.String()))
	case name == "." || name == "..":
		return "", fmt.Errorf("-O: %s: the name %q is a directory's; give -o FILE", printable.String(u.String()), name)
	case strings.ContainsAny(name, "/\x00"):
		return "", fmt.Errorf("-O: %s: the name decodes to %s, which holds a \"/\" or NUL and is no file name; give -o FILE",
			printable.String(u.String()), printable.String(strconv.Quote(name)))
	}
	return name, nil
}

// schemeName is the name u's own scheme gives its object, decoded: an
// FTP URL's name, an HTTP URL's last segment, ...; "" for none.
func schemeName(u *locator.URL) (string, error) {
	var name string
	switch u.Scheme() {
	case "ftp":
		f, err := ftp.From(u)
		if err != nil {
			return "", err
		}
		name = f.Name
	case "http", "https":
		h, err := lochttp.From(u)
		if err != nil {
			return "", err
		}
		if len(h.Segments) > 0 {
			name = h.Segments[len(h.Segments)-1]
		}
	case "gopher":
		g, err := gopher.From(u)
		if err != nil {
			return "", err
		}
		name = lastName(g.Selector)
	case "file":
		f, err := file.From(u)
		if err != nil {
			return "", err
		}
		name = lastName(f.Path)
	case "prospero":
		p, err := prospero.From(u)
		if err != nil {
			return "", err
		}
		name = lastName(p.HSOName)
	case "news", "snews":
		n, err := news.From(u)
		if err != nil {
			return "", err
		}
		switch {
		case n.Article != "":
			// A message-id may hold any printable character but
			// "<", ">" and space (RFC 5536 §3.1.3), a "/" among them.
			name = safeName(n.Article)
		default:
			name = n.Group
		}
	case "nntp":
		n, err := nntp.From(u)
		if err != nil {
			return "", err
		}
		name = n.Group
		if n.HasNumber {
			name = n.Number
		}
	case "wais":
		w, err := wais.From(u)
		if err != nil {
			return "", err
		}
		if w.HasDoc {
			// A document-id is the server's, not a name.
			return "", fmt.Errorf("-O: %s: a WAIS document-id is no file name; give -o FILE", printable.String(u.String()))
		}
		name = w.Database
	default:
		return "", fmt.Errorf("-O: %s: a %s URL names no file; give -o FILE", printable.String(u.String()), u.Scheme())
	}
	return name, nil
}

// lastName is what follows the last "/" of a decoded path.
func lastName(p string) string {
	return p[strings.LastIndexByte(p, '/')+1:]
}

// safeName writes a message-id as a file name: "/", "\", "%", "<", ">",
// controls and spaces as %XX, so that the name stays one name and can
// be read back.
func safeName(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= ' ' || c == 0x7f || strings.IndexByte(`/\%<>`, c) >= 0 {
			fmt.Fprintf(&b, "%%%02X", c)
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}
