package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/rfc1738/locator"
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

// writeCaretReport prints the input and, for each problem, a caret under
// its offset and what is wrong. Control characters in the input (and
// octets that are not UTF-8) are shown as '?' (printable), so the
// terminal is not driven by the input and the caret stays in its column.
func writeCaretReport(w io.Writer, in string, probs []locator.Problem, conforms bool) {
	shown := printable(in)
	if len(probs) == 0 {
		fmt.Fprintf(w, "%s\n  ok: conforms to RFC 1738\n\n", shown)
		return
	}
	fmt.Fprintf(w, "%s\n", shown)
	for _, p := range probs {
		col := min(max(p.Offset, 0), len(in))
		// Count columns in runes up to the offset, so the caret lines up
		// under multi-byte text; printable keeps one column per rune or
		// bad octet, so the count is taken on the input itself.
		cols := utf8.RuneCountInString(in[:col])
		fmt.Fprintf(w, "%s^ %s (%s) at %d: %s\n", strings.Repeat(" ", cols), p.Severity, printable(p.Rule), p.Offset, printable(p.Message))
	}
	if conforms {
		fmt.Fprintf(w, "  conforms to RFC 1738 (warnings only)\n")
	}
	fmt.Fprintln(w)
}
