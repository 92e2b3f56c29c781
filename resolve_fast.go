package locator

import (
	"math/bits"
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
	return readResolved(u, s, base, base.entry(), &c)
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
// (newURLText, newURLRoom), and readsAfterScheme holds for it; entry is
// base.entry().
func readResolved(u *URL, s string, base *URL, entry *schemeEntry, c *composed) (*URL, bool) {
	n := len(base.Scheme())
	syn := &genericSyntax
	if entry != nil {
		syn = &entry.syn
	}
	u.in = s
	// Where Parse would find nothing to report and nothing to read but
	// delimiters, the offsets and flags are set here as copyAuthority (or
	// plainAuthority) and parser.tail set them: base's authority, read by
	// plainAuthority, follows "://" byte for byte, or a hostname alone,
	// and every octet of the path, search and fragment after it is one c
	// marks as judged, and the URL has no password (Parse warns of one).
	// The scheme's rules, if any, then judge the URL as Parse has them
	// do (applyRules).
	if base.f&(fPlain|fPassword) != fPlain || n+3 > len(s) || s[n+1] != '/' || s[n+2] != '/' || len(s) > maxShort {
		return readParsed(u, s, base, entry, syn, c)
	}
	at := base.userAt()
	i := n + 3
	t := i + base.authEnd() - at
	end := len(s)
	var f flags
	var ue, h, he int32
	if end >= t && (c.auth || s[i:t] == base.in[at:t-i+at]) {
		d := int32(i - at)
		f = base.f&(fEntry|fUser|fPassword|fPort|fPlain) | fAuthority
		ue, h, he = int32(base.userEnd())+d, int32(base.hostAt())+d, int32(base.hostEnd())+d
	} else {
		// Another authority (the reference's own): a hostname alone, as
		// plainAuthority reads it.
		if c.hostLen > 0 {
			t = i + c.hostLen
		} else {
			t = i + allowedPrefix(s[i:], &hostOK)
		}
		if !plainHostname(s[i:t]) {
			return readParsed(u, s, base, entry, syn, c)
		}
		f = base.f&fEntry | fAuthority | fPlain
		ue, h, he = int32(i), int32(i), int32(t)
	}
	if t < end {
		switch s[t] {
		case '/':
			f |= fPath
			t++
		case '#':
		case '?':
			if !syn.Search {
				return readParsed(u, s, base, entry, syn, c)
			}
		default:
			return readParsed(u, s, base, entry, syn, c)
		}
	}
	// The path: the octets before c.j.path judged, and an end there;
	// where "?" begins no search, the path runs on through a query
	// judged as clean (the octets its scan allows).
	pe := max(t, c.j.path)
	if pe < end && s[pe] == '?' && !syn.Search && c.j.query == pe && pe != 0 {
		pe = c.j.search
	}
	j := pe
	if j < end {
		switch {
		case s[j] == '?' && syn.Search:
			if c.j.query != j || j == 0 {
				return readParsed(u, s, base, entry, syn, c)
			}
			f |= fSearch
			j = c.j.search
		case s[j] != '#':
			return readParsed(u, s, base, entry, syn, c)
		}
	}
	se := j
	if j < end {
		if s[j] != '#' || c.j.frag != j || j == 0 {
			return readParsed(u, s, base, entry, syn, c)
		}
		f |= fFragment
	}
	u.o = shortOffsets{sch: 0, col: uint16(n), ue: uint16(ue), h: uint16(h), he: uint16(he), p: uint16(t), pe: uint16(pe), se: uint16(se), end: uint16(end)}
	u.f = f
	// (u has no problem of its own to sort: checks first, to spare the
	// call where no rules apply.)
	if entry != nil && entry.checks(f) && applyRules(entry, u, nil) {
		return nil, false // Parse refuses the text: the caller calls it for the error
	}
	return u, true
}

// readParsed is readResolved where there is something to read or judge:
// the parser's part, apart so that the rest need not set up a parser.
//
//go:noinline
func readParsed(u *URL, s string, base *URL, entry *schemeEntry, syn *Syntax, c *composed) (*URL, bool) {
	sc := base.Scheme()
	n := len(sc)
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
	p.copyOut(u) // u.in is s already
	if p.nprobs() > 0 {
		x := new(extraWithRoom)
		x.problems = p.appendProblems(x.room[:0])
		u.x = &x.extra
	}
	p.longOffsets(u)
	if p.rules(u, nil); p.failed {
		return nil, false
	}
	return u, true
}

// cleanPath reports whether Parse found no problem in u's path. Past
// MaxProblems, the problems left out are counted by one of rule "url",
// at the offset of the first: they may lie anywhere from there on, and
// the path is then not taken as clean.
func (u *URL) cleanPath() bool {
	if u.x == nil {
		return true
	}
	for _, q := range u.x.problems {
		if u.pathAt() <= q.Offset && q.Offset <= u.pathEnd() || q.Rule == "url" {
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
func copyAuthority(u *reading, s string, base *URL, syn *Syntax, same bool) int {
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
	u.o.ue, u.o.h, u.o.he = int32(base.userEnd())+d, int32(base.hostAt())+d, int32(base.hostEnd())+d
	u.f |= base.f & (fUser | fPassword | fPort | fPlain)
	return t
}

// cleanHost reports whether h is a hostname Parse reads without a
// problem: letters, digits, '-' and '.' in well-formed labels.
func cleanHost(h string) bool {
	for i := 0; i < len(h); i++ {
		if hostOK.t[h[i]] == 0 {
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
		if userOK.t[f[i]] == 0 || (f[i] == '?' && syn.Search) {
			return false
		}
	}
	return true
}

// newURLText returns a new URL and a string holding a copy of b, from
// one allocation when b is at most 952 octets (newURLRoom).
func newURLText(b []byte) (*URL, string) {
	u, t := newURLRoom(len(b))
	t = append(t, b...)
	return u, unsafe.String(unsafe.SliceData(t), len(t))
}

// newURLRoom returns a new URL and an empty slice with room for n octets
// of its text: from one allocation when n is at most 952, as resolved
// URLs are, the room an array in the same object as the URL, after its
// pointers, so that the collector neither scans it nor tracks it apart.
// The object is the smallest of the allocator's size classes (every one
// from 64 to 1024 bytes) that holds both, for the collector's work
// grows with the bytes allocated: most resolved URLs of the corpora need
// 80, 96 or 112 bytes. The caller writes the text once, before any
// string refers to it, and never again.
func newURLRoom(n int) (*URL, []byte) {
	if n <= maxRoom {
		return roomMakers[roomClass[(n+urlSize+7)>>3]]()
	}
	return new(URL), make([]byte, 0, n)
}

// urlSize is the size of a URL (48 bytes). An object newURLRoom makes is
// a URL and an array that fills the rest of a size class; were URL to
// grow, the arrays would keep their room (the max below) and the objects
// fall in the next classes up.
const urlSize = int(unsafe.Sizeof(URL{}))

// roomSizes are the allocator's size classes from 64 bytes to 1024, and
// roomMakers the function that allocates an object of each. An object
// with pointers larger than 512 bytes begins with a header of 8 bytes,
// which its class must hold too.
var (
	roomSizes  = [...]int{64, 80, 96, 112, 128, 144, 160, 176, 192, 208, 224, 240, 256, 288, 320, 352, 384, 416, 448, 480, 512, 576, 640, 704, 768, 896, 1024}
	roomMakers = [len(roomSizes)]func() (*URL, []byte){
		urlWithRoom[[max(64-urlSize, 0)]byte], urlWithRoom[[max(80-urlSize, 16)]byte],
		urlWithRoom[[max(96-urlSize, 32)]byte], urlWithRoom[[max(112-urlSize, 48)]byte],
		urlWithRoom[[max(128-urlSize, 64)]byte], urlWithRoom[[max(144-urlSize, 80)]byte],
		urlWithRoom[[max(160-urlSize, 96)]byte], urlWithRoom[[max(176-urlSize, 112)]byte],
		urlWithRoom[[max(192-urlSize, 128)]byte], urlWithRoom[[max(208-urlSize, 144)]byte],
		urlWithRoom[[max(224-urlSize, 160)]byte], urlWithRoom[[max(240-urlSize, 176)]byte],
		urlWithRoom[[max(256-urlSize, 192)]byte], urlWithRoom[[max(288-urlSize, 224)]byte],
		urlWithRoom[[max(320-urlSize, 256)]byte], urlWithRoom[[max(352-urlSize, 288)]byte],
		urlWithRoom[[max(384-urlSize, 320)]byte], urlWithRoom[[max(416-urlSize, 352)]byte],
		urlWithRoom[[max(448-urlSize, 384)]byte], urlWithRoom[[max(480-urlSize, 416)]byte],
		urlWithRoom[[max(512-urlSize, 448)]byte], urlWithRoom[[max(576-8-urlSize, 504)]byte],
		urlWithRoom[[max(640-8-urlSize, 568)]byte], urlWithRoom[[max(704-8-urlSize, 632)]byte],
		urlWithRoom[[max(768-8-urlSize, 696)]byte], urlWithRoom[[max(896-8-urlSize, 824)]byte],
		urlWithRoom[[max(1024-8-urlSize, 952)]byte],
	}
	// roomCaps: the room of each of roomMakers' objects, learnt once by
	// making one; maxRoom the largest.
	roomCaps = func() (t [len(roomMakers)]int) {
		for c, newRoom := range roomMakers {
			_, b := newRoom()
			t[c] = cap(b)
		}
		return t
	}()
	maxRoom = roomCaps[len(roomCaps)-1]
	// roomClass[k]: the index in roomMakers of the first object whose
	// room holds n octets, for (n+urlSize+7)/8 == k and n <= maxRoom:
	// every room is a multiple of 8 octets, so that one holds n octets
	// when it holds 8k-urlSize.
	roomClass = func() (t [(1024 + 64) / 8]uint8) {
		c := 0
		for k := range t {
			for c < len(roomCaps)-1 && roomCaps[c] < 8*k-urlSize {
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
	if !base.HasAuthority() {
		return nil, false, nil
	}
	var r refParts
	splitRef3986(&r, ref)
	if r.hasScheme {
		return nil, false, nil
	}
	// The text is the base's scheme, head and head2, the path, and the
	// reference's query and fragment. head is base's text from the ":"
	// after its scheme, or "://"; head2 the reference's authority, or "/"
	// before a merged path when base has none; start is where the
	// target's path begins in the text, and dots says that
	// remove_dot_segments is to run on the path (then written as §5.2.3
	// merges it). merge: the path is merged; cleanBase: the base's part
	// of it holds no problem.
	in, sc := base.in, base.Scheme()
	col, bp := base.colonAt(), base.pathAt() // base's path begins at in[bp]
	entry := base.entry()
	syn := &genericSyntax
	if entry != nil {
		syn = &entry.syn
	}
	var c composed
	var head, head2, path string
	start := 0
	dots, merge, cleanBase := false, false, false
	switch {
	case r.hasAuth:
		// "T.authority = R.authority; T.path = remove_dot_segments(R.path)"
		head, head2, path = "://", r.auth, r.path
		start = len(sc) + 3 + len(r.auth)
		if r.hostAuth {
			c.hostLen = len(r.auth)
		}
		dots = r.hasPathDots()
	case r.path == "":
		// "T.path = Base.path; if defined(R.query) then T.query =
		// R.query else T.query = Base.query": base's text to the end of
		// its path or its query.
		p, q, hasQ := base.genericPathQuery(syn.Search)
		if !base.HasPath() && p != "" {
			return nil, false, nil
		}
		end := bp + len(p)
		if base.cleanPath() {
			c.j.path = len(sc) + end - col
		}
		if !r.hasQuery && hasQ {
			end += 1 + len(q)
		}
		head, c.auth = in[col:end], true
	case r.path[0] == '/':
		// "T.path = remove_dot_segments(R.path)"
		head, path, c.auth = in[col:base.authEnd()], r.path, true
		start = len(sc) + len(head)
		dots = r.hasPathDots()
	default:
		// §5.2.3: "return a string consisting of the reference's path
		// component appended to all but the last segment of the base
		// URI's path", or "/" and the reference's path when the base
		// has an authority and an empty path.
		p, _, _ := base.genericPathQuery(syn.Search)
		end := bp // the base's part ends at in[end]
		switch {
		case base.HasPath():
			end += lastSlashIn(p) + 1
			cleanBase = end == bp || base.cleanPath()
		case p == "":
			head2, cleanBase = "/", true
		default:
			return nil, false, nil
		}
		merge, c.auth = true, true
		start = len(sc) + base.authEnd() - col
		path, dots = r.path, true
		if !hasDotSegment(in[bp:end]) {
			if rest, e, ok := dropDots(in, bp, end, r.path, r.hasPathDots()); ok {
				path, end, dots = rest, e, false
			}
		}
		head = in[col:end]
	}
	n := len(sc) + len(head) + len(head2) + len(path)
	if dots {
		n++ // guardPath's "/"
	}
	if r.hasQuery {
		n += 1 + len(r.query)
	}
	if r.hasFrag {
		n += 1 + len(r.frag)
	}
	if n > inputLimit {
		return nil, false, nil
	}

	u, b := newURLRoom(n)
	if x := base.x; x == nil || x.scheme == "" {
		b = append(b, in[base.schemeAt():col+len(head)]...) // the scheme as written (in lower case), and head
	} else {
		b = append(b, sc...)
		b = append(b, head...)
	}
	if head2 != "" {
		b = append(b, head2...)
	}
	from := len(b) // the reference's path begins
	if path != "" {
		b = append(b, path...)
	}
	switch {
	case dots:
		k, same := removeDotSegments(b[start:])
		b = b[:start+k]
		m := len(b)
		b = guardPath(b, start, true)
		if !merge || cleanBase {
			if r.cleanPath {
				c.j.path = len(b)
			} else if merge && len(b) == m {
				// The base's octets, where no guard moved them.
				c.j.path = start + min(from-start, same)
			}
		}
	case r.cleanPath && (!merge || cleanBase) && r.path != "":
		c.j.path = len(b)
	case merge && cleanBase:
		c.j.path = from
	}
	// The query and fragment of the reference, when clean, are passed
	// over, as resolve3986 does.
	r.passOverTail(&c, len(b))
	b = r.appendTail(b)

	s := unsafe.String(unsafe.SliceData(b), len(b))
	// The text begins with base's scheme and ":", as written here; only
	// its last octet may make it what readResolved does not read.
	if !isSpace(s[len(s)-1]) && sc != "url" {
		if v, ok := readResolved(u, s, base, entry, &c); ok {
			return v, true, nil
		}
	}
	v, err := Parse(s)
	if err != nil {
		return nil, true, &ResolveError{Base: base.String(), Ref: ref, Rules: RFC3986, Result: s, Err: err}
	}
	return v, true, nil
}

// genericPathQuery returns u's path and query as the generic syntax
// splits them (baseParts.read), the path without the "/" before it;
// search is u.syntax().Search.
func (u *URL) genericPathQuery(search bool) (path, query string, hasQuery bool) {
	path = u.Path()
	if search {
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
				end = bp + lastSlashIn(in[bp:end-1]) + 1
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
// octet, or one after "/". The "."s are found by strings.IndexByte, many
// octets at a time: a path holds few (a name's extension), and fewer
// still begin a segment.
func hasDotSegment(p string) bool {
	for i := 0; ; i++ {
		k := strings.IndexByte(p[i:], '.')
		if k < 0 {
			return false
		}
		if i += k; i == 0 || p[i-1] == '/' {
			return true
		}
	}
}

// cleanPathPrefix returns cleanPrefix(s, &xcharNoSearch), the length of
// the part of a reference's path that Parse reads without a problem, and
// whether a dot segment begins in that part (hasDotSegment). The path is
// read once: the scan stops at each "." (a path holds few: an
// extension), and from the first that begins a segment on, or from an
// escape, the rest is read as cleanRun and hasDotSegment read it.
func cleanPathPrefix(s string) (int, bool) {
	i := 0
	for {
		k := i + allowedPrefix(s[i:], &xcharNoSearchNoDot)
		if k == len(s) {
			return k, false
		}
		switch s[k] {
		case '.':
			if k == 0 || s[k-1] == '/' {
				return k + cleanRun(s[k:], &xcharNoSearch), true
			}
			i = k + 1
			continue
		case '%':
			e := k + cleanPrefix(s[k:], &xcharNoSearch)
			return e, hasDotSegment(s[k:e])
		}
		return k, false
	}
}

// cleanRun returns cleanPrefix(s, ok): the octets ok allows are passed
// over by allowedPrefix, and an escape after them left to cleanPrefix.
func cleanRun(s string, ok *octetSet) int {
	k := allowedPrefix(s, ok)
	if k < len(s) && s[k] == '%' {
		k += cleanPrefix(s[k:], ok)
	}
	return k
}

// allowedPrefixWords returns the length of the longest prefix of s of
// octets ok allows, read eight at a time, the last eight where s ends
// (allowedPrefix where there is no vector scan).
func allowedPrefixWords(s string, ok *octetSet) int {
	n := len(s)
	if n < 8 {
		i := 0
		for i < n && ok.t[s[i]] != 0 {
			i++
		}
		return i
	}
	i := 0
	for n-i >= 16 {
		w := s[i : i+16]
		if (ok.t[w[0]]&ok.t[w[1]])&(ok.t[w[2]]&ok.t[w[3]])&(ok.t[w[4]]&ok.t[w[5]])&(ok.t[w[6]]&ok.t[w[7]])&
			(ok.t[w[8]]&ok.t[w[9]])&(ok.t[w[10]]&ok.t[w[11]])&(ok.t[w[12]]&ok.t[w[13]])&(ok.t[w[14]]&ok.t[w[15]]) == 0 {
			break
		}
		i += 16
	}
	for n-i >= 8 {
		w := s[i : i+8]
		if ok.t[w[0]]&ok.t[w[1]]&ok.t[w[2]]&ok.t[w[3]]&ok.t[w[4]]&ok.t[w[5]]&ok.t[w[6]]&ok.t[w[7]] == 0 {
			return i + okPrefix(ok, w)
		}
		i += 8
	}
	if i == n {
		return n
	}
	return i + bits.TrailingZeros8(^(okMask(ok, s[n-8:]) >> (8 - (n - i))))
}

// notAuthorityEnd: the octets that do not end an authority in a
// reference (RFC 3986 Appendix B: "/", "?" and "#" do).
var notAuthorityEnd = func() (s octetSet) {
	for c := range s.t {
		s.t[c] = 1
	}
	s.t['/'], s.t['?'], s.t['#'] = 0, 0, 0
	s.vectorize()
	return s
}()

// lastSlashIn returns the index of the last "/" in s, or -1, reading
// eight octets at a time from the end.
func lastSlashIn(s string) int {
	i := len(s)
	for ; i >= 8; i -= 8 {
		if m := octetsEqual(load8(s[i-8:]), '/'); m != 0 {
			return i - 8 + (63-bits.LeadingZeros64(m))/8
		}
	}
	for i--; i >= 0; i-- {
		if s[i] == '/' {
			return i
		}
	}
	return -1
}

// octetsEqual returns the octets of x equal to c marked by their high
// bit, the others zero: exactly, with no carry from one octet into the
// next.
func octetsEqual(x uint64, c byte) uint64 {
	const lo7, hi = 0x7f7f7f7f7f7f7f7f, 0x8080808080808080
	t := x ^ (uint64(c) * 0x0101010101010101)
	return ^(((t & lo7) + lo7) | t) & hi
}
