package main

// The access.Client a command follows URLs with, built from its flags:
// the generic settings on the Client itself (limits, policy, the
// dialogue, a person to ask for a password), each protocol's on its
// scheme's own client (Client.Schemes).

import (
	"bufio"
	"fmt"
	"os"

	"golang.org/x/term"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/ftp"
	"github.com/rfc1738/locator/gopher"
	lochttp "github.com/rfc1738/locator/http"
	"github.com/rfc1738/locator/internal/printable"
	"github.com/rfc1738/locator/news"
	"github.com/rfc1738/locator/nntp"
	"github.com/rfc1738/locator/prospero"
	"github.com/rfc1738/locator/wais"
)

// schemes returns the scheme clients s configures: ftp's anonymous
// password (RFC 1738 §3.2.1), the news server news URLs do not name
// (§3.6), and --method on the client of scheme, the URL's own, so that
// a redirection into another scheme takes that scheme's default. A
// --method for a scheme whose client offers no choice is an error
// rather than a flag silently ignored.
func (s *schemeOptions) schemes(scheme string) (map[string]access.Fetcher, error) {
	f := &ftp.Client{UserAddress: s.userAddress, ASCII: s.ftpASCII}
	ns := &news.Client{Server: s.nntpServer}
	nn := &nntp.Client{}
	if s.method != "" {
		switch scheme {
		case "ftp":
			f.Method = s.method
		case "news":
			ns.Method = s.method
		case "nntp":
			nn.Method = s.method
		default:
			return nil, fmt.Errorf("--method %s: a %s URL is followed one way; ftp, news and nntp URLs have methods to choose from", s.method, scheme)
		}
	}
	return map[string]access.Fetcher{"ftp": f, "news": ns, "nntp": nn, "http": &lochttp.Client{}}, nil
}

// client returns the Client get follows u with. On a terminal (standard
// input one, and not a test), a password the URL does not give and a
// form's unanswered questions are asked of the person.
func (o *getOptions) client(e *env, u *locator.URL) (*access.Client, error) {
	schemes, err := o.schemes(u.Scheme())
	if err != nil {
		return nil, err
	}
	g := &gopher.Client{View: o.view, Search: o.search, Answers: o.answers}
	schemes["gopher"] = g
	schemes["wais"] = &wais.Client{View: o.view, Search: o.search}
	schemes["prospero"] = &prospero.Client{Follow: o.follow}
	c := &access.Client{Policy: o.policy.access(), Schemes: schemes}
	o.limits.apply(c)
	if o.verbose {
		c.Dialogue = e.stderr
	}
	if in, ok := e.stdin.(*os.File); ok && term.IsTerminal(int(in.Fd())) && !o.noPrompt {
		c.Password = func(prompt string) (string, error) {
			fmt.Fprint(e.stderr, printable.String(prompt))
			b, err := term.ReadPassword(int(in.Fd()))
			fmt.Fprintln(e.stderr)
			return string(b), err
		}
		g.Ask = terminalAsker(bufio.NewReader(in), e.stderr, func() (string, error) {
			b, err := term.ReadPassword(int(in.Fd()))
			return string(b), err
		})
	}
	return c, nil
}
