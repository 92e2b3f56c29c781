// Package text finds URLs in running text: mail, news, printed pages,
// logs, any stream of bytes.
//
// It follows the RFC 1738 Appendix ("Recommendations for URLs in
// Context") and the 1993 draft's "Wrappers for URIs in plain text":
//
//   - A wrapper <URL:...> or <scheme:...> delimits a URL of any scheme.
//     White space inside it (spaces, line breaks, tabs) was added to break
//     a long URL across lines and is removed. A fragment ("#...") inside
//     the brackets stays with the URL. A line break right after a hyphen
//     keeps the hyphen, but the match is Ambiguous and the hyphen-less
//     form is offered among its Alternatives ("some typesetters and
//     printers may (erroneously) introduce a hyphen at the end of line").
//   - In a quoted reply, a wrapper continued on the next line loses that
//     line's quote prefix (">", "> >", ">>", "|", "JD>") with the break,
//     up to the depth of its first line's prefix (quote.go).
//   - A URL written without a wrapper is found when it has a "URL:"
//     prefix, or a known scheme (the ten of RFC 1738 §3, https and other
//     common ones; schemes.go) and evidence: "//" and a host, or for an
//     opaque scheme its grammar (evidence.go: "Fax:+1", "IM:johndoe" and
//     "tel:home" are labels, not URLs). It ends at white space or at a
//     character that RFC 1738 §2.2 calls unsafe and that delimits URLs in text
//     (< > " ` | \ ^), at a closing bracket that it did not open, and
//     before trailing sentence punctuation; a news URL ends where the
//     group or message-id grammar of §5 ends.
//
// With Options.HTML, character references are decoded and "&lt;URL:...&gt;"
// is a wrapper (html.go).
//
// Every URL reported is accepted by locator.Parse.
//
// A Scanner reads an io.Reader in constant memory: it holds at most
// MaxLen bytes of a candidate plus a fixed read buffer, so input of any
// size streams. Positions are byte offsets from the start of the input,
// with a 1-based line number (lines end at LF; a CR LF pair counts once,
// a lone CR does not end a line) and a 1-based column counted in bytes.
package text

import (
	"bytes"
	"errors"
	"io"
	"strconv"

	"github.com/rfc1738/locator"
)

// DefaultMaxLen is the default bound, in bytes of input, on a URL or a
// wrapper the Scanner will hold. 8192 is above what any browser,
// server or crawler accepts in practice (RFC 9110 §4.1 recommends that
// senders and recipients support at least 8000 octets).
const DefaultMaxLen = 8192

// minMaxLen is the smallest MaxLen a Scanner accepts.
const minMaxLen = 64

// readSize is the part of the buffer beyond MaxLen used for reading.
const readSize = 64 << 10

// lookback is how many bytes before a ":" the Scanner keeps to read the
// scheme name in front of it, and the character before that.
// and the "&lt;" that may open an HTML wrapper before it.
const lookback = maxScheme + 1 + len("&lt;")

// maxSpaceRuns is how many runs of white space without a line break a
// wrapper may hold before it is taken for prose in angle brackets. The
// malformed wrappers in RFC 1630 and draft 03 have at most three.
const maxSpaceRuns = 8

// Options configure a Scanner. The zero value is ready to use.
type Options struct {
	// MaxLen bounds the length, in bytes of input, of a candidate URL or
	// wrapper (white space of a wrapper included). A longer candidate is
	// reported to Skipped and passed over. Zero means DefaultMaxLen;
	// values below 64 are raised to 64.
	MaxLen int

	// Skipped, when not nil, is called for each candidate passed over
	// because it is longer than MaxLen.
	Skipped func(*LimitError)

	// Base, when not nil, is the URL against which a partial form in a
	// "<URL:...>" wrapper (such as <URL:../g> or <URL:#frag>) is
	// resolved, by the rules Resolution names (locator.RFC3986, the zero
	// value, by default). Without a base a partial form is not a URL and
	// is left alone. Only the "URL:" prefix marks the text of a wrapper
	// as a partial form: <b> and </p> are not references.
	Base       *locator.URL
	Resolution locator.Resolution

	// Partial, when not nil, is called for each partial form found in a
	// "<URL:...>" wrapper while Base is nil: such a wrapper names a URL
	// the Scanner cannot write, so it is reported here rather than
	// dropped without a word. The wrapper's text is then read again as
	// prose, as for any wrapper that holds no URL. A text whose first
	// segment holds a ":" ("0ftp://00") is not a partial form (RFC 3986
	// §4.2) and is not reported.
	Partial func(Partial)

	// HTML says that the input is HTML (see LooksLikeHTML): character
	// references such as "&amp;" in a bare URL are decoded, and
	// "&lt;URL:...&gt;" is a wrapper (html.go).
	HTML bool
}

// A Partial is a partial form in a "<URL:...>" wrapper that was not
// resolved because Options.Base is nil.
type Partial struct {
	Ref          string // the partial form, white space removed
	Offset, End  int64  // the span of the wrapper, "<" to ">" inclusive
	Line, Column int    // Offset as a 1-based line and byte column
}

// A Match is one URL found in the text.
type Match struct {
	// URL is the URL as written, with a wrapper, a "URL:" prefix and the
	// white space inside a wrapper removed.
	URL string `json:"url"`

	// Offset is the byte offset in the input where the match begins: the
	// "<" of a wrapper, the "U" of a "URL:" prefix, else the URL's first
	// byte. End is the offset just past the match (past the ">").
	Offset int64 `json:"offset"`
	End    int64 `json:"-"`

	// Line and Column give Offset as a 1-based line number and a 1-based
	// column counted in bytes from the start of the line.
	Line   int `json:"line"`
	Column int `json:"column"`

	// Wrapped is true for <URL:...> and <scheme:...>; Prefixed is true
	// when the URL was written with the prefix "URL:".
	Wrapped  bool `json:"wrapped"`
	Prefixed bool `json:"-"`

	// Ambiguous is true when the text can be read as more than one URL:
	// a wrapper broke a line right after a hyphen (RFC 1738 Appendix), or
	// held white space away from any line break. URL is then the reading
	// the Appendix prescribes (keep the hyphen, drop all white space);
	// Alternatives lists the other readings that parse, each in the same
	// form as URL (white space kept is written %20 or %09, RFC 1738 §2.2).
	Ambiguous    bool     `json:"ambiguous"`
	Alternatives []string `json:"alternatives"`

	// Ref is the partial form as written (white space removed) when URL
	// was resolved from it against Options.Base; otherwise "".
	Ref string `json:"ref,omitempty"`
}

// A LimitError describes a candidate longer than the Scanner's MaxLen.
type LimitError struct {
	Offset       int64 // where the candidate begins
	Line, Column int
	Limit        int  // the MaxLen in force
	Wrapped      bool // the candidate was a wrapper "<..."
}

func (e *LimitError) Error() string {
	what := "URL"
	if e.Wrapped {
		what = "wrapper"
	}
	return "text: line " + strconv.Itoa(e.Line) + ", column " + strconv.Itoa(e.Column) +
		" (offset " + strconv.FormatInt(e.Offset, 10) + "): " + what + " longer than " +
		strconv.Itoa(e.Limit) + " bytes passed over"
}

// A Scanner finds the URLs in a stream, in order of appearance. Its use
// follows bufio.Scanner:
//
//	s := text.NewScanner(r, nil)
//	for s.Scan() {
//		m := s.Match()
//		...
//	}
//	if err := s.Err(); err != nil { ... }
type Scanner struct {
	r          io.Reader
	max        int
	skip       func(*LimitError)
	onPartial  func(Partial)
	html       bool
	refBase    *locator.URL
	resolution locator.Resolution
	buf        []byte
	n          int   // buf[:n] holds input
	base       int64 // input offset of buf[0]
	pos        int   // next byte of buf to examine
	floor      int   // a scheme name may not begin before buf[floor]
	noAt       int   // a mailto: that begins before buf[noAt] has no "@"
	eof        bool
	err        error

	skipping    bool // passing over the rest of a too-long candidate
	longWrapper bool // the candidate found too long was a wrapper
	match       Match

	// Line counting is done lazily, up to lineOff, before bytes leave
	// the buffer and when a position is reported.
	lineOff   int64
	lines     int   // LF bytes before lineOff
	lineStart int64 // offset of the first byte of the line holding lineOff

	alt altBuilder // also holds the Parser the checks use

	head   quoteState // the quote prefix of the line that holds buf[0], read up to it
	quotes []int      // quote prefixes inside the wrapper being read: buf index pairs
	unq    []byte     // a wrapper's text with its quote prefixes blanked
}

// NewScanner returns a Scanner reading from r. opts may be nil.
func NewScanner(r io.Reader, opts *Options) *Scanner {
	s := &Scanner{r: r, max: DefaultMaxLen}
	if opts != nil {
		if opts.MaxLen > 0 {
			s.max = max(opts.MaxLen, minMaxLen)
		}
		s.skip, s.onPartial, s.html = opts.Skipped, opts.Partial, opts.HTML
		s.refBase, s.resolution = opts.Base, opts.Resolution
	}
	s.buf = make([]byte, s.max+readSize)
	return s
}

// Match returns the URL found by the last call to Scan.
func (s *Scanner) Match() Match { return s.match }

// Err returns the first error other than io.EOF that the reader
// returned.
func (s *Scanner) Err() error { return s.err }

// Scan advances to the next URL, which is then available through Match.
// It returns false at the end of the input or on a read error.
func (s *Scanner) Scan() bool {
	for {
		if s.skipping {
			for s.pos < s.n && class[s.buf[s.pos]]&kindMask != bStop {
				s.pos++
			}
			if s.pos == s.n && !s.eof {
				s.fill(s.n)
				continue
			}
			s.skipping = false
			s.floor = s.pos
		}
		k := indexCand(s.buf[s.pos:s.n])
		if k < 0 {
			s.pos = s.n
			if s.eof {
				return false
			}
			s.fill(max(0, s.n-lookback))
			continue
		}
		i := s.pos + k
		var o outcome
		var start, end int
		s.longWrapper = false
		if s.buf[i] == '<' {
			start = i
			o, end = s.wrapper(i, 1)
		} else {
			o, start, end = s.bare(i)
		}
		if o == oMore && i <= lookback && s.n == len(s.buf) {
			// The candidate wants more than the buffer holds, MaxLen
			// and the read size past the lookback before it. Every
			// reader of a candidate stops at MaxLen, so this is not
			// expected; should one not, the candidate is cut as too
			// long and the scan goes on: a bound never ends the stream.
			o, start = oLong, i
			s.longWrapper = s.buf[i] == '<'
		}
		switch o {
		case oMore:
			s.pos = i
			s.fill(max(0, i-lookback))
		case oNone:
			s.pos = i + 1
		case oLong:
			if s.skip != nil {
				e := &LimitError{Offset: s.base + int64(start), Limit: s.max, Wrapped: s.longWrapper}
				e.Line, e.Column = s.position(e.Offset)
				s.skip(e)
			}
			s.pos = i + 1
			s.skipping = !s.longWrapper // a wrapper is read again as prose
		case oFound:
			s.pos, s.floor = end, end
			s.match.Offset = s.base + int64(start)
			s.match.End = s.base + int64(end)
			s.match.Line, s.match.Column = s.position(s.match.Offset)
			return true
		}
	}
}

// indexCand returns the index of the first byte of b where a URL may be
// noticed (":" or "<"), or -1.
func indexCand(b []byte) int {
	for i, c := range b {
		if class[c]&bCand != 0 {
			return i
		}
	}
	return -1
}

type outcome uint8

const (
	oNone  outcome = iota // no URL here
	oMore                 // more input is needed to decide
	oLong                 // the candidate is longer than MaxLen
	oFound                // s.match holds a URL
)

// fill drops buf[:keep], then reads more input after what is held.
func (s *Scanner) fill(keep int) {
	if keep > 0 {
		s.countLines(s.base + int64(keep))
		s.advanceHead(keep)
		copy(s.buf, s.buf[keep:s.n])
		s.n -= keep
		s.base += int64(keep)
		s.pos = max(0, s.pos-keep)
		s.floor = max(0, s.floor-keep)
		s.noAt = max(0, s.noAt-keep)
	}
	if s.eof {
		return
	}
	for range 100 {
		m, err := s.r.Read(s.buf[s.n:])
		if m < 0 || m > len(s.buf)-s.n {
			s.err = errors.New("text: reader returned an invalid count")
			s.eof = true
			return
		}
		s.n += m
		if err != nil {
			if err != io.EOF {
				s.err = err
			}
			s.eof = true
			return
		}
		if m > 0 {
			return
		}
	}
	s.err = io.ErrNoProgress
	s.eof = true
}

// countLines counts the line feeds of the input up to offset to, which
// must still be in the buffer.
func (s *Scanner) countLines(to int64) {
	if to <= s.lineOff {
		return
	}
	seg := s.buf[s.lineOff-s.base : to-s.base]
	if k := bytes.Count(seg, nl); k > 0 {
		s.lines += k
		s.lineStart = s.lineOff + int64(bytes.LastIndexByte(seg, '\n')) + 1
	}
	s.lineOff = to
}

var nl = []byte{'\n'}

// position returns the 1-based line and byte column of offset off, which
// is at or after every offset reported before.
func (s *Scanner) position(off int64) (line, col int) {
	s.countLines(off)
	return s.lines + 1, int(off-s.lineStart) + 1
}

// FindAll returns the URLs in s, in order, with default Options.
func FindAll(s string) []Match {
	var ms []Match
	sc := &Scanner{max: DefaultMaxLen, buf: []byte(s), n: len(s), eof: true}
	for sc.Scan() {
		ms = append(ms, sc.Match())
	}
	return ms
}

// parses reports whether locator.Parse accepts u, with the scanner's
// Parser (which allocates nothing).
func (s *Scanner) parses(u string) bool {
	return s.alt.parses(u)
}
