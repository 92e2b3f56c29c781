package ftp

import (
	"strconv"
	"strings"

	"github.com/rfc1738/locator"
)

// Explain says for a person what u stands for: the server and the FTP
// commands of NewPlan, each with why it is sent (RFC 1738 §3.2). The
// anonymous password is shown as the end user's e-mail address.
func (Rules) Explain(u *locator.URL) string {
	var b strings.Builder
	p, err := NewPlan(u, "")
	if err != nil {
		b.WriteString("FTP (RFC 1738 §3.2), but no command sequence: ")
		b.WriteString(err.(*PlanError).Problem.String())
		b.WriteByte('\n')
		return b.String()
	}
	host := p.Host
	if strings.IndexByte(host, ':') >= 0 {
		host = "[" + host + "]"
	}
	b.WriteString("FTP (RFC 1738 §3.2, RFC 959): connect to " + host + " port " + strconv.Itoa(p.Port) + ", then send\n")
	sp := Split(u)
	for _, c := range p.Commands {
		line := c.String()
		if c.Verb == "PASS" && c.AskUser {
			if u.HasUser() {
				line = "PASS <password asked of you>"
			} else {
				line = "PASS <your e-mail address>"
			}
		}
		b.WriteString("  " + line)
		if note := note(u, sp, c); note != "" {
			b.WriteString(strings.Repeat(" ", max(1, 28-len(line))) + "; " + note)
		}
		b.WriteByte('\n')
	}
	if sp.Draft {
		b.WriteString("The typecode is written in draft 03's \"!" + strings.ToUpper(sp.Typecode) + "\" form; RFC 1738 writes \";type=" + sp.Typecode + "\".\n")
	}
	return b.String()
}

// note says why a command of the plan is sent.
func note(u *locator.URL, p Path, c Command) string {
	switch c.Verb {
	case "USER":
		if !u.HasUser() {
			return "no user in the URL: anonymous FTP (§3.2.1)"
		}
	case "PASS":
		switch {
		case u.HasPassword():
			return "if the server asks; the password is in the URL, for anyone to see"
		case u.HasUser():
			return "if the server asks; the URL has no password (§3.2.1)"
		default:
			return "if the server asks; anonymous FTP convention (§3.2.1)"
		}
	case "CWD":
		if c.Arg == "" {
			return "an empty <cwd>: CWD with a null argument (§3.2.2)"
		}
		if strings.IndexByte(c.Arg, '/') >= 0 {
			return "one directory argument; its \"/\" was encoded %2F (§3.2.2)"
		}
	case "TYPE":
		if c.Guessed {
			return "no ;type= in the URL: transferred in TYPE I (image: the exact octets), RFC 1738 §3.2.3 leaves the choice to the client; add ;type=a for text with the server's line ends converted"
		}
		if c.Arg == "A" {
			return ";type=a: ASCII"
		}
		return ";type=i: image (binary)"
	case "NLST":
		if p.HasTypecode && p.Typecode == "d" {
			return ";type=d: a directory listing (§3.2.2)"
		}
		return "the URL names no file: the directory is listed"
	}
	return ""
}
