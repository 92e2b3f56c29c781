package nntp

import (
	"github.com/rfc1738/locator"
)

// The parts of an nntp URL an editor of URLs gets and sets by name
// (locator.PartEditor, the command's "locator url"): its group and article number (RFC 1738 §3.7).
var _ locator.PartEditor = Rules{}

// PartNames returns the names of the parts of an nntp URL.
func (Rules) PartNames() []string { return []string{"group", "article"} }

// Part returns part name of u: "group" or "article".
func (Rules) Part(u *locator.URL, name string) (string, bool) {
	n, _ := From(u)
	if name == "article" {
		return n.Number, n.HasNumber
	}
	return n.Group, n.Group != ""
}

// SetPart returns u with part name set to v, written by Build.
func (Rules) SetPart(u *locator.URL, name, v string, encoded bool) (string, error) {
	n, _ := From(u)
	v = partValue(v, encoded)
	if name == "article" {
		n.Number, n.HasNumber = v, v != ""
	} else {
		n.Group = v
	}
	return n.Build()
}

// partValue decodes v when it is given encoded.
func partValue(v string, encoded bool) string {
	if encoded {
		return locator.Decode(v)
	}
	return v
}
