package prospero

import (
	"strings"

	"github.com/rfc1738/locator"
)

// The parts of a prospero URL an editor of URLs gets and sets by name
// (locator.PartEditor, the command's "locator url"): its hsoname and its fields (RFC 1738 §3.11).
var _ locator.PartEditor = rules{}

// PartNames returns the names of the parts of a prospero URL.
func (rules) PartNames() []string { return []string{"hsoname", "fields"} }

// Part returns part name of u, encoded: "hsoname" (its segments joined
// by "/") or "fields" ("name=value;name=value").
func (rules) Part(u *locator.URL, name string) (string, bool) {
	pr, _ := From(u)
	if name == "hsoname" {
		list := strings.Split(pr.HSOName, "/")
		for i, s := range list {
			list[i] = locator.Escape(s, locator.EncodeFSegment)
		}
		return strings.Join(list, "/"), true
	}
	var fs []string
	for _, f := range pr.Fields {
		fs = append(fs, locator.Escape(f.Name, locator.EncodeField)+"="+locator.Escape(f.Value, locator.EncodeField))
	}
	return strings.Join(fs, ";"), len(fs) > 0
}

// SetPart returns u with part name set to v, written by Build. The
// fields are "name=value;name=value", in order; given encoded, an
// escaped ";" or "=" is data.
func (rules) SetPart(u *locator.URL, name, v string, encoded bool) (string, error) {
	pr, _ := From(u)
	if name == "hsoname" {
		pr.HSOName = partValue(v, encoded)
		return pr.Build()
	}
	pr.Fields = nil
	if v != "" {
		for _, f := range strings.Split(v, ";") {
			n, val, _ := strings.Cut(f, "=")
			pr.Fields = append(pr.Fields, Field{Name: partValue(n, encoded), Value: partValue(val, encoded)})
		}
	}
	return pr.Build()
}

// partValue decodes v when it is given encoded.
func partValue(v string, encoded bool) string {
	if encoded {
		return locator.Decode(v)
	}
	return v
}
