package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/rfc1738/locator"
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
			baseFlag := fs.String("base", "", "resolve partial forms in <URL:...> wrappers (<URL:../g>) against this URL; "+
				"without it they are counted and reported once on stderr")
			rules := fs.String("rules", locator.RFC3986.String(), "rule set for partial forms: rfc3986, rfc1808 or draft1993")
			maxLen := fs.Int("max-len", text.DefaultMaxLen, "longest URL or wrapper held, in bytes; a longer one is reported on stderr and passed over")
			asHTML := fs.Bool("html", false, "the inputs are HTML: decode character references (&amp;) in URLs, read &lt;URL:...&gt; as a wrapper; "+
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
	s := text.NewScanner(br, &opts)
	for s.Scan() {
		m := s.Match()
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
		if x.out.err != nil {
			return x.out.err
		}
	}
	if err := s.Err(); err != nil {
		return fmt.Errorf("%s: %w", label, err)
	}
	return nil
}
