package ftp

import (
	"strconv"
	"strings"

	"github.com/rfc1738/locator"
)

// A Command is one FTP command (RFC 959 §4.1) of a Plan.
type Command struct {
	// Verb is the command: USER, PASS, CWD, TYPE, RETR or NLST.
	Verb string
	// Arg is the argument, decoded, as it goes to the server; HasArg is
	// false for a command sent without one (NLST of the current
	// directory). "CWD " with an empty argument has HasArg true.
	Arg    string
	HasArg bool
	// IfAsked marks PASS: it is sent only when the server asks for a
	// password (reply 331 to USER), RFC 1738 §3.2.1.
	IfAsked bool
	// AskUser marks a PASS whose argument the URL does not give: the
	// program asks the person for it (§3.2.1: "should request one from
	// the user"), or, for anonymous FTP, supplies the end user's e-mail
	// address when the caller gave none.
	AskUser bool
	// Guessed marks a TYPE that the URL does not give: without a
	// typecode RFC 1738 §3.2.3 leaves the mode to the client ("must guess
	// the appropriate mode"). NewPlan chooses TYPE I (image), which
	// delivers the file's exact octets; Client.ASCII chooses TYPE A.
	Guessed bool
}

// String returns the command line as sent, without its CRLF: "CWD /etc",
// "CWD " (a null argument), "NLST".
func (c Command) String() string {
	if !c.HasArg {
		return c.Verb
	}
	return c.Verb + " " + c.Arg
}

// A Plan is what an ftp URL stands for: the server to connect to and the
// commands to give there, in order (RFC 1738 §3.2.1–§3.2.3).
type Plan struct {
	Host     string // as written; an IPv6 literal without brackets
	Port     int    // the URL's port or 21
	Commands []Command
}

// String returns the commands, one line each, " | " between them.
func (p *Plan) String() string {
	var b strings.Builder
	for i, c := range p.Commands {
		if i > 0 {
			b.WriteString(" | ")
		}
		b.WriteString(c.String())
	}
	return b.String()
}

// A PlanError says why a URL stands for no FTP command sequence, with the
// offset in the URL's input and the rule.
type PlanError struct {
	Input   string
	Problem locator.Problem
}

func (e *PlanError) Error() string {
	return "ftp: no plan for " + strconv.Quote(e.Input) + ": " + e.Problem.String()
}

// anonymous is the user name of anonymous FTP (RFC 1738 §3.2.1).
const anonymous = "anonymous"

// NewPlan returns the FTP commands u stands for (RFC 1738 §3.2):
//
//   - USER with the URL's user, or "anonymous" when it has none; PASS,
//     if the server asks, with the URL's password, or one asked of the
//     person when the URL has a user and no password, or the end user's
//     e-mail address (email) for anonymous FTP (§3.2.1);
//   - CWD with each decoded <cwd> in turn, an empty one included (§3.2.2);
//   - for typecode "d", NLST with <name> as the argument (none when the
//     name is empty);
//   - otherwise TYPE with the typecode, or TYPE I (image: the exact
//     octets) marked Guessed when the URL gives none (§3.2.3 leaves the
//     choice to the client), and RETR <name>. When the name is empty
//     there is no file to retrieve and the directory is listed with NLST.
//
// NewPlan fails with a *PlanError when u is not an ftp URL with a host,
// when its typecode is not a, i or d, or when a decoded argument would
// hold a CR or LF and so end the command early (RFC 1738 §6).
func NewPlan(u *locator.URL, email string) (*Plan, error) {
	fail := func(off int, rule, msg string) (*Plan, error) {
		return nil, &PlanError{Input: u.Input(), Problem: locator.Problem{Offset: off, Severity: locator.Error, Rule: rule, Message: msg}}
	}
	if u.Scheme() != "ftp" {
		return fail(u.Offset(locator.SchemeComponent), "ftpurl", "not an ftp URL")
	}
	if !u.HasAuthority() || u.Host() == "" {
		return fail(u.Offset(locator.HostComponent), "host", "the URL names no host to connect to (RFC 1738 §3.1)")
	}
	// Only the parts the URL writes are sent: a user without HasUser, a
	// password without HasPassword is not.
	user, password := "", ""
	if u.HasUser() {
		user = u.User()
		if u.HasPassword() {
			password = u.Password()
		}
	}
	for _, c := range []struct {
		comp locator.Component
		s    string
	}{{locator.UserComponent, user}, {locator.PasswordComponent, password}, {locator.PathComponent, u.Path()}} {
		if i := findCRLF(c.s); i >= 0 {
			return fail(u.Offset(c.comp)+i, "RFC 1738 §6", "a CR or LF here would end the FTP command early and begin another")
		}
	}
	p := Split(u)
	if p.HasTypecode && !validCode(p.Typecode) {
		at, _, _, _ := typePart(u.Path())
		return fail(u.Offset(locator.PathComponent)+at, "ftptype", "typecode "+quote(p.Typecode)+" is not one of a, i, d")
	}

	cmds := make([]Command, 0, len(p.Cwd)+5)
	if u.HasUser() {
		cmds = append(cmds, Command{Verb: "USER", Arg: locator.Decode(u.User()), HasArg: true})
		pass := Command{Verb: "PASS", HasArg: true, IfAsked: true}
		if u.HasPassword() {
			pass.Arg = locator.Decode(u.Password())
		} else {
			pass.AskUser = true
		}
		cmds = append(cmds, pass)
	} else {
		cmds = append(cmds,
			Command{Verb: "USER", Arg: anonymous, HasArg: true},
			Command{Verb: "PASS", Arg: email, HasArg: true, IfAsked: true, AskUser: email == ""})
	}
	for _, d := range p.Cwd {
		cmds = append(cmds, Command{Verb: "CWD", Arg: d, HasArg: true})
	}
	switch {
	case p.HasTypecode && p.Typecode == "d":
		cmds = append(cmds, Command{Verb: "NLST", Arg: p.Name, HasArg: p.Name != ""})
	case p.Name == "":
		if p.HasTypecode {
			cmds = append(cmds, Command{Verb: "TYPE", Arg: strings.ToUpper(p.Typecode), HasArg: true})
		}
		cmds = append(cmds, Command{Verb: "NLST"})
	default:
		t := Command{Verb: "TYPE", HasArg: true}
		if p.HasTypecode {
			t.Arg = strings.ToUpper(p.Typecode)
		} else {
			// Image, not a guess from the name: TYPE A would deliver a
			// file with CR LF line ends with other bytes than the
			// file's own (and curl's or wget's), and text sent as
			// image loses nothing.
			t.Arg = "I"
			t.Guessed = true
		}
		cmds = append(cmds, t, Command{Verb: "RETR", Arg: p.Name, HasArg: true})
	}
	return &Plan{Host: u.Host(), Port: u.EffectivePort(), Commands: cmds}, nil
}

// findCRLF returns the index in the encoded s of the first CR or LF,
// written or encoded (%0D, %0A), or -1.
func findCRLF(s string) int {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\r', '\n':
			return i
		case '%':
			if i+2 < len(s) && s[i+1] == '0' && (s[i+2] == 'a' || s[i+2] == 'A' || s[i+2] == 'd' || s[i+2] == 'D') {
				return i
			}
		}
	}
	return -1
}
