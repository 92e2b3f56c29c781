package news

import (
	"github.com/rfc1738/locator"
)

// The parts of a news URL an editor of URLs gets and sets by name
// (locator.PartEditor, the command's "locator url"): its group ("*" for all) or its article (RFC 1738 §3.6); snews URLs, draft-gilman's, have none.
var _ locator.PartEditor = newsRules{}

// PartNames returns the names of the parts of a news URL.
func (newsRules) PartNames() []string { return []string{"group", "article"} }

// Part returns part name of u: "group" ("*" for all groups) or
// "article", encoded.
func (newsRules) Part(u *locator.URL, name string) (string, bool) {
	n, _ := From(u)
	if name == "article" {
		return locator.Escape(n.Article, locator.EncodeXchar), n.Article != ""
	}
	if n.All {
		return "*", true
	}
	return n.Group, n.Group != ""
}

// SetPart returns u with part name set to v, written by Build. A news
// URL names one of a group, an article or "*" (RFC 1738 §3.6): setting
// one takes the others away.
func (newsRules) SetPart(u *locator.URL, name, v string, encoded bool) (string, error) {
	n, _ := From(u)
	v = partValue(v, encoded)
	n.Group, n.Article, n.All, n.Range = "", "", false, ""
	switch {
	case name == "group" && v == "*":
		n.All = true
	case name == "group":
		n.Group = v
	default:
		n.Article = v
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
