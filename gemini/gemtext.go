package gemini

import (
	"bufio"
	"bytes"
	"io"
	"strconv"
	"strings"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
)

// A text/gemini document's lines are offered to the layers above access
// (a gateway's rendering, a crawl's links) as access.Lines, by media
// type, so that they need not import this package.
func init() {
	access.RegisterLines("text/gemini", func(r io.Reader, base *locator.URL, emit func(access.Line) error) error {
		return lines(r, base, func(l line) error { return emit(l.access()) })
	})
}

// kinds maps a lineType to its access.LineKind.
var kinds = [...]access.LineKind{
	textLine:         access.TextLine,
	linkLine:         access.LinkLine,
	preToggleLine:    access.PreToggleLine,
	preformattedLine: access.PreformattedLine,
	headingLine:      access.HeadingLine,
	listLine:         access.ListLine,
	quoteLine:        access.QuoteLine,
}

// markup is each lineType's prefix (Gemini §5.4, §5.5).
var markup = [...]string{linkLine: "=>", preToggleLine: "```", headingLine: "#", listLine: "*", quoteLine: ">"}

// access returns l as an access.Line.
func (l line) access() access.Line {
	a := access.Line{Number: l.Number, Kind: kinds[l.Type], Markup: markup[l.Type], Text: l.Text, Level: l.Level, Cut: l.Cut}
	if l.Type == headingLine {
		a.Markup = strings.Repeat("#", l.Level)
	}
	if l.Type == linkLine {
		a.Ref, a.URL, a.Err = l.Link.Ref, l.Link.URL, l.Link.Err
	}
	return a
}

// maxLine bounds a line of a text/gemini document as lines delivers it,
// in octets: a longer one is delivered cut (line.Cut) to its first
// maxLine octets, the rest skipped; a link line so cut names no URL
// (link.Err).
const maxLine = 64 << 10

// A lineType is the type of a text/gemini line (Gemini §5.4, §5.5), told
// by its first octets.
type lineType int

// The line types.
const (
	textLine         lineType = iota // any other line (§5.4.1)
	linkLine                         // "=>" and a URL (§5.4.2)
	preToggleLine                    // "```", Text the alt text after it (§5.4.3)
	preformattedLine                 // a line between two toggles, as it is (§5.4.4)
	headingLine                      // "#", "##" or "###" (§5.5.1)
	listLine                         // "* " (§5.5.2)
	quoteLine                        // ">" (§5.5.3)
)

// A line is one line of a text/gemini document.
type line struct {
	Number int // from 1
	Type   lineType
	// Text is the line without its line end (LF or CR LF), and, for a
	// heading, a list item and a quote, without its prefix and the
	// white space after it; for a link, the user-friendly name.
	Text  string
	Level int  // a heading's level, 1 to 3
	Link  link // a link line's link
	Cut   bool // the line was longer than maxLine
}

// A link is one link line of a text/gemini document (Gemini §5.4.2):
//
//	=>[<whitespace>]<URL>[<whitespace><USER-FRIENDLY LINK NAME>]
type link struct {
	Line int    // the line's number, from 1
	Ref  string // the URL as written, absolute or relative
	Name string // the user-friendly name, "" when there is none
	// URL is Ref resolved against the document's URL (RFC 3986 §5.2, as
	// Gemini §5.4.2 asks), or nil when Err is set.
	URL *locator.URL
	// Err says why the line names no URL: Ref cannot be read as one, or
	// the line is longer than maxLine.
	Err error
}

// A LinkError says why a link line names no URL.
type LinkError struct {
	Line int
	Msg  string
}

func (e *LinkError) Error() string { return "gemtext line " + strconv.Itoa(e.Line) + ": " + e.Msg }

// lines reads the text/gemini document r, whose URL is base (nil: every
// link must be absolute), and calls emit with each line, in order, until
// r ends (nil), r fails, or emit returns an error (returned as it is).
// lines end in LF or CR LF (Gemini §5.4); a last line without one is a
// line. A line "=>" with no URL is a text line. Lines between
// preformatting toggle lines (beginning "```") are preformatted: a "=>"
// or "#" there is text. The memory it takes is bounded by maxLine,
// whatever r holds.
func lines(r io.Reader, base *locator.URL, emit func(line) error) error {
	br := bufio.NewReaderSize(r, 4096)
	pre := false
	buf := make([]byte, 0, 256)
	for n := 1; ; n++ {
		buf = buf[:0]
		cut := false
		var rerr error
		for {
			frag, err := br.ReadSlice('\n')
			if len(buf)+len(frag) > maxLine {
				frag = frag[:max(0, maxLine-len(buf))]
				cut = true
			}
			buf = append(buf, frag...)
			if err == bufio.ErrBufferFull {
				continue
			}
			rerr = err
			break
		}
		if len(buf) == 0 && rerr != nil {
			if rerr == io.EOF {
				return nil
			}
			return rerr
		}
		s := bytes.TrimSuffix(buf, []byte("\n"))
		s = bytes.TrimSuffix(s, []byte("\r"))
		l := line{Number: n, Cut: cut}
		switch {
		case bytes.HasPrefix(s, []byte("```")):
			pre = !pre
			l.Type, l.Text = preToggleLine, string(s[3:])
		case pre:
			l.Type, l.Text = preformattedLine, string(s)
		case bytes.HasPrefix(s, []byte("=>")):
			if link, ok := parseLink(n, s, base); ok {
				if cut {
					link.URL, link.Err = nil, &LinkError{Line: n, Msg: "a link line longer than " + strconv.Itoa(maxLine) + " octets"}
				}
				l.Type, l.Text, l.Link = linkLine, link.Name, link
			} else {
				l.Text = string(s)
			}
		case bytes.HasPrefix(s, []byte("#")):
			l.Type, l.Level = headingLine, 1
			for l.Level < 3 && l.Level < len(s) && s[l.Level] == '#' {
				l.Level++
			}
			l.Text = string(bytes.TrimLeft(s[l.Level:], " \t"))
		case bytes.HasPrefix(s, []byte("* ")):
			l.Type, l.Text = listLine, string(bytes.TrimLeft(s[2:], " \t"))
		case bytes.HasPrefix(s, []byte(">")):
			l.Type, l.Text = quoteLine, string(bytes.TrimLeft(s[1:], " \t"))
		default:
			l.Text = string(s)
		}
		if err := emit(l); err != nil {
			return err
		}
		if rerr != nil {
			if rerr == io.EOF {
				return nil
			}
			return rerr
		}
	}
}

// links reads the text/gemini document r as lines does and calls emit
// with each link line's link, in order: the links a crawler follows.
func links(r io.Reader, base *locator.URL, emit func(link) error) error {
	return lines(r, base, func(l line) error {
		if l.Type != linkLine {
			return nil
		}
		return emit(l.Link)
	})
}

// parseLink reads the link line s (beginning "=>", without its line
// end), and reports false when it holds no URL.
func parseLink(n int, s []byte, base *locator.URL) (link, bool) {
	s = bytes.TrimLeft(s[2:], " \t")
	end := bytes.IndexAny(s, " \t")
	if end < 0 {
		end = len(s)
	}
	if end == 0 {
		return link{}, false
	}
	l := link{Line: n, Ref: string(s[:end]), Name: string(bytes.Trim(s[end:], " \t"))}
	var err error
	if base != nil {
		l.URL, err = locator.Resolve(base, l.Ref, locator.RFC3986)
	} else {
		l.URL, err = locator.Parse(l.Ref)
	}
	if err != nil {
		l.URL, l.Err = nil, &LinkError{Line: n, Msg: "the link " + strconv.Quote(l.Ref) + " is not a URL: " + err.Error()}
	}
	return l, true
}
