package main

import (
	"flag"
	"fmt"

	"github.com/rfc1738/locator"
)

func init() {
	register(&command{
		name:    "equal",
		args:    "[--json] A B",
		summary: "exit 0 when two URLs are equivalent (same normal form), 1 when not",
		flags: func(fs *flag.FlagSet) func(*env, []string) int {
			asJSON := fs.Bool("json", false, "a JSON object: a, b, equal, normal_a, normal_b, error")
			return func(e *env, args []string) int {
				if len(args) != 2 {
					return usageError(e, "equal", "two URLs are needed")
				}
				rec := struct {
					A       string `json:"a"`
					B       string `json:"b"`
					Equal   bool   `json:"equal"`
					NormalA string `json:"normal_a,omitempty"`
					NormalB string `json:"normal_b,omitempty"`
					Error   string `json:"error,omitempty"`
				}{A: args[0], B: args[1]}
				a, errA := locator.Parse(args[0])
				b, errB := locator.Parse(args[1])
				switch {
				case errA != nil:
					rec.Error = errA.Error()
				case errB != nil:
					rec.Error = errB.Error()
				default:
					rec.Equal = locator.Equal(a, b)
					rec.NormalA, rec.NormalB = locator.Normalize(a).String(), locator.Normalize(b).String()
				}
				if *asJSON {
					if err := jsonLines(e.stdout).Encode(rec); err != nil {
						fmt.Fprintf(e.stderr, "locator equal: %v\n", err)
						return 1
					}
				} else if rec.Error != "" {
					fmt.Fprintf(e.stderr, "locator equal: %s\n", rec.Error)
				} else if rec.Equal {
					fmt.Fprintf(e.stdout, "equal: %s\n", rec.NormalA)
				} else {
					fmt.Fprintf(e.stdout, "not equal:\n  %s\n  %s\n", rec.NormalA, rec.NormalB)
				}
				if rec.Equal {
					return 0
				}
				return 1
			}
		},
	})
}
