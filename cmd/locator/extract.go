package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/text"
)

func init() {
	register(&command{
		name: "extract",
		args: "[--json] [--base URL] [--rules R] [--max-len N] [FILE...|-]",
		summary: "find the URLs in running text (mail, news, printed pages): <URL:...> and <scheme:...> wrappers, " +
			"\"URL:\" prefixes and bare URLs of known schemes, one per line in order of appearance",
		flags: func(fs *flag.FlagSet) func(*env, []string) int {
			asJSON := fs.Bool("json", false, "one JSON object per URL (NDJSON): url, offset, line, column, wrapped, ambiguous, alternatives; "+
				"ref (the partial form) when --base resolved it; file when read from a named file")
			baseFlag := fs.String("base", "", "resolve partial forms in <URL:...> wrappers (<URL:../g>) against this URL")
			rules := fs.String("rules", locator.RFC3986.String(), "rule set for partial forms: rfc3986, rfc1808 or draft1993")
			maxLen := fs.Int("max-len", text.DefaultMaxLen, "longest URL or wrapper held, in bytes; a longer one is reported on stderr and passed over")
			return func(e *env, args []string) int {
				opts := &text.Options{MaxLen: *maxLen}
				if *maxLen <= 0 {
					return usageError(e, "extract", "--max-len must be positive")
				}
				if *baseFlag != "" {
					b, err := locator.Parse(*baseFlag)
					if err != nil {
						return usageError(e, "extract", "--base: "+err.Error())
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
				w := bufio.NewWriterSize(e.stdout, 64<<10)
				x := &extractor{e: e, w: w, json: *asJSON, opts: opts}
				if x.json {
					x.enc = json.NewEncoder(w)
					x.enc.SetEscapeHTML(false)
				}
				status := 0
				for _, a := range args {
					if err := x.input(a); err != nil {
						fmt.Fprintf(e.stderr, "locator extract: %v\n", err)
						status = 1
					}
				}
				if err := w.Flush(); err != nil {
					fmt.Fprintf(e.stderr, "locator extract: %v\n", err)
					return 1
				}
				if status == 0 && x.found == 0 {
					status = 1 // a negative result, as grep says it
				}
				return status
			}
		},
	})
}

// extractor writes the URLs of each input.
type extractor struct {
	e     *env
	w     *bufio.Writer
	json  bool
	enc   *json.Encoder
	opts  *text.Options
	found int
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

// input scans one input, "-" for standard input, streaming it.
func (x *extractor) input(name string) error {
	var r io.Reader = x.e.stdin
	file := ""
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return err
		}
		defer f.Close()
		r, file = f, name
	}
	label := name
	if name == "-" {
		label = "standard input"
	}
	opts := *x.opts
	opts.Skipped = func(le *text.LimitError) {
		fmt.Fprintf(x.e.stderr, "locator extract: %s: %v\n", label, le)
	}
	s := text.NewScanner(r, &opts)
	for s.Scan() {
		m := s.Match()
		x.found++
		if !x.json {
			x.w.WriteString(m.URL)
			x.w.WriteByte('\n')
			continue
		}
		rec := extracted{URL: m.URL, Offset: m.Offset, Line: m.Line, Column: m.Column, Wrapped: m.Wrapped,
			Ambiguous: m.Ambiguous, Alternatives: m.Alternatives, Ref: m.Ref, File: file}
		if rec.Alternatives == nil {
			rec.Alternatives = []string{}
		}
		if err := x.enc.Encode(&rec); err != nil {
			return err
		}
	}
	if err := s.Err(); err != nil {
		return fmt.Errorf("%s: %w", strconv.Quote(label), err)
	}
	return nil
}
