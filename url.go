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

// A URL is an absolute URL split into the components of RFC 1738 §3.1,
// as Parse read it. It is a small immutable value: the text Parse read
// and the offsets of each component in it, so that making one costs a
// single allocation of 48 bytes with two pointers, and none at all with
// a Parser. The methods return the components as written, still encoded,
// as substrings of that text.
//
// A component that is absent differs from one that is present but empty:
// "ftp://@host.com/" has an empty user, "ftp://host.com/" has none. The
// Has methods report presence.
//
// A URL cannot be changed; to build or change one, edit its Parts and
// parse their String. The zero URL holds nothing (an empty Scheme and
// String); only Parse, a Parser, ParseBatch, Resolve and Normalize make
// URLs with components. Copying a URL copies the value, which shares its
// text and problem list.
type URL struct {
	in string // the text Parse was given
	x  *extra // problems, a scheme written other than in lower case, long offsets
	o  shortOffsets
	f  flags
}

// offsets locate the components in URL.in; absent components and ends
// that follow from a delimiter are derived (see the methods). A parser
// reads into these; a URL holds them as shortOffsets, or in its extra
// block when the text is longer than those can count (fLong).
type offsets struct {
	sch int32 // the scheme begins
	col int32 // the ":" that ends the scheme
	ue  int32 // the user ends (":" of a password, or "@")
	h   int32 // the host begins (after "[" of an IPv6 literal)
	he  int32 // the host ends (at "]" of an IPv6 literal)
	p   int32 // the path begins
	pe  int32 // the path ends
	se  int32 // the search ends (pe when there is none)
	end int32 // the URL ends (a wrapper and white space around it excluded)
}

// shortOffsets are offsets in 16 bits, which keep a URL at 48 bytes, a
// size class below 64: the allocation and the collector's work grow with
// the bytes. Nearly every URL ends within maxShort octets.
type shortOffsets struct {
	sch, col, ue, h, he, p, pe, se, end uint16
}

// maxShort is the highest offset shortOffsets hold.
const maxShort = 1<<16 - 1

type flags uint32

const (
	fAuthority flags = 1 << iota
	fUser
	fPassword
	fPort
	fPath
	fSearch
	fFragment
	fBracket // the host is an IPv6 literal in brackets

	// fPlain: the authority has no login part and no IPv6 literal, and
	// Parse found no problem in it, so that Resolve may copy it into a
	// URL of the same scheme unchecked.
	fPlain

	// fLong: the URL ends past maxShort; its offsets are x.long.
	fLong
)

// The flags from bit fEntryShift on hold which of the schemes the core
// knows the URL's is (1 + its index in schemes; 0 for one it does not
// know; entryLookup when the index does not fit), so that Resolve and
// EffectivePort need not look the name up again.
const (
	fEntryShift       = 10
	entryLookup       = 1<<(32-fEntryShift) - 1
	fEntry      flags = entryLookup << fEntryShift
)

// entryFlags are the flags that record the scheme at index k of schemes
// (k < 0: a scheme the core does not know).
func entryFlags(k int) flags {
	return flags(min(k+1, entryLookup)) << fEntryShift
}

// entry returns the core's entry for u's scheme, or nil when it knows
// none.
func (u *URL) entry() *schemeEntry {
	switch k := int(u.f >> fEntryShift); k {
	case 0:
		return nil
	case entryLookup:
		return findScheme(u.Scheme())
	default:
		return &schemes[k-1]
	}
}

// syntax returns the syntax the core reads u's scheme with.
func (u *URL) syntax() *Syntax {
	if e := u.entry(); e != nil {
		return &e.syn
	}
	return &genericSyntax
}

// extra holds what most URLs do not have, so that they need no room for
// it: their problems, the scheme in lower case when the text writes it
// otherwise, and the offsets of a text too long for shortOffsets.
type extra struct {
	problems []Problem
	scheme   string
	long     *offsets // the offsets of a URL with fLong
}

// The offsets of u (see offsets), from x.long when u is long.

func (u *URL) schemeAt() int {
	if u.f&fLong != 0 {
		return int(u.x.long.sch)
	}
	return int(u.o.sch)
}

func (u *URL) colonAt() int {
	if u.f&fLong != 0 {
		return int(u.x.long.col)
	}
	return int(u.o.col)
}

func (u *URL) userEnd() int {
	if u.f&fLong != 0 {
		return int(u.x.long.ue)
	}
	return int(u.o.ue)
}

func (u *URL) hostAt() int {
	if u.f&fLong != 0 {
		return int(u.x.long.h)
	}
	return int(u.o.h)
}

func (u *URL) hostEnd() int {
	if u.f&fLong != 0 {
		return int(u.x.long.he)
	}
	return int(u.o.he)
}

func (u *URL) pathAt() int {
	if u.f&fLong != 0 {
		return int(u.x.long.p)
	}
	return int(u.o.p)
}

func (u *URL) pathEnd() int {
	if u.f&fLong != 0 {
		return int(u.x.long.pe)
	}
	return int(u.o.pe)
}

func (u *URL) searchEnd() int {
	if u.f&fLong != 0 {
		return int(u.x.long.se)
	}
	return int(u.o.se)
}

func (u *URL) end() int {
	if u.f&fLong != 0 {
		return int(u.x.long.end)
	}
	return int(u.o.end)
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

// Scheme is the scheme name in lower case.
func (u *URL) Scheme() string {
	if u.x != nil && u.x.scheme != "" {
		return u.x.scheme
	}
	return u.in[u.schemeAt():u.colonAt()]
}

// HasAuthority reports whether the scheme-specific part begins with "//"
// (the common Internet scheme syntax of §3.1).
func (u *URL) HasAuthority() bool { return u.f&fAuthority != 0 }

// HasUser reports whether an "@" ends a login part.
func (u *URL) HasUser() bool { return u.f&fUser != 0 }

// HasPassword reports whether a ":" follows the user.
func (u *URL) HasPassword() bool { return u.f&fPassword != 0 }

// HasPort reports whether a ":" follows the host.
func (u *URL) HasPort() bool { return u.f&fPort != 0 }

// HasPath reports whether a path is present: for "//" forms, whether a
// "/" follows the host; always for the others.
func (u *URL) HasPath() bool { return u.f&fPath != 0 }

// HasSearch reports whether a "?" begins a search part (for schemes where
// "?" does).
func (u *URL) HasSearch() bool { return u.f&fSearch != 0 }

// HasFragment reports whether a "#" begins a fragment.
func (u *URL) HasFragment() bool { return u.f&fFragment != 0 }

// userAt is where the login part begins (or would).
func (u *URL) userAt() int {
	if u.f&fAuthority != 0 {
		return u.colonAt() + 3
	}
	return u.colonAt() + 1
}

// at is the offset of the "@" that ends a login part.
func (u *URL) at() int {
	return u.hostAt() - 1 - int(u.f&fBracket>>7)
}

// authEnd is where the authority ends (before the "/" of a path).
func (u *URL) authEnd() int {
	if u.f&fAuthority == 0 {
		return u.colonAt() + 1
	}
	if u.f&fPath != 0 {
		return u.pathAt() - 1
	}
	return u.pathAt()
}

// User is the user as written, still encoded; "" when absent.
func (u *URL) User() string {
	if u.f&fUser == 0 {
		return ""
	}
	return u.in[u.userAt():u.userEnd()]
}

// Password is the password as written, still encoded; "" when absent.
func (u *URL) Password() string {
	if u.f&fPassword == 0 {
		return ""
	}
	return u.in[u.userEnd()+1 : u.at()]
}

// Host is the host as written; an IPv6 literal (RFC 2732) without its
// brackets.
func (u *URL) Host() string { return u.in[u.hostAt():u.hostEnd()] }

// Port is the port's digits as written; "" when absent.
func (u *URL) Port() string {
	if u.f&fPort == 0 {
		return ""
	}
	return u.in[u.hostEnd()+1+int(u.f&fBracket>>7) : u.authEnd()]
}

// Path is the url-path, still encoded. In the Internet syntax it is what
// follows the "/" after the host (that "/" is not part of it); otherwise
// it is the whole scheme-specific part before any search or fragment.
func (u *URL) Path() string { return u.in[u.pathAt():u.pathEnd()] }

// Search is what follows "?", for schemes where "?" begins a search.
func (u *URL) Search() string {
	if u.f&fSearch == 0 {
		return ""
	}
	return u.in[u.pathEnd()+1 : u.searchEnd()]
}

// Fragment is what follows "#", the 1993 draft's fragment address.
func (u *URL) Fragment() string {
	if u.f&fFragment == 0 {
		return ""
	}
	return u.in[u.searchEnd()+1 : u.end()]
}

// Input is the text Parse was given, wrapper and prefix included.
// Problem offsets and Offset refer to it.
func (u *URL) Input() string { return u.in }

// Problems lists every departure from RFC 1738 found by the core and by
// the scheme's rules (see Register), in order of offset. The list is
// the URL's own: do not change its elements.
func (u *URL) Problems() []Problem {
	if u.x == nil {
		return nil
	}
	p := u.x.problems
	return p[:len(p):len(p)]
}

// Offset returns the byte offset in u.Input where component c begins (for
// an absent component, where it would begin); 0 for the zero URL.
func (u *URL) Offset(c Component) int {
	if u.in == "" {
		return 0
	}
	switch c {
	case SchemeComponent:
		return u.schemeAt()
	case UserComponent:
		return u.userAt()
	case PasswordComponent:
		switch {
		case u.f&fPassword != 0:
			return u.userEnd() + 1
		case u.f&fUser != 0:
			return u.userEnd()
		}
		return u.userAt()
	case HostComponent:
		if u.f&fAuthority == 0 {
			return u.userAt()
		}
		return u.hostAt()
	case PortComponent:
		if u.f&fAuthority == 0 {
			return u.userAt()
		}
		if u.f&fPort != 0 {
			return u.hostEnd() + 1 + int(u.f&fBracket>>7)
		}
		return u.authEnd()
	case PathComponent:
		return u.pathAt()
	case SearchComponent:
		if u.f&fSearch != 0 {
			return u.pathEnd() + 1
		}
		return u.pathEnd()
	case FragmentComponent:
		if u.f&fFragment != 0 {
			return u.searchEnd() + 1
		}
		return u.end()
	}
	return 0
}

// Conforms reports whether u conforms to RFC 1738: no problem of severity
// Violation or Error was found (warnings are security notes, not
// departures from the grammar).
func (u *URL) Conforms() bool {
	if u.x == nil {
		return u.in != ""
	}
	for _, p := range u.x.problems {
		if p.Severity >= Violation {
			return false
		}
	}
	return true
}

// EffectivePort returns the port as a number: the one written, or the
// scheme's default when none is written (or it is empty). It returns 0
// when there is neither.
func (u *URL) EffectivePort() int {
	if port := u.Port(); port != "" {
		n := 0
		for i := 0; i < len(port); i++ {
			c := port[i]
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
	return u.syntax().DefaultPort
}

// Hostport returns host[:port] as it is written in the URL, with the
// brackets of an IPv6 literal.
func (u *URL) Hostport() string {
	if u.f&fAuthority == 0 {
		return ""
	}
	return u.in[u.hostAt()-int(u.f&fBracket>>7) : u.authEnd()]
}

// String returns the URL's text: what Parse read, without any wrapper,
// "URL:" prefix or white space around it, and with the scheme in lower
// case. Parse(u.String()) yields the same components. It allocates only
// when the text writes the scheme in upper case.
func (u *URL) String() string {
	if u.in == "" {
		return ""
	}
	if u.x != nil && u.x.scheme != "" {
		return u.x.scheme + u.in[u.colonAt():u.end()]
	}
	return u.in[u.schemeAt():u.end()]
}

// SameComponents reports whether u and v have the same components
// (scheme, login, host, port, path, search, fragment and their presence),
// ignoring Input, offsets and problems. It is byte equality of what was
// written, not equivalence: see Equal for that.
func (u *URL) SameComponents(v *URL) bool {
	if (u.f^v.f)&^fLong != 0 { // where the text ends is no component
		return false
	}
	if u.x == nil && v.x == nil {
		// Both texts hold the lower-case scheme, and the flags agree, so
		// the components are equal when the texts are.
		return u.in[u.schemeAt():u.end()] == v.in[v.schemeAt():v.end()]
	}
	return u.Scheme() == v.Scheme() && u.in[u.colonAt():u.end()] == v.in[v.colonAt():v.end()]
}

// Parts are a URL's components as plain fields, for building a URL or
// changing one: edit them and parse their String. A URL's Parts method
// gives them.
type Parts struct {
	Scheme   string // in lower case
	User     string // as written, still encoded
	Password string // as written, still encoded
	Host     string // an IPv6 literal without its brackets
	Port     string // the digits
	Path     string // after the "/" that follows the host
	Search   string // after "?"
	Fragment string // after "#"

	HasAuthority bool // "//" and a login part begin the scheme-specific part
	HasUser      bool
	HasPassword  bool
	HasPort      bool
	HasPath      bool // for "//" forms, a "/" follows the host
	HasSearch    bool
	HasFragment  bool
}

// Parts returns u's components, still encoded.
func (u *URL) Parts() Parts {
	return Parts{
		Scheme: u.Scheme(), User: u.User(), Password: u.Password(), Host: u.Host(), Port: u.Port(),
		Path: u.Path(), Search: u.Search(), Fragment: u.Fragment(),
		HasAuthority: u.HasAuthority(), HasUser: u.HasUser(), HasPassword: u.HasPassword(), HasPort: u.HasPort(),
		HasPath: u.HasPath(), HasSearch: u.HasSearch(), HasFragment: u.HasFragment(),
	}
}

// String writes the components with the delimiters of RFC 1738 §3.1
// between them, as they are held: no component is encoded or checked
// here (Parse judges the result).
func (p *Parts) String() string {
	n := len(p.Scheme) + 1 + len(p.User) + 1 + len(p.Password) + 1 + len(p.Host) + 2 +
		1 + len(p.Port) + 3 + len(p.Path) + 1 + len(p.Search) + 1 + len(p.Fragment)
	var b strings.Builder
	b.Grow(n)
	b.WriteString(p.Scheme)
	b.WriteByte(':')
	if p.HasAuthority {
		b.WriteString("//")
		if p.HasUser {
			b.WriteString(p.User)
			if p.HasPassword {
				b.WriteByte(':')
				b.WriteString(p.Password)
			}
			b.WriteByte('@')
		}
		if strings.IndexByte(p.Host, ':') >= 0 {
			b.WriteByte('[')
			b.WriteString(p.Host)
			b.WriteByte(']')
		} else {
			b.WriteString(p.Host)
		}
		if p.HasPort {
			b.WriteByte(':')
			b.WriteString(p.Port)
		}
		if p.HasPath {
			b.WriteByte('/')
		}
	}
	b.WriteString(p.Path)
	if p.HasSearch {
		b.WriteByte('?')
		b.WriteString(p.Search)
	}
	if p.HasFragment {
		b.WriteByte('#')
		b.WriteString(p.Fragment)
	}
	return b.String()
}

// URL parses p's String.
func (p *Parts) URL() (*URL, error) { return Parse(p.String()) }
