package ftp

import (
	"strings"

	"github.com/rfc1738/locator"
)

// A Ref is what an ftp URL says, decoded: the login, the server and the
// structure of the url-path. Build writes a Ref as a URL; Decode reads
// one back.
type Ref struct {
	User, Password       string // decoded
	HasUser, HasPassword bool
	// Host is a host name or number, or an IPv6 address without brackets.
	Host string
	// Port is the port's digits, or "" for the default 21.
	Port string
	Path
}

// Decode returns the components of the ftp URL u, decoded. A part u
// does not write (a user without HasUser, a login or host without "//")
// is left out.
func Decode(u *locator.URL) Ref {
	r := Ref{Path: Split(u)}
	if !u.HasAuthority() {
		return r
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
	return r
}

// A BuildError says why components cannot be written as a conforming URL.
type BuildError = locator.BuildError

// Build writes r as an ftp URL, encoding each part for its place in the
// grammar of RFC 1738 §5: user and password as user (":", "@", "/"
// encoded), each directory and the name as fsegment (so "/" becomes %2F
// and ";" %3B, §3.2.2), and the typecode as ";type=" and its letter in
// lower case. Cwd ["/etc"] and Name "motd" give ".../%2Fetc/motd".
//
// A Ref with directories but no name ends in "/" (an empty name). A name
// that ends in "!A", "!I" or "!D" while no typecode is given has its "!"
// encoded, so that it is not read as draft 03's typecode suffix.
//
// Build fails with a *BuildError when the result would not conform to
// RFC 1738: a host that is empty or not a host name, number or IPv6
// address, a port that is not digits in range, a typecode other than a,
// i or d. An IPv6 address is written in brackets (RFC 2732), which RFC
// 1738 predates; Parse reads it with a violation of rule "host".
func Build(r Ref) (string, error) {
	var b strings.Builder
	b.WriteString("ftp://")
	if r.HasUser || r.HasPassword {
		b.WriteString(locator.Escape(r.User, locator.EncodeUser))
		if r.HasPassword {
			b.WriteByte(':')
			b.WriteString(locator.Escape(r.Password, locator.EncodeUser))
		}
		b.WriteByte('@')
	}
	hostAt := locator.WriteHostport(&b, r.Host, r.Port)
	if len(r.Cwd) > 0 || r.HasName || r.HasTypecode {
		for _, d := range r.Cwd {
			b.WriteByte('/')
			b.WriteString(locator.Escape(d, locator.EncodeFSegment))
		}
		b.WriteByte('/')
		name := locator.Escape(r.Name, locator.EncodeFSegment)
		if k := len(name) - 2; !r.HasTypecode && k >= 0 && name[k] == '!' && isDraftCode(name[k+1]) {
			name = name[:k] + "%21" + name[k+1:]
		}
		b.WriteString(name)
		if r.HasTypecode {
			b.WriteString(";type=")
			b.WriteString(lower(r.Typecode))
		}
	}
	s := b.String()
	if err := locator.CheckBuilt("ftp", s, hostAt, r.Host, r.Port); err != nil {
		return "", err
	}
	return s, nil
}
