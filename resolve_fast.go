package locator

import (
	"strings"
	"unsafe"
)

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
	if !readsAfterScheme(b, base) {
		return nil, false
	}
	u, s := newURLText(b)
	return readResolved(u, s, base, c)
}

// readsAfterScheme reports whether Parse reads the text b, composed
// against base, as base's scheme (in lower case) and ":" followed by the
// rest, with nothing to remove at its end: what readResolved takes as
// given.
func readsAfterScheme(b []byte, base *URL) bool {
	sc := base.Scheme()
	n := len(sc)
	return n > 0 && len(b) > n && len(b) <= inputLimit && b[n] == ':' && string(b[:n]) == sc && !isSpace(b[len(b)-1]) &&
		(n != 3 || !hasPrefixFold(string(b[:4]), 0, "url:"))
}

// readResolved is parseResolved once the text is s, held by u's object
// (newURLText, newURLRoom), and readsAfterScheme holds for it.
func readResolved(u *URL, s string, base *URL, c composed) (*URL, bool) {
	sc := base.Scheme()
	n := len(sc)
	entry := base.entry()
	syn := &genericSyntax
	if entry != nil {
		syn = &entry.syn
	}
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
// one allocation when b is at most 960 octets (newURLRoom).
func newURLText(b []byte) (*URL, string) {
	u, t := newURLRoom(len(b))
	t = append(t, b...)
	return u, unsafe.String(unsafe.SliceData(t), len(t))
}

// newURLRoom returns a new URL and an empty slice with room for n octets
// of its text: from one allocation when n is at most 960, as resolved
// URLs are, the room an array in the same object as the URL, after its
// pointers, so that the collector neither scans it nor tracks it apart.
// The object is the smallest of the allocator's size classes (every one
// from 128 to 1024 bytes) that holds both, for the collector's work
// grows with the bytes allocated. The caller writes the text once, before
// any string refers to it, and never again.
func newURLRoom(n int) (*URL, []byte) {
	if k := (n + urlSize + 15) >> 4; k < len(roomClass) {
		return roomMakers[roomClass[k]]()
	}
	return new(URL), make([]byte, 0, n)
}

// urlSize is the size of a URL (64 bytes). An object newURLRoom makes is
// a URL and an array that fills the rest of a size class; were URL to
// grow, the arrays would keep their room (the max below) and the objects
// fall in the next classes up.
const urlSize = int(unsafe.Sizeof(URL{}))

// roomSizes are the allocator's size classes from 128 bytes to 1024, and
// roomMakers the function that allocates an object of each.
var (
	roomSizes  = [...]int{128, 144, 160, 176, 192, 208, 224, 240, 256, 288, 320, 352, 384, 416, 448, 480, 512, 576, 640, 704, 768, 896, 1024}
	roomMakers = [len(roomSizes)]func() (*URL, []byte){
		urlWithRoom[[max(128-urlSize, 64)]byte], urlWithRoom[[max(144-urlSize, 80)]byte],
		urlWithRoom[[max(160-urlSize, 96)]byte], urlWithRoom[[max(176-urlSize, 112)]byte],
		urlWithRoom[[max(192-urlSize, 128)]byte], urlWithRoom[[max(208-urlSize, 144)]byte],
		urlWithRoom[[max(224-urlSize, 160)]byte], urlWithRoom[[max(240-urlSize, 176)]byte],
		urlWithRoom[[max(256-urlSize, 192)]byte], urlWithRoom[[max(288-urlSize, 224)]byte],
		urlWithRoom[[max(320-urlSize, 256)]byte], urlWithRoom[[max(352-urlSize, 288)]byte],
		urlWithRoom[[max(384-urlSize, 320)]byte], urlWithRoom[[max(416-urlSize, 352)]byte],
		urlWithRoom[[max(448-urlSize, 384)]byte], urlWithRoom[[max(480-urlSize, 416)]byte],
		urlWithRoom[[max(512-urlSize, 448)]byte], urlWithRoom[[max(576-urlSize, 512)]byte],
		urlWithRoom[[max(640-urlSize, 576)]byte], urlWithRoom[[max(704-urlSize, 640)]byte],
		urlWithRoom[[max(768-urlSize, 704)]byte], urlWithRoom[[max(896-urlSize, 832)]byte],
		urlWithRoom[[max(1024-urlSize, 960)]byte],
	}
	// roomClass[k]: the index in roomMakers of the first object whose
	// room holds n octets, for (n+urlSize+15)/16 == k; 16k is then the
	// size the two need, rounded up to the classes' step of 16.
	roomClass = func() (t [1024/16 + 1]uint8) {
		c := 0
		for k := range t {
			for c < len(roomSizes)-1 && roomSizes[c] < 16*k {
				c++
			}
			t[k] = uint8(c)
		}
		return t
	}()
)

// urlWithRoom allocates a URL followed by an array of type A, a [N]byte,
// and returns the array as an empty slice of capacity N.
func urlWithRoom[A any]() (*URL, []byte) {
	x := new(struct {
		u URL
		t A
	})
	return &x.u, unsafe.Slice((*byte)(unsafe.Pointer(&x.t)), unsafe.Sizeof(x.t))[:0]
}

// extraWithRoom is an extra part and room for its first problems, in one
// allocation: most URLs with a problem have one or two.
type extraWithRoom struct {
	extra
	room [2]Problem
}

// resolveDirect is Resolve under RFC 3986 for a base with an authority
// and a reference without a scheme, as nearly every reference is: it
// writes the §5.3 recomposition of the target straight into the room of
// the result's own object (newURLRoom), sized for it beforehand, and
// reads it there as parseResolved does; the text is neither composed
// elsewhere first nor copied. What the target keeps of the base (scheme
// and authority, with its path up to the last "/" for a merge, or all of
// path and query for an empty path) is one run of the base's text,
// copied in one piece. A merge with no dot segment in the base's part or
// in the reference's path (after the "./" and "../" that begin it, which
// drop the base's last segments instead: dropDots) needs no §5.2.4 pass;
// one with any is written as §5.2.3 merges it, and remove_dot_segments
// runs on it in place, as resolve3986 does.
//
// It reports false, having allocated nothing, when the base has no
// authority or a path not after a "/", the reference a scheme, or the
// text would be longer than Parse reads; Resolve then composes the text
// as for any rules.
func resolveDirect(base *URL, ref string) (*URL, bool, error) {
	var t directText
	if !t.plan(base, ref) {
		return nil, false, nil
	}
	u, b := newURLRoom(t.n)
	b = t.write(b)
	s := unsafe.String(unsafe.SliceData(b), len(b))
	// The text begins with base's scheme and ":", as written here; only
	// its last octet may make it what readResolved does not read.
	if !isSpace(s[len(s)-1]) && t.sc != "url" {
		if v, ok := readResolved(u, s, base, t.c); ok {
			return v, true, nil
		}
	}
	v, err := Parse(s)
	if err != nil {
		return nil, true, &ResolveError{Base: base.String(), Ref: ref, Rules: RFC3986, Result: s, Err: err}
	}
	return v, true, nil
}

// A directText is the text resolveDirect writes, in pieces: the base's
// scheme, head and head2, the path, and the reference's query and
// fragment.
type directText struct {
	r     refParts
	sc    string // the base's scheme
	head  string // base's text from the ":" after its scheme, or "://"
	head2 string // the reference's authority, or "/" before a merged path when base has none
	path  string // the path written after them (when dots, as §5.2.3 merges it)
	start int    // where the target's path begins in the text
	n     int    // the text's length, at most
	dots  bool   // remove_dot_segments is to run on the path
	// merge: the path is merged; cleanBase: the base's part of it holds
	// no problem.
	merge, cleanBase bool
	c                composed
}

// plan splits ref and sets t's pieces for it against base, and reports
// whether resolveDirect writes it.
func (t *directText) plan(base *URL, ref string) bool {
	if !base.HasAuthority() {
		return false
	}
	r := &t.r
	splitRef3986(r, ref)
	if r.hasScheme {
		return false
	}
	in, sc := base.in, base.Scheme()
	col, bp := int(base.o.col), int(base.o.p) // base's path begins at in[bp]
	t.sc = sc
	switch {
	case r.hasAuth:
		// "T.authority = R.authority; T.path = remove_dot_segments(R.path)"
		t.head, t.head2, t.path = "://", r.auth, r.path
		t.start = len(sc) + 3 + len(r.auth)
		t.dots = r.hasPathDots()
	case r.path == "":
		// "T.path = Base.path; if defined(R.query) then T.query =
		// R.query else T.query = Base.query": base's text to the end of
		// its path or its query.
		p, q, hasQ := base.genericPathQuery()
		if !base.HasPath() && p != "" {
			return false
		}
		end := bp + len(p)
		if base.cleanPath() {
			t.c.j.path = len(sc) + end - col
		}
		if !r.hasQuery && hasQ {
			end += 1 + len(q)
		}
		t.head, t.c.auth = in[col:end], true
	case r.path[0] == '/':
		// "T.path = remove_dot_segments(R.path)"
		t.head, t.path, t.c.auth = in[col:base.authEnd()], r.path, true
		t.start = len(sc) + len(t.head)
		t.dots = r.hasPathDots()
	default:
		// §5.2.3: "return a string consisting of the reference's path
		// component appended to all but the last segment of the base
		// URI's path", or "/" and the reference's path when the base
		// has an authority and an empty path.
		p, _, _ := base.genericPathQuery()
		end := bp // the base's part ends at in[end]
		switch {
		case base.HasPath():
			end += strings.LastIndexByte(p, '/') + 1
			t.cleanBase = end == bp || base.cleanPath()
		case p == "":
			t.head2, t.cleanBase = "/", true
		default:
			return false
		}
		t.merge, t.c.auth = true, true
		t.start = len(sc) + base.authEnd() - col
		t.path, t.dots = r.path, true
		if !hasDotSegment(in[bp:end]) {
			if rest, e, ok := dropDots(in, bp, end, r.path, r.hasPathDots()); ok {
				t.path, end, t.dots = rest, e, false
			}
		}
		t.head = in[col:end]
	}
	n := len(sc) + len(t.head) + len(t.head2) + len(t.path)
	if t.dots {
		n++ // guardPath's "/"
	}
	if r.hasQuery {
		n += 1 + len(r.query)
	}
	if r.hasFrag {
		n += 1 + len(r.frag)
	}
	t.n = n
	return n <= inputLimit
}

// write appends the text to b, which has room for t.n octets, and sets
// t.c to what Parse need not judge again in it.
func (t *directText) write(b []byte) []byte {
	r, c := &t.r, &t.c
	b = append(b, t.sc...)
	b = append(b, t.head...)
	b = append(b, t.head2...)
	from := len(b) // the reference's path begins
	b = append(b, t.path...)
	switch {
	case t.dots:
		start := t.start
		k, same := removeDotSegments(b[start:])
		b = b[:start+k]
		m := len(b)
		b = guardPath(b, start, true)
		if !t.merge || t.cleanBase {
			if r.cleanPath {
				c.j.path = len(b)
			} else if t.merge && len(b) == m {
				// The base's octets, where no guard moved them.
				c.j.path = start + min(from-start, same)
			}
		}
	case r.cleanPath && (!t.merge || t.cleanBase) && r.path != "":
		c.j.path = len(b)
	case t.merge && t.cleanBase:
		c.j.path = from
	}
	// The query and fragment of the reference, when clean, are passed
	// over, as resolve3986 does.
	r.passOverTail(c, len(b))
	return r.appendTail(b)
}

// genericPathQuery returns u's path and query as the generic syntax
// splits them (baseParts.read), the path without the "/" before it.
func (u *URL) genericPathQuery() (path, query string, hasQuery bool) {
	path = u.Path()
	if u.syntax().Search {
		return path, u.Search(), u.HasSearch()
	}
	if i := strings.IndexByte(path, '?'); i >= 0 {
		return path[:i], path[i+1:], true
	}
	return path, "", false
}

// dropDots is rules B and C of RFC 3986 §5.2.4 where a reference's path
// p meets the base's part of a merged path, in[bp:end] after the "/" at
// in[bp-1], which holds no dot segment: so merged, every segment of the
// base's part is moved to the output by rule E, and each "./" or "../"
// that begins p meets the input as "/./" or "/../", which drops nothing
// or the output's last segment (a final "." or ".." as "/." or "/..").
// It returns what is left of p, where the base's part now ends, and
// whether what is left holds no dot segment either: then the two,
// merged, are the path remove_dot_segments writes. dots is
// hasDotSegment(p).
func dropDots(in string, bp, end int, p string, dots bool) (string, int, bool) {
	if !dots {
		return p, end, true // none to drop, none left
	}
	for len(p) > 0 && p[0] == '.' {
		switch {
		case p == "." || p[1] == '/':
			p = p[min(2, len(p)):]
		case p[1] == '.' && (len(p) == 2 || p[2] == '/'):
			p = p[min(3, len(p)):]
			if end > bp {
				end = bp + strings.LastIndexByte(in[bp:end-1], '/') + 1
			}
		default:
			return p, end, false
		}
	}
	return p, end, !hasDotSegment(p)
}

// hasPathDots reports whether a dot segment begins in the reference's
// path (hasDotSegment), as splitRef3986 saw it where it could.
func (p *refParts) hasPathDots() bool {
	if p.cleanPath {
		return p.pathDots
	}
	return hasDotSegment(p.path)
}

// hasDotSegment reports whether a "." begins a segment of p: p's first
// octet, or one after "/".
func hasDotSegment(p string) bool {
	return len(p) > 0 && (p[0] == '.' || hasSlashDot(p))
}

// hasSlashDot reports whether "/." is in p. It reads eight octets at a
// time, as words in which it marks the octets equal to "/" and those
// equal to ".", and looks for a mark of "/" just before one of "."; the
// words overlap by an octet so that no pair is split.
func hasSlashDot(p string) bool {
	i := 0
	for ; len(p)-i >= 8; i += 7 {
		x := wordLE(p[i : i+8])
		if (octetsEqual(x, '/')<<8)&octetsEqual(x, '.') != 0 {
			return true
		}
	}
	for i++; i < len(p); i++ {
		if p[i] == '.' && p[i-1] == '/' {
			return true
		}
	}
	return false
}

// cleanPathPrefix returns cleanPrefix(s, &xcharNoSearch), the length of
// the part of a reference's path that Parse reads without a problem, and
// whether a dot segment begins in that part (hasDotSegment). The words
// of eight allowed octets that begin s are judged and looked at for "/."
// in the same pass (a "/" that ends one word and a "." that begins the
// next included); the octets after them are left to cleanPrefix and
// hasSlashDot.
func cleanPathPrefix(s string) (int, bool) {
	ok := &xcharNoSearch
	i := 0
	var pairs, slash uint64 // "/" then "." marks; the last word's final "/", at the first octet
	for len(s)-i >= 8 {
		w := s[i : i+8]
		if ok[w[0]]&ok[w[1]]&ok[w[2]]&ok[w[3]]&ok[w[4]]&ok[w[5]]&ok[w[6]]&ok[w[7]] == 0 {
			break
		}
		x := wordLE(w)
		sl := octetsEqual(x, '/')
		pairs |= (sl<<8 | slash) & octetsEqual(x, '.')
		slash = sl >> 56
		i += 8
	}
	// Words of allowed octets end no escape, so the rest is read as
	// cleanPrefix reads it from the start.
	k := i + cleanPrefix(s[i:], ok)
	dots := len(s) > 0 && s[0] == '.' || pairs != 0 || hasSlashDot(s[max(i-1, 0):k])
	return k, dots
}

// wordLE returns the eight octets of w as a little-endian word (one
// load).
func wordLE(w string) uint64 {
	return uint64(w[0]) | uint64(w[1])<<8 | uint64(w[2])<<16 | uint64(w[3])<<24 |
		uint64(w[4])<<32 | uint64(w[5])<<40 | uint64(w[6])<<48 | uint64(w[7])<<56
}

// octetsEqual returns the octets of x equal to c marked by their high
// bit, the others zero: exactly, with no carry from one octet into the
// next.
func octetsEqual(x uint64, c byte) uint64 {
	const lo7, hi = 0x7f7f7f7f7f7f7f7f, 0x8080808080808080
	t := x ^ (uint64(c) * 0x0101010101010101)
	return ^(((t & lo7) + lo7) | t) & hi
}
