// Package csslinks reads the links out of a style sheet, or a style
// attribute's declarations, and rewrites them: the URLs a browser
// fetches, url(x) and url("x") anywhere (CSS Values 4 §4.5), the string
// of @import "x" (CSS Cascade 4 §2.1), and the strings of image-set()
// (CSS Images 4 §2.2).
//
// It tokenizes as CSS Syntax Level 3 §4 says, so that what is not a link
// is never taken for one: a comment, a string that merely holds "url(",
// a name such as "-url(" or "#url(", and so that every escape is read
// (u\72l(x) is a url token). It reads a stream, keeping at most one
// token's octets (MaxToken), and never fails on what it reads: CSS has
// no syntax error that stops a browser (§2.2).
package csslinks

import (
	"bufio"
	"errors"
	"io"
	"strings"
	"unicode/utf8"
)

// A Link is one URL the style sheet names.
type Link struct {
	// Ref is the URL as the sheet writes it, its escapes decoded and
	// its leading and trailing white space removed.
	Ref string
	// Import is set when an @import rule names it.
	Import bool
	// Offset is the octet where the token that holds it begins (the
	// "u" of url(...), the quote of a string), End the octet after
	// it; Line and Column (1-based, Column counted in octets) are
	// Offset's place.
	Offset, End  int64
	Line, Column int
}

// Bounds: a url or string token longer than MaxToken octets is passed
// over (no browser fetches a URL that long), and a name is compared by
// its first maxName octets.
const MaxToken = 64 << 10

const maxName = 32

// Links reads the style sheet r and calls fn with each link, in order.
// It returns fn's first error, or the error reading r (io.EOF is none).
func Links(r io.Reader, fn func(Link) error) error {
	s := newScanner(r, nil)
	s.found = func(l *Link) (string, bool, error) {
		return "", false, fn(*l)
	}
	return s.run()
}

// Rewrite copies the style sheet r to w with each link for which fn says
// ok replaced: a url token by url("new"), a string by "new" (escaped as
// a CSS string, §4.3.5, so that whatever new holds stays one token).
// Every other octet is copied as it is. It returns the first error
// reading r or writing w.
func Rewrite(w io.Writer, r io.Reader, fn func(Link) (repl string, ok bool)) error {
	bw := bufio.NewWriterSize(w, 8<<10)
	s := newScanner(r, bw)
	s.found = func(l *Link) (string, bool, error) {
		repl, ok := fn(*l)
		return repl, ok, nil
	}
	err := s.run()
	if ferr := bw.Flush(); err == nil {
		err = ferr
	}
	return err
}

// Quote writes v as a CSS string token in double quotes (§4.3.5): '"',
// '\' and every control character escaped as hex, and '<' and '>' too,
// so that the string may stand in HTML's <style> element, whose text
// ends at "</style".
func Quote(v string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c == '"' || c == '\\' || c < 0x20 || c == 0x7f || c == '<' || c == '>':
			const hex = "0123456789abcdef"
			b.WriteByte('\\')
			if c >= 0x10 {
				b.WriteByte(hex[c>>4])
			}
			b.WriteByte(hex[c&15])
			b.WriteByte(' ')
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// kind is a token's type, as far as links need it (§4: the others are
// told apart but not named).
type kind int

const (
	tOther kind = iota
	tSpace
	tComment
	tIdent
	tFunction
	tAtKeyword
	tString
	tBadString
	tURL
	tBadURL
	tOpen  // ( or a function token's (
	tClose // )
	tSemicolon
	tBlock // { or }
)

type scanner struct {
	r   *bufio.Reader
	out *bufio.Writer // nil: only finding
	err error         // the read or write error that ends the run

	off          int64
	line, col    int // of the next octet
	start        int64
	sLine, sCol  int
	hold         []byte // the current token's octets, not yet written
	holding      bool
	value        []byte // a string's or url's value, decoded
	long         bool   // value passed MaxToken
	name         []byte // an ident's, function's or at-keyword's name, lower case
	found        func(*Link) (string, bool, error)
	pendImport   bool // after @import: its first string is a link
	urlFunc      bool // after url( (a function token): its string is a link
	urlImport    bool // ... of an @import
	depth        int  // parentheses open
	imageSet     int  // depth at which an image-set( opened, 0: none
	namespace    bool // in an @namespace prelude: its URL names, it is not fetched
	nameOverflow bool
}

func newScanner(r io.Reader, out *bufio.Writer) *scanner {
	return &scanner{r: bufio.NewReaderSize(r, 4<<10), out: out, line: 1, col: 1}
}

// peek returns the n-th octet ahead (0: the next), or -1 at the end.
func (s *scanner) peek(n int) int {
	b, err := s.r.Peek(n + 1)
	if len(b) <= n {
		if err != nil && err != io.EOF && s.err == nil {
			s.err = err
		}
		return -1
	}
	return int(b[n])
}

// next consumes one octet, writing it out (or holding it), and returns
// it, or -1 at the end.
func (s *scanner) next() int {
	c, err := s.r.ReadByte()
	if err != nil {
		if err != io.EOF && s.err == nil {
			s.err = err
		}
		return -1
	}
	s.off++
	if c == '\n' || c == '\f' || c == '\r' && s.peek(0) != '\n' {
		s.line, s.col = s.line+1, 1
	} else {
		s.col++
	}
	if s.out != nil {
		if s.holding {
			s.hold = append(s.hold, c)
			if len(s.hold) > MaxToken+64 {
				s.release() // too long to be a link: pass it on
			}
		} else if err := s.out.WriteByte(c); err != nil && s.err == nil {
			s.err = err
		}
	}
	return int(c)
}

// release writes the held octets out and stops holding.
func (s *scanner) release() {
	if s.out != nil && len(s.hold) > 0 {
		if _, err := s.out.Write(s.hold); err != nil && s.err == nil {
			s.err = err
		}
	}
	s.hold = s.hold[:0]
	s.holding = false
}

func isNewline(c int) bool { return c == '\n' || c == '\r' || c == '\f' }
func isSpace(c int) bool   { return c == ' ' || c == '\t' || isNewline(c) }
func isHex(c int) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}
func isDigit(c int) bool { return '0' <= c && c <= '9' }

// isNameStart: a letter, "_", or a non-ASCII code point (§4.2 ident-start
// code point; every octet of a non-ASCII character's UTF-8 is ≥ 0x80).
func isNameStart(c int) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_' || c >= 0x80
}
func isName(c int) bool { return isNameStart(c) || isDigit(c) || c == '-' }

// validEscape: §4.3.8, the two octets at n and n+1 ahead.
func (s *scanner) validEscape(n int) bool {
	return s.peek(n) == '\\' && !isNewline(s.peek(n+1)) && s.peek(n+1) != -1
}

// startsIdent: §4.3.9, at n ahead.
func (s *scanner) startsIdent(n int) bool {
	switch c := s.peek(n); {
	case c == '-':
		c1 := s.peek(n + 1)
		return isNameStart(c1) || c1 == '-' || s.validEscape(n+1)
	case isNameStart(c):
		return true
	case c == '\\':
		return s.validEscape(n)
	}
	return false
}

// startsNumber: §4.3.10, at the next octet.
func (s *scanner) startsNumber() bool {
	switch c := s.peek(0); {
	case c == '+' || c == '-':
		c1 := s.peek(1)
		return isDigit(c1) || c1 == '.' && isDigit(s.peek(2))
	case c == '.':
		return isDigit(s.peek(1))
	default:
		return isDigit(c)
	}
}

// escaped consumes an escape after its "\" (§4.3.7) and returns the code
// point's UTF-8.
func (s *scanner) escaped(buf []byte) []byte {
	c := s.peek(0)
	if c == -1 {
		return utf8.AppendRune(buf, utf8.RuneError)
	}
	if !isHex(c) {
		return append(buf, byte(s.next()))
	}
	v := 0
	for i := 0; i < 6 && isHex(s.peek(0)); i++ {
		h := s.next()
		switch {
		case h <= '9':
			h -= '0'
		case h >= 'a':
			h -= 'a' - 10
		default:
			h -= 'A' - 10
		}
		v = v*16 + h
	}
	if c := s.peek(0); isSpace(c) {
		s.next()
		if c == '\r' && s.peek(0) == '\n' {
			s.next()
		}
	}
	if v == 0 || v > utf8.MaxRune || 0xd800 <= v && v <= 0xdfff {
		v = utf8.RuneError
	}
	return utf8.AppendRune(buf, rune(v))
}

func (s *scanner) addValue(b []byte) {
	if len(s.value)+len(b) > MaxToken {
		s.long = true
		return
	}
	s.value = append(s.value, b...)
}

// consumeName: §4.3.11, kept in s.name in lower case, bounded.
func (s *scanner) consumeName() {
	s.name = s.name[:0]
	s.nameOverflow = false
	var tmp [8]byte
	for {
		var b []byte
		switch c := s.peek(0); {
		case isName(c):
			tmp[0] = byte(s.next())
			b = tmp[:1]
		case s.validEscape(0):
			s.next()
			b = s.escaped(tmp[:0])
		default:
			return
		}
		for _, x := range b {
			if len(s.name) >= maxName {
				s.nameOverflow = true
				break
			}
			if 'A' <= x && x <= 'Z' {
				x += 'a' - 'A'
			}
			s.name = append(s.name, x)
		}
	}
}

func (s *scanner) nameIs(n string) bool { return !s.nameOverflow && string(s.name) == n }

// consumeString: §4.3.5, after its opening quote.
func (s *scanner) consumeString(q int) kind {
	var tmp [8]byte
	for {
		c := s.peek(0)
		switch {
		case c == q:
			s.next()
			return tString
		case c == -1:
			return tString
		case isNewline(c):
			return tBadString
		case c == '\\':
			s.next()
			switch c1 := s.peek(0); {
			case c1 == -1:
			case isNewline(c1):
				s.next()
				if c1 == '\r' && s.peek(0) == '\n' {
					s.next()
				}
			default:
				s.addValue(s.escaped(tmp[:0]))
			}
		default:
			tmp[0] = byte(s.next())
			s.addValue(tmp[:1])
		}
	}
}

// consumeURL: §4.3.6, after "url(" and its white space.
func (s *scanner) consumeURL() kind {
	var tmp [8]byte
	for {
		c := s.peek(0)
		switch {
		case c == ')':
			s.next()
			return tURL
		case c == -1:
			return tURL
		case isSpace(c):
			for isSpace(s.peek(0)) {
				s.next()
			}
			if c := s.peek(0); c == ')' || c == -1 {
				s.next()
				return tURL
			}
			s.badURL()
			return tBadURL
		case c == '"' || c == '\'' || c == '(' || c <= 8 || c == 0xb || 0xe <= c && c <= 0x1f || c == 0x7f:
			s.badURL()
			return tBadURL
		case c == '\\':
			if !s.validEscape(0) {
				s.badURL()
				return tBadURL
			}
			s.next()
			s.addValue(s.escaped(tmp[:0]))
		default:
			tmp[0] = byte(s.next())
			s.addValue(tmp[:1])
		}
	}
}

// badURL: §4.3.14, the remnants of a bad url.
func (s *scanner) badURL() {
	for {
		switch c := s.peek(0); {
		case c == ')':
			s.next()
			return
		case c == -1:
			return
		case s.validEscape(0):
			s.next()
			s.escaped(nil)
		default:
			s.next()
		}
	}
}

// consumeNumber: §4.3.12, the number's octets (their value is not needed).
func (s *scanner) consumeNumber() {
	if c := s.peek(0); c == '+' || c == '-' {
		s.next()
	}
	for isDigit(s.peek(0)) {
		s.next()
	}
	if s.peek(0) == '.' && isDigit(s.peek(1)) {
		s.next()
		for isDigit(s.peek(0)) {
			s.next()
		}
	}
	if c := s.peek(0); c == 'e' || c == 'E' {
		c1 := s.peek(1)
		if isDigit(c1) || (c1 == '+' || c1 == '-') && isDigit(s.peek(2)) {
			s.next()
			s.next()
			for isDigit(s.peek(0)) {
				s.next()
			}
		}
	}
}

// token consumes one token (§4.3.1), comments included.
func (s *scanner) token() (kind, bool) {
	s.start, s.sLine, s.sCol = s.off, s.line, s.col
	c := s.peek(0)
	switch {
	case c == -1:
		return tOther, false
	case c == '/' && s.peek(1) == '*':
		s.next()
		s.next()
		for {
			c := s.next()
			if c == -1 || c == '*' && s.peek(0) == '/' {
				s.next()
				return tComment, true
			}
		}
	case isSpace(c):
		for isSpace(s.peek(0)) {
			s.next()
		}
		return tSpace, true
	case c == '"' || c == '\'':
		s.holding = s.out != nil && (s.pendImport || s.urlFunc || s.imageSet > 0 && s.depth == s.imageSet)
		s.next()
		s.value, s.long = s.value[:0], false
		return s.consumeString(c), true
	case c == '#':
		s.next()
		if isName(s.peek(0)) || s.validEscape(0) {
			s.consumeName()
		}
		return tOther, true
	case c == '(':
		s.next()
		return tOpen, true
	case c == ')':
		s.next()
		return tClose, true
	case c == ';':
		s.next()
		return tSemicolon, true
	case c == '{' || c == '}':
		s.next()
		return tBlock, true
	case s.startsNumber():
		s.consumeNumber()
		if s.startsIdent(0) {
			s.consumeName()
		} else if s.peek(0) == '%' {
			s.next()
		}
		return tOther, true
	case c == '<' && s.peek(1) == '!' && s.peek(2) == '-' && s.peek(3) == '-':
		for range 4 {
			s.next()
		}
		return tOther, true
	case c == '-' && s.peek(1) == '-' && s.peek(2) == '>':
		s.next()
		s.next()
		s.next()
		return tOther, true
	case c == '@':
		s.next()
		if s.startsIdent(0) {
			s.consumeName()
			return tAtKeyword, true
		}
		return tOther, true
	case s.startsIdent(0):
		return s.identLike(), true
	}
	s.next() // a delim; a "\" that is no escape, too
	return tOther, true
}

// identLike: §4.3.4, held from its first octet until it is known
// whether it is a url token.
func (s *scanner) identLike() kind {
	s.holding = s.out != nil
	s.consumeName()
	if s.peek(0) != '(' {
		s.release()
		return tIdent
	}
	s.next()
	if !s.nameIs("url") {
		s.release()
		return tFunction
	}
	// url( then white space: a quote makes it a function whose
	// argument is a string; anything else is a url token.
	for isSpace(s.peek(0)) && isSpace(s.peek(1)) {
		s.next()
	}
	if c, c1 := s.peek(0), s.peek(1); c == '"' || c == '\'' || isSpace(c) && (c1 == '"' || c1 == '\'') {
		s.release()
		return tFunction
	}
	for isSpace(s.peek(0)) {
		s.next()
	}
	s.value, s.long = s.value[:0], false
	return s.consumeURL()
}

// run tokenizes the whole input, calling found for each link.
func (s *scanner) run() error {
	for s.err == nil {
		k, ok := s.token()
		if !ok {
			break
		}
		var link *Link
		switch k {
		case tSpace, tComment:
			continue // an @import or url( waits for what follows
		case tURL:
			if !s.namespace {
				link = s.link(s.pendImport)
			}
		case tString:
			switch {
			case s.urlFunc:
				link = s.link(s.urlImport)
			case s.pendImport:
				link = s.link(true)
			case s.imageSet > 0 && s.depth == s.imageSet:
				link = s.link(false)
			}
		}
		if link != nil {
			repl, ok, err := s.found(link)
			if err != nil {
				return err
			}
			if ok && s.out != nil {
				s.hold = s.hold[:0]
				if k == tURL {
					repl = "url(" + Quote(repl) + ")"
				} else {
					repl = Quote(repl)
				}
				if _, err := s.out.WriteString(repl); err != nil && s.err == nil {
					s.err = err
				}
			}
		}
		s.release()
		// The context the next token is read in.
		s.urlFunc = false
		wasImport := s.pendImport
		s.pendImport = false
		switch k {
		case tAtKeyword:
			s.pendImport = s.nameIs("import")
			s.namespace = s.nameIs("namespace")
		case tFunction:
			s.depth++
			if s.nameIs("url") {
				s.urlFunc, s.urlImport = true, wasImport
			} else if s.nameIs("image-set") || s.nameIs("-webkit-image-set") {
				s.imageSet = s.depth
			}
		case tOpen:
			s.depth++
		case tClose:
			if s.depth > 0 {
				if s.depth == s.imageSet {
					s.imageSet = 0
				}
				s.depth--
			}
		case tSemicolon, tBlock:
			s.namespace = false
			if k == tBlock {
				s.depth, s.imageSet = 0, 0
			}
		}
	}
	if s.err != nil && !errors.Is(s.err, io.EOF) {
		return s.err
	}
	return nil
}

// link returns the current token as a Link, or nil when it names none:
// empty, too long, or a fragment of the document itself (url(#clip)).
func (s *scanner) link(imp bool) *Link {
	// A token longer than its value's bound (escapes, white space) is
	// not held whole for rewriting either: it names none, in both modes.
	if s.long || s.off-s.start > MaxToken+64 {
		return nil
	}
	ref := strings.Trim(string(s.value), " \t\n\r\f")
	if ref == "" || ref[0] == '#' {
		return nil
	}
	return &Link{Ref: ref, Import: imp, Offset: s.start, End: s.off, Line: s.sLine, Column: s.sCol}
}
