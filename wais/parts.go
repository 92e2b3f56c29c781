package wais

import (
	"github.com/rfc1738/locator"
)

// The parts of a wais URL an editor of URLs gets and sets by name
// (locator.PartEditor, the command's "locator url"): the fields of URL, decoded (RFC 1738 §3.9).
var _ locator.PartEditor = rules{}

// PartNames returns the names of the parts of a wais URL.
func (rules) PartNames() []string { return []string{"database", "search", "wtype", "wpath"} }

// Part returns part name of u, encoded: "database", "search", "wtype"
// or "wpath".
func (rules) Part(u *locator.URL, name string) (string, bool) {
	w, _ := From(u)
	x := func(s string) string { return locator.Escape(s, locator.EncodeUchar) }
	switch name {
	case "database":
		return x(w.Database), true
	case "search":
		return locator.Escape(w.Search, locator.EncodeHSegment), w.HasSearch
	case "wtype":
		return x(w.WType), w.HasDoc
	}
	return x(w.WPath), w.HasDoc
}

// SetPart returns u with part name set to v, written by Build: a search
// makes the URL the index form, a wtype or wpath the document form
// (RFC 1738 §3.9), each taking the other away.
func (rules) SetPart(u *locator.URL, name, v string, encoded bool) (string, error) {
	w, _ := From(u)
	v = partValue(v, encoded)
	switch name {
	case "database":
		w.Database = v
	case "search":
		w.Search, w.HasSearch = v, v != ""
		if w.HasSearch {
			w.WType, w.WPath, w.HasDoc = "", "", false
		}
	case "wtype", "wpath":
		if name == "wtype" {
			w.WType = v
		} else {
			w.WPath = v
		}
		w.HasDoc = w.WType != "" || w.WPath != ""
		if w.HasDoc {
			w.Search, w.HasSearch = "", false
		}
	}
	return w.Build()
}

// partValue decodes v when it is given encoded.
func partValue(v string, encoded bool) string {
	if encoded {
		return locator.Decode(v)
	}
	return v
}
