package urledit

import (
	"slices"
	"strings"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/internal/hex"
)

// A query is read as pairs "key=value" separated by one octet ("&"
// unless told otherwise), the way HTML forms read it. In a form, "+"
// stands for a space, as in the 1993 URL draft's search, "xalphas [ +
// search ]", where "+" joins words; so an escaped space is written "+"
// and a "+" that is data is written %2B. A mailto URL's headers (RFC
// 2368) are pairs too, but there "+" is itself: a space there is %20.

// pairForm says how the pairs of one URL's query are written.
type pairForm struct {
	sep byte
	// plusSpace: the query is a form's, where "+" is a space: http's,
	// https's and that of a scheme RFC 1738 does not define. A wais
	// search is decoded octet for octet and a mailto header is RFC
	// 2368's; their queries are written as pairs only when edited.
	plusSpace bool
	slash     bool // "/" and "?" are encoded (http, https: RFC 1738 §3.3)
}

func (e *Editor) pairForm(scheme string) pairForm {
	_, known := locator.SchemeSyntax(scheme)
	return pairForm{
		sep:       e.sep(),
		plusSpace: scheme == "http" || scheme == "https" || !known,
		slash:     scheme == "http" || scheme == "https",
	}
}

// queryEdits reports whether e edits the query.
func (e *Editor) queryEdits() bool {
	return len(e.Trim) > 0 || len(e.Replace) > 0 || len(e.AppendQuery) > 0 || e.SortQuery
}

// splitPairs splits the query q as written into its pairs, each in the
// pairs' normal form; empty pairs are kept.
func (f pairForm) splitPairs(q string) []string {
	parts := strings.Split(q, string(f.sep))
	for i, p := range parts {
		parts[i] = f.norm(p)
	}
	return parts
}

// norm writes one pair as written in its normal form: an escape of an
// unreserved character decoded (but "+", which means a space, and the
// separator), other escapes with upper-case hex digits, a space (escaped
// or not) as "+" where "+" is a space, every unsafe octet and a "%" that
// begins no escape encoded (RFC 1738 §2.2), and in an http search "/"
// and "?" encoded (§3.3: reserved within the search part).
func (f pairForm) norm(p string) string {
	var b strings.Builder
	b.Grow(len(p) + 8)
	for i := 0; i < len(p); i++ {
		c := p[i]
		if c == '%' && i+2 < len(p) && locator.IsHex(p[i+1]) && locator.IsHex(p[i+2]) {
			v := hex.Decode(p[i+1], p[i+2])
			i += 2
			f.writeOctet(&b, v)
			continue
		}
		if c == '%' {
			b.WriteString("%25")
			continue
		}
		if locator.IsUnsafe(c) || f.slash && (c == '/' || c == '?') {
			f.writeOctet(&b, c)
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// writeOctet writes the data octet c: as itself when it is unreserved
// (but "+" and the separator), a space as "+" where "+" is a space, any
// other octet escaped.
func (f pairForm) writeOctet(b *strings.Builder, c byte) {
	switch {
	case c == ' ' && f.plusSpace:
		b.WriteByte('+')
	case locator.IsUnreserved(c) && c != '+' && c != f.sep:
		b.WriteByte(c)
	default:
		b.WriteByte('%')
		b.WriteByte(hexUpper[c>>4])
		b.WriteByte(hexUpper[c&15])
	}
}

// encode writes the decoded data s for a key or a value.
func (f pairForm) encode(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); i++ {
		f.writeOctet(&b, s[i])
	}
	return b.String()
}

// encodePair writes "key=value" or "key", given decoded, as a pair: both
// sides encoded, the first "=" kept between them.
func (f pairForm) encodePair(kv string) string {
	k, v, ok := strings.Cut(kv, "=")
	if !ok {
		return f.encode(kv)
	}
	return f.encode(k) + "=" + f.encode(v)
}

// decode decodes a key or value as written: every escape, and "+" as a
// space where it is one.
func (f pairForm) decode(s string) string {
	if f.plusSpace {
		s = strings.ReplaceAll(s, "+", " ")
	}
	return locator.Decode(s)
}

// pairKey is the key of a pair as written, before the first "=".
func pairKey(p string) string {
	k, _, _ := strings.Cut(p, "=")
	return k
}

// trimMatch reports whether the pair p matches pattern, a key compared
// without regard to case, or a prefix when it ends in "*" ("\*" ends a
// key in a star).
func trimMatch(p, pattern string) bool {
	key := pairKey(p)
	prefix := false
	switch {
	case strings.HasSuffix(pattern, `\*`):
		pattern = pattern[:len(pattern)-2] + "*"
	case strings.HasSuffix(pattern, "*"):
		pattern, prefix = pattern[:len(pattern)-1], true
	}
	if prefix {
		return len(key) >= len(pattern) && strings.EqualFold(key[:len(pattern)], pattern)
	}
	return strings.EqualFold(key, pattern)
}

// compareFold is the order --sort-query sorts by: octet by octet with
// the ASCII case bit set, over the shorter length; pairs equal so far
// keep their order.
func compareFold(a, b string) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		x, y := a[i]|0x20, b[i]|0x20
		if x != y {
			return int(x) - int(y)
		}
	}
	return 0
}

// editQuery makes the Editor's query edits on q, the query as written
// (has reports a "?"), and returns the query to write and whether to
// write one. A query with a pair that is not empty is written as its
// pairs in normal form joined by the separator, the empty ones left out
// (a form reads none from them); one of nothing but separators is kept
// as it is unless an edit changes it; a query every pair of which went
// is written as none.
func (e *Editor) editQuery(f pairForm, q string, has bool) (string, bool) {
	var pairs []string
	if has {
		pairs = f.splitPairs(q)
	}
	changed := false
	for _, t := range e.Trim {
		for i, p := range pairs {
			if p != "" && trimMatch(p, t) {
				pairs[i], changed = "", true
			}
		}
	}
	for _, r := range e.Replace {
		key, _, _ := strings.Cut(r, "=")
		np := f.encodePair(r)
		found := false
		for i, p := range pairs {
			if p == "" || f.decode(pairKey(p)) != key {
				continue
			}
			if found {
				pairs[i] = "" // a later pair of the key goes
			} else {
				pairs[i], found = np, true
			}
			changed = true
		}
		if !found && e.ReplaceAppend {
			pairs, changed = append(pairs, np), true
		}
	}
	for _, a := range e.AppendQuery {
		pairs, changed = append(pairs, f.encodePair(a)), true
	}
	if e.SortQuery {
		slices.SortStableFunc(pairs, compareFold)
		changed = true
	}
	kept := pairs[:0:0]
	for _, p := range pairs {
		if p != "" {
			kept = append(kept, p)
		}
	}
	if len(kept) == 0 && !changed {
		return strings.Join(pairs, string(f.sep)), has
	}
	if len(kept) == 0 {
		return "", false
	}
	return strings.Join(kept, string(f.sep)), true
}
