package locator

import (
	"bytes"
	"strconv"
	"strings"
)

// A Resolution names a set of rules for reading a partial form (a relative
// reference) against a base URL. The three differ on real inputs; see
// docs/relate.md for the table of cases.
type Resolution uint8

const (
	// RFC3986 is the algorithm of RFC 3986 §5.2 ("Relative Resolution"):
	// §5.2.2 transform references (strict: a scheme in the reference
	// makes it absolute), §5.2.3 merge paths, §5.2.4 remove_dot_segments
	// and §5.3 recomposition. It is the default.
	RFC3986 Resolution = iota
	// RFC1808 is the algorithm of RFC 1808 §4 ("Resolving Relative
	// URLs"), steps 1–7, with §2.4's parse of a URL into scheme,
	// net_loc, path, params, query and fragment.
	RFC1808
	// Draft1993 is the "Partial form" section of the October 1993 URL
	// draft (Berners-Lee), the rules the WWW library of the time
	// (libwww: Lynx, Mosaic) followed.
	Draft1993
	numResolutions
)

var resolutionNames = [numResolutions]string{"rfc3986", "rfc1808", "draft1993"}

// String returns the rule set's name as ParseResolution reads it.
func (r Resolution) String() string {
	if r < numResolutions {
		return resolutionNames[r]
	}
	return "resolution(" + strconv.Itoa(int(r)) + ")"
}

// MarshalText writes the rule set's name, as used in JSON output.
func (r Resolution) MarshalText() ([]byte, error) { return []byte(r.String()), nil }

// ParseResolution returns the rule set named "rfc3986", "rfc1808" or
// "draft1993" (case is ignored).
func ParseResolution(name string) (Resolution, error) {
	for i, n := range resolutionNames {
		if len(n) == len(name) && hasPrefixFold(name, 0, n) {
			return Resolution(i), nil
		}
	}
	return 0, &UnknownResolutionError{Name: name}
}

// UnknownResolutionError reports a rule-set name ParseResolution does not
// know.
type UnknownResolutionError struct{ Name string }

func (e *UnknownResolutionError) Error() string {
	return "locator: unknown resolution rules " + strconv.Quote(e.Name) + " (want rfc3986, rfc1808 or draft1993)"
}

// ResolveError reports a partial form that names no usable URL against its
// base: the base is missing, or the URL the rules compose cannot be read
// by Parse (a host or port the reference supplies is unreadable).
type ResolveError struct {
	Base  string     // the base URL, as written (String of the base)
	Ref   string     // the reference, as given
	Rules Resolution // the rule set used
	// Result is the text the rules composed; Err's offsets refer to it.
	// Empty when the base is missing.
	Result string
	Err    error // a *ParseError, or nil when the base is missing
}

func (e *ResolveError) Error() string {
	msg := "locator: resolve " + strconv.Quote(e.Ref) + " against " + strconv.Quote(e.Base) + " (" + e.Rules.String() + "): "
	if e.Err == nil {
		return msg + "no base URL"
	}
	if pe, ok := e.Err.(*ParseError); ok {
		return msg + "result " + strconv.Quote(e.Result) + ": " + pe.Problem.String()
	}
	return msg + e.Err.Error()
}

// Unwrap returns the underlying *ParseError.
func (e *ResolveError) Unwrap() error { return e.Err }

// Resolve returns the absolute URL that the reference ref, a partial or a
// full form as written, names in the context of base, under the rule set
// r. The base's fragment is never inherited, except that RFC 1808 §4 step
// 2a gives an entirely empty reference the whole base, fragment included.
//
// A reference in a "<...>" or "<URL:...>" wrapper, or with a "URL:"
// prefix or surrounding white space (RFC 1738 Appendix), is unwrapped
// first. The rules are scheme-independent, as RFC 1808 §2.3 and RFC 3986
// §5.2 describe them: for a base without hierarchy (news:, mailto:, any
// part that does not begin with "/") a relative path replaces the whole
// scheme-specific part ("news:a.b" with "c@d" gives "news:c@d", the 1993
// draft's "a reference to a news group or to another article will be a
// valid URL (in the partial form)"), and an empty reference or a fragment
// alone names the base itself. See docs/relate.md.
//
// The result is what Parse makes of the composed text, so its Input,
// offsets and Problems describe it. Resolve fails, with a *ResolveError,
// only when base is nil or that text cannot be parsed.
func Resolve(base *URL, ref string, r Resolution) (*URL, error) {
	if base == nil {
		return nil, &ResolveError{Ref: ref, Rules: r}
	}
	// Under RFC 3986 with a base that has an authority (nearly every
	// case), resolveDirect writes the result in its own object. The
	// base's text is read before the reference is (its ":" after the
	// scheme, always there), so that the wait for its memory, often out
	// of cache (the base was parsed long before), overlaps the reading
	// of the reference rather than following it.
	direct := r != RFC1808 && r != Draft1993 && base.HasAuthority()
	var colon byte
	if direct {
		colon = base.in[base.colonAt()]
	}
	if mayUnwrap(ref) {
		ref = unwrapRef(ref)
	}
	if direct && colon == ':' {
		if u, done, err := resolveDirect(base, ref); done {
			return u, err
		}
	}
	// Otherwise the text is composed on the stack, in a buffer no larger
	// than the base's and the reference's octets and a "/." guard need
	// (the result is at most those), for a buffer is zeroed before use:
	// 128 octets for most, 256 or 1 KiB for the rest (the corpora's
	// longest result is 648); a longer one spills to the heap.
	if n := len(base.in) + len(ref) + 3; n > 128 {
		if n > 256 {
			return resolve1K(base, ref, r)
		}
		return resolve256(base, ref, r)
	}
	var buf [128]byte
	return resolveIn(buf[:0], base, ref, r)
}

//go:noinline
func resolve256(base *URL, ref string, r Resolution) (*URL, error) {
	var buf [256]byte
	return resolveIn(buf[:0], base, ref, r)
}

//go:noinline
func resolve1K(base *URL, ref string, r Resolution) (*URL, error) {
	var buf [1024]byte
	return resolveIn(buf[:0], base, ref, r)
}

// resolveIn is Resolve, composing the text in b.
func resolveIn(b []byte, base *URL, ref string, r Resolution) (*URL, error) {
	var c composed
	switch r {
	case RFC1808:
		b = resolve1808(b, base, ref)
	case Draft1993:
		b = resolve1993(b, base, ref)
	default:
		b = resolve3986(b, base, ref, &c)
	}
	if u, ok := parseResolved(b, base, c); ok {
		return u, nil
	}
	s := string(b)
	u, err := Parse(s)
	if err != nil {
		return nil, &ResolveError{Base: base.String(), Ref: ref, Rules: r, Result: s, Err: err}
	}
	return u, nil
}

// unwrapRef removes surrounding white space, a "<...>" wrapper and a
// "URL:" prefix, as Parse does for a full form (RFC 1738 Appendix).
func unwrapRef(s string) string {
	if !mayUnwrap(s) {
		return s // nothing to remove: the usual case
	}
	i, j := 0, len(s)
	for i < j && isSpace(s[i]) {
		i++
	}
	for j > i && isSpace(s[j-1]) {
		j--
	}
	if j-i >= 2 && s[i] == '<' && s[j-1] == '>' {
		i++
		j--
		for i < j && isSpace(s[i]) {
			i++
		}
		for j > i && isSpace(s[j-1]) {
			j--
		}
	}
	if hasPrefixFold(s[:j], i, "url:") {
		i += 4
		for i < j && isSpace(s[i]) {
			i++
		}
	}
	return s[i:j]
}

// mayUnwrap reports whether unwrapRef may find something to remove in s:
// it begins with white space, "<" or a "u" in either case, or ends with
// white space.
func mayUnwrap(s string) bool {
	return s != "" && refWrapStart[s[0]]|spaceOctet[s[len(s)-1]] != 0
}

// refWrapStart holds the octets that may begin what unwrapRef removes:
// isSpace's white space, "<", and the "u" of "URL:" in either case.
var refWrapStart = [256]uint8{' ': 1, '\t': 1, '\n': 1, '\r': 1, '\f': 1, '\v': 1, '<': 1, 'u': 1, 'U': 1}

// A reference split into the components of RFC 3986 Appendix B (and, for
// RFC 1808, §2.4's params). Strings are slices of the input. The clean
// flags say that splitRef3986 found no octet in the component that Parse
// would report (see cleanPrefix), so that Parse need not judge it again
// in the result.
type refParts struct {
	scheme, auth, path, params, query, frag          string
	hasScheme, hasAuth, hasParams, hasQuery, hasFrag bool
	cleanPath, cleanQuery, cleanFrag                 bool
	// pathDots, when cleanPath: a dot segment begins in the path
	// (hasDotSegment), seen in the same pass (splitRef3986 only).
	pathDots bool
	// hostAuth: the authority is hostOK's octets alone (splitRef3986
	// only).
	hostAuth bool
}

// splitRef3986 splits s as the regular expression of RFC 3986 Appendix B
// does, in its order: scheme, authority, path, query, fragment. A scheme
// is taken only when it has the form of §3.1 (ALPHA *( ALPHA / DIGIT /
// "+" / "-" / "." )); "./a:b" is how a path with a colon is written.
//
// Path, query and fragment are split and judged in one pass: the octets
// Parse reads without a problem are passed over eight at a time, and the
// first other octet is either the "?" or "#" that ends the component or
// one Parse would report, after which the rest is split by "#" and "?"
// alone and left to Parse to judge.
func splitRef3986(p *refParts, s string) {
	i := schemeEnd(s, true)
	if i > 0 {
		p.scheme, p.hasScheme = s[:i], true
		s = s[i+1:]
	}
	if len(s) >= 2 && s[0] == '/' && s[1] == '/' {
		// A hostname's octets first (nearly every authority is one
		// alone), then whatever else the authority holds.
		j := 2 + allowedPrefix(s[2:], &hostOK)
		p.hostAuth = j == len(s) || notAuthorityEnd.t[s[j]] == 0
		if !p.hostAuth {
			j += allowedPrefix(s[j:], &notAuthorityEnd)
		}
		p.auth, p.hasAuth = s[2:j], true
		s = s[j:]
	}
	// The path: no "?" or "#" (they end it) and nothing Parse reports.
	k, dots := cleanPathPrefix(s)
	p.pathDots = dots
	if k == len(s) {
		p.path, p.cleanPath = s, true
		return
	}
	switch s[k] {
	case '?':
		p.path, p.cleanPath = s[:k], true
		s = s[k+1:]
		p.hasQuery = true
		// The query: no "#" (it ends it) and nothing Parse reports.
		k = cleanRun(s, &xcharOK)
		if k == len(s) {
			p.query, p.cleanQuery = s, true
			return
		}
		if s[k] != '#' {
			break
		}
		p.query, p.cleanQuery = s[:k], true
		fallthrough
	case '#':
		p.frag, p.hasFrag = s[k+1:], true
		p.cleanFrag = cleanRun(p.frag, &xcharOK) == len(p.frag)
		if !p.hasQuery {
			p.path, p.cleanPath = s[:k], true
		}
		return
	}
	// An octet Parse reports, in the path or the query (s is what is
	// left of either): the first "#" ends path and query; the first "?"
	// before it, the path.
	if h := strings.IndexByte(s, '#'); h >= 0 {
		p.frag, p.hasFrag = s[h+1:], true
		s = s[:h]
	}
	if p.hasQuery {
		p.query = s
		return
	}
	if q := strings.IndexByte(s, '?'); q >= 0 {
		p.query, p.hasQuery = s[q+1:], true
		s = s[:q]
	}
	p.path = s
}

// schemeEnd returns the index of the ":" that ends a scheme at the start
// of s, or -1. With alphaFirst (RFC 3986 §3.1) the first character must
// be a letter; otherwise (RFC 1808 §2.4.2) any scheme character will do.
func schemeEnd(s string, alphaFirst bool) int {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == ':' {
			if i == 0 {
				return -1
			}
			return i
		}
		if class[c]&cScheme == 0 || (i == 0 && alphaFirst && !isAlpha(c)) {
			return -1
		}
	}
	return -1
}

// baseParts holds a base URL's generic components, read from its fields
// without allocating. slash is the "/" that begins the path of an
// Internet-form URL, which URL.Path does not hold.
type baseParts struct {
	slash    bool
	path     string
	query    string
	hasQuery bool
}

// genericBase splits base's path at its first "?" as the generic syntax
// does (RFC 3986 §3.4, RFC 1808 §2.4.4): for ftp, file and gopher the core
// keeps "?" in Path, and the resolution rules read it as a query.
func genericBase(u *URL) baseParts {
	var bp baseParts
	bp.read(u)
	return bp
}

// read sets bp to genericBase(u), in place.
func (bp *baseParts) read(u *URL) {
	*bp = baseParts{slash: u.HasAuthority() && u.HasPath(), path: u.Path(), query: u.Search(), hasQuery: u.HasSearch()}
	if u.syntax().Search {
		return // "?" ended the path: it holds none
	}
	// Where "?" begins no search, Parse keeps it in the path, which then
	// runs to the fragment: such a URL has no Search.
	if i := strings.IndexByte(u.Path(), '?'); i >= 0 {
		bp.path, bp.query, bp.hasQuery = u.Path()[:i], u.Path()[i+1:], true
	}
}

func (bp *baseParts) appendPath(b []byte) []byte {
	if bp.slash {
		b = append(b, '/')
	}
	return append(b, bp.path...)
}

func (bp *baseParts) appendQuery(b []byte) []byte {
	if bp.hasQuery {
		b = append(b, '?')
		b = append(b, bp.query...)
	}
	return b
}

// appendAuthority writes u's authority (login and hostport, RFC 1738
// §3.1) without the "//".
func appendAuthority(b []byte, u *URL) []byte {
	return append(b, u.in[u.userAt():u.authEnd()]...)
}

// appendSchemeAuthority writes u's scheme, "://" and authority.
func appendSchemeAuthority(b []byte, u *URL) []byte {
	if u.x == nil || u.x.scheme == "" {
		return append(b, u.in[u.schemeAt():u.authEnd()]...) // as written
	}
	b = append(b, u.x.scheme...)
	return append(b, u.in[u.colonAt():u.authEnd()]...)
}

// appendWithoutFragment writes base as String does, less its fragment.
func appendWithoutFragment(b []byte, u *URL) []byte {
	b = append(b, u.Scheme()...)
	return append(b, u.in[u.colonAt():u.searchEnd()]...)
}

// composed says what a rule set copied from the base into the text it
// composed, so that parseResolved need not read it again.
type composed struct {
	// auth: "//" and base's authority, byte for byte, follow the ":"
	// after the scheme.
	auth bool
	// j: the octets of the text that came from parts of the base or the
	// reference in which Parse found (or splitRef3986 saw) no problem,
	// which Parse need not judge again: the path's before b[j.path] (the
	// base's path octets copied unchanged, and all of it when the
	// reference's path is clean too), a search and a fragment copied from
	// a clean query and fragment of the reference.
	j judged
	// hostLen, when not 0: the reference's authority follows "//" in the
	// text, hostLen octets that hostOK allows, and ends there.
	hostLen int
}

// resolve3986 is RFC 3986 §5.2.2 (strict), writing the §5.3 recomposition
// of the target into b, and what it copied from base into c.
func resolve3986(b []byte, base *URL, ref string, c *composed) []byte {
	var r refParts
	splitRef3986(&r, ref)
	if r.hasScheme {
		// "if defined(R.scheme) then T.scheme = R.scheme; T.authority =
		// R.authority; T.path = remove_dot_segments(R.path); T.query =
		// R.query"
		b = append(b, r.scheme...)
		b = append(b, ':')
		if r.hasAuth {
			b = append(b, "//"...)
			b = append(b, r.auth...)
		}
		b = appendDotFree(b, r.path, r.hasAuth)
	} else {
		switch {
		case r.hasAuth:
			b = append(b, base.Scheme()...)
			b = append(b, "://"...)
			b = append(b, r.auth...)
			b = appendDotFree(b, r.path, true)
		case base.HasAuthority():
			b = appendSchemeAuthority(b, base)
			c.auth = true
		default:
			b = append(b, base.Scheme()...)
			b = append(b, ':')
		}
		if r.hasAuth {
			if r.cleanPath {
				c.j.path = len(b)
			}
		} else {
			var bp baseParts // read where used: an absolute path needs none of the base's
			switch {
			case r.path == "":
				// "T.path = Base.path; if defined(R.query) then T.query
				// = R.query else T.query = Base.query"
				bp.read(base)
				b = bp.appendPath(b)
				if base.cleanPath() {
					c.j.path = len(b)
				}
				if !r.hasQuery {
					b = bp.appendQuery(b)
				}
			case r.path[0] == '/':
				b = appendDotFree(b, r.path, base.HasAuthority())
				if r.cleanPath {
					c.j.path = len(b)
				}
			default:
				// §5.2.3 merge: with an authority and an empty path,
				// "/" and the reference's path; otherwise the base path
				// up to its last "/" and the reference's path.
				bp.read(base)
				start := len(b)
				j := strings.LastIndexByte(bp.path, '/')
				switch {
				case j >= 0:
					if bp.slash {
						b = append(b, '/')
					}
					b = append(b, bp.path[:j+1]...)
				case bp.slash || base.HasAuthority():
					b = append(b, '/')
				}
				from := len(b) // the reference's path begins
				b = append(b, r.path...)
				n, same := removeDotSegments(b[start:])
				b = b[:start+n]
				m := len(b)
				b = guardPath(b, start, base.HasAuthority())
				switch clean := j < 0 || base.cleanPath(); {
				case clean && r.cleanPath:
					// Octets of clean paths with dot segments removed
					// and a guard of "/" and ".": all clean (an escape
					// holds no "/", so no removal splits one).
					c.j.path = len(b)
				case clean && len(b) == m:
					c.j.path = start + min(from-start, same) // no guard moved it
				}
			}
		}
		// The query and fragment of the reference, when clean, are
		// passed over; the "?" is the first of the text after its
		// authority, for the path holds none (the reference's ends at
		// its first, and where "?" begins a search Parse ended the
		// base's there).
		r.passOverTail(c, len(b))
	}
	return r.appendTail(b)
}

// passOverTail marks the reference's query and fragment, when clean, as
// judged in c, as they will stand from at in the result (appendTail).
func (r *refParts) passOverTail(c *composed, at int) {
	if r.hasQuery && r.cleanQuery {
		c.j.query = at
		c.j.search = at + 1 + len(r.query)
	}
	if r.hasFrag && r.cleanFrag {
		c.j.frag = at + boolInt(r.hasQuery)*(1+len(r.query))
	}
}

// appendTail appends the reference's query and fragment, each with its
// delimiter, where it has them.
func (r *refParts) appendTail(b []byte) []byte {
	if r.hasQuery {
		b = append(b, '?')
		b = append(b, r.query...)
	}
	if r.hasFrag {
		b = append(b, '#')
		b = append(b, r.frag...)
	}
	return b
}

// appendDotFree appends remove_dot_segments(p).
func appendDotFree(b []byte, p string, auth bool) []byte {
	start := len(b)
	b = append(b, p...)
	n, _ := removeDotSegments(b[start:])
	return guardPath(b[:start+n], start, auth)
}

// guardPath keeps the path written at b[start:] a path when the text is
// read again: with no authority a path may not begin "//" (RFC 3986 §3.3),
// so "/." is put before it (the guard WHATWG URL uses); with an authority
// a path that does not begin "/" gets one (RFC 3986 §3.3: "When authority
// is present, the path must either be empty or begin with a slash").
func guardPath(b []byte, start int, auth bool) []byte {
	p := b[start:]
	switch {
	case !auth && len(p) >= 2 && p[0] == '/' && p[1] == '/':
		b = append(b, 0, 0)
		copy(b[start+2:], b[start:len(b)-2])
		b[start], b[start+1] = '/', '.'
	case auth && len(p) > 0 && p[0] != '/':
		b = append(b, 0)
		copy(b[start+1:], b[start:len(b)-1])
		b[start] = '/'
	}
	return b
}

// removeDotSegments is RFC 3986 §5.2.4, done in place: p is the input
// buffer, the output grows at its front and never passes the input. It
// returns the output's length, and how many of its first octets are the
// input's, never moved or written.
//
//	A. If the input buffer begins with a prefix of "../" or "./", then
//	   remove that prefix from the input buffer; otherwise,
//	B. if the input buffer begins with a prefix of "/./" or "/.", where
//	   "." is a complete path segment, then replace that prefix with "/";
//	C. if the input buffer begins with a prefix of "/../" or "/..", ...
//	   replace that prefix with "/" and remove the last segment and its
//	   preceding "/" (if any) from the output buffer; otherwise,
//	D. if the input buffer consists only of "." or "..", then remove
//	   that from the input buffer; otherwise,
//	E. move the first path segment in the input buffer to the end of the
//	   output buffer, including the initial "/" character (if any) and
//	   any subsequent characters up to, but not including, the next "/".
func removeDotSegments(p []byte) (int, int) {
	// No "." begins a segment: nothing to remove. Otherwise the segments
	// before the first that begins with "." are moved by rule E alone, so
	// input and output start at the "/" before it.
	k := dotSegmentAt(p, 0)
	if k < 0 {
		return len(p), len(p)
	}
	k = max(k-1, 0)
	in, out, n := k, k, len(p)
	same := k // the output never goes back before same
	for in < n {
		rest := p[in:n]
		switch {
		case hasBytes(rest, "../"):
			in += 3
		case hasBytes(rest, "./"):
			in += 2
		case hasBytes(rest, "/./"):
			in += 2
		case len(rest) == 2 && rest[0] == '/' && rest[1] == '.':
			in++
			p[in] = '/'
		case hasBytes(rest, "/../"):
			in += 3
			out = lastSlash(p[:out])
			same = min(same, out)
		case len(rest) == 3 && rest[0] == '/' && rest[1] == '.' && rest[2] == '.':
			in += 2
			p[in] = '/'
			out = lastSlash(p[:out])
			same = min(same, out)
		case len(rest) == 1 && rest[0] == '.', len(rest) == 2 && rest[0] == '.' && rest[1] == '.':
			in = n
		default:
			j := in
			if p[j] == '/' {
				j++
			}
			for j < n && p[j] != '/' {
				j++
			}
			out += copy(p[out:], p[in:j])
			in = j
		}
	}
	return out, same
}

// dotSegmentAt returns the index, at from or after it, of the first "."
// that begins a segment of p (at its start or after a "/"), or -1: the
// test that lets a path without dot segments through untouched. It looks
// for "/." as one needle rather than for each ".", which names of files
// ("index.html", "jquery.min.js") hold many of.
func dotSegmentAt(p []byte, from int) int {
	if from >= len(p) {
		return -1
	}
	if from == 0 {
		if p[0] == '.' {
			return 0
		}
		from = 1
	}
	// A "." at from or after it begins a segment when "/" is before it:
	// "/." at from-1 or after it.
	k := bytes.Index(p[from-1:], slashDot)
	if k < 0 {
		return -1
	}
	return from + k
}

var slashDot = []byte("/.")

func hasBytes(b []byte, pre string) bool {
	if len(b) < len(pre) {
		return false
	}
	for i := 0; i < len(pre); i++ {
		if b[i] != pre[i] {
			return false
		}
	}
	return true
}

// lastSlash returns the index of the last "/" in b, or 0.
func lastSlash(b []byte) int {
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] == '/' {
			return i
		}
	}
	return 0
}

// splitRef1808 parses s as RFC 1808 §2.4 does, in its order: fragment
// (first "#"), scheme (§2.4.2: a colon after the first character and
// before any character not allowed in a scheme), net_loc (after "//" up
// to the next "/"), query (first "?"), params (first ";"), path.
func splitRef1808(s string) (p refParts) {
	if i := strings.IndexByte(s, '#'); i >= 0 {
		p.frag, p.hasFrag = s[i+1:], true
		s = s[:i]
	}
	if i := schemeEnd(s, false); i > 0 {
		p.scheme, p.hasScheme = s[:i], true
		s = s[i+1:]
	}
	if len(s) >= 2 && s[0] == '/' && s[1] == '/' {
		j := strings.IndexByte(s[2:], '/')
		if j < 0 {
			j = len(s) - 2
		}
		p.auth, p.hasAuth = s[2:2+j], true
		s = s[2+j:]
	}
	if i := strings.IndexByte(s, '?'); i >= 0 {
		p.query, p.hasQuery = s[i+1:], true
		s = s[:i]
	}
	if i := strings.IndexByte(s, ';'); i >= 0 {
		p.params, p.hasParams = s[i+1:], true
		s = s[:i]
	}
	p.path = s
	return p
}

// resolve1808 is RFC 1808 §4, steps 1–7.
func resolve1808(b []byte, base *URL, ref string) []byte {
	// Step 2a: "If the embedded URL is entirely empty, it inherits the
	// entire base URL (i.e., is set equal to the base URL)".
	if ref == "" {
		b = appendWithoutFragment(b, base)
		if base.HasFragment() {
			b = append(b, '#')
			b = append(b, base.Fragment()...)
		}
		return b
	}
	r := splitRef1808(ref)
	// Step 2b: "If the embedded URL starts with a scheme name, it is
	// interpreted as an absolute URL and we are done."
	if r.hasScheme {
		return append(b, ref...)
	}
	// Step 2c: "the embedded URL inherits the scheme of the base URL."
	b = append(b, base.Scheme()...)
	b = append(b, ':')
	baseQuery := false
	var bp baseParts
	if r.auth != "" {
		// Step 3: "If the embedded URL's <net_loc> is non-empty, we skip
		// to Step 7."
		b = append(b, "//"...)
		b = append(b, r.auth...)
		b = append(b, r.path...)
	} else {
		// "Otherwise, the embedded URL inherits the <net_loc> (if any)
		// of the base URL."
		if base.HasAuthority() {
			b = append(b, "//"...)
			b = appendAuthority(b, base)
		}
		// The base's path, params and query (§2.4.4, §2.4.5).
		bp = genericBase(base)
		bpath, bparams, hasBParams := bp.path, "", false
		if i := strings.IndexByte(bpath, ';'); i >= 0 {
			bpath, bparams, hasBParams = bpath[:i], bpath[i+1:], true
		}
		switch {
		case len(r.path) > 0 && r.path[0] == '/':
			// Step 4: "If the embedded URL path is preceded by a slash
			// "/", the path is not relative and we skip to Step 7."
			b = append(b, r.path...)
		case r.path == "":
			// Step 5: "the embedded URL inherits the base URL path, and
			// a) if the embedded URL's <params> is non-empty, we skip to
			// step 7; otherwise, it inherits the <params> of the base URL
			// (if any) and b) if the embedded URL's <query> is non-empty,
			// we skip to step 7; otherwise, it inherits the <query> of the
			// base URL (if any)".
			if bp.slash {
				b = append(b, '/')
			}
			b = append(b, bpath...)
			if r.params == "" {
				if hasBParams {
					r.params, r.hasParams = bparams, true
				}
				if r.query == "" && bp.hasQuery {
					baseQuery, r.hasQuery = true, false
				}
			}
		default:
			// Step 6: "The last segment of the base URL's path (anything
			// following the rightmost slash "/", or the entire path if
			// no slash is present) is removed and the embedded URL's
			// path is appended in its place", then a–d. The slash before
			// the path is not part of it (§2.4.6).
			if bp.slash {
				b = append(b, '/')
			}
			start := len(b)
			if j := strings.LastIndexByte(bpath, '/'); j >= 0 {
				b = append(b, bpath[:j+1]...)
			}
			b = append(b, r.path...)
			b = b[:start+dots1808(b[start:])]
			b = guardPath(b, start-boolInt(bp.slash), base.HasAuthority())
		}
	}
	// Step 7: recombine.
	if r.hasParams {
		b = append(b, ';')
		b = append(b, r.params...)
	}
	if baseQuery {
		b = bp.appendQuery(b)
	} else if r.hasQuery {
		b = append(b, '?')
		b = append(b, r.query...)
	}
	if r.hasFrag {
		b = append(b, '#')
		b = append(b, r.frag...)
	}
	return b
}

func boolInt(v bool) int {
	if v {
		return 1
	}
	return 0
}

// dots1808 applies RFC 1808 §4 step 6a–d to the path p (without the slash
// that may precede it), in place, and returns its new length:
//
//	a) All occurrences of "./", where "." is a complete path segment,
//	   are removed.
//	b) If the path ends with "." as a complete path segment, that "." is
//	   removed.
//	c) All occurrences of "<segment>/../", where <segment> is a complete
//	   path segment not equal to "..", are removed. Removal of these path
//	   segments is performed iteratively, removing the leftmost matching
//	   pattern on each iteration, until no matching pattern remains.
//	d) If the path ends with "<segment>/..", where <segment> is a
//	   complete path segment not equal to "..", that "<segment>/.." is
//	   removed.
//
// Steps c and d are done with a stack of segments: a ".." followed by
// "/" pops a segment other than ".." (the leftmost match is always the
// first ".." whose predecessor is not ".."), and a final ".." pops once.
func dots1808(p []byte) int {
	if dotSegmentAt(p, 0) < 0 {
		return len(p)
	}
	n := len(p)
	// a) and b): drop "." segments; a "." at the end leaves its "/".
	out := 0
	for in := 0; in < n; {
		j := in
		for j < n && p[j] != '/' {
			j++
		}
		if j-in == 1 && p[in] == '.' {
			in = j + 1 // "./" removed, or the final "." (b)
			continue
		}
		if j < n {
			j++ // keep the "/"
		}
		out += copy(p[out:], p[in:j])
		in = j
	}
	n = out
	// c) and d): segments are written back with their "/"; segStart
	// records where each kept segment begins.
	var stack [32]int
	starts := stack[:0]
	out = 0
	for in := 0; in < n; {
		j := in
		for j < n && p[j] != '/' {
			j++
		}
		seg := p[in:j]
		isDots := len(seg) == 2 && seg[0] == '.' && seg[1] == '.'
		if isDots && len(starts) > 0 {
			top := starts[len(starts)-1]
			prev := p[top:out]
			prevDots := len(prev) == 3 && prev[0] == '.' && prev[1] == '.'
			if !prevDots {
				// c) "<segment>/../" (j < n), or d) "<segment>/.." at
				// the end, which is applied once, after c.
				out = top
				starts = starts[:len(starts)-1]
				in = min(j+1, n)
				continue
			}
		}
		starts = append(starts, out)
		if j < n {
			j++
		}
		out += copy(p[out:], p[in:j])
		in = j
	}
	return out
}

// resolve1993 is the "Partial form" section of the October 1993 draft:
//
//	A partial form can be distinguished from a full form in that a full
//	form must have a colon and that colon must occur before any slash
//	characters.
//
//	If the scheme parts are different, the whole absolute locator must be
//	given. Otherwise, the scheme is omitted, and:
//
//	If the host and/or port parts are the different, the host, port name
//	and all the rest of the locator must be given.
//
//	If the access and host parts are the same, then the path may be given
//	in absolute (fully qualified) or relative form. Within the path:
//
//	If a leading slash is present, the path is absolute. Otherwise, a
//	relative path is interpreted as follows:
//
//	The last part of the path of the context locator (anything following
//	the rightmost slash) is removed, and the given partial URL appended
//	in its place.
//
//	Within the result, all occurrences of "/xxx/.." or "/." are
//	recursively removed, where xxx, ".." and "." are complete path
//	elements.
//
// The fragment is set aside first (the draft's "fragmentaddress uri [ #
// fragmentid ]": the fragment-id follows the URL of the whole object).
// Where the draft is silent this reads it so:
//   - a full form with the base's scheme has that scheme "omitted" and
//     the rest is read as a partial form ("http:g" is "g"), as libwww did;
//   - an empty partial form (a fragment alone) names the context locator
//     itself, the whole object of the fragment-id section;
//   - the context's path is what Parse holds in Path, per scheme (the
//     search of http is not part of it), with the "/" after the host;
//   - "within the result" is the result after the host: path and search.
func resolve1993(b []byte, base *URL, ref string) []byte {
	rest, frag, hasFrag := ref, "", false
	if i := strings.IndexByte(ref, '#'); i >= 0 {
		rest, frag, hasFrag = ref[:i], ref[i+1:], true
	}
	// A full form: a colon before any slash.
	if i := strings.IndexByte(rest, ':'); i >= 0 && strings.IndexByte(rest[:i], '/') < 0 {
		scheme := rest[:i]
		if len(scheme) != len(base.Scheme()) || !hasPrefixFold(scheme, 0, base.Scheme()) {
			return append(b, ref...)
		}
		rest = rest[i+1:]
	}
	switch {
	case rest == "":
		b = appendWithoutFragment(b, base)
	case len(rest) >= 2 && rest[0] == '/' && rest[1] == '/':
		b = append(b, base.Scheme()...)
		b = append(b, ':')
		b = append(b, rest...)
	case rest[0] == '/':
		b = append(b, base.Scheme()...)
		b = append(b, ':')
		if base.HasAuthority() {
			b = append(b, "//"...)
			b = appendAuthority(b, base)
		}
		b = append(b, rest...)
		b = guardPath(b, len(b)-len(rest), base.HasAuthority())
	default:
		b = append(b, base.Scheme()...)
		b = append(b, ':')
		if base.HasAuthority() {
			b = append(b, "//"...)
			b = appendAuthority(b, base)
		}
		start := len(b)
		if base.HasAuthority() {
			// The path of an Internet-form locator begins with the "/"
			// after the host; with no path, that "/" is understood.
			b = append(b, '/')
		}
		if j := strings.LastIndexByte(base.Path(), '/'); j >= 0 {
			b = append(b, base.Path()[:j+1]...)
		}
		b = append(b, rest...)
		b = b[:start+dots1993(b[start:])]
		b = guardPath(b, start, base.HasAuthority())
	}
	if hasFrag {
		b = append(b, '#')
		b = append(b, frag...)
	}
	return b
}

// dots1993 removes, in place, every "/xxx/.." (xxx a complete element
// other than "..") and every "/." ("." a complete element) from p,
// recursively, and returns the new length. A first element not preceded
// by "/" is never removed: neither pattern can match it.
func dots1993(p []byte) int {
	if dotSegmentAt(p, 1) < 0 {
		return len(p)
	}
	n := len(p)
	out := 0
	in := 0
	if p[0] != '/' {
		// The fixed first element.
		for in < n && p[in] != '/' {
			in++
		}
		out = in
	}
	// Each kept element is written as "/" elem; starts records where.
	var stack [32]int
	starts := stack[:0]
	for in < n {
		// p[in] == '/'
		j := in + 1
		for j < n && p[j] != '/' {
			j++
		}
		elem := p[in+1 : j]
		switch {
		case len(elem) == 1 && elem[0] == '.':
			// "/." removed
		case len(elem) == 2 && elem[0] == '.' && elem[1] == '.' && len(starts) > 0 &&
			!(out-starts[len(starts)-1] == 3 && p[out-2] == '.' && p[out-1] == '.'):
			// "/xxx/.." removed
			out = starts[len(starts)-1]
			starts = starts[:len(starts)-1]
		default:
			starts = append(starts, out)
			out += copy(p[out:], p[in:j])
		}
		in = j
	}
	return out
}
