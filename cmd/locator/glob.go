package main

// URL globbing, as curl's: a URL on get's command line may hold
// patterns that make it many URLs. A set {a,b,c} is each of its
// alternatives; a range [1-9], [001-100] (as wide as its first number
// when that begins with 0), [a-z] or [A-Z] is each number or letter,
// [1-10:2] each second one. Several patterns multiply, the last varying
// fastest. A backslash before one of {}[], makes it a plain character;
// brackets around an IPv6 address ([::1]) are the address's. get -g
// (--globoff) reads the URL as it is.
//
// None of these characters may appear unencoded in a URL (RFC 1738 §2.2
// counts "{", "}", "[", "]" and "\" unsafe), so that a pattern never
// takes the place of a character the URL could have written.

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"
)

// A globError is a malformed pattern: what is wrong, at which byte
// offset of the URL (from 0, as Parse's errors count).
type globError struct {
	url    string
	offset int
	msg    string
}

func (e *globError) Error() string {
	return fmt.Sprintf("glob %q: offset %d: %s (-g, --globoff: no globbing)", e.url, e.offset, e.msg)
}

// A glob is a URL with its patterns.
type glob struct {
	parts []globPart
	n     int // patterns among parts
}

// A globPart is a piece of fixed text, or a pattern: a set's
// alternatives, or a range of numbers or letters.
type globPart struct {
	text string   // fixed text (kind fixed)
	set  []string // kind set
	// a range: from lo to hi by step, numbers written at least pad
	// digits wide, or letters when letters is set.
	lo, hi, step uint64
	pad          int
	letters      bool
	kind         globKind
}

type globKind uint8

const (
	globFixed globKind = iota
	globSet
	globRange
)

// size is how many texts the part stands for.
func (p *globPart) size() uint64 {
	switch p.kind {
	case globSet:
		return uint64(len(p.set))
	case globRange:
		return (p.hi-p.lo)/p.step + 1
	}
	return 1
}

// at returns the part's i-th text.
func (p *globPart) at(i uint64) string {
	switch p.kind {
	case globSet:
		return p.set[i]
	case globRange:
		v := p.lo + i*p.step
		if p.letters {
			return string(rune(v))
		}
		s := strconv.FormatUint(v, 10)
		if len(s) < p.pad {
			s = strings.Repeat("0", p.pad-len(s)) + s
		}
		return s
	}
	return p.text
}

// parseGlob reads the patterns of s.
func parseGlob(s string) (*glob, error) {
	g := &glob{}
	var lit strings.Builder
	fail := func(at int, msg string) error { return &globError{url: s, offset: at, msg: msg} }
	flush := func() {
		if lit.Len() > 0 {
			g.parts = append(g.parts, globPart{text: lit.String()})
			lit.Reset()
		}
	}
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s) && strings.IndexByte("{}[],", s[i+1]) >= 0:
			lit.WriteByte(s[i+1])
			i += 2
		case c == '{':
			p, next, err := parseSet(s, i, fail)
			if err != nil {
				return nil, err
			}
			flush()
			g.parts = append(g.parts, p)
			g.n++
			i = next
		case c == '[':
			end := strings.IndexByte(s[i:], ']')
			if end < 0 {
				return nil, fail(i, `unmatched "["`)
			}
			if ipv6Literal(s[i+1 : i+end]) {
				lit.WriteString(s[i : i+end+1])
				i += end + 1
				continue
			}
			p, err := parseRange(s[i+1:i+end], i, fail)
			if err != nil {
				return nil, err
			}
			flush()
			g.parts = append(g.parts, p)
			g.n++
			i += end + 1
		case c == ']' || c == '}':
			return nil, fail(i, fmt.Sprintf("unmatched %q", c))
		default:
			lit.WriteByte(c)
			i++
		}
	}
	flush()
	return g, nil
}

// parseSet reads the set that begins with the "{" at s[at]: its
// alternatives, separated by commas, and the offset after its "}".
func parseSet(s string, at int, fail func(int, string) error) (globPart, int, error) {
	p := globPart{kind: globSet}
	var alt strings.Builder
	for i := at + 1; i < len(s); {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s) && strings.IndexByte("{}[],", s[i+1]) >= 0:
			alt.WriteByte(s[i+1])
			i += 2
			continue
		case c == '{' || c == '[':
			return p, 0, fail(i, fmt.Sprintf("%q inside a set: patterns do not nest", c))
		case c == ']':
			return p, 0, fail(i, `unmatched "]" inside a set`)
		case c == ',' || c == '}':
			p.set = append(p.set, alt.String())
			alt.Reset()
			if c == '}' {
				if len(p.set) == 1 && p.set[0] == "" {
					return p, 0, fail(at, "an empty set {}")
				}
				return p, i + 1, nil
			}
		default:
			alt.WriteByte(c)
		}
		i++
	}
	return p, 0, fail(at, `unmatched "{"`)
}

// parseRange reads the range r, written between the brackets of the
// "[" at s[at]: LOW-HIGH or LOW-HIGH:STEP, both numbers or both letters
// of one case. As curl's, LOW may not pass HIGH, and STEP, at least 1,
// may not pass HIGH-LOW unless they are equal.
func parseRange(r string, at int, fail func(int, string) error) (globPart, error) {
	bad := func(why string) (globPart, error) {
		return globPart{}, fail(at, fmt.Sprintf("bad range [%s]: %s", r, why))
	}
	p := globPart{kind: globRange, step: 1}
	body, step, hasStep := strings.Cut(r, ":")
	if hasStep {
		n, err := strconv.ParseUint(step, 10, 64)
		if err != nil || n == 0 || !digits(step) {
			return bad("the step after \":\" must be a number from 1")
		}
		p.step = n
	}
	lo, hi, ok := strings.Cut(body, "-")
	if !ok {
		return bad("want LOW-HIGH, e.g. [1-9], [001-100], [a-z] or [1-10:2]")
	}
	switch {
	case len(lo) == 1 && len(hi) == 1 && letter(lo[0]) && letter(hi[0]):
		if (lo[0] >= 'a') != (hi[0] >= 'a') {
			return bad("the letters must be of one case")
		}
		p.letters, p.lo, p.hi = true, uint64(lo[0]), uint64(hi[0])
	case digits(lo) && digits(hi):
		var err1, err2 error
		p.lo, err1 = strconv.ParseUint(lo, 10, 64)
		p.hi, err2 = strconv.ParseUint(hi, 10, 64)
		if err1 != nil || err2 != nil {
			return bad("a number too large")
		}
		if len(lo) > 1 && lo[0] == '0' {
			p.pad = len(lo)
		}
	default:
		return bad("want two numbers, or two letters a-z or A-Z")
	}
	switch {
	case p.lo > p.hi:
		return bad("the first is after the last")
	case p.lo != p.hi && p.step > p.hi-p.lo:
		return bad("the step is larger than the range")
	}
	return p, nil
}

func digits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

func letter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// ipv6Literal reports whether s, written between brackets, is an IPv6
// address (RFC 2732), with a zone after "%25" perhaps: hex digits,
// colons and dots, at least one colon, and never the "-" of a range.
func ipv6Literal(s string) bool {
	addr, _, _ := strings.Cut(s, "%")
	if !strings.Contains(addr, ":") {
		return false
	}
	for i := 0; i < len(addr); i++ {
		c := addr[i]
		if !(c == ':' || c == '.' || '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return !strings.ContainsAny(s, "-[]{}")
}

// count returns how many URLs g stands for, and false when that is more
// than max (or than a 64-bit count can say).
func (g *glob) count(max uint64) (uint64, bool) {
	n := uint64(1)
	for i := range g.parts {
		hi, lo := bits.Mul64(n, g.parts[i].size())
		if hi != 0 {
			return 0, false
		}
		n = lo
	}
	return n, n <= max
}

// each calls fn with every URL g stands for, in curl's order (the last
// pattern varying fastest), and the current text of each pattern, until
// fn returns false. texts is fn's to keep.
func (g *glob) each(fn func(url string, texts []string) bool) {
	idx := make([]uint64, len(g.parts))
	for {
		var b strings.Builder
		texts := make([]string, 0, g.n)
		for i := range g.parts {
			t := g.parts[i].at(idx[i])
			b.WriteString(t)
			if g.parts[i].kind != globFixed {
				texts = append(texts, t)
			}
		}
		if !fn(b.String(), texts) {
			return
		}
		i := len(idx) - 1
		for ; i >= 0; i-- {
			idx[i]++
			if idx[i] < g.parts[i].size() {
				break
			}
			idx[i] = 0
		}
		if i < 0 {
			return
		}
	}
}

// globName writes -o's FILE for one URL of a glob: "#N" is the current
// text of the URL's N-th pattern, from 1; a "#" followed by no digits,
// or by a number that names no pattern, is left as written (curl's
// rule).
func globName(file string, texts []string) string {
	if !strings.Contains(file, "#") {
		return file
	}
	var b strings.Builder
	for i := 0; i < len(file); i++ {
		if file[i] != '#' {
			b.WriteByte(file[i])
			continue
		}
		j := i + 1
		for j < len(file) && file[j] >= '0' && file[j] <= '9' {
			j++
		}
		n, err := strconv.Atoi(file[i+1 : j])
		if err != nil || n < 1 || n > len(texts) {
			b.WriteByte('#')
			continue
		}
		b.WriteString(texts[n-1])
		i = j - 1
	}
	return b.String()
}
