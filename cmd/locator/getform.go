package main

// The parts of `locator get` that deal with an object's representations
// (--views, --view) and with forms a server asks the person to fill
// (--ask, questions on the terminal, --print-url), in no protocol's
// terms: the scheme clients that offer them are given them (a Gopher+
// item's +VIEWS and ASK block, RFC 1738 §3.4.5, §3.4.8; a WAIS
// document type).

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/internal/printable"
)

// answerList is the repeatable --ask NAME=VALUE flag. A value may hold
// "\n" (written as the two characters \n) for a several-line answer.
type answerList map[string]string

func (a *answerList) String() string {
	var s []string
	for k, v := range *a {
		s = append(s, k+"="+v)
	}
	return strings.Join(s, ",")
}

func (a *answerList) Set(v string) error {
	name, value, ok := strings.Cut(v, "=")
	if !ok || strings.TrimSpace(name) == "" {
		return errors.New("want NAME=VALUE (the question's prompt or its number from 1)")
	}
	if *a == nil {
		*a = answerList{}
	}
	(*a)[strings.TrimSpace(name)] = strings.ReplaceAll(value, `\n`, "\n")
	return nil
}

// listViews writes the representations the server offers of u's object
// (access.Client.Views): a table, or NDJSON with --json.
func listViews(ctx context.Context, e *env, c *access.Client, u *locator.URL, o *getOptions) int {
	views, err := c.ViewsWith(ctx, u, o.reqOpts)
	if err != nil {
		return getFailed(e, u, err, o, transfer{expired: expired(ctx)})
	}
	if o.json {
		for _, v := range views {
			if err := writeJSON(e.stdout, v); err != nil {
				return 2 // run reports the write error once
			}
		}
		return 0
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "VIEW\tSIZE")
	for _, v := range views {
		size := "-"
		if v.Size >= 0 {
			size = strconv.FormatInt(v.Size, 10)
		}
		fmt.Fprintf(tw, "%s\t%s\n", printable.String(v.Name), size)
	}
	tw.Flush()
	return 0
}

// terminalAsker returns a gopher.Client's Ask that puts each question to the
// person on out and reads the answer from in: a note is shown only; a
// secret is read by secret (without echo); several lines end with a
// line holding only "." or the end of input; choices are offered by
// number.
func terminalAsker(in *bufio.Reader, out io.Writer, secret func() (string, error)) func(access.Question) (string, error) {
	readLine := func() (string, error) {
		l, err := in.ReadString('\n')
		if err != nil && (l == "" || !errors.Is(err, io.EOF)) {
			return "", err
		}
		return strings.TrimRight(l, "\r\n"), nil
	}
	return func(q access.Question) (string, error) {
		// The server's texts (prompt, choices, default) are shown made
		// printable; an answer is still the server's own choice.
		prompt, def := printable.String(q.Prompt), printable.String(q.Default)
		switch {
		case q.Kind == "Note":
			fmt.Fprintln(out, prompt)
			return "", nil
		case q.Secret:
			fmt.Fprintf(out, "%s ", prompt)
			s, err := secret()
			fmt.Fprintln(out)
			return s, err
		case q.Lines:
			fmt.Fprintf(out, "%s (end with a line holding only \".\")\n", prompt)
			var lines []string
			for {
				l, err := readLine()
				if err != nil && !errors.Is(err, io.EOF) {
					return "", err
				}
				if l == "." || err != nil {
					return strings.Join(lines, "\n"), nil
				}
				lines = append(lines, l)
			}
		case len(q.Choices) > 0:
			for i, c := range q.Choices {
				fmt.Fprintf(out, "  %d) %s\n", i+1, printable.String(c))
			}
			for {
				fmt.Fprintf(out, "%s [1-%d", prompt, len(q.Choices))
				if q.Default != "" {
					fmt.Fprintf(out, ", default %s", def)
				}
				fmt.Fprint(out, "] ")
				l, err := readLine()
				if err != nil {
					return "", err
				}
				l = strings.TrimSpace(l)
				if l == "" && q.Default != "" {
					return q.Default, nil
				}
				if n, err := strconv.Atoi(l); err == nil && n >= 1 && n <= len(q.Choices) {
					return q.Choices[n-1], nil
				}
				for _, c := range q.Choices {
					if strings.EqualFold(c, l) {
						return c, nil
					}
				}
				fmt.Fprintf(out, "%s is none of the choices\n", printable.String(strconv.Quote(l)))
			}
		}
		if q.Default != "" {
			fmt.Fprintf(out, "%s [%s] ", prompt, def)
		} else {
			fmt.Fprintf(out, "%s ", prompt)
		}
		l, err := readLine()
		if err != nil {
			return "", err
		}
		if l == "" {
			return q.Default, nil
		}
		return l, nil
	}
}
