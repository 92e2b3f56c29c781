package locator

import (
	"slices"
	"strings"
)

// Relative returns the shortest partial form that names target in the
// context of base under the rule set r: Resolve(base, Relative(base,
// target, r), r) has target's components.
//
// The candidates are, in the order of the 1993 draft's "Partial form"
// rules read backwards: the empty form and a fragment alone (the same
// document), a query alone, a relative path ("../" as many times as the
// base is deeper than the common directory, then the rest of the
// target's path; "./" before a first segment with a colon or an empty
// one), an absolute path, a network path ("//" host and the rest), and
// the full form. Each is checked by resolving it, and the shortest that
// gives target is returned; when the schemes differ, or no partial form
// reaches target, the full form is returned. Under RFC 3986 a target
// whose path holds "." or ".." segments is reached by no reference at
// all (§5.2.2 removes them even from a full form); its full form is
// returned. Under Draft1993 a full form of the base's scheme is read as a
// partial form, so a target such as "file:foo" (a rootless path) seen from
// "file:/etc/" is reached by nothing, and its full form is returned too.
// A nil target gives "".
func Relative(base, target *URL, r Resolution) string {
	if target == nil {
		return ""
	}
	full := target.String()
	if base == nil || base.Scheme() != target.Scheme() {
		return full
	}
	tp := genericBase(target)
	frag := ""
	if target.HasFragment() {
		frag = "#" + target.Fragment()
	}
	query := ""
	if tp.hasQuery {
		query = string(tp.appendQuery(nil))
	}
	qf := query + frag

	cands := make([]string, 0, 12)
	cands = append(cands, "", frag, qf)

	tfull := tp.path
	if tp.slash {
		tfull = "/" + tfull
	}
	if sameAuthority(base, target) {
		bp := genericBase(base)
		bfull := bp.path
		if bp.slash {
			bfull = "/" + bfull
		}
		for _, rel := range relativePaths(bfull, tfull, base.HasAuthority()) {
			cands = append(cands, rel+qf)
		}
		if strings.HasPrefix(tfull, "/") && !strings.HasPrefix(tfull, "//") {
			cands = append(cands, tfull+qf)
		}
	}
	if target.HasAuthority() {
		var b []byte
		b = append(b, "//"...)
		b = appendAuthority(b, target)
		cands = append(cands, string(b)+tfull+qf)
	}
	slices.SortStableFunc(cands, func(a, b string) int { return len(a) - len(b) })
	for i, c := range cands {
		if i > 0 && c == cands[i-1] {
			continue
		}
		u, err := Resolve(base, c, r)
		if err == nil && u.SameComponents(target) {
			return c
		}
	}
	return full
}

// sameAuthority reports whether base and target share the Internet
// part (both have none, or both have the same login and hostport).
func sameAuthority(a, b *URL) bool {
	return a.HasAuthority() == b.HasAuthority() && a.HasUser() == b.HasUser() && a.User() == b.User() &&
		a.HasPassword() == b.HasPassword() && a.Password() == b.Password() &&
		a.Host() == b.Host() && a.HasPort() == b.HasPort() && a.Port() == b.Port()
}

// relativePaths returns the relative-path forms of target seen from the
// directory of base (both full paths, with their leading "/" if any).
func relativePaths(base, target string, auth bool) []string {
	var out []string
	dir := base[:strings.LastIndexByte(base, '/')+1]
	if dir == "" && !strings.HasPrefix(target, "/") {
		// An opaque base: the whole part is replaced.
		out = append(out, target, "./"+target)
		return out
	}
	if dir == "" && auth {
		dir = "/"
	}
	// The common directory: the longest prefix of dir and target that
	// ends with "/".
	common := 0
	for i := 0; i < len(dir) && i < len(target) && dir[i] == target[i]; i++ {
		if dir[i] == '/' {
			common = i + 1
		}
	}
	if common == 0 {
		return nil
	}
	ups := strings.Count(dir[common:], "/")
	rest := target[common:]
	rel := strings.Repeat("../", ups) + rest
	out = append(out, rel)
	first := rest
	if i := strings.IndexByte(first, '/'); i >= 0 {
		first = first[:i]
	}
	if ups == 0 && (strings.IndexByte(first, ':') >= 0 || rest == "" || rest[0] == '/') {
		out = append(out, "./"+rest)
	}
	if rest == "" {
		if ups == 0 {
			out = append(out, ".")
		} else {
			out = append(out, strings.TrimSuffix(rel, "/"))
		}
	}
	if strings.HasPrefix(rest, "/") && ups > 0 {
		out = append(out, strings.Repeat("../", ups)+"."+rest)
	}
	return out
}
