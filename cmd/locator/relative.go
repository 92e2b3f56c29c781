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
		name:    "relative",
		args:    "[--rules draft1993|rfc1808|rfc3986] [--json] BASE TARGET... (or - for one TARGET per line on stdin)",
		summary: "the shortest partial form that names each target from a base URL",
		flags: func(fs *flag.FlagSet) func(*env, []string) int {
			rules := rulesFlag(fs)
			asJSON := fs.Bool("json", false, "one JSON object per target (NDJSON): base, target, rules, ok, relative, error")
			return func(e *env, args []string) int {
				r, err := locator.ParseResolution(*rules)
				if err != nil {
					return usageError(e, "relative", message(err))
				}
				if len(args) < 2 {
					return usageError(e, "relative", "a BASE and at least one TARGET are needed")
				}
				base, err := locator.Parse(args[0])
				if err != nil {
					fmt.Fprintf(e.stderr, "locator relative: base: %s\n", printable.String(message(err)))
					return exitTrouble
				}
				w := bufio.NewWriter(e.stdout)
				defer w.Flush()
				status := exitOK
				st, err := eachInput(e, "relative", args[1:], func(it item) error {
					rec := &relativeRecord{Base: base.String(), Target: it.text, Rules: r}
					t, perr := locator.Parse(it.text)
					if perr != nil {
						status = exitNegative
						rec.Error = message(perr)
					} else {
						rel := locator.Relative(base, t, r)
						rec.OK, rec.Relative = true, &rel
					}
					if *asJSON {
						return writeJSON(w, rec)
					}
					if perr != nil {
						fmt.Fprintf(e.stderr, "locator relative: %s%s\n", it.where(), printable.String(rec.Error))
						_, werr := fmt.Fprintln(w)
						return werr
					}
					_, werr := fmt.Fprintln(w, *rec.Relative)
					return werr
				}, blankLine(w, asJSON))
				return finish(e, "relative", status, st, err)
			}
		},
	})
}

// relativeRecord is the JSON object of `locator relative --json`,
// written through exact.
type relativeRecord struct {
	Base     string             `json:"base"`
	Target   string             `json:"target"`
	Rules    locator.Resolution `json:"rules"`
	OK       bool               `json:"ok"`
	Relative *string            `json:"relative,omitempty"`
	Error    string             `json:"error,omitempty"`
}
