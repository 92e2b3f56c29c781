package main

import (
	"errors"
	"flag"
	"fmt"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/internal/printable"
)

func init() {
	register(&command{
		name:    "equal",
		args:    "[--json] A B (either may be -: the URLs are read from stdin, one per line)",
		summary: "exit 0 when two URLs are equivalent (same normal form), 1 when not, 2 when one is not a URL",
		flags: func(fs *flag.FlagSet) func(*env, []string) int {
			asJSON := fs.Bool("json", false, "a JSON object: a, b, equal, normal_a, normal_b, error")
			return func(e *env, args []string) int {
				if len(args) == 0 || len(args) > 2 {
					return usageError(e, "equal", "two URLs are needed")
				}
				// Each "-" stands for the lines of standard input; the
				// arguments so expanded must be two URLs in all. More
				// than two stops the reading at once.
				var urls []string
				tooMany := errors.New("more than two URLs")
				st, err := eachInput(e, "equal", args, func(it item) error {
					if len(urls) == 2 {
						return tooMany
					}
					urls = append(urls, it.text)
					return nil
				}, nil)
				if err == tooMany || err == nil && len(urls) != 2 {
					return usageError(e, "equal", fmt.Sprintf("two URLs are needed (with - read from standard input); got %s", countURLs(len(urls), err == tooMany)))
				}
				if err != nil || st != exitOK {
					return finish(e, "equal", exitOK, st, err)
				}
				rec := &equalRecord{A: urls[0], B: urls[1]}
				a, errA := locator.Parse(urls[0])
				b, errB := locator.Parse(urls[1])
				switch {
				case errA != nil:
					rec.Error = message(errA)
				case errB != nil:
					rec.Error = message(errB)
				default:
					rec.Equal = locator.Equal(a, b)
					rec.NormalA, rec.NormalB = locator.Normalize(a).String(), locator.Normalize(b).String()
				}
				if *asJSON {
					writeJSON(e.stdout, rec) // a write error is seen by run
				} else if rec.Error != "" {
					fmt.Fprintf(e.stderr, "locator equal: %s\n", printable.String(rec.Error))
				} else if rec.Equal {
					fmt.Fprintf(e.stdout, "equal: %s\n", printable.String(rec.NormalA))
				} else {
					fmt.Fprintf(e.stdout, "not equal:\n  %s\n  %s\n", printable.String(rec.NormalA), printable.String(rec.NormalB))
				}
				switch {
				case rec.Error != "":
					return exitTrouble // not a URL: equivalence cannot be judged
				case rec.Equal:
					return exitOK
				}
				return exitNegative
			}
		},
	})
}

func countURLs(n int, more bool) string {
	if more {
		return "more than two"
	}
	return fmt.Sprint(n)
}

// equalRecord is the JSON object of `locator equal --json`, written
// through exact.
type equalRecord struct {
	A       string `json:"a"`
	B       string `json:"b"`
	Equal   bool   `json:"equal"`
	NormalA string `json:"normal_a,omitempty"`
	NormalB string `json:"normal_b,omitempty"`
	Error   string `json:"error,omitempty"`
}
