package ftp

import (
	"strconv"
	"strings"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/internal/urlbuild"
)

// A URL is what an ftp URL says, decoded: the login, the server and the
// structure of the url-path (RFC 1738 §3.2). Parse and From read one;
// Build writes it back as a URL.
type URL struct {
	User, Password       string // decoded
	HasUser, HasPassword bool
	// Host is a host name or number, or an IPv6 address without brackets.
	Host string
	// Port is the port's digits, or "" for the default 21.
	Port string
	Path
}

// Parse reads s with locator.Parse and decodes it with From.
func Parse(s string) (*URL, error) { return urlbuild.Parse(s, From) }

// From returns the components of the ftp URL u, decoded. A part u does
// not write (a user without HasUser, a login or host without "//") is
// left out. Problems of the structure are in u.Problems (Parse applies
// this package's rules); From fails, with a *locator.SchemeError of field
// "url", only when u is not an ftp URL.
func From(u *locator.URL) (*URL, error) {
	if err := urlbuild.NotScheme(u, "ftp", "ftpurl"); err != nil {
		return nil, err
	}
	f := &URL{Path: Split(u)}
	if !u.HasAuthority() {
		return f, nil
	}
	f.Host = u.Host()
	if u.HasPort() {
		f.Port = u.Port()
	}
	if u.HasUser() {
		f.User, f.HasUser = locator.Decode(u.User()), true
		if u.HasPassword() {
			f.Password, f.HasPassword = locator.Decode(u.Password()), true
		}
	}
	return f, nil
}

// Build writes u as an ftp URL, encoding each part for its place in the
// grammar of RFC 1738 §5: user and password as user (":", "@", "/"
// encoded), each directory and the name as fsegment (so "/" becomes %2F
// and ";" %3B, §3.2.2), and the typecode as ";type=" and its letter in
// lower case. Cwd ["/etc"] and Name "motd" give ".../%2Fetc/motd".
//
// A URL with directories but no name ends in "/" (an empty name). A name
// that ends in "!A", "!I" or "!D" while no typecode is given has its "!"
// encoded, so that it is not read as draft 03's typecode suffix.
//
// Build fails with a *locator.BuildError when the result would not
// conform to RFC 1738: a host that is empty or not a host name, number or
// IPv6 address, a port that is not digits in range, a typecode other than
// a, i or d. An IPv6 address is written in brackets (RFC 2732), which RFC
// 1738 predates; Parse reads it with a violation of rule "host".
func (u *URL) Build() (string, error) {
	var b strings.Builder
	b.WriteString("ftp://")
	if u.HasUser || u.HasPassword {
		b.WriteString(locator.Escape(u.User, locator.EncodeUser))
		if u.HasPassword {
			b.WriteByte(':')
			b.WriteString(locator.Escape(u.Password, locator.EncodeUser))
		}
		b.WriteByte('@')
	}
	hostAt := urlbuild.WriteHostport(&b, u.Host, u.Port)
	if len(u.Cwd) > 0 || u.HasName || u.HasTypecode {
		for _, d := range u.Cwd {
			b.WriteByte('/')
			b.WriteString(locator.Escape(d, locator.EncodeFSegment))
		}
		b.WriteByte('/')
		name := locator.Escape(u.Name, locator.EncodeFSegment)
		if k := len(name) - 2; !u.HasTypecode && k >= 0 && name[k] == '!' && isDraftCode(name[k+1]) {
			name = name[:k] + "%21" + name[k+1:]
		}
		b.WriteString(name)
		if u.HasTypecode {
			b.WriteString(";type=")
			at := b.Len()
			code := lower(u.Typecode)
			b.WriteString(locator.Escape(code, locator.EncodeFSegment))
			if code != "a" && code != "i" && code != "d" {
				// RFC 1738 §5: ftptype = "A" | "I" | "D" | "a" | "i" | "d".
				// Written as it stands, another typecode could end the
				// URL early ("a#" would read back as "a").
				return "", &locator.BuildError{Scheme: "ftp", URL: b.String(), Problem: locator.Problem{Offset: at, Severity: locator.Error, Rule: "ftptype",
					Message: "the typecode is a, i or d, not " + strconv.Quote(u.Typecode)}}
			}
		}
	}
	s := b.String()
	if err := urlbuild.CheckBuilt("ftp", s, hostAt, u.Host, u.Port); err != nil {
		return "", err
	}
	return s, nil
}
