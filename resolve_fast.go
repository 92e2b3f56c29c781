package locator

import "unsafe"

// parseResolved is Parse for the text b that a rule set composed against
// base (the URL it returns holds a copy), when b begins with base's scheme
// (in lower case) and ":", as every result of a reference without a
// scheme of its own does. The scheme is then known and needs no reading;
// and when the text goes on with "//" and base's authority byte for byte
// (the usual case, RFC 3986 §5.2.2 "T.authority = Base.authority"), Parse
// would read that authority exactly as it read it in base.Input: same
// text, same scheme, ended by the same kind of delimiter. So when base
// carries no problem within its authority, the authority's fields and
// offsets are taken from base, shifted, and only the rest (path, search,
// fragment, the scheme's own rules) is read and judged, as Parse does.
// The result, Problems and offsets included, is what Parse returns for
// the same text; TestResolveReadsAsParse and FuzzResolve compare the two.
//
// It reports false whenever that cannot be shown cheaply (the text does
// not begin with base's scheme, or Parse would read its beginning or end
// otherwise: white space, a "URL:" prefix) or Parse would reject the
// text; the caller then calls Parse.
func parseResolved(b []byte, base *URL) (*URL, bool) {
	sc := base.Scheme
	n := len(sc)
	if n == 0 || len(b) <= n || b[n] != ':' || string(b[:n]) != sc || isSpace(b[len(b)-1]) ||
		(n == 3 && hasPrefixFold(string(b[:4]), 0, "url:")) {
		return nil, false
	}
	// The scheme as Parse reads it: scheme characters, lower case.
	for i := 0; i < n; i++ {
		if class[sc[i]]&(cScheme|cHialpha) != cScheme {
			return nil, false
		}
	}
	entry := findScheme(sc)
	syn := &genericSyntax
	if entry != nil {
		syn = &entry.syn
	}
	u, s := newURLText(b)
	u.Input, u.Scheme = s, s[:n]
	p := parser{u: u, s: s, syn: syn}

	// From here on, what Parse does after the scheme.
	end := len(s)
	i := n + 1
	if end-i >= 2 && s[i] == '/' && s[i+1] == '/' {
		u.Authority = true
		if t := copyAuthority(u, s, base, syn); t >= 0 {
			i = t
		} else {
			i = p.authority(i+2, end, entry != nil)
			if p.failed {
				return nil, false
			}
		}
		if i < end && s[i] == '/' {
			u.HasPath = true
			i++
		}
	} else {
		p.noAuthority(i)
	}
	p.tail(i, end, entry)
	if p.failed {
		return nil, false
	}
	return u, true
}

// copyAuthority sets the authority fields and offsets of u, the URL being
// read from s, from base's, and returns where the authority ends in
// s, when s[len(scheme)+3:] begins with base's authority as base.Input
// holds it, Parse found no problem in it, and s ends it where Parse
// ended it in base.Input (at "/", "#" or the end, or "?" where the scheme
// has a search). Otherwise it returns -1 and sets nothing.
//
// A URL not made by Parse, or changed since, fails these checks: its
// authority must be the text of base.Input between "//" and the path, its
// fields the text at their offsets.
func copyAuthority(u *URL, s string, base *URL, syn *Syntax) int {
	if !base.Authority {
		return -1
	}
	in := base.Input
	n := len(base.Scheme)
	so := int(base.off[SchemeComponent])
	ua := int(base.off[UserComponent])
	ae := int(base.off[PathComponent])
	if base.HasPath {
		ae--
	}
	if ua != so+n+3 || ae < ua || ae > len(in) || !hasPrefixFold(in, so, base.Scheme) ||
		in[so+n] != ':' || in[so+n+1] != '/' || in[so+n+2] != '/' {
		return -1
	}
	auth := in[ua:ae]
	t := n + 3 + len(auth) // where the authority would end in s
	if t > len(s) || s[n+3:t] != auth || (t < len(s) && s[t] != '/' && s[t] != '#' && (s[t] != '?' || !syn.Search)) {
		return -1
	}
	// Every problem Parse finds in an authority has an offset within it
	// (at its end, for an empty host or trailing white space).
	for i := range base.Problems {
		if o := base.Problems[i].Offset; o >= ua && o <= ae {
			return -1
		}
	}
	// Strings that share memory compare at once.
	if !within(in, base.off[UserComponent], base.User) || !within(in, base.off[PasswordComponent], base.Password) ||
		!within(in, base.off[HostComponent], base.Host) || !within(in, base.off[PortComponent], base.Port) {
		return -1
	}
	d := int32(n+3) - int32(ua) // from offsets in base.Input to offsets in s
	for c := UserComponent; c <= PortComponent; c++ {
		u.off[c] = base.off[c] + d
	}
	u.User = s[u.off[UserComponent] : int(u.off[UserComponent])+len(base.User)]
	u.Password = s[u.off[PasswordComponent] : int(u.off[PasswordComponent])+len(base.Password)]
	u.Host = s[u.off[HostComponent] : int(u.off[HostComponent])+len(base.Host)]
	u.Port = s[u.off[PortComponent] : int(u.off[PortComponent])+len(base.Port)]
	u.HasUser, u.HasPassword, u.HasPort = base.HasUser, base.HasPassword, base.HasPort
	return t
}

// within reports whether field is the text of s at offset off.
func within(s string, off int32, field string) bool {
	o := int(off)
	return o >= 0 && o+len(field) <= len(s) && s[o:o+len(field)] == field
}

// newURLText returns a new URL and a string holding a copy of b, from one
// allocation when b is short, as resolved URLs are: the text is an array
// in the same object as the URL, after its pointers, so that the
// collector neither scans it nor tracks it apart. The array is written
// once, here, before any string refers to it, and never again.
func newURLText(b []byte) (*URL, string) {
	switch {
	case len(b) <= len(text256{}):
		return urlWithText[text256](b)
	case len(b) <= len(text288{}):
		return urlWithText[text288](b)
	case len(b) <= len(text320{}):
		return urlWithText[text320](b)
	case len(b) <= len(text384{}):
		return urlWithText[text384](b)
	case len(b) <= len(text512{}):
		return urlWithText[text512](b)
	}
	return new(URL), string(b)
}

// The arrays that make a URL and its text fill an object of one of the
// allocator's size classes (256, 288, 320, 384 and 512 bytes), whatever
// the size of URL.
const urlSize = int(unsafe.Sizeof(URL{}))

type (
	text256 [max(256-urlSize, 32)]byte
	text288 [max(288-urlSize, 64)]byte
	text320 [max(320-urlSize, 96)]byte
	text384 [max(384-urlSize, 128)]byte
	text512 [max(512-urlSize, 256)]byte
)

// urlWithText allocates a URL followed by an array of type A, a [N]byte
// with N >= len(b), and copies b into the array. The steps of N keep the
// object near one of the allocator's size classes.
func urlWithText[A any](b []byte) (*URL, string) {
	x := new(struct {
		u URL
		t A
	})
	p := (*byte)(unsafe.Pointer(&x.t))
	copy(unsafe.Slice(p, len(b)), b)
	return &x.u, unsafe.String(p, len(b))
}
