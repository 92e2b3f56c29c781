package main

import (
	"bufio"
	"flag"
	"fmt"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/internal/printable"
)

func init() {
	register(&command{
		name:    "normalize",
		args:    "[--json] URL... (or - for one URL per line on stdin)",
		summary: "write URLs in their normal form (the form Equal compares)",
		flags: func(fs *flag.FlagSet) func(*env, []string) int {
			asJSON := fs.Bool("json", false, "one JSON object per input (NDJSON): input, ok, normal, conforms, problems, error")
			return func(e *env, args []string) int {
				if len(args) == 0 {
					return usageError(e, "normalize", "no URL given")
				}
				w := bufio.NewWriter(e.stdout)
				defer w.Flush()
				status := exitOK
				st, err := eachInput(e, "normalize", args, func(it item) error {
					rec := &normalized{Input: it.text, Problems: []locator.Problem{}}
					u, perr := locator.Parse(it.text)
					if perr != nil {
						status = exitNegative
						rec.Error = message(perr)
					} else {
						n := locator.Normalize(u)
						rec.OK, rec.Normal, rec.Conforms = true, n.String(), n.Conforms()
						rec.Problems = append(rec.Problems, n.Problems()...)
					}
					if *asJSON {
						return writeJSON(w, rec)
					}
					if perr != nil {
						fmt.Fprintf(e.stderr, "locator normalize: %s%s\n", it.where(), printable.String(rec.Error))
						_, werr := fmt.Fprintln(w)
						return werr
					}
					_, werr := fmt.Fprintln(w, rec.Normal)
					return werr
				}, blankLine(w, asJSON))
				return finish(e, "normalize", status, st, err)
			}
		},
	})
}

// normalized is the JSON object of `locator normalize --json`, written
// through exact.
type normalized struct {
	Input    string            `json:"input"`
	OK       bool              `json:"ok"`
	Normal   string            `json:"normal,omitempty"`
	Conforms bool              `json:"conforms"`
	Problems []locator.Problem `json:"problems"`
	Error    string            `json:"error,omitempty"`
}
