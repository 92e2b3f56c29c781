package urledit

import (
	"errors"
	"slices"
	"strings"

	"github.com/rfc1738/locator"
)

// A scheme's own parts are the fields of its package's URL type (ftp.URL,
// gopher.URL, ...), decoded, which its rules offer (locator.PartEditor)
// once the package is linked in (import _ ".../schemes"). Getting one
// reads the URL with the package's From; setting one changes that field
// and writes the URL with the package's Build, so the scheme's builder
// encodes it for its place in the grammar (RFC 1738 §5) and refuses what
// would not conform. The generic components the builder does not write
// (a fragment; a login where the scheme has none, which the scheme's
// rules then refuse) are kept.

// editor returns the parts of scheme, from the rules its package
// registered (locator.PartEditor), or nil when it has none.
func editor(scheme string) locator.PartEditor {
	pe, _ := locator.Lookup(scheme).(locator.PartEditor)
	return pe
}

// parts returns the names of the scheme's own parts, in the order its
// package's URL type holds them; nil for a scheme without any.
func parts(scheme string) []string {
	if pe := editor(scheme); pe != nil {
		return pe.PartNames()
	}
	return nil
}

// has reports whether name is one of the parts of scheme.
func has(scheme, name string) bool {
	return slices.Contains(parts(scheme), name)
}

// partKnown reports whether name is a part of some scheme.
func partKnown(name string) bool {
	for _, s := range locator.Schemes() {
		if has(s, name) {
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
	if p := parts(scheme); p != nil {
		return strings.Join(p, ", ")
	}
	return "none beyond the generic components"
}

// Part returns the scheme's own part name of r's URL, shown in view v,
// and whether the URL has it.
func (r *Result) Part(name string, v View) (string, bool, *Note, error) {
	sch := r.url.Scheme()
	pe := editor(sch)
	if pe == nil || !has(sch, name) {
		return "", false, nil, noPart(KindGet, sch, name)
	}
	val, ok := pe.Part(r.url, name)
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
	pe := editor(sch)
	if pe == nil || !has(sch, name) {
		return nil, noPart(KindSet, sch, name)
	}
	if st.IfUnset {
		if _, ok := pe.Part(u, name); ok {
			return u, nil
		}
	}
	built, err := pe.SetPart(u, name, st.Value, st.Encoded)
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
