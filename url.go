// Package locator reads, judges and writes Uniform Resource Locators as
// RFC 1738 and the 1993–94 URL drafts describe them.
//
// Parse is lenient where real URLs are messy and records every departure
// from RFC 1738 as a Problem with its byte offset and the grammar rule it
// breaks; whether a URL conforms is a question the caller asks
// (URL.Conforms), not a mode that rejects the web. Scheme packages
// (locator/ftp, locator/gopher, ...) add each scheme's own structure and
// rules through Register.
//
// Components are kept exactly as written (still encoded): decoding
// happens only where octets go to a protocol or to a person, so a reserved
// character is never confused with its escape.
package locator

import "strings"

// A URL is an absolute URL split into the components of RFC 1738 §3.1.
// All component strings are kept as written, still encoded.
//
// A component that is absent differs from one that is present but empty:
// "ftp://@host.com/" has an empty user, "ftp://host.com/" has none. The
// Has fields record presence.
type URL struct {
	// Scheme is the scheme name in lower case.
	Scheme string

	User     string // as written, still encoded
	Password string // as written, still encoded

	// Host is the host as written; an IPv6 literal (RFC 2732) is kept
	// without its brackets.
	Host string
	Port string // the digits as written

	// Path is the url-path, still encoded. In the Internet syntax it is
	// what follows the "/" after the host (that "/" is not part of it);
	// otherwise it is the whole scheme-specific part before any search or
	// fragment.
	Path string

	Search   string // after "?", for schemes where "?" begins a search
	Fragment string // after "#", the 1993 draft's fragment address

	// Input is the text Parse was given, wrapper and prefix included.
	// Problem offsets and Offset refer to it.
	Input string

	// Problems lists every departure from RFC 1738 found by the core and
	// by the scheme's rules (see Register), in order of offset.
	Problems []Problem

	off [numComponents]int32

	// Authority is true when the scheme-specific part begins with "//"
	// (the common Internet scheme syntax of §3.1).
	Authority bool

	// Presence of each component that may be absent (the flags come last
	// so that the struct packs into one small allocation).
	HasUser     bool // an "@" ends a login part
	HasPassword bool // a ":" follows the user
	HasPort     bool // a ":" follows the host
	HasPath     bool // for "//" forms, a "/" follows the host
	HasSearch   bool
	HasFragment bool
}

// A Component names a part of a URL, for Offset.
type Component int

// The components of a URL, in the order they are written.
const (
	SchemeComponent Component = iota
	UserComponent
	PasswordComponent
	HostComponent
	PortComponent
	PathComponent
	SearchComponent
	FragmentComponent
	numComponents
)

// Offset returns the byte offset in u.Input where component c begins (for
// an absent component, where it would begin). It returns 0 for a URL that
// was not made by Parse, and for a component whose field was changed
// since so that u.Input no longer holds it at that offset.
func (u *URL) Offset(c Component) int {
	if c < 0 || c >= numComponents {
		return 0
	}
	o := int(u.off[c])
	if o < 0 || o > len(u.Input) {
		return 0
	}
	var f string
	switch c {
	case SchemeComponent:
		if !hasPrefixFold(u.Input, o, u.Scheme) {
			return 0
		}
		return o
	case UserComponent:
		f = u.User
	case PasswordComponent:
		f = u.Password
	case HostComponent:
		f = u.Host
	case PortComponent:
		f = u.Port
	case PathComponent:
		f = u.Path
	case SearchComponent:
		f = u.Search
	case FragmentComponent:
		f = u.Fragment
	}
	if !strings.HasPrefix(u.Input[o:], f) {
		return 0
	}
	return o
}

// Conforms reports whether u conforms to RFC 1738: no problem of severity
// Violation or Error was found (warnings are security notes, not
// departures from the grammar). u.Problems answers when u's fields are
// still what Parse read from u.Input; for a URL built or changed by hand
// the answer is that for Parse(u.String()), and false when that text does
// not parse.
func (u *URL) Conforms() bool {
	if !u.asParsed() {
		v, err := Parse(u.String())
		if err != nil {
			return false
		}
		u = v
	}
	for _, p := range u.Problems {
		if p.Severity >= Violation {
			return false
		}
	}
	return true
}

// EffectivePort returns the port as a number: the one written, or the
// scheme's default when none is written (or it is empty). It returns 0
// when there is neither. A URL built or changed by hand is read as
// Parse(u.String()) reads it (as it stands when that does not parse).
func (u *URL) EffectivePort() int {
	u = canonical(u)
	if u.HasPort && u.Port != "" {
		n := 0
		for i := 0; i < len(u.Port); i++ {
			c := u.Port[i]
			if c < '0' || c > '9' || n > 65535 {
				return 0
			}
			n = n*10 + int(c-'0')
		}
		if n > 65535 {
			return 0
		}
		return n
	}
	return DefaultPort(u.Scheme)
}

// Hostport returns host[:port] as it is written in the URL, with the
// brackets of an IPv6 literal.
func (u *URL) Hostport() string {
	h := u.Host
	if strings.IndexByte(h, ':') >= 0 {
		h = "[" + h + "]"
	}
	if u.HasPort {
		return h + ":" + u.Port
	}
	return h
}

// String reassembles the URL. Components are written as they are held,
// so an encoding the input chose is kept; the scheme is lower case and any
// wrapper or "URL:" prefix is gone. Parse(u.String()) yields the same
// components.
func (u *URL) String() string {
	if s, ok := u.asWritten(); ok {
		return s
	}
	n := len(u.Scheme) + 1 + len(u.User) + 1 + len(u.Password) + 1 + len(u.Host) + 2 +
		1 + len(u.Port) + 3 + len(u.Path) + 1 + len(u.Search) + 1 + len(u.Fragment)
	var b strings.Builder
	b.Grow(n)
	b.WriteString(u.Scheme)
	b.WriteByte(':')
	if u.Authority {
		b.WriteString("//")
		if u.HasUser {
			b.WriteString(u.User)
			if u.HasPassword {
				b.WriteByte(':')
				b.WriteString(u.Password)
			}
			b.WriteByte('@')
		}
		if strings.IndexByte(u.Host, ':') >= 0 {
			b.WriteByte('[')
			b.WriteString(u.Host)
			b.WriteByte(']')
		} else {
			b.WriteString(u.Host)
		}
		if u.HasPort {
			b.WriteByte(':')
			b.WriteString(u.Port)
		}
		if u.HasPath {
			b.WriteByte('/')
		}
	}
	b.WriteString(u.Path)
	if u.HasSearch {
		b.WriteByte('?')
		b.WriteString(u.Search)
	}
	if u.HasFragment {
		b.WriteByte('#')
		b.WriteString(u.Fragment)
	}
	return b.String()
}

// asWritten returns the URL's text as it stands in u.Input when it is
// there as String would write it: a lower-case scheme and components not
// modified since Parse (a wrapper or prefix around it does not matter).
// String then needs no allocation.
func (u *URL) asWritten() (string, bool) {
	in := u.Input
	i := int(u.off[SchemeComponent])
	if i < 0 || i > len(in) {
		return "", false
	}
	at := func(s string) bool {
		if i+len(s) > len(in) || in[i:i+len(s)] != s {
			return false
		}
		i += len(s)
		return true
	}
	start := i
	if u.Scheme == "" || !at(u.Scheme) || !at(":") {
		return "", false
	}
	if u.Authority {
		if !at("//") {
			return "", false
		}
		if u.HasUser {
			if !at(u.User) || (u.HasPassword && !(at(":") && at(u.Password))) || !at("@") {
				return "", false
			}
		}
		if strings.IndexByte(u.Host, ':') >= 0 {
			if !(at("[") && at(u.Host) && at("]")) {
				return "", false
			}
		} else if !at(u.Host) {
			return "", false
		}
		if u.HasPort && !(at(":") && at(u.Port)) {
			return "", false
		}
		if u.HasPath && !at("/") {
			return "", false
		}
	}
	if !at(u.Path) || (u.HasSearch && !(at("?") && at(u.Search))) || (u.HasFragment && !(at("#") && at(u.Fragment))) {
		return "", false
	}
	// Every piece matched in order, so this is exactly what String would
	// build.
	return in[start:i], true
}

// SameComponents reports whether u and v have the same components
// (scheme, login, host, port, path, search, fragment and their presence),
// ignoring Input, offsets and problems. It is byte equality of what was
// written, not equivalence: see Equal for that.
func (u *URL) SameComponents(v *URL) bool {
	return u.Scheme == v.Scheme && u.Authority == v.Authority &&
		u.User == v.User && u.HasUser == v.HasUser &&
		u.Password == v.Password && u.HasPassword == v.HasPassword &&
		u.Host == v.Host && u.Port == v.Port && u.HasPort == v.HasPort &&
		u.Path == v.Path && u.HasPath == v.HasPath &&
		u.Search == v.Search && u.HasSearch == v.HasSearch &&
		u.Fragment == v.Fragment && u.HasFragment == v.HasFragment
}

// asParsed reports whether u's fields are, byte for byte, what Parse read
// from u.Input at the offsets it recorded: each component stands in
// u.Input at its own offset, joined by exactly the delimiters String
// writes, from the scheme to the end of the text Parse read (only the
// white space and wrapper Parse removes may follow). Then u.Problems and
// the offsets describe u, and Parse(u.String()) has u's components. A URL
// built by hand, or one whose fields or Has flags a caller changed, fails
// the test, and the functions that rely on it read Parse(u.String())
// instead (canonical).
func (u *URL) asParsed() bool {
	in := u.Input
	if u.Scheme == "" || len(in) > inputLimit {
		return false
	}
	i := int(u.off[SchemeComponent])
	if i < 0 || i > len(in) || !hasPrefixFold(in, i, u.Scheme) {
		return false
	}
	for k := 0; k < len(u.Scheme); k++ {
		if class[u.Scheme[k]]&(cScheme|cHialpha) != cScheme {
			return false
		}
	}
	i += len(u.Scheme)
	lit := func(s string) bool {
		if len(in)-i < len(s) || in[i:i+len(s)] != s {
			return false
		}
		i += len(s)
		return true
	}
	field := func(c Component, f string) bool {
		if int(u.off[c]) != i {
			return false
		}
		return lit(f)
	}
	if !lit(":") {
		return false
	}
	if u.Authority {
		if !lit("//") {
			return false
		}
		if u.HasUser {
			if !field(UserComponent, u.User) {
				return false
			}
			if u.HasPassword {
				if !lit(":") || !field(PasswordComponent, u.Password) {
					return false
				}
			} else if u.Password != "" || int(u.off[PasswordComponent]) != i {
				return false
			}
			if !lit("@") {
				return false
			}
		} else if u.User != "" || u.Password != "" || u.HasPassword ||
			int(u.off[UserComponent]) != i || int(u.off[PasswordComponent]) != i {
			return false
		}
		if strings.IndexByte(u.Host, ':') >= 0 {
			if !lit("[") || !field(HostComponent, u.Host) || !lit("]") {
				return false
			}
		} else if !field(HostComponent, u.Host) {
			return false
		}
		if u.HasPort {
			if !lit(":") || !field(PortComponent, u.Port) {
				return false
			}
		} else if u.Port != "" || int(u.off[PortComponent]) != i {
			return false
		}
		if u.HasPath {
			if !lit("/") {
				return false
			}
		} else if u.Path != "" {
			return false
		}
	} else if u.HasUser || u.HasPassword || u.HasPort || !u.HasPath || u.User != "" || u.Password != "" || u.Host != "" || u.Port != "" {
		return false
	}
	if !field(PathComponent, u.Path) {
		return false
	}
	if u.HasSearch {
		if !lit("?") || !field(SearchComponent, u.Search) {
			return false
		}
	} else if u.Search != "" || int(u.off[SearchComponent]) != i {
		return false
	}
	if u.HasFragment {
		if !lit("#") || !field(FragmentComponent, u.Fragment) {
			return false
		}
	} else if u.Fragment != "" || int(u.off[FragmentComponent]) != i {
		return false
	}
	// What follows is what Parse removed: white space, and the ">" of a
	// wrapper that a "<" opened; the text Parse read ends with no white
	// space.
	if i > 0 && isSpace(in[i-1]) {
		return false
	}
	j := 0
	for j < len(in) && isSpace(in[j]) {
		j++
	}
	wrapped := j < len(in) && in[j] == '<'
	for i < len(in) && isSpace(in[i]) {
		i++
	}
	if wrapped {
		if i == len(in) || in[i] != '>' {
			return false
		}
		i++
		for i < len(in) && isSpace(in[i]) {
			i++
		}
	}
	return i == len(in)
}

// canonical returns u when its fields are what Parse read (asParsed),
// else Parse(u.String()) when that text parses, else u: the value the
// public functions work on, so that a URL changed by hand gives the
// answers its text gives, and never one that trusts stale offsets.
func canonical(u *URL) *URL {
	if u == nil || u.asParsed() {
		return u
	}
	if v, err := Parse(u.String()); err == nil {
		return v
	}
	return u
}
