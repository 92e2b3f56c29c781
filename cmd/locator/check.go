package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/internal/printable"
)

func init() {
	register(&command{
		name:    "check",
		args:    "[--json] URL... (or - for one URL per line on stdin)",
		summary: "judge URLs against RFC 1738: each problem with a caret under its offset",
		flags: func(fs *flag.FlagSet) func(*env, []string) int {
			asJSON := fs.Bool("json", false, "one JSON object per input: {input, ok, conforms, problems}")
			return func(e *env, args []string) int {
				if len(args) == 0 {
					return usageError(e, "check", "no URL given")
				}
				w := bufio.NewWriter(e.stdout)
				defer w.Flush()
				status := exitOK
				st, err := eachInput(e, "check", args, func(it item) error {
					u, perr := locator.Parse(it.text)
					probs := problemsOf(u, perr)
					conforms := perr == nil && u.Conforms()
					if !conforms {
						status = exitNegative
					}
					if *asJSON {
						return writeJSON(w, &checked{it.text, perr == nil, conforms, probs})
					}
					writeCaretReport(w, it.text, probs, conforms)
					return nil
				}, nil)
				return finish(e, "check", status, st, err)
			}
		},
	})
}

// checked is the JSON object of `locator check --json`, written through
// exact (input_escaped when the input is not valid UTF-8).
type checked struct {
	Input    string            `json:"input"`
	OK       bool              `json:"ok"`
	Conforms bool              `json:"conforms"`
	Problems []locator.Problem `json:"problems"`
}

func problemsOf(u *locator.URL, err error) []locator.Problem {
	if err != nil {
		if pe, ok := err.(*locator.ParseError); ok {
			return pe.Problems
		}
		return nil
	}
	if u.Problems() == nil {
		return []locator.Problem{}
	}
	return u.Problems()
}

// caretWidth is the widest input, in columns, under which each problem's
// caret is written in the input's own line, padded to its offset. A
// longer input is written once, and each problem under an excerpt of it
// (see writeExcerpt): so the report grows with the input's length plus
// the number of problems, not with their product.
const caretWidth = 100

// excerptContext is how many columns of the input an excerpt shows on
// each side of a problem's offset.
const excerptContext = 32

// writeCaretReport prints the input and, for each problem, a caret under
// its offset and what is wrong. Control characters in the input (and
// octets that are not UTF-8) are shown as '?' (printable.Columns), so the
// terminal is not driven by the input and the caret stays in its
// column; the rule and message are escaped (printable.String).
//
// An input of more than caretWidth columns is written once; then, as a
// compiler shows a long line, each problem is written under an excerpt of
// at most excerptContext columns either side of its offset, cut at
// characters and marked "…" where cut, so the report is linear in the
// input: a caret padded to each offset of a 16,000-octet input, one per
// problem, made the report quadratic.
func writeCaretReport(w io.Writer, in string, probs []locator.Problem, conforms bool) {
	shown := printable.Columns(in)
	if len(probs) == 0 {
		fmt.Fprintf(w, "%s\n  ok: conforms to RFC 1738\n\n", shown)
		return
	}
	fmt.Fprintf(w, "%s\n", shown)
	long := utf8.RuneCountInString(in) > caretWidth
	for _, p := range probs {
		col := min(max(p.Offset, 0), len(in))
		var cols int
		if long {
			cols = writeExcerpt(w, in, col)
		} else {
			// Count columns in runes up to the offset, so the caret lines
			// up under multi-byte text; Columns keeps one column per rune
			// or bad octet, so the count is taken on the input itself.
			cols = utf8.RuneCountInString(in[:col])
		}
		fmt.Fprintf(w, "%s^ %s (%s) at %d: %s\n", strings.Repeat(" ", cols), p.Severity,
			printable.String(p.Rule), p.Offset, printable.String(p.Message))
	}
	if conforms {
		fmt.Fprintf(w, "  conforms to RFC 1738 (warnings only)\n")
	}
	fmt.Fprintln(w)
}

// writeExcerpt writes the line of in around byte offset col: up to
// excerptContext characters before it and after it, "…" where in goes
// on, and returns the column of col in that line.
func writeExcerpt(w io.Writer, in string, col int) int {
	from, to := col, col
	for k := 0; k < excerptContext && from > 0; k++ {
		_, n := utf8.DecodeLastRuneInString(in[:from])
		from -= n
	}
	for k := 0; k < excerptContext && to < len(in); k++ {
		_, n := utf8.DecodeRuneInString(in[to:])
		to += n
	}
	cols := utf8.RuneCountInString(in[from:col])
	var line strings.Builder
	if from > 0 {
		line.WriteString("…")
		cols++
	}
	line.WriteString(printable.Columns(in[from:to]))
	if to < len(in) {
		line.WriteString("…")
	}
	fmt.Fprintf(w, "%s\n", line.String())
	return cols
}
