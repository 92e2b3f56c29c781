package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"strings"

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
				enc := newJSONEncoder(w)
				status := 0
				err := eachInput(e, args, func(in string) error {
					u, perr := locator.Parse(in)
					probs := problemsOf(u, perr)
					conforms := perr == nil && u.Conforms()
					if !conforms {
						status = 1
					}
					if *asJSON {
						return enc.Encode(struct {
							Input    string            `json:"input"`
							OK       bool              `json:"ok"`
							Conforms bool              `json:"conforms"`
							Problems []locator.Problem `json:"problems"`
						}{in, perr == nil, conforms, probs})
					}
					writeCaretReport(w, in, probs, conforms)
					return nil
				})
				if err != nil {
					fmt.Fprintf(e.stderr, "locator check: %v\n", err)
					return 1
				}
				return status
			}
		},
	})
}

func problemsOf(u *locator.URL, err error) []locator.Problem {
	if err != nil {
		if pe, ok := err.(*locator.ParseError); ok {
			return pe.Problems
		}
		return nil
	}
	if u.Problems == nil {
		return []locator.Problem{}
	}
	return u.Problems
}

// writeCaretReport prints the input and, for each problem, a caret under
// its offset and what is wrong. Control characters in the input are shown
// as '?' so the caret stays in its column.
func writeCaretReport(w io.Writer, in string, probs []locator.Problem, conforms bool) {
	shown := []byte(in)
	for i, c := range shown {
		if c < 0x20 || c == 0x7f {
			shown[i] = '?'
		}
	}
	if len(probs) == 0 {
		fmt.Fprintf(w, "%s\n  ok: conforms to RFC 1738\n\n", shown)
		return
	}
	fmt.Fprintf(w, "%s\n", shown)
	for _, p := range probs {
		col := p.Offset
		if col > len(in) {
			col = len(in)
		}
		// Count columns in runes up to the offset, so the caret lines up
		// under multi-byte text.
		cols := len([]rune(string(shown[:col])))
		fmt.Fprintf(w, "%s^ %s (%s) at %d: %s\n", strings.Repeat(" ", cols), p.Severity, p.Rule, p.Offset, p.Message)
	}
	if conforms {
		fmt.Fprintf(w, "  conforms to RFC 1738 (warnings only)\n")
	}
	fmt.Fprintln(w)
}
