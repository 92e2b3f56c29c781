package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/internal/printable"
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
					return usageError(e, "resolve", message(err))
				}
				if len(args) < 2 {
					return usageError(e, "resolve", "a BASE and at least one REF are needed")
				}
				base, err := locator.Parse(args[0])
				if err != nil {
					fmt.Fprintf(e.stderr, "locator resolve: base: %s\n", printable.String(message(err)))
					return exitTrouble
				}
				w := bufio.NewWriter(e.stdout)
				defer w.Flush()
				status := exitOK
				st, err := eachInput(e, "resolve", args[1:], func(it item) error {
					u, rerr := locator.Resolve(base, it.text, r)
					if rerr != nil {
						status = exitNegative
					}
					if *asJSON {
						return writeJSON(w, resolveRecord(base, it.text, r, u, rerr))
					}
					if rerr != nil {
						fmt.Fprintf(e.stderr, "locator resolve: %s%s\n", it.where(), printable.String(message(rerr)))
						_, werr := fmt.Fprintln(w)
						return werr
					}
					_, werr := fmt.Fprintln(w, u.String())
					return werr
				}, blankLine(w, asJSON))
				return finish(e, "resolve", status, st, err)
			}
		},
	})
}

// rulesFlag declares --rules, the rule set for partial forms.
func rulesFlag(fs *flag.FlagSet) *string {
	return fs.String("rules", locator.RFC3986.String(), "rule set for partial forms: rfc3986 (RFC 3986 §5.2), rfc1808 (RFC 1808 §4) or draft1993 (the October 1993 draft's \"Partial form\")")
}

// blankLine is eachInput's gap for a command that writes one line per
// input line: a blank or skipped line of input gives an empty line of
// output (none in JSON mode, whose records carry their input), so that
// `paste` of input and output stays aligned.
func blankLine(w io.Writer, asJSON *bool) func(item) error {
	return func(item) error {
		if *asJSON {
			return nil
		}
		_, err := fmt.Fprintln(w)
		return err
	}
}

// resolved is the JSON object of `locator resolve --json`, written
// through exact.
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
		rec.Error = message(err)
		return rec
	}
	rec.OK, rec.Result, rec.Conforms = true, u.String(), u.Conforms()
	rec.Problems = append(rec.Problems, u.Problems()...)
	return rec
}
