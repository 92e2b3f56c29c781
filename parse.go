package locator

import (
	"math/bits"
	"slices"
	"strconv"
	"strings"

	"github.com/rfc1738/locator/internal/hex"
)

// Parse reads an absolute URL: <scheme>:<scheme-specific-part> (RFC 1738
// §2.1), with the common Internet scheme syntax of §3.1 where the scheme
// uses it or the part begins with "//". A leading "URL:" and the wrappers
// "<...>" and "<URL:...>" of the RFC's Appendix are removed first.
//
// The "URL:" prefix is removed once, and a scheme named "url" is refused
// (an Error of rule "prefixedurl"): "URL:URL:x" or "url:url:x" would
// otherwise read as a URL of scheme "url" whose String, "url:x", reads as
// the prefix and "x". So every URL Parse returns is written by String as
// text Parse reads back to the same components.
//
// Parse is lenient: unsafe characters, an upper-case scheme, a bad escape
// and the like are read and recorded in u.Problems(). It fails with a
// *ParseError only when the input cannot be read as an absolute URL: no
// scheme, a relative reference, a host with characters outside any host
// grammar, a port that is not a number in range, or an input longer than
// MaxInput bytes.
//
// The URL is one allocation of 48 bytes, its problems in the same one
// when there are at most two; a Parser parses into a value its caller
// owns with none, and ParseBatch parses many with a few.
func Parse(s string) (*URL, error) {
	var p parser
	p.s, p.out.in = s, s
	if p.core(); p.failed {
		return nil, p.readError(s)
	}
	u := p.materialize()
	if p.needsRules(u) {
		if p.rules(u, nil); p.failed {
			return nil, p.parseError(s, u.x.problems)
		}
	}
	return u, nil
}

// reset makes p ready to read s as a zero parser would, keeping the
// storage of its problems (the room is overwritten, not cleared: only
// p.room[:p.nroom] is ever read).
func (p *parser) reset(s string) {
	p.out = reading{in: s}
	p.s, p.syn, p.entry, p.name, p.scheme, p.failed = s, nil, nil, "", "", false
	p.nroom, p.more = 0, p.more[:0]
	p.dropped, p.droppedSev, p.droppedAt = 0, 0, 0
}

// tooLong refuses an input longer than MaxInput.
func (p *parser) tooLong() {
	p.add(inputLimit, Error, "url", "the input is "+strconv.Itoa(len(p.s))+" bytes, longer than the "+
		strconv.Itoa(inputLimit)+" bytes (MaxInput) a URL may have here: offsets are 32-bit")
}

// materialize returns a new URL holding p.out and the problems read, in
// one allocation when there are at most two (99.95% of the corpora's
// URLs); with more, the list is a second, and the parser made a third.
func (p *parser) materialize() *URL {
	n := p.nprobs()
	switch {
	case p.out.f&fLong != 0:
		u := new(URL)
		p.copyOut(u)
		u.x = &extra{problems: p.appendProblems(nil), scheme: p.scheme}
		p.longOffsets(u)
		return u
	case n == 0 && p.scheme == "":
		u := new(URL)
		p.copyOut(u)
		return u
	case n <= 2:
		o := new(struct {
			u URL
			x extra
			r [2]Problem
		})
		p.copyOut(&o.u)
		o.x.scheme = p.scheme
		o.x.problems = p.appendProblems(o.r[:0])
		o.u.x = &o.x
		return &o.u
	}
	o := new(struct {
		u URL
		x extra
	})
	p.copyOut(&o.u)
	o.x.scheme = p.scheme
	o.x.problems = p.appendProblems(make([]Problem, 0, n))
	o.u.x = &o.x
	return &o.u
}

// longOffsets gives u, when it ends past maxShort (fLong), a new extra
// block of its own that holds what u.x held and the offsets read.
func (p *parser) longOffsets(u *URL) {
	if u.f&fLong == 0 {
		return
	}
	o := new(struct {
		x extra
		o offsets
	})
	if u.x != nil {
		o.x = *u.x
	}
	o.o = p.out.o
	o.x.long = &o.o
	u.x = &o.x
}

// copyOut writes p.out into u one field at a time, the offsets in 16
// bits; u.x is the caller's to set, with longOffsets when fLong says the
// offsets do not fit. (A copy of a whole value would read the offsets
// and flags, just written one field at a time, in wider loads than their
// stores, which the processor cannot forward from its store buffer.) It
// names every field of URL and offsets: one added must be added here.
func (p *parser) copyOut(u *URL) {
	o, v := &p.out.o, &u.o
	u.in, u.f = p.out.in, p.out.f
	v.sch, v.col, v.ue = uint16(o.sch), uint16(o.col), uint16(o.ue)
	v.h, v.he, v.p = uint16(o.h), uint16(o.he), uint16(o.p)
	v.pe, v.se, v.end = uint16(o.pe), uint16(o.se), uint16(o.end)
}

// rules adds the problems the scheme's own rules find in u (see
// Register) to u's, in spare when u has none yet and spare is given, and
// puts them all in order of offset. The rules add them through a Report,
// the one place that bounds them: at most MaxProblems, then one that
// says how many more. It is given the room left after u's problems (or
// spare's), so that a problem or two, or a Parser's reused storage, cost
// no allocation.
func (p *parser) rules(u *URL, spare *extra) {
	if applyRules(p.entry, u, spare) {
		p.failed = true
	}
}

// applyRules is parser.rules for the scheme entry e (nil when the core
// knows none), without a parser: it reports whether the rules found an
// Error.
func applyRules(e *schemeEntry, u *URL, spare *extra) (failed bool) {
	if e != nil && e.checks(u.f) {
		var r Report
		switch {
		case u.x != nil:
			r.list = u.x.problems[len(u.x.problems):]
		case spare != nil:
			r.list = spare.problems[:0]
		}
		if probs := e.rules.Check(u, r).Problems(); len(probs) > 0 {
			for _, q := range probs {
				if q.Severity == Error {
					failed = true
				}
			}
			switch {
			case u.x != nil:
				u.x.problems = append(u.x.problems, probs...)
			case spare != nil:
				spare.problems = probs // in spare's own storage unless it grew
				u.x = spare
			default:
				u.x = &extra{problems: probs}
			}
		}
	}
	if x := u.x; x != nil && len(x.problems) > 1 {
		slices.SortStableFunc(x.problems, func(a, b Problem) int { return a.Offset - b.Offset })
	}
	return failed
}

// needsRules reports whether rules has work to do for u: the scheme's
// rules to run, or problems to sort. Most URLs have neither, and the
// callers that Parse alone test it first, so that those pay no call.
func (p *parser) needsRules(u *URL) bool {
	return (p.entry != nil && p.entry.checks(u.f)) || (u.x != nil && len(u.x.problems) > 1)
}

// parseError is the *ParseError for input s whose problems are probs,
// the error's own.
func (p *parser) parseError(s string, probs []Problem) error {
	e := &ParseError{Input: s, Problems: probs}
	return e.first()
}

// readError is the *ParseError for input s of the problems p read (the
// scheme's rules not run), in one allocation when there are at most two.
func (p *parser) readError(s string) error {
	if int(p.nroom)+len(p.more) <= 2 {
		o := new(struct {
			e ParseError
			r [2]Problem
		})
		o.e.Input, o.e.Problems = s, p.appendProblems(o.r[:0])
		return o.e.first()
	}
	return p.parseError(s, p.appendProblems(nil))
}

// first sets e.Problem to the first Error among e.Problems.
func (e *ParseError) first() error {
	for _, q := range e.Problems {
		if q.Severity == Error {
			e.Problem = q
			break
		}
	}
	return e
}

// MaxInput is the length, in bytes, of the longest input Parse reads:
// offsets into the input are kept as 32-bit integers so that a URL value
// stays small (see URL). A longer input is refused with a *ParseError
// (rule "url") rather than read with offsets that wrap.
const MaxInput = maxInput

const maxInput = 1<<31 - 1

// inputLimit is MaxInput; tests lower it to check the refusal without
// building a 2 GiB string.
var inputLimit = maxInput

// Every offset below maxInput fits in the int32 offsets a parser reads.
var _ = int32(maxInput)

// reading is what a parser reads a URL into: its text, offsets in full,
// and flags (copyOut makes the URL).
type reading struct {
	in string
	o  offsets
	f  flags
}

type parser struct {
	out    reading // what is read: offsets and flags (in is set by the caller)
	s      string
	syn    *Syntax
	entry  *schemeEntry // the scheme's entry, or nil
	name   string       // the scheme in lower case
	scheme string       // the same when the text writes it otherwise

	// The problems found so far: the first ones in room, the rest in
	// more. (Not one slice over room: a parser stays on its caller's
	// stack only when it holds no pointer into itself.)
	room [2]Problem
	more []Problem

	failed     bool
	nroom      uint8
	droppedSev Severity
	// Past MaxProblems the core records no more problems, only how many
	// and how severe, so hostile input cannot multiply its size in memory
	// (fewer than MaxInput: each is at an octet of its own).
	dropped   int32
	droppedAt int32
}

// MaxProblems is how many problems Parse records from the core's own
// checks of one URL, and again from the scheme's rules (see Report).
// Past it one last problem says how many more there were and carries the
// highest severity among them, so Conforms still answers for the whole
// URL.
const MaxProblems = 100

func (p *parser) add(off int, sev Severity, rule, msg string) {
	if sev == Error {
		p.failed = true
	}
	if p.nprobs() >= MaxProblems && sev != Error {
		if p.dropped == 0 {
			p.droppedAt = int32(off)
		}
		p.dropped++
		p.droppedSev = max(p.droppedSev, sev)
		return
	}
	p.addProblem(Problem{Offset: off, Severity: sev, Rule: rule, Message: msg})
}

func (p *parser) addProblem(q Problem) {
	if int(p.nroom) < len(p.room) {
		p.room[p.nroom] = q
		p.nroom++
		return
	}
	if p.more == nil {
		p.more = make([]Problem, 0, 8)
	}
	p.more = append(p.more, q)
}

func (p *parser) nprobs() int { return int(p.nroom) + len(p.more) }

// appendProblems appends the problems found to dst.
func (p *parser) appendProblems(dst []Problem) []Problem {
	dst = append(dst, p.room[:p.nroom]...)
	return append(dst, p.more...)
}

func isSpace(c byte) bool { return spaceOctet[c] != 0 }

// spaceOctet holds the white space around a URL: SP HT LF CR FF VT.
var spaceOctet = [256]uint8{' ': 1, '\t': 1, '\n': 1, '\r': 1, '\f': 1, '\v': 1}

// hasPrefixFold reports whether s[i:] begins with the ASCII string pre,
// ignoring case.
func hasPrefixFold(s string, i int, pre string) bool {
	if len(s)-i < len(pre) {
		return false
	}
	for j := 0; j < len(pre); j++ {
		c := s[i+j]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != pre[j] {
			return false
		}
	}
	return true
}

// core reads p.s into p.out's offsets and flags and the problems:
// everything but the scheme's own rules.
func (p *parser) core() {
	s, u := p.s, &p.out
	if len(s) > inputLimit {
		p.tooLong()
		return
	}
	start, end := 0, len(s)

	// Surrounding whitespace is not part of a URL (Appendix). (One test
	// of both ends first, for the URLs that have none.)
	if end > 0 && spaceOctet[s[0]]|spaceOctet[s[end-1]] != 0 {
		for start < end && isSpace(s[start]) {
			start++
		}
		for end > start && isSpace(s[end-1]) {
			end--
		}
		off := 0
		if start == 0 {
			off = end
		}
		p.add(off, Violation, "RFC 1738 Appendix", "white space around the URL is not part of it")
	}

	// Wrappers "<URL:...>" and "<...>" (Appendix; 1993 draft "Wrappers").
	if start < end && s[start] == '<' {
		if s[end-1] != '>' {
			p.add(start, Error, "RFC 1738 Appendix", "'<' opens a wrapper that no '>' closes")
			return
		}
		start++
		end--
		for start < end && isSpace(s[start]) {
			start++
		}
		for end > start && isSpace(s[end-1]) {
			end--
		}
	}
	// The "URL:" prefix (Appendix; 1993 draft "prefixedurl").
	if start < end && s[start]|0x20 == 'u' && hasPrefixFold(s, start, "url:") {
		start += 4
		for start < end && isSpace(s[start]) {
			start++
		}
	}

	// scheme = 1*[ lowalpha | digit | "+" | "-" | "." ] (§2.1, §5). The
	// commonest, written in lower case, are known from one word.
	i := start
	k := -1 // the scheme's index in schemes
	if end-start >= 8 {
		w := load8(s[start:])
		switch {
		case w&0xFFFF_FFFF == wordHTTP&0xFFFF_FFFF:
			// "http:" or "https:", told apart with no branch: the web's
			// URLs mix the two in no order a branch could guess.
			sec := 0
			if byte(w>>32) == 's' {
				sec = 1
			}
			if byte(w>>(32+8*sec)) == ':' {
				k, i = sec, start+4+sec
			}
		case w&0xFF_FFFF_FFFF == wordFile:
			k, i = 3, start+4
		case w&0xFFFF_FFFF == wordFTP:
			k, i = 2, start+3
		}
	}
	if k >= 0 {
		u.o.sch, u.o.col = int32(start), int32(i)
		p.name = schemes[k].name
	} else {
		upper := false
		for i < end && class[s[i]]&cScheme != 0 {
			if class[s[i]]&cHialpha != 0 {
				upper = true
			}
			i++
		}
		if i == end || s[i] != ':' || i == start {
			p.noScheme(start, end, i)
			return
		}
		u.o.sch, u.o.col = int32(start), int32(i)
		p.name = s[start:i]
		if upper {
			p.name = lowerScheme(p.name)
			p.scheme = p.name
			p.add(start, Violation, "scheme", "scheme names are written in lower case (RFC 1738 §2.1); read case-insensitively")
		}
		if p.name == "url" {
			p.add(start, Error, "prefixedurl", "\"URL:\" is the prefix of RFC 1738 Appendix and is removed once; "+
				"a URL whose scheme is \"url\" could not be written so that it reads back")
			return
		}
		k = schemeIndex(p.name)
	}
	u.f |= entryFlags(k)
	known := k >= 0
	if known {
		p.entry = &schemes[k]
		p.syn = &p.entry.syn
	} else {
		p.syn = &genericSyntax
	}
	i++ // ':'

	if end-i >= 2 && s[i] == '/' && s[i+1] == '/' {
		u.f |= fAuthority
		// authority's two readings, written out: most URLs take the first.
		j, ok := p.plainAuthority(i+2, end)
		if !ok {
			j = p.readAuthority(i+2, end, known)
		}
		if p.failed {
			return
		}
		i = j
		if i < end && s[i] == '/' {
			u.f |= fPath
			i++
		}
	} else {
		p.noAuthority(i)
	}
	p.tail(i, end, judged{})
}

// noAuthority notes a scheme-specific part at s[i:] that does not begin
// "//": its login components are absent and sit where it begins.
func (p *parser) noAuthority(i int) {
	u := &p.out
	if p.syn.Internet {
		p.add(i, Violation, "ip-schemepart", p.name+" URLs begin \"//\" and a host (RFC 1738 §3.1)")
	}
	u.f |= fPath
	u.o.ue, u.o.h, u.o.he = int32(i), int32(i), int32(i)
}

// tail reads what follows the authority (or the scheme's ":" when there
// is none) from s[i:end]: path, search and fragment; then it adds the
// password warning (the scheme's own rules come after: see rules).
//
// What k says was judged already (Resolve composed it from parts of the
// base and the reference that hold no problem) is not judged again: the
// path's scan begins at k.path, a known search is passed over, and so is
// the fragment. Parse gives the zero judged: every octet is judged here.
func (p *parser) tail(i, end int, k judged) {
	s, u, syn := p.s, &p.out, p.syn
	// Path, search and fragment in one pass: scan judges each octet and
	// stops at the "#" of a fragment (1993 draft "fragmentaddress") or, in
	// the path of a scheme with a search, at "?".
	pathOK := &xcharOK
	if syn.Search {
		pathOK = &xcharNoSearch
	}
	u.o.p = int32(i)
	j := p.scan(max(i, k.path), end, pathOK, "urlpath", true)
	u.o.pe = int32(j)
	if j < end && s[j] == '?' {
		u.f |= fSearch
		if k.query == j && k.query > 0 {
			j = k.search
		} else {
			j = p.scan(j+1, end, &xcharOK, "search", true)
		}
	}
	u.o.se = int32(j)
	u.o.end = int32(end)
	if end > maxShort {
		u.f |= fLong
	}
	if j < end { // s[j] == '#'
		u.f |= fFragment
		if k.frag != j || j == 0 {
			p.scan(j+1, end, &xcharOK, "fragmentaddress", false)
		}
	}
	if u.f&fPassword != 0 {
		p.add(int(u.o.ue)+1, Warning, "RFC 1738 §3.1",
			"the URL carries a password, visible to anyone who sees the URL")
	}

	if p.dropped > 0 {
		p.addProblem(Problem{Offset: int(p.droppedAt), Severity: p.droppedSev, Rule: "url",
			Message: strconv.Itoa(int(p.dropped)) + " more problems from here on are not listed (at most " + strconv.Itoa(MaxProblems) + " are)"})
	}
}

// noScheme explains why s[start:end] has no scheme; i is where the scheme
// scan stopped.
func (p *parser) noScheme(start, end, i int) {
	s := p.s
	if start == end {
		p.add(start, Error, "genericurl", "empty input: a URL is <scheme>:<scheme-specific-part>")
		return
	}
	if i < end && s[i] == ':' && i == start {
		p.add(start, Error, "scheme", "the scheme before ':' is empty")
		return
	}
	// A ':' before any '/', '?' or '#' means a scheme with a bad character.
	for j := i; j < end; j++ {
		c := s[j]
		if c == '/' || c == '?' || c == '#' {
			break
		}
		if c == ':' {
			p.add(i, Error, "scheme", "character "+strconv.QuoteRune(rune(s[i]))+" is not allowed in a scheme name (RFC 1738 §2.1)")
			return
		}
	}
	p.add(start, Error, "genericurl", "no scheme: this is a relative reference, and an absolute URL <scheme>:<scheme-specific-part> is required")
}

var knownSchemes = [...]string{"ftp", "http", "https", "gopher", "mailto", "news", "nntp", "telnet", "wais", "file", "prospero"}

// lowerScheme lowers an ASCII scheme name, without allocating for the
// schemes the core knows.
func lowerScheme(s string) string {
	for _, k := range knownSchemes {
		if len(k) == len(s) && hasPrefixFold(s, 0, k) {
			return k
		}
	}
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// authority reads login = [ user [ ":" password ] "@" ] hostport from
// s[i:end] and returns where it ends: in one pass where it can.
func (p *parser) authority(i, end int, known bool) int {
	if j, ok := p.plainAuthority(i, end); ok {
		return j
	}
	return p.readAuthority(i, end, known)
}

// readAuthority is authority's full reading. It sets fPlain when it
// finds no problem, no login part and no IPv6 literal.
func (p *parser) readAuthority(i, end int, known bool) int {
	s, u := p.s, &p.out
	n := p.nprobs()
	// The authority ends at the first "/", "#" or, for a scheme with a
	// search, "?".
	aEnd := end
	if k := strings.IndexByte(s[i:end], '/'); k >= 0 {
		aEnd = i + k
	}
	if k := strings.IndexByte(s[i:aEnd], '#'); k >= 0 {
		aEnd = i + k
	}
	if p.syn.Search {
		if k := strings.IndexByte(s[i:aEnd], '?'); k >= 0 {
			aEnd = i + k
		}
	}
	// user and password: the last "@" ends them; "@", ":" and "/" inside
	// them must be encoded (§3.1).
	at := strings.LastIndexByte(s[i:aEnd], '@')
	if at >= 0 {
		at += i
	}
	hostStart := i
	u.o.ue = int32(i)
	if at >= 0 {
		u.f |= fUser
		userEnd := at
		for j := i; j < at; j++ {
			if s[j] == ':' {
				userEnd = j
				break
			}
		}
		u.o.ue = int32(userEnd)
		p.scan(i, userEnd, &userOK, "user", false)
		if userEnd < at {
			u.f |= fPassword
			p.scan(userEnd+1, at, &userOK, "password", false)
		}
		hostStart = at + 1
	}

	// hostport = host [ ":" port ]; IPv6 literals in brackets (RFC 2732).
	u.o.h, u.o.he = int32(hostStart), int32(hostStart)
	hostEnd := aEnd
	portAt := -1
	if hostStart < aEnd && s[hostStart] == '[' {
		close := -1
		for j := hostStart + 1; j < aEnd; j++ {
			if s[j] == ']' {
				close = j
				break
			}
		}
		if close < 0 {
			p.add(hostStart, Error, "host", "'[' opens an IPv6 literal that no ']' closes (RFC 2732)")
			return aEnd
		}
		u.f |= fBracket
		u.o.h, u.o.he = int32(hostStart+1), int32(close)
		addr, zone := s[hostStart+1:close], -1
		if z := strings.Index(addr, "%25"); z >= 0 {
			addr, zone = addr[:z], hostStart+1+z
		}
		if !validIPv6(addr) {
			p.add(hostStart+1, Error, "host", "not an IPv6 address: "+strconv.Quote(s[hostStart+1:close])+" (RFC 2732)")
			return aEnd
		}
		p.add(hostStart, Violation, "host", "an IPv6 literal is an extension (RFC 2732), outside RFC 1738's hostname and hostnumber")
		if zone >= 0 {
			if !validZone(s[zone+3 : close]) {
				p.add(zone, Error, "host", "an IPv6 zone identifier is \"%25\" and 1*( unreserved / pct-encoded ) (RFC 6874 §2)")
				return aEnd
			}
			p.add(zone, Violation, "host", "an IPv6 zone identifier (RFC 6874 \"%25\") is outside RFC 1738 and RFC 2732")
		}
		hostEnd = close + 1
		if hostEnd < aEnd {
			if s[hostEnd] != ':' {
				p.add(hostEnd, Error, "hostport", "only ':' and a port may follow an IPv6 literal")
				return aEnd
			}
			portAt = hostEnd
		}
	} else {
		hostEnd = p.host(hostStart, aEnd, known)
		u.o.he = int32(hostEnd)
		if p.failed {
			return aEnd
		}
		if hostEnd < aEnd {
			portAt = hostEnd
		}
	}
	if portAt >= 0 {
		u.f |= fPort
		p.port(portAt+1, aEnd)
	}
	if p.nprobs() == n && p.dropped == 0 && u.f&(fUser|fBracket) == 0 {
		u.f |= fPlain
	}
	return aEnd
}

// fullAuthority turns plainAuthority off, for tests that compare its
// reading with the full one.
var fullAuthority = false

// plainAuthority reads the authority most URLs have, with nothing to
// report: no login part, a hostname plainHostname accepts, and perhaps
// ":" and digits, ended by "/", "#", "?" where it begins a search, or
// the end. It reports false, having set nothing, for any other
// authority, which readAuthority then reads in full. What it sets is
// what the full reading sets for the same text.
func (p *parser) plainAuthority(i, end int) (int, bool) {
	if fullAuthority {
		return 0, false
	}
	s, u := p.s, &p.out
	// The host: hostname octets, many at a time (allowedPrefix), then
	// the octets around its "."s (plainHostname).
	j := i + allowedPrefix(s[i:end], &hostOK)
	if !plainHostname(s[i:j]) {
		return 0, false
	}
	hostEnd, aEnd := j, j
	if j < end && s[j] == ':' {
		aEnd++
		for aEnd < end && isDigit(s[aEnd]) {
			aEnd++
		}
	}
	if aEnd < end {
		if c := s[aEnd]; c != '/' && c != '#' && (c != '?' || !p.syn.Search) {
			return 0, false
		}
	}
	u.o.ue, u.o.h, u.o.he = int32(i), int32(i), int32(hostEnd)
	u.f |= fPlain
	if hostEnd < aEnd {
		u.f |= fPort
		n := p.nprobs()
		if p.port(hostEnd+1, aEnd); p.nprobs() != n || p.dropped != 0 {
			u.f &^= fPlain
		}
	}
	return aEnd, true
}

// host judges host = hostname | hostnumber (§5), which begins at s[i]
// and ends at the first ':' or at end; it returns where it ends.
func (p *parser) host(i, end int, known bool) int {
	// Fast path: almost every host is letters, digits, '-' and '.' in
	// well-formed labels; find its end eight octets at a time, then look
	// at the labels' edges. Anything else is judged octet by octet below.
	s := p.s
	j := i
	for end-j >= 8 {
		w := s[j : j+8]
		if hostOK.t[w[0]]&hostOK.t[w[1]]&hostOK.t[w[2]]&hostOK.t[w[3]]&hostOK.t[w[4]]&hostOK.t[w[5]]&hostOK.t[w[6]]&hostOK.t[w[7]] == 0 {
			break
		}
		j += 8
	}
	for j < end && hostOK.t[s[j]] != 0 {
		j++
	}
	if j > i && (j == end || s[j] == ':') && plainHostname(s[i:j]) {
		return j
	}
	return p.hostOctets(i, end, known)
}

// plainHostname reports whether h, made of letters, digits, '-' and '.',
// is a hostname with no label empty or edged with '-' and a toplabel
// beginning with a letter: one with nothing to report.
func plainHostname(h string) bool {
	n := len(h)
	if n == 0 || n > maxHostname || h[0] == '-' || h[n-1] == '-' || h[n-1] == '.' {
		return false
	}
	// Only the octets around each "." need a look: a label is empty,
	// edged with '-' or too long only there. The dots are found eight
	// octets at a time (the last eight overlap what was seen, which the
	// shift drops).
	start := 0
	if n < 8 {
		for k := 0; k < n; k++ {
			if h[k] == '.' {
				if k == start || h[k-1] == '-' || h[k+1] == '-' {
					return false
				}
				start = k + 1
			}
		}
		return isAlpha(h[start])
	}
	for j := 0; j < n; j += 8 {
		var m uint64
		if n-j >= 8 {
			m = dots(load8(h[j:]))
		} else {
			m = dots(load8(h[n-8:])) >> (8 * (j - (n - 8)))
		}
		for m != 0 {
			k := j + bits.TrailingZeros64(m)>>3
			if k == start || h[k-1] == '-' || h[k+1] == '-' || k-start > maxLabel {
				return false
			}
			start = k + 1
			m &= m - 1
		}
	}
	return n-start <= maxLabel && isAlpha(h[start])
}

// The first octets of the commonest URLs, as load8 reads them: "http:"
// (and, an "s" between, "https:"), "file:", "ftp:" (schemes[0], [1],
// [3], [2]: an init function checks the order).
var wordHTTP, wordFile, wordFTP uint64

func init() {
	word := func(s string) uint64 { return load8(s + "\x00\x00\x00\x00\x00\x00\x00\x00") }
	wordHTTP, wordFile, wordFTP = word("http:"), word("file:"), word("ftp:")
	if schemes[0].name != "http" || schemes[1].name != "https" || schemes[2].name != "ftp" || schemes[3].name != "file" {
		panic("locator: the first schemes are not http, https, ftp, file")
	}
}

// load8 reads s[0:8] as a little-endian word (one load, for the compiler
// joins the bytes).
func load8(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// dots returns a word with the high bit of each octet of w that is "."
// set. The subtraction's borrow can also mark an octet 0x2F ("/") that
// follows a "."; callers pass only hostname octets, where there is none.
func dots(w uint64) uint64 {
	const lo, hi = 0x0101010101010101, 0x8080808080808080
	x := w ^ (lo * '.')
	return (x - lo) &^ x & hi
}

// The lengths of RFC 1034 §3.1: "labels must be 63 characters or less",
// and a name is at most 255 octets on the wire, 253 written (without a
// final "."; RFC 1123 §2.1).
const (
	maxLabel    = 63
	maxHostname = 253
)

// hostOctets is host's slow path: it judges each octet and label and
// reports what it finds.
func (p *parser) hostOctets(i, end int, known bool) int {
	s := p.s
	labelStart := i
	labels := 0
	bad := false
	j := i
	for {
		// The octets of one label, then what ends it.
		for j < end && class[s[j]]&cLabel != 0 {
			j++
		}
		if j < end && s[j] != '.' && s[j] != ':' {
			// Characters outside hostname: a few appear in real hosts
			// (RFC 3986 reg-name, IDNs) and are read as violations; the
			// rest can never be part of a host.
			c := s[j]
			switch {
			case c < 0x80 && (class[c]&cCtl != 0 || hostNever[c]):
				p.add(j, Error, "host", hostMsgs[0][c])
				return end
			case c == '%':
				p.add(j, Violation, "hostname", "percent-encoding is not allowed in a host name (RFC 1738 §3.1)")
			case c >= 0x80:
				p.add(j, Violation, "hostname", hostMsgs[1][c])
				for j+1 < end && s[j+1] >= 0x80 {
					j++
				}
			default:
				p.add(j, Violation, "hostname", hostMsgs[2][c])
			}
			bad = true
			j++
			continue
		}
		labels++
		label := s[labelStart:j]
		last := j == end || s[j] == ':'
		if len(label) > maxLabel {
			p.add(labelStart, Violation, "domainlabel", "a label is at most 63 octets (RFC 1034 §3.1); this one has "+strconv.Itoa(len(label)))
		}
		if last {
			if n := j - i; n > maxHostname && !(n == maxHostname+1 && s[j-1] == '.') {
				p.add(i, Violation, "hostname", "a host name is at most 253 octets (RFC 1034 §3.1: 255 on the wire); this one has "+strconv.Itoa(n))
			}
		}
		switch {
		case label == "":
			if j == i && last {
				if known && p.syn.Internet && p.name != "file" {
					p.add(i, Violation, "host", "the host is empty; "+p.name+" URLs name a host (RFC 1738 §3.1)")
				}
				return j
			}
			if last && labels > 1 {
				p.add(j-1, Violation, "hostname", "a host name does not end with '.'")
			} else {
				p.add(j, Violation, "hostname", "empty label in host name")
			}
			bad = true
		case label[0] == '-':
			p.add(labelStart, Violation, "domainlabel", "a label does not begin with '-'")
			bad = true
		case label[len(label)-1] == '-':
			p.add(j-1, Violation, "domainlabel", "a label does not end with '-'")
			bad = true
		}
		if last {
			if !bad && len(label) > 0 && isDigit(label[0]) {
				// The toplabel begins with a letter (§5), so this must be
				// a hostnumber.
				if labels == 4 && allDigitsOrDots(s[i:j]) {
					p.hostnumber(i, j)
				} else {
					p.add(labelStart, Violation, "toplabel",
						"the last label of a host name begins with a letter, and a host number is four dotted decimal groups")
				}
			}
			return j
		}
		j++
		labelStart = j
	}
}

// validZone reports whether z is an RFC 6874 §2 ZoneID: one or more
// unreserved characters (RFC 3986 §2.3: ALPHA DIGIT "-" "." "_" "~") or
// escapes.
func validZone(z string) bool {
	if z == "" {
		return false
	}
	for i := 0; i < len(z); i++ {
		c := z[i]
		switch {
		case isAlpha(c) || isDigit(c) || c == '-' || c == '.' || c == '_' || c == '~':
		case c == '%' && i+2 < len(z) && IsHex(z[i+1]) && IsHex(z[i+2]):
			i += 2
		default:
			return false
		}
	}
	return true
}

func allDigitsOrDots(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] != '.' && !isDigit(s[i]) {
			return false
		}
	}
	return true
}

// hostnumber checks each group of digits "." digits "." digits "." digits.
func (p *parser) hostnumber(i, end int) {
	s := p.s
	start := i
	for j := i; j <= end; j++ {
		if j == end || s[j] == '.' {
			n := 0
			for k := start; k < j && n <= 255; k++ {
				n = n*10 + int(s[k]-'0')
			}
			if n > 255 {
				p.add(start, Violation, "hostnumber", "group "+strconv.Quote(s[start:j])+" is above 255")
			}
			start = j + 1
		}
	}
}

// port judges port = digits in s[i:end].
func (p *parser) port(i, end int) {
	s := p.s
	if i == end {
		p.add(i-1, Violation, "port", "':' is followed by no port number")
		return
	}
	n := 0
	for j := i; j < end; j++ {
		c := s[j]
		if !isDigit(c) {
			p.add(j, Error, "port", "the port is decimal digits; found "+quoteByte(c))
			return
		}
		if n <= 65535 {
			n = n*10 + int(c-'0')
		}
	}
	if n > 65535 {
		p.add(i, Error, "port", "port "+s[i:end]+" is above 65535")
		return
	}
	if def := p.syn.DefaultPort; def != 0 && n != def {
		// Written in one buffer, so that the message is one allocation.
		var buf [160]byte
		m := append(buf[:0], "port "...)
		m = strconv.AppendInt(m, int64(n), 10)
		m = append(m, " is not "...)
		m = append(m, p.name...)
		m = append(m, "'s default "...)
		m = strconv.AppendInt(m, int64(def), 10)
		m = append(m, "; the server there may speak another protocol"...)
		if n < 1024 {
			m = append(m, ", and it is in the reserved range"...)
		}
		p.add(i, Warning, "RFC 1738 §6", string(m))
	}
}

// scan judges each octet of s[i:end] against the allowed set, escapes
// included, under the named grammar rule. With stop, it stops at the
// first "#", or "?" when ok does not allow it, and returns where it
// stopped; otherwise it returns end.
func (p *parser) scan(i, end int, ok *octetSet, rule string, stop bool) int {
	s := p.s
	for {
		// Allowed octets many at a time (allowedPrefix).
		if i += allowedPrefix(s[i:end], ok); i == end {
			return end
		}
		// s[i] is not allowed as it stands.
		j := i
		c := s[j]
		i++
		if stop && (c == '#' || c == '?') {
			return j
		}
		if c == '%' {
			if j+2 < end && class[s[j+1]]&cHex != 0 && class[s[j+2]]&cHex != 0 {
				v := hex.Value(s[j+1])<<4 | hex.Value(s[j+2])
				if v == 0 || v == '\r' || v == '\n' || v == '\t' {
					if !containsByte(p.syn.Delims, v) {
						p.add(j, Warning, "RFC 1738 §6", "encoded "+ctlName(v)+" would become a protocol delimiter if decoded before transmission")
					}
				}
				i = j + 3
				continue
			}
			p.add(j, Violation, "escape", "'%' begins an escape \"%\" hex hex; a literal '%' is written %25 (RFC 1738 §2.2)")
			continue
		}
		if c >= 0x80 {
			for i < end && s[i] >= 0x80 {
				i++
			}
			var buf [128]byte // the message in one allocation
			m := append(buf[:0], "non-ASCII octets "...)
			m = strconv.AppendQuote(m, s[j:i])
			p.add(j, Violation, rule, string(append(m, " must be encoded (RFC 1738 §2.2)"...)))
			continue
		}
		if msg := unsafeMsg[c]; msg != "" {
			p.add(j, Violation, rule, msg)
			continue
		}
		p.add(j, Violation, rule, reservedMsg(c, rule))
	}
}

// judged says which octets of a text Resolve composed were judged
// already, in the parts of the base and the reference they came from,
// so that tail does not judge them again: scan would record no problem
// there and not stop.
type judged struct {
	path   int // the path's octets before s[path]
	query  int // the "?" at s[query] begins a search judged up to s[search] (0: none)
	search int
	frag   int // the "#" at s[frag] begins a fragment judged to the end (0: none)
}

// cleanPrefix returns the length of the longest prefix of s that scan
// reads under ok without a problem and without stopping: octets ok
// allows, and escapes "%" hex hex but those of the octets RFC 1738 §6
// warns of (NUL, CR, LF, TAB), which the scheme may take as its own.
func cleanPrefix(s string, ok *octetSet) int {
	i := 0
	for {
		for len(s)-i >= 8 {
			w := s[i : i+8]
			if ok.t[w[0]]&ok.t[w[1]]&ok.t[w[2]]&ok.t[w[3]]&ok.t[w[4]]&ok.t[w[5]]&ok.t[w[6]]&ok.t[w[7]] == 0 {
				i += okPrefix(ok, w)
				break
			}
			i += 8
		}
		for i < len(s) && ok.t[s[i]] != 0 {
			i++
		}
		if i+2 < len(s) && s[i] == '%' && class[s[i+1]]&cHex != 0 && class[s[i+2]]&cHex != 0 {
			if v := hex.Value(s[i+1])<<4 | hex.Value(s[i+2]); v != 0 && v != '\r' && v != '\n' && v != '\t' {
				i += 3
				continue
			}
		}
		return i
	}
}

// okPrefix returns how many of the eight octets of w, from the first,
// ok allows before one it does not.
func okPrefix(ok *octetSet, w string) int {
	return bits.TrailingZeros8(^okMask(ok, w))
}

// okMask returns the eight octets of w as bits, bit k set when ok allows
// w[k]. (Small enough for the compiler to inline, as okPrefix is.)
func okMask(ok *octetSet, w string) uint8 {
	return ok.t[w[0]] | ok.t[w[1]]<<1 | ok.t[w[2]]<<2 | ok.t[w[3]]<<3 | ok.t[w[4]]<<4 | ok.t[w[5]]<<5 | ok.t[w[6]]<<6 | ok.t[w[7]]<<7
}

// reservedMsg is the message for a reserved octet c found unencoded in
// rule's component, made once for the core's rules.
func reservedMsg(c byte, rule string) string {
	if c < 0x80 {
		switch rule {
		case "urlpath":
			return reservedMsgs[0][c]
		case "search":
			return reservedMsgs[1][c]
		case "fragmentaddress":
			return reservedMsgs[2][c]
		case "user":
			return reservedMsgs[3][c]
		case "password":
			return reservedMsgs[4][c]
		}
	}
	return "reserved character " + quoteByte(c) + " must be encoded in " + rule + " (RFC 1738 §2.2)"
}

var reservedMsgs [5][128]string

// hostMsgs are the messages for an octet in a host, made once: one that
// can never be there, a non-ASCII one, one outside hostname.
var hostMsgs [3][256]string

func init() {
	for c := 0; c < 256; c++ {
		q := quoteByte(byte(c))
		hostMsgs[0][c] = "character " + q + " cannot appear in a host name"
		hostMsgs[1][c] = "non-ASCII octet " + q + " in a host name; an internationalized name is written in its ASCII (IDNA) form"
		hostMsgs[2][c] = "character " + q + " is not allowed in a host name (RFC 1738 §3.1: letters, digits, '-' and '.')"
	}
}

func init() {
	for k, rule := range []string{"urlpath", "search", "fragmentaddress", "user", "password"} {
		for c := 0; c < 0x80; c++ {
			reservedMsgs[k][c] = "reserved character " + quoteByte(byte(c)) + " must be encoded in " + rule + " (RFC 1738 §2.2)"
		}
	}
}

func containsByte(s string, c byte) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return true
		}
	}
	return false
}

func ctlName(c byte) string {
	switch c {
	case 0:
		return "NUL (%00)"
	case '\r':
		return "CR (%0D)"
	case '\n':
		return "LF (%0A)"
	case '\t':
		return "TAB (%09)"
	}
	return quoteByte(c)
}

func quoteByte(c byte) string {
	if c >= 0x80 {
		return "0x" + string(upperhex[c>>4]) + string(upperhex[c&15])
	}
	return strconv.QuoteRune(rune(c))
}

// An octetSet holds 1 for each octet allowed unencoded in a context (t;
// a byte, not a bool, so that eight lookups combine with "&" and no
// branch), and the same set as a table of sixteen bytes for a vector
// scan (nib, when vec): bit h of nib[c&15] is set when t[c] is 1, for
// every c below 0x80 (h is c>>4); vec says that no octet above 0x7F is
// in the set, which the vector scan takes for granted. vectorize makes
// nib and vec from t.
type octetSet struct {
	t   [256]uint8
	nib [16]uint8
	vec bool
}

// vectorize sets nib and vec from t.
func (s *octetSet) vectorize() {
	s.nib = [16]uint8{}
	s.vec = true
	for c := range s.t {
		switch {
		case s.t[c] == 0:
		case c >= 0x80:
			s.vec = false
		default:
			s.nib[c&15] |= 1 << (c >> 4)
		}
	}
}

// Allowed unencoded octets per context.
var (
	xcharOK            octetSet // urlpath, search, fragment: xchar
	xcharNoSearch      octetSet // a path where "?" begins the search: xchar but "?"
	xcharNoSearchNoDot octetSet // the same but ".", for cleanPathPrefix
	userOK             octetSet // user, password: uchar | ";" | "?" | "&" | "="
	hostNever          [128]bool
	hostOK             octetSet    // alpha, digit, '-', '.': hostname's octets
	unsafeMsg          [128]string // the message for each unsafe ASCII octet, made once
)

func init() {
	for c := 0; c < 256; c++ {
		if class[c]&cXchar != 0 {
			xcharOK.t[c] = 1
			xcharNoSearch.t[c] = 1
		}
		if class[c]&cUnreserved != 0 {
			userOK.t[c] = 1
		}
	}
	for _, c := range ";?&=" {
		userOK.t[c] = 1
	}
	xcharNoSearch.t['?'] = 0
	xcharNoSearchNoDot = xcharNoSearch
	xcharNoSearchNoDot.t['.'] = 0
	for _, s := range []*octetSet{&xcharOK, &xcharNoSearch, &xcharNoSearchNoDot, &userOK} {
		s.vectorize()
	}
	for _, c := range "<>\"{}|\\^`[]#/?@" {
		hostNever[c] = true
	}
	for c := 0; c < 256; c++ {
		if class[c]&cLabel != 0 || c == '.' {
			hostOK.t[c] = 1
		}
	}
	hostOK.vectorize()
	for c := 0; c < 0x80; c++ {
		if IsUnsafe(byte(c)) {
			unsafeMsg[c] = "unsafe character " + quoteByte(byte(c)) + " must be encoded (RFC 1738 §2.2)"
		}
	}
}
