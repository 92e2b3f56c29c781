package main

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/internal/htmllinks"
	"github.com/rfc1738/locator/internal/printable"
	"github.com/rfc1738/locator/text"
)

// htmlSniff is how many bytes of an input are read to tell whether it is
// HTML (text.LooksLikeHTML).
const htmlSniff = 512

func init() {
	register(&command{
		name: "extract",
		args: "[--json] [--base URL] [--rules R] [--max-len N] [--html] [FILE...|-]",
		summary: "find the URLs in running text (mail, news, printed pages): <URL:...> and <scheme:...> wrappers, " +
			"\"URL:\" prefixes and bare URLs of known schemes, one per line in order of appearance; " +
			"exit 0 found, 1 none found, 2 trouble (usage, unreadable input, write error)",
		flags: func(fs *flag.FlagSet) func(*env, []string) int {
			asJSON := fs.Bool("json", false, "one JSON object per URL (NDJSON): url, offset, line, column, wrapped, ambiguous, alternatives; "+
				"ref (the partial form) when --base resolved it; file when read from a named file")
			baseFlag := fs.String("base", "", "resolve partial forms in <URL:...> wrappers (<URL:../g>), and with --html the relative links of the document, against this URL; "+
				"without it they are counted and reported once on stderr")
			rules := fs.String("rules", locator.RFC3986.String(), "rule set for partial forms: rfc3986, rfc1808 or draft1993")
			maxLen := fs.Int("max-len", text.DefaultMaxLen, "longest URL or wrapper held, in bytes; a longer one is reported on stderr and passed over")
			asHTML := fs.Bool("html", false, "the inputs are HTML: decode character references (&amp;) in URLs, read &lt;URL:...&gt; as a wrapper, "+
				"and give the relative links of its elements (<a href=\"a.txt\">) resolved against its <base href> or --base; "+
				"without it, an input that begins with <!DOCTYPE html or <html is read so")
			return func(e *env, args []string) int {
				opts := &text.Options{MaxLen: *maxLen}
				if *maxLen <= 0 {
					return usageError(e, "extract", "--max-len must be positive")
				}
				if *baseFlag != "" {
					b, err := locator.Parse(*baseFlag)
					if err != nil {
						return usageError(e, "extract", "--base: "+message(err))
					}
					opts.Base = b
				}
				r, err := locator.ParseResolution(*rules)
				if err != nil {
					return usageError(e, "extract", err.Error())
				}
				opts.Resolution = r
				if len(args) == 0 {
					args = []string{"-"}
				}
				out := &stickyWriter{w: e.stdout}
				w := bufio.NewWriterSize(out, 64<<10)
				x := &extractor{e: e, w: w, out: out, json: *asJSON, html: *asHTML, opts: opts}
				status := 0
				for _, a := range args {
					if err := x.input(a); err != nil {
						if errors.Is(err, errWrite) {
							// Standard output is gone: nothing more can be
							// said; run reports the write error once.
							return 2
						}
						fmt.Fprintf(e.stderr, "locator extract: %s\n", printable.String(err.Error()))
						status = 2
					}
				}
				if err := w.Flush(); err != nil {
					return 2 // run reports the write error once
				}
				if x.partials > 0 {
					fmt.Fprintf(e.stderr, "locator extract: %s\n", printable.String(fmt.Sprintf("%d partial form(s) in <URL:...> wrappers not resolved, no --base given "+
						"(the first: %s, line %d, column %d: %q)", x.partials, x.firstPartial.label, x.firstPartial.Line,
						x.firstPartial.Column, x.firstPartial.Ref)))
				}
				if x.htmlPartials > 0 {
					fmt.Fprintf(e.stderr, "locator extract: %s\n", printable.String(fmt.Sprintf("%d relative link(s) in HTML attributes not resolved, "+
						"no --base given and no <base href> in the document (the first: %s)", x.htmlPartials, x.firstHTMLPartial)))
				}
				if status == 0 && x.found == 0 {
					status = 1 // a negative result, as grep says it
				}
				return status
			}
		},
	})
}

// errWrite marks an error writing the results.
var errWrite = errors.New("write error on standard output")

// stickyWriter keeps the first write error, so that a scan can stop at
// once rather than at the final flush.
type stickyWriter struct {
	w   io.Writer
	err error
}

func (s *stickyWriter) Write(p []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	n, err := s.w.Write(p)
	if err != nil {
		s.err = fmt.Errorf("%w: %v", errWrite, err)
		return n, s.err
	}
	return n, nil
}

// extractor writes the URLs of each input.
type extractor struct {
	e     *env
	w     *bufio.Writer
	out   *stickyWriter
	json  bool
	html  bool
	opts  *text.Options
	found int

	// htmlPartials counts the relative links of HTML inputs that had
	// no base to be resolved against; firstHTMLPartial says where the
	// first stood.
	htmlPartials     int
	firstHTMLPartial string

	partials     int // partial forms met without a base, in all inputs
	firstPartial struct {
		text.Partial
		label string
	}
}

// extracted is the JSON object of `locator extract --json`.
type extracted struct {
	URL          string   `json:"url"`
	Offset       int64    `json:"offset"`
	Line         int      `json:"line"`
	Column       int      `json:"column"`
	Wrapped      bool     `json:"wrapped"`
	Ambiguous    bool     `json:"ambiguous"`
	Alternatives []string `json:"alternatives"`
	Ref          string   `json:"ref,omitempty"`
	File         string   `json:"file,omitempty"`
}

// input scans one input, "-" for standard input, streaming it. An error
// names the input once; the caller adds the command's name.
func (x *extractor) input(name string) error {
	var r io.Reader = x.e.stdin
	file := ""
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return err // *PathError: "open NAME: reason"
		}
		defer f.Close()
		r, file = f, name
	}
	label := name
	if name == "-" {
		label = "standard input"
	}
	br := bufio.NewReaderSize(r, htmlSniff)
	opts := *x.opts
	// A read error here is kept by br and met again, after the bytes
	// before it, by the Scanner.
	head, _ := br.Peek(htmlSniff)
	opts.HTML = x.html || text.LooksLikeHTML(head)
	opts.Skipped = func(le *text.LimitError) {
		fmt.Fprintf(x.e.stderr, "locator extract: %s\n", printable.String(label+": "+le.Error()))
	}
	opts.Partial = func(p text.Partial) {
		if x.partials == 0 {
			x.firstPartial.Partial, x.firstPartial.label = p, label
		}
		x.partials++
	}
	if opts.HTML {
		return x.inputHTML(br, &opts, label, file)
	}
	s := text.NewScanner(br, &opts)
	for s.Scan() {
		if err := x.emit(s.Match(), file); err != nil {
			return err
		}
	}
	if err := s.Err(); err != nil {
		return fmt.Errorf("%s: %w", label, err)
	}
	return nil
}

// emit writes one URL found.
func (x *extractor) emit(m text.Match, file string) error {
	x.found++
	if !x.json {
		x.w.WriteString(m.URL)
		x.w.WriteByte('\n')
	} else {
		rec := extracted{URL: m.URL, Offset: m.Offset, Line: m.Line, Column: m.Column, Wrapped: m.Wrapped,
			Ambiguous: m.Ambiguous, Alternatives: m.Alternatives, Ref: m.Ref, File: file}
		if rec.Alternatives == nil {
			rec.Alternatives = []string{}
		}
		writeJSON(x.w, &rec) // a write error is kept by x.out
	}
	return x.out.err
}

// inputHTML scans an HTML input: the URLs written in its text and
// attribute values, as the Scanner finds them, and with them the partial
// forms of its links (<a href="a.txt">, <img src="../i.png">: package
// htmllinks), resolved against the document's <base href> or else --base
// (RFC 3986 §5; HTML 5 §4.2.3), in document order. A link written as a
// full URL is the Scanner's to find, so that none is given twice. The
// document is read whole, since a <base> applies to the links before it.
func (x *extractor) inputHTML(r io.Reader, opts *text.Options, label, file string) error {
	doc, readErr := io.ReadAll(r)
	links, _ := htmllinks.Links(bytes.NewReader(doc), opts.Base) // only a read error, and there is none
	var rel []htmllinks.Link
	for _, l := range links {
		if l.Partial() {
			rel = append(rel, l)
		}
	}
	s := text.NewScanner(bytes.NewReader(doc), opts)
	// flush writes the relative links that stand before offset off.
	flush := func(off int64) error {
		for len(rel) > 0 && rel[0].Offset < off {
			l := rel[0]
			rel = rel[1:]
			if l.URL == nil {
				if l.Err == nil && x.htmlPartials == 0 {
					x.firstHTMLPartial = fmt.Sprintf("%s, line %d, column %d: <%s %s=%q>", label, l.Line, l.Column, l.Element, l.Attr, l.Ref)
				}
				if l.Err == nil {
					x.htmlPartials++
				}
				continue
			}
			m := text.Match{URL: l.URL.String(), Offset: l.Offset, Line: l.Line, Column: l.Column, Ref: l.Ref}
			if err := x.emit(m, file); err != nil {
				return err
			}
		}
		return nil
	}
	for s.Scan() {
		m := s.Match()
		if err := flush(m.Offset + 1); err != nil {
			return err
		}
		if err := x.emit(m, file); err != nil {
			return err
		}
	}
	if err := flush(int64(len(doc)) + 1); err != nil {
		return err
	}
	if err := s.Err(); err != nil {
		return fmt.Errorf("%s: %w", label, err)
	}
	if readErr != nil {
		return fmt.Errorf("%s: %w", label, readErr)
	}
	return nil
}
