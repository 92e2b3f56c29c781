package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/internal/printable"
	"github.com/rfc1738/locator/other"
	_ "github.com/rfc1738/locator/schemes"
)

func init() {
	register(&command{
		name:    "explain",
		args:    "[--json] URL... (or - for one URL per line on stdin)",
		summary: "say what URLs stand for: the FTP commands, the HTTP request, the file, ...",
		flags: func(fs *flag.FlagSet) func(*env, []string) int {
			asJSON := fs.Bool("json", false, "one JSON object per input (NDJSON): input, ok, scheme, conforms, explanation, problems")
			return func(e *env, args []string) int {
				if len(args) == 0 {
					return usageError(e, "explain", "no URL given")
				}
				w := bufio.NewWriter(e.stdout)
				defer w.Flush()
				status := exitOK
				st, err := eachInput(e, "explain", args, func(it item) error {
					rec := explainOne(it.text)
					if !rec.OK {
						status = exitNegative
					}
					if *asJSON {
						return writeJSON(w, rec)
					}
					writeExplanation(w, rec)
					return nil
				}, nil)
				return finish(e, "explain", status, st, err)
			}
		},
	})
}

// explained is the JSON object of `locator explain --json`, written
// through exact (input_escaped, explanation_escaped, ... when a value is
// not valid UTF-8).
type explained struct {
	Input       string            `json:"input"`
	OK          bool              `json:"ok"`
	Scheme      string            `json:"scheme,omitempty"`
	Conforms    bool              `json:"conforms"`
	Explanation string            `json:"explanation,omitempty"`
	Problems    []locator.Problem `json:"problems"`
}

// explainOne parses in and asks the scheme's rules, through the
// locator.Explainer interface, what it stands for. A scheme without an
// Explainer gets a description of its generic components.
func explainOne(in string) *explained {
	rec := &explained{Input: in, Problems: []locator.Problem{}}
	u, err := locator.Parse(in)
	if err != nil {
		if pe, ok := err.(*locator.ParseError); ok {
			rec.Problems = pe.Problems
		}
		return rec
	}
	rec.OK = true
	rec.Scheme = u.Scheme()
	rec.Conforms = u.Conforms()
	if len(u.Problems()) > 0 {
		rec.Problems = u.Problems()
	}
	if x, ok := locator.Lookup(u.Scheme()).(locator.Explainer); ok {
		rec.Explanation = x.Explain(u)
	} else {
		rec.Explanation = generic(u)
	}
	return rec
}

// generic describes a URL whose scheme has no Explainer by the parts
// every URL has (RFC 1738 §2.1, §3.1).
func generic(u *locator.URL) string {
	var b strings.Builder
	if d, ok := other.Describe(u.Scheme()); ok {
		fmt.Fprintf(&b, "Scheme %q: %s\n", u.Scheme(), strings.TrimRight(d, "\n"))
	} else if locator.Lookup(u.Scheme()) == nil {
		fmt.Fprintf(&b, "Scheme %q: locator knows no rules for it (RFC 1738 §4: new schemes are registered with IANA).\n", u.Scheme())
	} else {
		fmt.Fprintf(&b, "Scheme %q: its rules give no explanation.\n", u.Scheme())
	}
	if u.HasAuthority() {
		fmt.Fprintf(&b, "  host %q", u.Host())
		if p := u.EffectivePort(); p != 0 {
			fmt.Fprintf(&b, ", port %d", p)
		}
		b.WriteString("\n")
		if u.HasUser() {
			fmt.Fprintf(&b, "  user %q\n", locator.Decode(u.User()))
		}
	}
	if u.HasPath() {
		fmt.Fprintf(&b, "  path %q (decoded)\n", locator.Decode(u.Path()))
	}
	if u.HasSearch() {
		fmt.Fprintf(&b, "  search %q (decoded)\n", locator.Decode(u.Search()))
	}
	if u.HasFragment() {
		fmt.Fprintf(&b, "  fragment %q, for the client, not sent\n", u.Fragment())
	}
	return b.String()
}

// writeExplanation prints one block per URL for a person: the input, the
// explanation indented, then the problems. Control characters, in the
// input or in what the explanation quotes of it, are shown as '?'
// (printable.Columns): the input does not drive the terminal.
func writeExplanation(w io.Writer, rec *explained) {
	fmt.Fprintf(w, "%s\n", printable.Columns(rec.Input))
	if !rec.OK {
		fmt.Fprintf(w, "  not a URL\n")
	}
	if rec.Explanation != "" {
		for _, line := range strings.Split(strings.TrimSuffix(rec.Explanation, "\n"), "\n") {
			fmt.Fprintf(w, "  %s\n", printable.Columns(line))
		}
	}
	if len(rec.Problems) > 0 {
		fmt.Fprintf(w, "  problems:\n")
		writeProblems(w, rec.Input, rec.Problems)
	}
	fmt.Fprintln(w)
}
