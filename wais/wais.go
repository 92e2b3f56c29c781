// Package wais reads, judges and builds WAIS URLs as RFC 1738 §3.9
// describes them:
//
//	wais://<host>:<port>/<database>
//	wais://<host>:<port>/<database>?<search>
//	wais://<host>:<port>/<database>/<wtype>/<wpath>
//
// with database, wtype and wpath = *uchar (§5): "/" separates them and
// every reserved character inside them is encoded; search =
// *[ uchar | ";" | ":" | "@" | "&" | "=" ]. The wpath is the WAIS
// document-id, "treated opaquely" (§3.9). Draft 03's wpath of numbered
// fields, digits "=" value ";" ..., writes ";" and "=" unencoded; it is
// read (docFields) and reported as the draft form.
//
// Parts (the JSON "parts") are {database, search} or {database, wtype,
// wpath}, decoded: database is always present (it may be empty), search
// when the "?" is (even with an empty search), wtype and wpath when the
// document form is used. The search is decoded octet for octet; "+" is a
// "+" (the 1993 draft's "search = xalphas [ + search ]" used it between
// words, and Explain says so).
package wais

import (
	"strconv"
	"strings"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/internal/urlbuild"
)

// defaultPort is the port a WAIS URL means when it names none (§3.9).
const defaultPort = 210

// URL is a WAIS URL's decoded structure.
type URL struct {
	Host string // as in locator.URL
	Port string // "" for the default 210

	Database string
	// Search is the decoded search (the index form); HasSearch records
	// the "?".
	Search    string
	HasSearch bool
	// WType and WPath are the document form's type and document-id,
	// decoded; HasDoc records the form.
	WType, WPath string
	HasDoc       bool
}

// schemeError is the *locator.SchemeError of a WAIS URL's field: the
// field ("url", "path", "wpath", "host", "port"), the offset in its
// text and the rule broken.
func schemeError(field string, off int, rule, msg string) *locator.SchemeError {
	return &locator.SchemeError{Scheme: "wais", Field: field, Offset: off, Rule: rule, Message: msg}
}

// Parse reads s with locator.Parse and returns its WAIS structure. The
// error is a *locator.ParseError when s is not a URL at all, and a
// *locator.SchemeError when it is not a wais URL.
func Parse(s string) (*URL, error) { return urlbuild.Parse(s, From) }

// From decodes the WAIS structure of u; problems are in u.Problems. A
// path of two segments is read as a document form with an empty wpath;
// in one of more than three, every "/" after the second is part of the
// wpath. From fails only when u is not a wais URL, with a
// *locator.SchemeError of field "url".
func From(u *locator.URL) (*URL, error) {
	if u.Scheme() != "wais" {
		return nil, schemeError("url", 0, "waisurl", "scheme is "+strconv.Quote(u.Scheme())+", not wais")
	}
	w := &URL{}
	if u.HasAuthority() { // a host and port are written only after "//"
		w.Host = u.Host()
		if u.HasPort() {
			w.Port = u.Port()
		}
	}
	db, wtype, wpath, doc := splitPath(u.Path())
	w.Database = locator.Decode(db)
	if doc {
		w.HasDoc = true
		w.WType = locator.Decode(wtype)
		w.WPath = locator.Decode(wpath)
	}
	if u.HasSearch() {
		w.HasSearch = true
		w.Search = locator.Decode(u.Search())
	}
	return w, nil
}

// splitPath splits the encoded url-path at its first two "/".
func splitPath(p string) (db, wtype, wpath string, doc bool) {
	i := strings.IndexByte(p, '/')
	if i < 0 {
		return p, "", "", false
	}
	db, rest := p[:i], p[i+1:]
	j := strings.IndexByte(rest, '/')
	if j < 0 {
		return db, rest, "", true
	}
	return db, rest[:j], rest[j+1:], true
}

// searchOK is search = *[ uchar | ";" | ":" | "@" | "&" | "=" ] less
// escapes.
func searchOK(c byte) bool {
	return locator.IsUchar(c) || c == ';' || c == ':' || c == '@' || c == '&' || c == '='
}

// A docField is one numbered field of draft 03's wpath: "The wpath of a
// WAIS URL consists of encoded fields of the WAIS identifier ... the
// identifier field number is the digits before the equals sign, and the
// field contents follow, encoded in the conventional encoding, terminated
// by ";"" (wpath = digits "=" path ";" [ wpath ]).
type docField struct {
	Number int
	Value  string // decoded
}

// docFields reads an encoded wpath in draft 03's field form. It fails,
// with a *locator.SchemeError of field "wpath" naming the offset, when
// wpath is not in that form (an RFC 1738 wpath is opaque and need not
// be).
func docFields(wpath string) ([]docField, error) {
	var fs []docField
	if wpath == "" {
		return nil, schemeError("wpath", 0, "wpath", "empty: draft 03's wpath is one or more digits \"=\" value \";\"")
	}
	for i := 0; i < len(wpath); {
		j := i
		for j < len(wpath) && '0' <= wpath[j] && wpath[j] <= '9' {
			j++
		}
		if j == i || j == len(wpath) || wpath[j] != '=' {
			return nil, schemeError("wpath", j, "wpath", "draft 03's wpath field is digits \"=\" value \";\"")
		}
		n, err := strconv.Atoi(wpath[i:j])
		if err != nil {
			return nil, schemeError("wpath", i, "wpath", "field number "+strconv.Quote(wpath[i:j])+" is out of range")
		}
		end := strings.IndexByte(wpath[j+1:], ';')
		if end < 0 {
			return nil, schemeError("wpath", len(wpath), "wpath", "draft 03's wpath field value is terminated by \";\"")
		}
		end += j + 1
		fs = append(fs, docField{Number: n, Value: locator.Decode(wpath[j+1 : end])})
		i = end + 1
	}
	return fs, nil
}

// Build writes w as a correctly encoded WAIS URL: database, wtype and
// wpath with every octet outside unreserved encoded (so "/" in them is
// %2F), the search with uchar | ";" | ":" | "@" | "&" | "=" left as they
// are. It fails, with a *locator.SchemeError naming the field, when both
// a search and a document are given, or when the host or port is not
// RFC 1738's; and with a *locator.BuildError when what it wrote does not
// conform (an IPv6 host, which RFC 1738's hostport cannot write, among
// them).
func (w *URL) Build() (string, error) {
	if w.HasSearch && w.HasDoc {
		return "", schemeError("url", 0, "waisurl", "a WAIS URL is a database, a search or a document, not a search and a document (RFC 1738 §3.9)")
	}
	if f, i := urlbuild.BadHostport(w.Host, w.Port); i >= 0 {
		return "", schemeError(f, i, "hostport", "the "+f+" holds a character RFC 1738 §3.1 does not allow there")
	}
	if w.Host == "" {
		return "", schemeError("host", 0, "hostport", "a WAIS URL names a host (RFC 1738 §3.9)")
	}
	var b strings.Builder
	b.WriteString("wais://")
	urlbuild.WriteHostport(&b, w.Host, w.Port)
	b.WriteByte('/')
	b.WriteString(locator.Escape(w.Database, locator.EncodeUchar))
	if w.HasDoc {
		b.WriteString("/" + locator.Escape(w.WType, locator.EncodeUchar))
		b.WriteString("/" + locator.Escape(w.WPath, locator.EncodeUchar))
	}
	if w.HasSearch {
		b.WriteString("?" + locator.Escape(w.Search, locator.EncodeHSegment))
	}
	s := b.String()
	// The fields are encoded, so any problem read back is in the host or
	// port. Unlike urlbuild.CheckBuilt no IPv6 literal is allowed: every
	// URL Build writes conforms to RFC 1738.
	u, err := locator.Parse(s)
	if err != nil {
		return "", &locator.BuildError{Scheme: "wais", URL: s, Problem: err.(*locator.ParseError).Problem}
	}
	for _, p := range u.Problems() {
		if p.Severity >= locator.Violation {
			return "", &locator.BuildError{Scheme: "wais", URL: s, Problem: p}
		}
	}
	return s, nil
}
