package main

import (
	"bufio"
	"flag"
	"fmt"

	"github.com/rfc1738/locator"
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
				enc := jsonLines(w)
				status := 0
				err := eachInput(e, args, func(in string) error {
					rec := struct {
						Input    string            `json:"input"`
						OK       bool              `json:"ok"`
						Normal   string            `json:"normal,omitempty"`
						Conforms bool              `json:"conforms"`
						Problems []locator.Problem `json:"problems"`
						Error    string            `json:"error,omitempty"`
					}{Input: in, Problems: []locator.Problem{}}
					u, perr := locator.Parse(in)
					if perr != nil {
						status = 1
						rec.Error = perr.Error()
					} else {
						n := locator.Normalize(u)
						rec.OK, rec.Normal, rec.Conforms = true, n.String(), n.Conforms()
						rec.Problems = append(rec.Problems, n.Problems...)
					}
					if *asJSON {
						return enc.Encode(rec)
					}
					if perr != nil {
						w.Flush()
						fmt.Fprintf(e.stderr, "locator normalize: %v\n", perr)
						return nil
					}
					_, werr := fmt.Fprintln(w, rec.Normal)
					return werr
				})
				if err != nil {
					fmt.Fprintf(e.stderr, "locator normalize: %v\n", err)
					return 1
				}
				return status
			}
		},
	})
}
