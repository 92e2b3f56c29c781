package locator

import "unsafe"

// parseResolved is Parse for the text b that a rule set composed against
// base (the URL it returns holds a copy), when b begins with base's scheme
// (in lower case) and ":", as every result of a reference without a
// scheme of its own does. The scheme is then known and needs no reading;
// and when the text goes on with "//" and base's authority byte for byte
// (the usual case, RFC 3986 §5.2.2 "T.authority = Base.authority"), and
// those fields are ones Parse reads back without a problem (copyAuthority
// checks them, trusting nothing cached in base), Parse would read that
// authority into the same fields: the authority's fields are taken from
// base, and only the rest (path, search, fragment, the scheme's own
// rules) is read and judged, as Parse does.
// The result, Problems and offsets included, is what Parse returns for
// the same text; TestResolveReadsAsParse and FuzzResolve compare the two.
//
// It reports false whenever that cannot be shown cheaply (the text does
// not begin with base's scheme, or Parse would read its beginning or end
// otherwise: white space, a "URL:" prefix) or Parse would reject the
// text; the caller then calls Parse.
//
// c says what was copied from base into b: base's authority is then not
// compared again, and the octets copied from parts of base and of the
// reference that hold no problem are not judged again (see composed).
func parseResolved(b []byte, base *URL, c composed) (*URL, bool) {
	sc := base.Scheme()
	n := len(sc)
	if n == 0 || len(b) <= n || len(b) > inputLimit || b[n] != ':' || string(b[:n]) != sc || isSpace(b[len(b)-1]) ||
		(n == 3 && hasPrefixFold(string(b[:4]), 0, "url:")) {
		return nil, false
	}
	entry := base.entry()
	syn := &genericSyntax
	if entry != nil {
		syn = &entry.syn
	}
	u, s := newURLText(b)
	u.in = s
	var p parser
	p.s, p.syn, p.entry, p.name = s, syn, entry, sc
	p.out.in = s
	p.out.o.sch, p.out.o.col = 0, int32(n)
	p.out.f = base.f & fEntry

	// From here on, what Parse does after the scheme.
	end := len(s)
	i := n + 1
	if end-i >= 2 && s[i] == '/' && s[i+1] == '/' {
		p.out.f |= fAuthority
		if t := copyAuthority(&p.out, s, base, syn, c.auth); t >= 0 {
			i = t
		} else {
			i = p.authority(i+2, end, entry != nil)
			if p.failed {
				return nil, false
			}
		}
		if i < end && s[i] == '/' {
			p.out.f |= fPath
			i++
		}
	} else {
		p.noAuthority(i)
	}
	p.tail(i, end, c.j)
	if p.failed {
		return nil, false
	}
	u.o, u.f = p.out.o, p.out.f // u.in is s already, u.x nil
	if p.nprobs() > 0 {
		x := new(extraWithRoom)
		x.problems = p.appendProblems(x.room[:0])
		u.x = &x.extra
	}
	if p.rules(u, nil); p.failed {
		return nil, false
	}
	return u, true
}

// cleanPath reports whether Parse found no problem in u's path.
func (u *URL) cleanPath() bool {
	if u.x == nil {
		return true
	}
	for _, q := range u.x.problems {
		if int(u.o.p) <= q.Offset && q.Offset <= int(u.o.pe) {
			return false
		}
	}
	return true
}

// copyAuthority sets the authority's offsets and flags in u, the URL
// being read from s, from base's, and returns where the authority ends in
// s, when s[len(scheme)+3:] holds base's authority byte for byte (same:
// the caller wrote it there, so it is not compared), s ends
// it there as Parse would (at "/", "#" or the end, or "?" where the
// scheme has a search), and its fields are ones Parse reads without a
// problem: a user and password of unreserved octets and ";&=" ("?" too
// where it begins no search), a hostname that cleanHost accepts, and no
// port or the scheme's default port. Otherwise it returns -1 and sets
// nothing, and the caller reads the authority as Parse does.
func copyAuthority(u *URL, s string, base *URL, syn *Syntax, same bool) int {
	if base.f&fPlain == 0 {
		// Not read by plainAuthority: judged here.
		if !base.HasAuthority() || !cleanLogin(base.User(), syn) || !cleanHost(base.Host()) ||
			(base.HasPassword() && !cleanLogin(base.Password(), syn)) {
			return -1
		}
		if base.HasPort() {
			if v, ok := portNumber(base.Port()); !ok || base.Port() == "" || (syn.DefaultPort != 0 && v != syn.DefaultPort) {
				return -1
			}
		}
	}
	auth := base.in[base.userAt():base.authEnd()]
	i := int(u.o.col) + 3
	t := i + len(auth)
	if len(s) < t || (!same && s[i:t] != auth) {
		return -1
	}
	if t < len(s) && s[t] != '/' && s[t] != '#' && (s[t] != '?' || !syn.Search) {
		return -1
	}
	d := int32(i - base.userAt())
	u.o.ue, u.o.h, u.o.he = base.o.ue+d, base.o.h+d, base.o.he+d
	u.f |= base.f & (fUser | fPassword | fPort | fPlain)
	return t
}

// cleanHost reports whether h is a hostname Parse reads without a
// problem: letters, digits, '-' and '.' in well-formed labels.
func cleanHost(h string) bool {
	for i := 0; i < len(h); i++ {
		if hostOK[h[i]] == 0 {
			return false
		}
	}
	return plainHostname(h)
}

// cleanLogin reports whether a user or password is octets Parse reads
// in a login part without a problem and without ending it: userOK's, but
// "?" where it begins a search.
func cleanLogin(f string, syn *Syntax) bool {
	for i := 0; i < len(f); i++ {
		if userOK[f[i]] == 0 || (f[i] == '?' && syn.Search) {
			return false
		}
	}
	return true
}

// newURLText returns a new URL and a string holding a copy of b, from
// one allocation when b is at most 960 octets, as resolved URLs are: the
// text is an array in the same object as the URL, after its pointers, so
// that the collector neither scans it nor tracks it apart. The array is
// written once, here, before any string refers to it, and never again.
func newURLText(b []byte) (*URL, string) {
	switch {
	case len(b) <= len(text128{}):
		return urlWithText[text128](b)
	case len(b) <= len(text160{}):
		return urlWithText[text160](b)
	case len(b) <= len(text192{}):
		return urlWithText[text192](b)
	case len(b) <= len(text224{}):
		return urlWithText[text224](b)
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
	case len(b) <= len(text640{}):
		return urlWithText[text640](b)
	case len(b) <= len(text768{}):
		return urlWithText[text768](b)
	case len(b) <= len(text1024{}):
		return urlWithText[text1024](b)
	}
	return new(URL), string(b)
}

// The arrays that make a URL and its text fill an object of one of the
// allocator's size classes (128, 160, 192, 224, 256, 288, 320, 384, 512,
// 640, 768 and 1024 bytes), whatever the size of URL.
const urlSize = int(unsafe.Sizeof(URL{}))

type (
	text128  [max(128-urlSize, 8)]byte
	text160  [max(160-urlSize, 16)]byte
	text192  [max(192-urlSize, 24)]byte
	text224  [max(224-urlSize, 28)]byte
	text256  [max(256-urlSize, 32)]byte
	text288  [max(288-urlSize, 64)]byte
	text320  [max(320-urlSize, 96)]byte
	text384  [max(384-urlSize, 128)]byte
	text512  [max(512-urlSize, 256)]byte
	text640  [max(640-urlSize, 320)]byte
	text768  [max(768-urlSize, 384)]byte
	text1024 [max(1024-urlSize, 512)]byte
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

// extraWithRoom is an extra part and room for its first problems, in one
// allocation: most URLs with a problem have one or two.
type extraWithRoom struct {
	extra
	room [2]Problem
}
