package ftp

import (
	"strings"

	"github.com/rfc1738/locator"
)

// The parts of an ftp URL an editor of URLs gets and sets by name
// (locator.PartEditor, the command's "locator url"): the fields of URL, decoded (RFC 1738 §3.2.2).
var _ locator.PartEditor = Rules{}

// PartNames returns the names of the parts of an ftp URL.
func (Rules) PartNames() []string { return []string{"cwd", "name", "typecode"} }

// Part returns part name of u: "cwd" (its directories, each encoded,
// joined by "/"), "name" or "typecode".
func (Rules) Part(u *locator.URL, name string) (string, bool) {
	f, _ := From(u)
	switch name {
	case "cwd":
		segs := make([]string, len(f.Cwd))
		for i, d := range f.Cwd {
			segs[i] = locator.Escape(d, locator.EncodeFSegment)
		}
		return strings.Join(segs, "/"), len(f.Cwd) > 0
	case "name":
		return locator.Escape(f.Name, locator.EncodeFSegment), f.HasName
	}
	return f.Typecode, f.HasTypecode
}

// SetPart returns u with part name set to v, written by Build. Each "/"
// of a cwd separates two directories; given encoded, a %2F stays within
// its directory.
func (Rules) SetPart(u *locator.URL, name, v string, encoded bool) (string, error) {
	f, _ := From(u)
	switch name {
	case "cwd":
		f.Cwd = nil
		if v != "" {
			f.Cwd = strings.Split(v, "/")
			for i, d := range f.Cwd {
				f.Cwd[i] = partValue(d, encoded)
			}
		}
	case "name":
		f.Name, f.HasName = partValue(v, encoded), true
	case "typecode":
		f.Typecode, f.HasTypecode, f.Draft = partValue(v, encoded), v != "", false
	}
	return f.Build()
}

// partValue decodes v when it is given encoded.
func partValue(v string, encoded bool) string {
	if encoded {
		return locator.Decode(v)
	}
	return v
}
