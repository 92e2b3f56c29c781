// Package telnet holds the telnet scheme of RFC 1738 §3.8: a URL that
// designates an interactive service rather than a data object.
//
// A telnet URL takes the form telnet://<user>:<password>@<host>:<port>/
// (§3.8); the final "/" may be omitted, and so may the password or the
// whole login. Nothing may follow the "/" (§5: telneturl = "telnet://"
// login [ "/" ]); anything that does is reported as a violation of rule
// "telneturl". The JSON parts are {}: the URL has no structure beyond the
// common Internet syntax.
//
// The user and password are advisory only (§3.8: "clients accessing a
// telnet URL merely advise the user of the suggested username and
// password"): NewSession returns them as suggestions, never as data to
// send, and Explain says so.
//
// Parse and From read what a telnet URL says into a URL (login, host,
// port); its Build writes one. Client opens telnet URLs as interactive
// sessions for package access.
package telnet

import (
	"strconv"
	"strings"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/internal/urlbuild"
)

func init() {
	locator.Register("telnet", Rules{})
}

// Rules are the telnet scheme's rules. They implement locator.Rules and
// locator.Explainer.
type Rules struct{}

// Parts returns the telnet parts: an empty object (see the package
// documentation).
func (Rules) Parts(u *locator.URL) any { return struct{}{} }

// Check reports anything after the login and its optional "/" as a
// violation of rule "telneturl" (RFC 1738 §3.8, §5).
func (Rules) Check(u *locator.URL, r locator.Report) locator.Report {
	if !u.HasAuthority() || u.Path() == "" {
		return r // no "//" is the core's ip-schemepart problem
	}
	r.Add(u.Offset(locator.PathComponent), locator.Violation, "telneturl",
		"a telnet URL ends after the login and an optional \"/\"; "+strconv.Quote(u.Path())+" follows it (RFC 1738 §3.8)")
	return r
}

// A Session is what a telnet URL stands for: an interactive Telnet
// session (RFC 854) with a host, and a login name and password suggested
// to the person, who decides what to type.
type Session struct {
	Host string // as written; an IPv6 literal without brackets
	Port int    // the URL's port or 23
	// User and Password are the suggestions, decoded; Has* report
	// whether the URL gives them.
	User, Password       string
	HasUser, HasPassword bool
}

// A SessionError says why a URL stands for no session.
type SessionError struct {
	Input   string
	Problem locator.Problem
}

func (e *SessionError) Error() string {
	return "telnet: no session for " + strconv.Quote(e.Input) + ": " + e.Problem.String()
}

// NewSession returns the session u stands for. It fails with a
// *SessionError when u is not a telnet URL or names no host.
func NewSession(u *locator.URL) (*Session, error) {
	fail := func(c locator.Component, rule, msg string) (*Session, error) {
		return nil, &SessionError{Input: u.Input(), Problem: locator.Problem{Offset: u.Offset(c), Severity: locator.Error, Rule: rule, Message: msg}}
	}
	if u.Scheme() != "telnet" {
		return fail(locator.SchemeComponent, "telneturl", "not a telnet URL")
	}
	if !u.HasAuthority() || u.Host() == "" {
		return fail(locator.HostComponent, "host", "the URL names no host to connect to (RFC 1738 §3.1)")
	}
	r, err := From(u)
	if err != nil {
		return nil, err
	}
	return &Session{
		Host: u.Host(), Port: u.EffectivePort(),
		User: r.User, HasUser: r.HasUser,
		Password: r.Password, HasPassword: r.HasPassword,
	}, nil
}

// Explain says for a person what u stands for: an interactive session,
// with the suggested login, which is advisory only (RFC 1738 §3.8).
func (Rules) Explain(u *locator.URL) string {
	s, err := NewSession(u)
	if err != nil {
		return "Telnet (RFC 1738 §3.8), but no session: " + err.(*SessionError).Problem.String() + "\n"
	}
	host := s.Host
	if strings.IndexByte(host, ':') >= 0 {
		host = "[" + host + "]"
	}
	var b strings.Builder
	b.WriteString("Telnet (RFC 1738 §3.8, RFC 854): an interactive session with " + host + " port " + strconv.Itoa(s.Port) + ";\n")
	b.WriteString("it designates a service, not a data object.\n")
	switch {
	case s.HasUser && s.HasPassword:
		b.WriteString("Suggested login " + strconv.Quote(s.User) + " and password " + strconv.Quote(s.Password) + ": advisory only, shown to you, never sent by the client.\n")
	case s.HasUser:
		b.WriteString("Suggested login " + strconv.Quote(s.User) + ": advisory only, shown to you, never sent by the client.\n")
	default:
		b.WriteString("No login is suggested.\n")
	}
	return b.String()
}

// A URL is what a telnet URL says, decoded: the suggested login and the
// server (RFC 1738 §3.8). Parse and From read one; Build writes it back
// as a URL.
type URL struct {
	User, Password       string // decoded suggestions
	HasUser, HasPassword bool
	Host                 string // host name or number, or IPv6 address without brackets
	Port                 string // digits, or "" for the default 23
}

// Parse reads s with locator.Parse and decodes it with From.
func Parse(s string) (*URL, error) { return urlbuild.Parse(s, From) }

// From returns the components of the telnet URL u, decoded. A part u
// does not write (a user without HasUser, a login or host without "//")
// is left out. Problems of the structure are in u.Problems (Parse
// applies this package's rules); From fails, with a *locator.SchemeError
// of field "url", only when u is not a telnet URL.
func From(u *locator.URL) (*URL, error) {
	if err := urlbuild.NotScheme(u, "telnet", "telneturl"); err != nil {
		return nil, err
	}
	r := &URL{}
	if !u.HasAuthority() {
		return r, nil
	}
	r.Host = u.Host()
	if u.HasPort() {
		r.Port = u.Port()
	}
	if u.HasUser() {
		r.User, r.HasUser = locator.Decode(u.User()), true
		if u.HasPassword() {
			r.Password, r.HasPassword = locator.Decode(u.Password()), true
		}
	}
	return r, nil
}

// Build writes r as telnet://<user>:<password>@<host>:<port>/ (RFC 1738
// §3.8), the user and password encoded as §5's user and password. It
// fails with a *locator.BuildError when the host is empty or not a host
// name, number or IPv6 address (written in brackets, RFC 2732, which RFC
// 1738 predates), or the port is not digits in range.
func (r *URL) Build() (string, error) {
	var b strings.Builder
	b.WriteString("telnet://")
	if r.HasUser || r.HasPassword {
		b.WriteString(locator.Escape(r.User, locator.EncodeUser))
		if r.HasPassword {
			b.WriteString(":" + locator.Escape(r.Password, locator.EncodeUser))
		}
		b.WriteByte('@')
	}
	hostAt := urlbuild.WriteHostport(&b, r.Host, r.Port)
	b.WriteByte('/')
	s := b.String()
	if err := urlbuild.CheckBuilt("telnet", s, hostAt, r.Host, r.Port); err != nil {
		return "", err
	}
	return s, nil
}
