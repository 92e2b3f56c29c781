// Package nntp holds the nntp scheme of RFC 1738 §3.7: a news article
// named by the server, the newsgroup and the article's number there.
//
//	nntp://<host>:<port>/<newsgroup-name>/<article-number>
//
// (§3.7; §5: nntpurl = "nntp://" hostport "/" group [ "/" digits ]).
// The JSON parts are {"group", "article"}: group decoded, article a JSON
// number (written without leading zeros); article is absent when the URL
// names only a group.
//
// Check reports, with offsets into the input:
//   - "nntpurl": a user or password (hostport only), no group, or more
//     after the article number;
//   - "group": a group name outside §5's
//     group = alpha *[ alpha | digit | "-" | "." | "+" | "_" ]
//     (an escape included: the grammar has none);
//   - "digits": an article number that is not decimal digits.
//
// The group rule is the same as the news scheme's (§5 newsurl); it is
// kept here so that the two scheme packages stay independent.
//
// Parse and From read what an nntp URL says into a URL (host, port,
// group, article number); its Build writes one. NewPlan gives the NNTP
// commands (RFC 977 §3.2, §3.1): GROUP with the group, then ARTICLE with
// the number when the URL names an article. Client follows nntp URLs
// for package access.
package nntp

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/internal/urlbuild"
)

func init() {
	locator.Register("nntp", Rules{})
}

// Rules are the nntp scheme's rules. They implement locator.Rules and
// locator.Explainer.
type Rules struct{}

// Article is the decoded structure of an nntp URL's path.
type Article struct {
	Group string // decoded newsgroup name
	// Number is the article number as written (decimal digits);
	// HasNumber reports whether the URL names an article.
	Number    string
	HasNumber bool
}

// MarshalJSON writes {"group": ..., "article": number}; article is
// absent when the URL names no article or its number is not digits.
func (a Article) MarshalJSON() ([]byte, error) {
	type parts struct {
		Group   string       `json:"group"`
		Article *json.Number `json:"article,omitempty"`
	}
	p := parts{Group: a.Group}
	if a.HasNumber && isDigits(a.Number) {
		n := json.Number(strings.TrimLeft(a.Number, "0"))
		if n == "" {
			n = "0"
		}
		p.Article = &n
	}
	return json.Marshal(p)
}

// split returns the group and article number of u's path. The path is
// cut at the first "/"; the rest, up to any further "/", is the number.
func split(u *locator.URL) Article {
	g, rest, found := strings.Cut(u.Path(), "/")
	a := Article{Group: locator.Decode(g)}
	if found {
		num, _, _ := strings.Cut(rest, "/")
		a.Number, a.HasNumber = num, true
	}
	return a
}

// Parts returns Split(u), which marshals as the nntp parts of the
// package documentation.
func (Rules) Parts(u *locator.URL) any { return split(u) }

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func isAlpha(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// validGroup reports the offset in name of the first octet that breaks
// RFC 1738 §5's group = alpha *[ alpha | digit | "-" | "." | "+" | "_" ],
// or -1 when name is a group. An empty name fails at 0.
func validGroup(name string) int {
	if name == "" || !isAlpha(name[0]) {
		return 0
	}
	for i := 1; i < len(name); i++ {
		c := name[i]
		if !isAlpha(c) && !('0' <= c && c <= '9') && c != '-' && c != '.' && c != '+' && c != '_' {
			return i
		}
	}
	return -1
}

// Check adds to r the nntp-specific problems of u (RFC 1738 §3.7, §5
// nntpurl, group, digits), with offsets into u.Input.
func (Rules) Check(u *locator.URL, r locator.Report) locator.Report {
	add := func(off int, rule, msg string) { r.Add(off, locator.Violation, rule, msg) }
	if u.HasUser() {
		add(u.Offset(locator.UserComponent), "nntpurl", "an nntp URL has no user name or password: nntp://<host>:<port>/<group>/<article> (RFC 1738 §3.7, §5)")
	}
	base := u.Offset(locator.PathComponent)
	g, rest, found := strings.Cut(u.Path(), "/")
	if g == "" {
		add(base, "nntpurl", "an nntp URL names a newsgroup after the host (RFC 1738 §3.7)")
	} else if i := validGroup(g); i >= 0 {
		add(base+i, "group", "a newsgroup name is a letter, then letters, digits, '-', '.', '+' or '_'; found "+strconv.QuoteRune(rune(g[i]))+" (RFC 1738 §5 group)")
	}
	if !found {
		return r
	}
	at := base + len(g) + 1
	num, extra, more := strings.Cut(rest, "/")
	if !isDigits(num) {
		add(at, "digits", "the article number is decimal digits; found "+strconv.Quote(num)+" (RFC 1738 §3.7, §5 nntpurl)")
	}
	if more {
		add(at+len(num), "nntpurl", "nothing follows the article number; found \"/"+extra+"\" (RFC 1738 §5 nntpurl)")
	}
	return r
}

// A Command is one NNTP command (RFC 977 §3) of a Plan.
type Command struct {
	Verb string // GROUP or ARTICLE
	Arg  string
}

func (c Command) String() string { return c.Verb + " " + c.Arg }

// A Plan is what an nntp URL stands for: the server and the commands.
type Plan struct {
	Host     string // as written; an IPv6 literal without brackets
	Port     int    // the URL's port or 119
	Commands []Command
}

// String returns the commands, " | " between them.
func (p *Plan) String() string {
	s := make([]string, len(p.Commands))
	for i, c := range p.Commands {
		s[i] = c.String()
	}
	return strings.Join(s, " | ")
}

// A PlanError says why a URL stands for no NNTP commands.
type PlanError struct {
	Input   string
	Problem locator.Problem
}

func (e *PlanError) Error() string {
	return "nntp: no plan for " + strconv.Quote(e.Input) + ": " + e.Problem.String()
}

// NewPlan returns the NNTP commands u stands for: "GROUP <group>" (RFC
// 977 §3.2.1), then, when the URL names an article, "ARTICLE <number>"
// (§3.1.1: the number selects an article of the current group). It fails
// with a *PlanError when u is not an nntp URL with a host, its group is
// not a group name, or its article number is not digits.
func NewPlan(u *locator.URL) (*Plan, error) {
	fail := func(off int, rule, msg string) (*Plan, error) {
		return nil, &PlanError{Input: u.Input(), Problem: locator.Problem{Offset: off, Severity: locator.Error, Rule: rule, Message: msg}}
	}
	if u.Scheme() != "nntp" {
		return fail(u.Offset(locator.SchemeComponent), "nntpurl", "not an nntp URL")
	}
	if !u.HasAuthority() || u.Host() == "" {
		return fail(u.Offset(locator.HostComponent), "host", "the URL names no host to connect to (RFC 1738 §3.1)")
	}
	a := split(u)
	base := u.Offset(locator.PathComponent)
	if i := validGroup(a.Group); i >= 0 {
		return fail(base, "group", "not a newsgroup name: "+strconv.Quote(a.Group))
	}
	cmds := []Command{{Verb: "GROUP", Arg: a.Group}}
	if a.HasNumber {
		if !isDigits(a.Number) {
			return fail(base+len(a.Group)+1, "digits", "the article number is not digits: "+strconv.Quote(a.Number))
		}
		cmds = append(cmds, Command{Verb: "ARTICLE", Arg: a.Number})
	}
	return &Plan{Host: u.Host(), Port: u.EffectivePort(), Commands: cmds}, nil
}

// Explain says for a person what u stands for: the NNTP commands, and
// §3.7's note that such URLs are local to the server named.
func (Rules) Explain(u *locator.URL) string {
	p, err := NewPlan(u)
	if err != nil {
		return "NNTP (RFC 1738 §3.7), but no commands: " + err.(*PlanError).Problem.String() + "\n"
	}
	host := p.Host
	if strings.IndexByte(host, ':') >= 0 {
		host = "[" + host + "]"
	}
	var b strings.Builder
	b.WriteString("NNTP (RFC 1738 §3.7, RFC 977): connect to " + host + " port " + strconv.Itoa(p.Port) + ", then send\n")
	for _, c := range p.Commands {
		line := c.String()
		b.WriteString("  " + line + strings.Repeat(" ", max(1, 28-len(line))))
		if c.Verb == "GROUP" {
			b.WriteString("; select the newsgroup")
		} else {
			b.WriteString("; article number " + c.Arg + " of that group, on this server only")
		}
		b.WriteByte('\n')
	}
	b.WriteString("Most NNTP servers serve only local clients, so this URL may not work from elsewhere;\nthe news: form is preferred for articles (§3.7).\n")
	return b.String()
}

// A URL is what an nntp URL says: the server, and the group and article
// of its path (RFC 1738 §3.7). Parse and From read one; Build writes it
// back as a URL.
type URL struct {
	Host string // host name or number, or IPv6 address without brackets
	Port string // digits, or "" for the default 119
	Article
}

// Parse reads s with locator.Parse and decodes it with From.
func Parse(s string) (*URL, error) { return urlbuild.Parse(s, From) }

// From returns the components of the nntp URL u: its host and port
// (only after "//", where §3.1 writes them) and Split(u). Problems of
// the structure are in u.Problems (Parse applies this package's rules);
// From fails, with a *locator.SchemeError of field "url", only when u is
// not an nntp URL.
func From(u *locator.URL) (*URL, error) {
	if err := urlbuild.NotScheme(u, "nntp", "nntpurl"); err != nil {
		return nil, err
	}
	r := &URL{Article: split(u)}
	if u.HasAuthority() {
		r.Host = u.Host()
		if u.HasPort() {
			r.Port = u.Port()
		}
	}
	return r, nil
}

// Build writes r as nntp://<host>:<port>/<group>[/<number>] (RFC 1738
// §3.7). The group is written as it is, since §5's group has no escapes;
// Build fails with a *locator.BuildError when it is not a group name,
// when the number is not digits, or when the host or port cannot be
// written (an IPv6 address is written in brackets, RFC 2732, which RFC
// 1738 predates).
func (r *URL) Build() (string, error) {
	var b strings.Builder
	b.WriteString("nntp://")
	hostAt := urlbuild.WriteHostport(&b, r.Host, r.Port)
	b.WriteByte('/')
	pathAt := b.Len()
	b.WriteString(r.Group)
	if r.HasNumber {
		b.WriteString("/" + r.Number)
	}
	s := b.String()
	if i := validGroup(r.Group); i >= 0 {
		return "", &locator.BuildError{Scheme: "nntp", URL: s, Problem: locator.Problem{Offset: pathAt + i, Severity: locator.Error, Rule: "group", Message: "not a newsgroup name: " + strconv.Quote(r.Group)}}
	}
	if r.HasNumber && !isDigits(r.Number) {
		return "", &locator.BuildError{Scheme: "nntp", URL: s, Problem: locator.Problem{Offset: pathAt + len(r.Group) + 1, Severity: locator.Error, Rule: "digits", Message: "the article number is not digits: " + strconv.Quote(r.Number)}}
	}
	if err := urlbuild.CheckBuilt("nntp", s, hostAt, r.Host, r.Port); err != nil {
		return "", err
	}
	return s, nil
}
