package access

import (
	"io"
	"strings"

	"github.com/rfc1738/locator"
)

// A LineKind is what a line of a line-oriented document is.
type LineKind int

// The kinds of line (text/gemini's, Gemini §5.4, §5.5, are the model).
const (
	TextLine         LineKind = iota // running text
	LinkLine                         // a link: Ref, URL or Err; Text its name
	PreToggleLine                    // opens or closes preformatted text; Text its alt text
	PreformattedLine                 // a line of preformatted text, as it is
	HeadingLine                      // a heading of Level 1 to 3
	ListLine                         // an item of a list
	QuoteLine                        // a quotation
)

// A Line is one line of a line-oriented document, as the format's
// reader gives it to a program that renders the document or takes its
// links without knowing the format.
type Line struct {
	Number int // from 1
	Kind   LineKind
	// Markup is what makes the line of its kind, as the format writes it
	// ("=>" of a gemtext link); "" for text.
	Markup string
	// Text is the line without its line end and its markup: a link's
	// name ("" when it has none), a preformatted line as it is.
	Text  string
	Level int // a heading's level, 1 to 3
	// Ref is a link's URL as written; URL the URL it names, resolved
	// against the document's, or nil when Err says why it names none.
	Ref string
	URL *locator.URL
	Err error
	Cut bool // the line was longer than the reader's bound, and cut
}

// A LineReader reads the document r, whose URL is base (nil: every
// link must be absolute), and calls emit with each line, in order,
// until r ends (nil), r fails, or emit returns an error (returned as
// it is). The memory it takes is bounded whatever r holds.
type LineReader func(r io.Reader, base *locator.URL, emit func(Line) error) error

// lineReaders holds the LineReaders by media type, written from init
// functions only.
var lineReaders = map[string]LineReader{}

// RegisterLines makes read the reader of documents of mediaType (a type
// and subtype, in lower case, "text/gemini"). It must be called from
// the init function of the package that knows the format; it panics
// when mediaType has a reader already, as a programming error.
func RegisterLines(mediaType string, read LineReader) {
	mu.Lock()
	defer mu.Unlock()
	if _, dup := lineReaders[mediaType]; dup {
		panic("access: RegisterLines called twice for " + mediaType)
	}
	lineReaders[mediaType] = read
}

// Lines returns the reader of documents of mediaType (its parameters,
// if any, ignored; in any case), or nil when none is registered.
func Lines(mediaType string) LineReader {
	t, _, _ := strings.Cut(mediaType, ";")
	mu.RLock()
	defer mu.RUnlock()
	return lineReaders[strings.ToLower(strings.TrimSpace(t))]
}
