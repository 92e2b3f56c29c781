package text

import (
	"bytes"
	"html"

	"github.com/rfc1738/locator"
)

// Wrappers: "<URL:...>" and "<scheme:...>" (RFC 1738 Appendix; the 1993
// draft's "Wrappers for URIs in plain text").

// Phases of reading a wrapper.
const (
	wLead       = iota // white space after "<", then a letter
	wScheme            // a scheme name, or "URL", up to ":"
	wPrefixLead        // white space after "URL:", then the URL
	wRest              // the rest, up to ">"
)

// wrapper examines the "<" at s.buf[i]. When it begins a wrapper that
// holds a URL, it sets s.match and returns oFound and the index just past
// the ">".
//
// A wrapper is given up (oNone) at a second "<", at a blank line, at a
// control character, at the end of the input, when white space or a
// character that cannot be in a scheme comes before the first ":", and
// when more than maxSpaceRuns runs of white space without a line break
// show it to be prose in angle brackets.
//
// open is the length of the opening bracket: 1 for "<", 4 for the
// "&lt;" of HTML input (html.go), which "&gt;" closes.
func (s *Scanner) wrapper(i, open int) (outcome, int) {
	b := s.buf[:s.n]
	phase := wLead
	prefixed := false
	schemeStart, cs := 0, 0 // the name after "<"; the URL text
	inSpace, brk := false, false
	lfs, spaceRuns := 0, 0
	lineStart := false // a LF was read and no byte of the next line yet
	depth, ini := -1, []byte(nil)
	s.quotes = s.quotes[:0]
	for j := i + open; ; j++ {
		if j >= len(b) {
			if s.eof {
				return oNone, 0
			}
			return oMore, 0
		}
		if j-i >= s.max {
			s.longWrapper = true
			return oLong, 0
		}
		c := b[j]
		closing := 1 // the length of the closing bracket, when c begins one
		if s.html && c == '&' {
			switch {
			case len(b)-j < 4 && !s.eof:
				return oMore, 0
			case hasPrefixFold(b[j:], "&gt;"):
				c, closing = '>', 4
			case hasPrefixFold(b[j:], "&lt;"):
				return oNone, 0
			}
		} else if open > 1 && (c == '>' || c == '<') {
			return oNone, 0 // a tag inside "&lt;...&gt;"
		}
		if isSpace(c) {
			if !inSpace {
				inSpace, brk, lfs = true, false, 0
			}
			switch c {
			case '\n':
				brk, lineStart = true, true
				if lfs++; lfs > 1 {
					return oNone, 0 // a blank line ends a paragraph
				}
			case '\r':
				brk = true
			}
			if phase == wScheme {
				if !prefixed {
					return oNone, 0
				}
				phase = wRest
			}
			continue
		}
		if lineStart {
			lineStart = false
			if c == '>' || c == '|' || isLetter(c) {
				if depth < 0 {
					depth, ini = s.linePrefix(i)
				}
				if depth > 0 {
					// The prefix is read no further than the wrapper may
					// reach (MaxLen from its "<"): a prefix of 36,839
					// marks outgrew the buffer and ended the stream.
					// Cut there, it makes the wrapper too long below.
					lim := min(len(b), i+s.max)
					n, more := quoteLen(b[:lim], j, depth, ini, s.eof || lim < len(b))
					if more {
						return oMore, 0
					}
					if n > 0 {
						// The quote prefix is part of the line break.
						s.quotes = append(s.quotes, j, j+n)
						j += n - 1
						continue
					}
				}
			}
		}
		if inSpace {
			inSpace = false
			if !brk && phase == wRest {
				if spaceRuns++; spaceRuns > maxSpaceRuns {
					return oNone, 0
				}
			}
		}
		switch {
		case c == '>':
			if phase == wRest || prefixed && phase != wPrefixLead {
				switch s.wrapped(s.unquoted(b, cs, j), prefixed) {
				case wFound:
					return oFound, j + closing
				case wPartial:
					if s.onPartial != nil {
						p := Partial{Ref: string(s.alt.dst), Offset: s.base + int64(i), End: s.base + int64(j+closing)}
						p.Line, p.Column = s.position(p.Offset)
						s.onPartial(p)
					}
				}
			}
			return oNone, 0
		case c == '<' || c < ' ' || c == 0x7f:
			return oNone, 0
		}
		switch phase {
		case wLead:
			if !isLetter(c) {
				return oNone, 0
			}
			phase, schemeStart, cs = wScheme, j, j
		case wScheme:
			if c == ':' {
				if !prefixed && j-schemeStart == 3 && equalFold(b[schemeStart:j], "url") {
					prefixed = true
					phase = wPrefixLead
				} else {
					phase = wRest
				}
				continue
			}
			if !isSchemeByte(c) {
				if !prefixed {
					return oNone, 0
				}
				phase = wRest // a partial form such as <URL:../g>
			}
		case wPrefixLead:
			cs = j
			phase = wScheme
			schemeStart = j
			if !isLetter(c) {
				phase = wRest
			}
		}
	}
}

// unquoted returns b[cs:j], the text of a wrapper, with the quote
// prefixes read after its line breaks (s.quotes) turned into blanks.
func (s *Scanner) unquoted(b []byte, cs, j int) []byte {
	if len(s.quotes) == 0 && !s.html {
		return b[cs:j]
	}
	s.unq = append(s.unq[:0], b[cs:j]...)
	for k := 0; k < len(s.quotes); k += 2 {
		for x := max(s.quotes[k], cs); x < s.quotes[k+1] && x < j; x++ {
			s.unq[x-cs] = ' '
		}
	}
	if s.html && bytes.IndexByte(s.unq, '&') >= 0 {
		s.unq = append(s.unq[:0], html.UnescapeString(string(s.unq))...)
	}
	return s.unq
}

// What the text of a wrapper is.
const (
	wNone    = iota // not a URL: the wrapper is read again as prose
	wFound          // a URL: s.match holds it
	wPartial        // a partial form and no base to resolve it: s.alt.dst holds it
)

// wrapped judges the text c of a wrapper (after "<", "URL:" and leading
// white space; before ">"). It removes white space as the Appendix says,
// and sets s.match when the result is a URL.
func (s *Scanner) wrapped(c []byte, prefixed bool) int {
	a := &s.alt
	a.split(c)
	a.dst = a.build(c, 0, false, a.dst[:0])
	primary := a.dst

	colon := schemeEnd(primary)
	if colon < 0 && prefixed && isPartialForm(primary) {
		if s.refBase == nil {
			return wPartial
		}
		if s.partial(c, primary) {
			return wFound
		}
		return wNone
	}
	if colon < 0 || !prefixed && colon < 2 {
		return wNone
	}
	if !prefixed && a.spaces > 0 && lookupScheme(primary[:colon]) == unknownScheme &&
		!hasSlashes(primary, colon+1) {
		// "<Note: this>": white space inside a wrapper is a line break
		// the Appendix allows; without one, only a known scheme or "//"
		// makes it a URL.
		return wNone
	}
	u := string(primary)
	if !s.parses(u) {
		return wNone
	}
	s.match = Match{URL: u, Wrapped: true, Prefixed: prefixed}
	s.match.Alternatives = a.alternatives(c, u, nil)
	s.match.Ambiguous = len(s.match.Alternatives) > 0
	return wFound
}

// isPartialForm reports whether ref, the text of a "<URL:...>" wrapper
// that does not begin with a scheme, can be a partial form (the 1993
// draft's "Partial form"; RFC 1808 §2.2 relativeURL; RFC 3986 §4.2
// relative-ref): it is not empty, and its first segment, up to the first
// "/", "?" or "#", holds no ":". RFC 3986 §4.2: such a segment "would be
// mistaken for a scheme name"; under RFC 1738 §2.1 and RFC 1808 §2.1,
// whose scheme names may begin with a digit, "0ftp:" is one. Text such as
// "0ftp://00" is therefore neither an absolute URL (the scanner wants a
// scheme that begins with a letter) nor a partial form, with or without
// a base: the wrapper is given up and read again as prose, where the bare
// "ftp://00" is found.
func isPartialForm(ref []byte) bool {
	if len(ref) == 0 {
		return false
	}
	for _, c := range ref {
		switch c {
		case '/', '?', '#':
			return true
		case ':':
			return false
		}
	}
	return true
}

// partial resolves the partial form ref, read from the wrapper text c,
// against the Scanner's base (the 1993 draft's "Partial form"; RFC 1808,
// RFC 3986 §5.2 as Options.Resolution says).
func (s *Scanner) partial(c, ref []byte) bool {
	u, err := locator.Resolve(s.refBase, string(ref), s.resolution)
	if err != nil {
		return false
	}
	abs := u.String()
	s.match = Match{URL: abs, Wrapped: true, Prefixed: true, Ref: string(ref)}
	s.match.Alternatives = s.alt.alternatives(c, abs, s.resolve)
	s.match.Ambiguous = len(s.match.Alternatives) > 0
	return true
}

// resolve returns the absolute URL the partial form ref names, or "".
func (s *Scanner) resolve(ref []byte) string {
	u, err := locator.Resolve(s.refBase, string(ref), s.resolution)
	if err != nil {
		return ""
	}
	return u.String()
}

// schemeEnd returns the index of the ":" that ends a scheme name at the
// start of b (a letter, then letters, digits, "+", "-", "."), or -1.
func schemeEnd(b []byte) int {
	if len(b) == 0 || !isLetter(b[0]) {
		return -1
	}
	for i := 1; i < len(b) && i <= maxScheme; i++ {
		if b[i] == ':' {
			return i
		}
		if !isSchemeByte(b[i]) {
			return -1
		}
	}
	return -1
}

func hasSlashes(b []byte, i int) bool {
	return i+1 < len(b) && b[i] == '/' && b[i+1] == '/'
}

// equalFold reports whether b spells the lower-case ASCII word w in any
// case.
func equalFold(b []byte, w string) bool {
	if len(b) != len(w) {
		return false
	}
	for i := range b {
		if lower(b[i]) != w[i] {
			return false
		}
	}
	return true
}

// A piece of wrapper text: text as written, a hyphen before a line break,
// or white space away from any line break.
type piece struct {
	lo, hi int
	kind   uint8
}

const (
	pText   uint8 = iota
	pHyphen       // kept in the primary reading, dropped in the other
	pSpace        // dropped in the primary reading, encoded in the other
)

// maxChoices bounds the readings tried for the alternatives: with up to 3
// hyphens and space runs, every combination; up to maxChoices, each one
// alone and all at once; beyond, all at once only.
const maxChoices = 16

// altBuilder holds the pieces of one wrapper, reused between wrappers.
type altBuilder struct {
	parser  locator.Parser // checks candidates without allocating
	url     locator.URL
	pieces  []piece
	choices int // pieces of kind pHyphen or pSpace
	spaces  int // pieces of kind pSpace
	dst     []byte
	tmp     []byte
}

// parses reports whether locator.Parse accepts u.
func (a *altBuilder) parses(u string) bool {
	return a.parser.Parse(&a.url, u) == nil
}

// split cuts c into pieces. A run of white space that holds a line break
// is dropped (RFC 1738 Appendix: "The whitespace should be ignored"),
// and when a hyphen comes right before it, the hyphen becomes a choice.
// A run without a line break is a choice: the Appendix drops it, but it
// may be an unencoded space of the URL.
func (a *altBuilder) split(c []byte) {
	a.pieces = a.pieces[:0]
	a.choices, a.spaces = 0, 0
	hi := len(c)
	for hi > 0 && isSpace(c[hi-1]) {
		hi--
	}
	start := 0
	for k := 0; k < hi; {
		if !isSpace(c[k]) {
			k++
			continue
		}
		e, brk := k, false
		for e < hi && isSpace(c[e]) {
			if c[e] == '\n' || c[e] == '\r' {
				brk = true
			}
			e++
		}
		switch {
		case brk && k > 0 && c[k-1] == '-':
			a.add(start, k-1, pText)
			a.add(k-1, k, pHyphen)
		case brk:
			a.add(start, k, pText)
		default:
			a.add(start, k, pText)
			a.add(k, e, pSpace)
		}
		start, k = e, e
	}
	a.add(start, hi, pText)
}

func (a *altBuilder) add(lo, hi int, kind uint8) {
	if lo == hi {
		return
	}
	if kind != pText {
		a.choices++
		if kind == pSpace {
			a.spaces++
		}
	}
	a.pieces = append(a.pieces, piece{lo, hi, kind})
}

// build appends to dst the reading of c where the choices whose bit is
// set in flip (bit j for the j-th choice) take their other form; every
// choice does when all is true.
func (a *altBuilder) build(c []byte, flip uint32, all bool, dst []byte) []byte {
	j := 0
	for _, p := range a.pieces {
		if p.kind == pText {
			dst = append(dst, c[p.lo:p.hi]...)
			continue
		}
		other := all || j < 32 && flip&(1<<j) != 0
		j++
		switch {
		case p.kind == pHyphen && !other:
			dst = append(dst, '-')
		case p.kind == pSpace && other:
			for _, x := range c[p.lo:p.hi] {
				dst = append(dst, '%', hexDigit[x>>4], hexDigit[x&15])
			}
		}
	}
	return dst
}

const hexDigit = "0123456789ABCDEF"

// alternatives returns the other readings of c that parse, in a fixed
// order, without primary and without repeats. When resolve is not nil the
// readings are partial forms and resolve gives the URL each names.
func (a *altBuilder) alternatives(c []byte, primary string, resolve func([]byte) string) []string {
	n := a.choices
	if n == 0 {
		return nil
	}
	var masks []uint32
	switch {
	case n <= 3:
		for m := uint32(1); m < 1<<n; m++ {
			masks = append(masks, m)
		}
	case n <= maxChoices:
		for j := range n {
			masks = append(masks, 1<<j)
		}
	}
	if n > 3 {
		masks = append(masks, 0) // with all: every choice flipped
	}
	var out []string
	for _, m := range masks {
		a.tmp = a.build(c, m, m == 0, a.tmp[:0])
		var u string
		switch {
		case resolve != nil:
			if u = resolve(a.tmp); u == "" {
				continue
			}
		case isURLText(a.tmp) && string(a.tmp) != primary:
			if u = string(a.tmp); !a.parses(u) {
				continue
			}
		default:
			continue
		}
		if u != primary && !contains(out, u) {
			out = append(out, u)
		}
	}
	return out
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// isURLText reports whether b begins with a scheme name and ":".
func isURLText(b []byte) bool { return schemeEnd(b) > 0 }
