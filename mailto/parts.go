package mailto

import (
	"github.com/rfc1738/locator"
)

// The parts of a mailto URL an editor of URLs gets and sets by name
// (locator.PartEditor, the command's "locator url"): its address (RFC 1738 §3.5; RFC 2368's headers after "?" are beyond it, and the rules refuse them).
var _ locator.PartEditor = rules{}

// PartNames returns the names of the parts of a mailto URL.
func (rules) PartNames() []string { return []string{"address"} }

// Part returns u's address, encoded.
func (rules) Part(u *locator.URL, _ string) (string, bool) {
	m, _ := From(u)
	return locator.Escape(m.Address, locator.EncodeUser), m.Address != ""
}

// SetPart returns u with its address v, written by Build.
func (rules) SetPart(u *locator.URL, _, v string, encoded bool) (string, error) {
	m, _ := From(u)
	m.Address = partValue(v, encoded)
	return m.Build()
}

// partValue decodes v when it is given encoded.
func partValue(v string, encoded bool) string {
	if encoded {
		return locator.Decode(v)
	}
	return v
}
