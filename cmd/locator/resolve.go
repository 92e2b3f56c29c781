package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"

	"github.com/rfc1738/locator"
)

func init() {
	register(&command{
		name:    "resolve",
		args:    "[--rules draft1993|rfc1808|rfc3986] [--json] BASE REF... (or - for one REF per line on stdin)",
		summary: "resolve partial forms (relative references) against a base URL",
		flags: func(fs *flag.FlagSet) func(*env, []string) int {
			rules := rulesFlag(fs)
			asJSON := fs.Bool("json", false, "one JSON object per reference (NDJSON): base, ref, rules, ok, result, conforms, problems, error")
			return func(e *env, args []string) int {
				r, err := locator.ParseResolution(*rules)
				if err != nil {
					return usageError(e, "resolve", err.Error())
				}
				if len(args) < 2 {
					return usageError(e, "resolve", "a BASE and at least one REF are needed")
				}
				base, err := locator.Parse(args[0])
				if err != nil {
					fmt.Fprintf(e.stderr, "locator resolve: base: %v\n", err)
					return 1
				}
				w := bufio.NewWriter(e.stdout)
				defer w.Flush()
				enc := jsonLines(w)
				status := 0
				err = eachInput(e, args[1:], func(ref string) error {
					u, rerr := locator.Resolve(base, ref, r)
					if rerr != nil {
						status = 1
					}
					if *asJSON {
						return enc.Encode(resolveRecord(base, ref, r, u, rerr))
					}
					if rerr != nil {
						w.Flush()
						fmt.Fprintf(e.stderr, "locator resolve: %v\n", rerr)
						return nil
					}
					_, werr := fmt.Fprintln(w, u.String())
					return werr
				})
				if err != nil {
					fmt.Fprintf(e.stderr, "locator resolve: %v\n", err)
					return 1
				}
				return status
			}
		},
	})
}

// rulesFlag declares --rules, the rule set for partial forms.
func rulesFlag(fs *flag.FlagSet) *string {
	return fs.String("rules", locator.RFC3986.String(), "rule set for partial forms: rfc3986 (RFC 3986 §5.2), rfc1808 (RFC 1808 §4) or draft1993 (the October 1993 draft's \"Partial form\")")
}

// jsonLines returns an encoder writing one JSON object a line, with "<",
// ">" and "&" as they are.
func jsonLines(w io.Writer) *json.Encoder {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc
}

// resolved is the JSON object of `locator resolve --json`.
type resolved struct {
	Base     string             `json:"base"`
	Ref      string             `json:"ref"`
	Rules    locator.Resolution `json:"rules"`
	OK       bool               `json:"ok"`
	Result   string             `json:"result,omitempty"`
	Conforms bool               `json:"conforms"`
	Problems []locator.Problem  `json:"problems"`
	Error    string             `json:"error,omitempty"`
}

func resolveRecord(base *locator.URL, ref string, r locator.Resolution, u *locator.URL, err error) *resolved {
	rec := &resolved{Base: base.String(), Ref: ref, Rules: r, Problems: []locator.Problem{}}
	if err != nil {
		rec.Error = err.Error()
		return rec
	}
	rec.OK, rec.Result, rec.Conforms = true, u.String(), u.Conforms()
	rec.Problems = append(rec.Problems, u.Problems...)
	return rec
}
