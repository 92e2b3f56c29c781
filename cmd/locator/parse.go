package main

import (
	"bufio"
	"flag"
	"fmt"
	"github.com/rfc1738/locator/internal/octets"
	"io"
	"reflect"
	"strings"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/internal/printable"
	"github.com/rfc1738/locator/internal/urlrecord"
	_ "github.com/rfc1738/locator/schemes"
)

func init() {
	register(&command{
		name:    "parse",
		args:    "[--json] URL... (or - for one URL per line on stdin)",
		summary: "split URLs into their components and the scheme's own structure",
		flags: func(fs *flag.FlagSet) func(*env, []string) int {
			asJSON := fs.Bool("json", false, "one JSON object per input (NDJSON), the keys docs/cli.md lists")
			return func(e *env, args []string) int {
				if len(args) == 0 {
					return usageError(e, "parse", "no URL given")
				}
				w := bufio.NewWriter(e.stdout)
				defer w.Flush()
				status := exitOK
				st, err := eachInput(e, "parse", args, func(it item) error {
					u, perr := locator.Parse(it.text)
					if perr != nil {
						status = exitNegative
						if it.line > 0 && !*asJSON { // a JSON record says it itself
							fmt.Fprintf(e.stderr, "locator parse: %snot a URL: %s\n", it.where(), printable.String(message(perr)))
						}
					}
					if *asJSON {
						return writeJSON(w, urlrecord.New(it.text, u, perr))
					}
					writeReadable(w, it.text, u, perr)
					return nil
				}, nil)
				return finish(e, "parse", status, st, err)
			}
		},
	})
}

// writeReadable prints one block per URL for a person.
func writeReadable(w io.Writer, in string, u *locator.URL, err error) {
	fmt.Fprintf(w, "%s\n", printable.Columns(in))
	if err != nil {
		fmt.Fprintf(w, "  not a URL\n")
		if pe, ok := err.(*locator.ParseError); ok {
			writeProblems(w, in, pe.Problems)
		}
		fmt.Fprintln(w)
		return
	}
	field := func(name, v string) { fmt.Fprintf(w, "  %-15s %s\n", name, printable.Columns(v)) }
	field("scheme", u.Scheme())
	if u.HasUser() {
		field("user", fmt.Sprintf("%q", locator.Decode(u.User())))
	}
	if u.HasPassword() {
		field("password", fmt.Sprintf("%q", locator.Decode(u.Password())))
	}
	if u.HasAuthority() {
		field("host", u.Host())
	}
	if u.HasPort() {
		field("port", u.Port())
	}
	if p := u.EffectivePort(); p != 0 && !u.HasPort() {
		field("port (default)", fmt.Sprint(p))
	}
	if u.HasPath() {
		field("path", u.Path())
	}
	if u.HasSearch() {
		field("search", u.Search())
	}
	if u.HasFragment() {
		field("fragment", u.Fragment())
	}
	if rules := locator.Lookup(u.Scheme()); rules != nil {
		parts := reflect.ValueOf(rules.Parts(u))
		if parts.IsValid() && octets.HasInvalid(parts) {
			if b, err := octets.Marshal(octets.EscapedCopy(parts).Interface()); err == nil {
				field("parts", string(b)+" (octets that are not UTF-8 as %XX, % as %25)")
			}
		} else if b, err := octets.Marshal(rules.Parts(u)); err == nil {
			field("parts", string(b))
		}
		if x, ok := rules.(locator.Explainer); ok {
			if s := x.Explain(u); s != "" {
				fmt.Fprintf(w, "  meaning:\n")
				for _, line := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
					fmt.Fprintf(w, "    %s\n", printable.Columns(line))
				}
			}
		}
	}
	if u.Conforms() {
		field("conforms", "yes (RFC 1738)")
	} else {
		field("conforms", "no (RFC 1738)")
	}
	writeProblems(w, in, u.Problems())
	fmt.Fprintln(w)
}

func writeProblems(w io.Writer, in string, probs []locator.Problem) {
	for _, p := range probs {
		fmt.Fprintf(w, "  %-9s at %d: %s: %s\n", p.Severity, p.Offset, printable.Columns(p.Rule), printable.Columns(p.Message))
	}
}
