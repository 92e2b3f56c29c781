package main

import (
	"bufio"
	"flag"
	"fmt"

	"github.com/rfc1738/locator"
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
					return usageError(e, "relative", err.Error())
				}
				if len(args) < 2 {
					return usageError(e, "relative", "a BASE and at least one TARGET are needed")
				}
				base, err := locator.Parse(args[0])
				if err != nil {
					fmt.Fprintf(e.stderr, "locator relative: base: %v\n", err)
					return 1
				}
				w := bufio.NewWriter(e.stdout)
				defer w.Flush()
				enc := jsonLines(w)
				status := 0
				err = eachInput(e, args[1:], func(in string) error {
					rec := struct {
						Base     string             `json:"base"`
						Target   string             `json:"target"`
						Rules    locator.Resolution `json:"rules"`
						OK       bool               `json:"ok"`
						Relative *string            `json:"relative,omitempty"`
						Error    string             `json:"error,omitempty"`
					}{Base: base.String(), Target: in, Rules: r}
					t, perr := locator.Parse(in)
					if perr != nil {
						status = 1
						rec.Error = perr.Error()
					} else {
						rel := locator.Relative(base, t, r)
						rec.OK, rec.Relative = true, &rel
					}
					if *asJSON {
						return enc.Encode(rec)
					}
					if perr != nil {
						w.Flush()
						fmt.Fprintf(e.stderr, "locator relative: %v\n", perr)
						return nil
					}
					_, werr := fmt.Fprintln(w, *rec.Relative)
					return werr
				})
				if err != nil {
					fmt.Fprintf(e.stderr, "locator relative: %v\n", err)
					return 1
				}
				return status
			}
		},
	})
}
