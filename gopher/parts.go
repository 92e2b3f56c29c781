package gopher

import (
	"github.com/rfc1738/locator"
)

// The parts of a gopher URL an editor of URLs gets and sets by name
// (locator.PartEditor, the command's "locator url"): the fields of URL, decoded (RFC 1738 §3.4).
var _ locator.PartEditor = rules{}

// PartNames returns the names of the parts of a gopher URL.
func (rules) PartNames() []string { return []string{"type", "selector", "search", "plus"} }

// Part returns part name of u, encoded: "type", "selector", "search" or
// "plus".
func (rules) Part(u *locator.URL, name string) (string, bool) {
	g, _ := From(u)
	x := func(s string) string { return locator.Escape(s, locator.EncodeXchar) }
	switch name {
	case "type":
		return x(g.Type), true
	case "selector":
		return x(g.Selector), true
	case "search":
		return x(g.Search), g.HasSearch
	}
	return x(g.Plus), g.HasPlus
}

// SetPart returns u with part name set to v, written by Build.
func (rules) SetPart(u *locator.URL, name, v string, encoded bool) (string, error) {
	g, _ := From(u)
	v = partValue(v, encoded)
	switch name {
	case "type":
		g.Type = v
	case "selector":
		g.Selector = v
	case "search":
		g.Search, g.HasSearch = v, v != ""
	case "plus":
		g.Plus, g.HasPlus = v, v != ""
	}
	return g.Build()
}

// partValue decodes v when it is given encoded.
func partValue(v string, encoded bool) string {
	if encoded {
		return locator.Decode(v)
	}
	return v
}
