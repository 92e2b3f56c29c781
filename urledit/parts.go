package urledit

import (
	"errors"
	"slices"
	"strings"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/ftp"
	"github.com/rfc1738/locator/gopher"
	"github.com/rfc1738/locator/mailto"
	"github.com/rfc1738/locator/news"
	"github.com/rfc1738/locator/nntp"
	"github.com/rfc1738/locator/prospero"
	"github.com/rfc1738/locator/wais"
)

// A scheme's own parts are the fields of its package's URL type (ftp.URL,
// gopher.URL, ...), decoded. Getting one reads the URL with the package's
// From; setting one changes that field and writes the URL with the
// package's Build, so the scheme's builder encodes it for its place in
// the grammar (RFC 1738 §5) and refuses what would not conform. The
// generic components the builder does not write (a fragment; a login
// where the scheme has none, which the scheme's rules then refuse) are
// kept.

// A scheme holds the parts of one scheme.
type scheme struct {
	parts []string
	// get returns part name of u encoded for its place in the URL (so
	// that a list keeps its elements apart: an ftp cwd's "a%2Fb/c"), and
	// whether u has it.
	get func(u *locator.URL, name string) (string, bool)
	// set sets part name of u to value ("" removes it; encoded: written
	// with escapes, see dec) and writes the URL.
	set func(u *locator.URL, name, value string, encoded bool) (string, error)
}

var schemes = map[string]*scheme{
	"ftp": {
		parts: []string{"cwd", "name", "typecode"},
		get: func(u *locator.URL, name string) (string, bool) {
			f, _ := ftp.From(u)
			switch name {
			case "cwd":
				return escapeList(f.Cwd, locator.EncodeFSegment), len(f.Cwd) > 0
			case "name":
				return locator.Escape(f.Name, locator.EncodeFSegment), f.HasName
			}
			return f.Typecode, f.HasTypecode
		},
		set: func(u *locator.URL, name, v string, encoded bool) (string, error) {
			f, _ := ftp.From(u)
			switch name {
			case "cwd":
				// Each "/" separates two directories; given encoded, a
				// %2F stays within its directory.
				f.Cwd = nil
				if v != "" {
					f.Cwd = strings.Split(v, "/")
					for i, d := range f.Cwd {
						f.Cwd[i] = dec(d, encoded)
					}
				}
			case "name":
				f.Name, f.HasName = dec(v, encoded), true
			case "typecode":
				f.Typecode, f.HasTypecode, f.Draft = dec(v, encoded), v != "", false
			}
			return f.Build()
		},
	},
	"gopher": {
		parts: []string{"type", "selector", "search", "plus"},
		get: func(u *locator.URL, name string) (string, bool) {
			g, _ := gopher.From(u)
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
		},
		set: func(u *locator.URL, name, v string, encoded bool) (string, error) {
			g, _ := gopher.From(u)
			v = dec(v, encoded)
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
		},
	},
	"news": {
		parts: []string{"group", "article"},
		get: func(u *locator.URL, name string) (string, bool) {
			n, _ := news.From(u)
			if name == "article" {
				return locator.Escape(n.Article, locator.EncodeXchar), n.Article != ""
			}
			if n.All {
				return "*", true
			}
			return n.Group, n.Group != ""
		},
		set: func(u *locator.URL, name, v string, encoded bool) (string, error) {
			n, _ := news.From(u)
			v = dec(v, encoded)
			// A news URL names one of a group, an article or "*"
			// (RFC 1738 §3.6): setting one takes the others away.
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
		},
	},
	"nntp": {
		parts: []string{"group", "article"},
		get: func(u *locator.URL, name string) (string, bool) {
			n, _ := nntp.From(u)
			if name == "article" {
				return n.Number, n.HasNumber
			}
			return n.Group, n.Group != ""
		},
		set: func(u *locator.URL, name, v string, encoded bool) (string, error) {
			n, _ := nntp.From(u)
			v = dec(v, encoded)
			if name == "article" {
				n.Number, n.HasNumber = v, v != ""
			} else {
				n.Group = v
			}
			return n.Build()
		},
	},
	"wais": {
		parts: []string{"database", "search", "wtype", "wpath"},
		get: func(u *locator.URL, name string) (string, bool) {
			w, _ := wais.From(u)
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
		},
		set: func(u *locator.URL, name, v string, encoded bool) (string, error) {
			w, _ := wais.From(u)
			v = dec(v, encoded)
			switch name {
			case "database":
				w.Database = v
			case "search":
				// The index form: a search, no document (RFC 1738 §3.9).
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
		},
	},
	"prospero": {
		parts: []string{"hsoname", "fields"},
		get: func(u *locator.URL, name string) (string, bool) {
			pr, _ := prospero.From(u)
			if name == "hsoname" {
				return escapeList(strings.Split(pr.HSOName, "/"), locator.EncodeFSegment), true
			}
			var fs []string
			for _, f := range pr.Fields {
				fs = append(fs, locator.Escape(f.Name, locator.EncodeField)+"="+locator.Escape(f.Value, locator.EncodeField))
			}
			return strings.Join(fs, ";"), len(fs) > 0
		},
		set: func(u *locator.URL, name, v string, encoded bool) (string, error) {
			pr, _ := prospero.From(u)
			if name == "hsoname" {
				pr.HSOName = dec(v, encoded)
				return pr.Build()
			}
			// "name=value;name=value": the fields, in order; given
			// encoded, an escaped ";" or "=" is data.
			pr.Fields = nil
			if v != "" {
				for _, f := range strings.Split(v, ";") {
					n, val, _ := strings.Cut(f, "=")
					pr.Fields = append(pr.Fields, prospero.Field{Name: dec(n, encoded), Value: dec(val, encoded)})
				}
			}
			return pr.Build()
		},
	},
	"mailto": {
		// RFC 1738's mailto URL is "mailto:" and an address (§3.5); RFC
		// 2368's headers after "?" are beyond it, and the mailto rules
		// refuse them.
		parts: []string{"address"},
		get: func(u *locator.URL, _ string) (string, bool) {
			m, _ := mailto.From(u)
			return locator.Escape(m.Address, locator.EncodeUser), m.Address != ""
		},
		set: func(u *locator.URL, _, v string, encoded bool) (string, error) {
			m, _ := mailto.From(u)
			m.Address = dec(v, encoded)
			return m.Build()
		},
	},
}

// escapeList encodes each element of list and joins them with "/".
func escapeList(list []string, e locator.Encoding) string {
	segs := make([]string, len(list))
	for i, s := range list {
		segs[i] = locator.Escape(s, e)
	}
	return strings.Join(segs, "/")
}

// Parts returns the names of the scheme's own parts, in the order its
// package's URL type holds them; nil for a scheme without any.
func Parts(scheme string) []string {
	if s := schemes[scheme]; s != nil {
		return slices.Clone(s.parts)
	}
	return nil
}

// has reports whether name is one of s's parts.
func (s *scheme) has(name string) bool {
	for _, p := range s.parts {
		if p == name {
			return true
		}
	}
	return false
}

// partKnown reports whether name is a part of some scheme.
func partKnown(name string) bool {
	for _, s := range schemes {
		if s.has(name) {
			return true
		}
	}
	return false
}

// noPart is the error for a part u's scheme does not have.
func noPart(kind Kind, scheme, name string) error {
	return &Error{Kind: kind, Offset: -1, Message: scheme + " URLs have no part " + quote(name) + " (the parts of its scheme, RFC 1738 §3, are " + partList(scheme) + ")"}
}

func partList(scheme string) string {
	if s := schemes[scheme]; s != nil {
		return strings.Join(s.parts, ", ")
	}
	return "none beyond the generic components"
}

// Part returns the scheme's own part name of r's URL, shown in view v,
// and whether the URL has it.
func (r *Result) Part(name string, v View) (string, bool, *Note, error) {
	sch := r.url.Scheme()
	s := schemes[sch]
	if s == nil || !s.has(name) {
		return "", false, nil, noPart(KindGet, sch, name)
	}
	val, ok := s.get(r.url, name)
	if !ok {
		return "", false, nil, nil
	}
	if v.Encoded {
		return val, true, nil, nil
	}
	// What a person reads: the decoded value, but for octets that are
	// not text, which stay escapes.
	d, kept := shown(val, false)
	if kept {
		return d, true, &Note{Component: "parts." + name, Message: "octets that are not text kept encoded"}, nil
	}
	return d, true, nil, nil
}

// setPart makes the Set st of a scheme's own part on u, writing the URL
// with the scheme's builder, and returns the URL written.
func setPart(u *locator.URL, st Set) (*locator.URL, error) {
	sch := u.Scheme()
	name := canonical(st.Name)
	s := schemes[sch]
	if s == nil || !s.has(name) {
		return nil, noPart(KindSet, sch, name)
	}
	if st.IfUnset {
		if _, ok := s.get(u, name); ok {
			return u, nil
		}
	}
	built, err := s.set(u, name, st.Value, st.Encoded)
	if err != nil {
		return nil, builderError(sch, name, dec(st.Value, st.Encoded), err)
	}
	b, err := parseBuilt(built)
	if err != nil {
		return nil, err
	}
	// Keep what the builder does not write.
	bp, up := b.Parts(), u.Parts()
	if up.HasFragment {
		bp.Fragment, bp.HasFragment = up.Fragment, true
	}
	if up.HasUser && !bp.HasUser && bp.HasAuthority {
		bp.User, bp.HasUser, bp.Password, bp.HasPassword = up.User, true, up.Password, up.HasPassword
	}
	return parseBuilt(bp.String())
}

// dec decodes v when it is given encoded.
func dec(v string, encoded bool) string {
	if encoded {
		return locator.Decode(v)
	}
	return v
}

// builderError turns a scheme builder's error into an Error: the offset
// and rule of the problem it names, in the URL it wrote (a BuildError)
// or in the field it could not write (a SchemeError).
func builderError(scheme, name, value string, err error) error {
	var be *locator.BuildError
	if errors.As(err, &be) {
		return &Error{Kind: KindWrite, Input: be.URL, Offset: be.Problem.Offset, Rule: be.Problem.Rule, Message: be.Problem.Message}
	}
	var se *locator.SchemeError
	if errors.As(err, &se) {
		e := &Error{Kind: KindWrite, Field: scheme + " " + se.Field, Offset: se.Offset, Rule: se.Rule, Message: se.Message}
		if se.Field == name {
			e.Input = value
		}
		return e
	}
	return &Error{Kind: KindWrite, Offset: -1, Message: scheme + ": cannot set " + name + " " + quote(value) + ": " + err.Error()}
}
