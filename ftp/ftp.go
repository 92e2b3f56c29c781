// Package ftp holds the ftp scheme of RFC 1738 §3.2: the structure of an
// ftp url-path (directories, name and typecode), the scheme's rules, the
// decoded URL (URL: Parse and From read it, its Build method writes it
// back, correctly encoded), the FTP command sequence (RFC 959) that a URL
// stands for, and the client that fetches it.
//
// # Structure
//
// RFC 1738 §3.2.2 writes the url-path as
//
//	<cwd1>/<cwd2>/.../<cwdN>/<name>;type=<typecode>
//
// The path is split on "/" before any segment is decoded, so an encoded
// "%2F" stays inside its segment: ftp://myname@host.dom/%2Fetc/motd is
// "CWD /etc" then "RETR motd", and ftp://myname@host.dom//etc/motd is
// "CWD " with a null argument, "CWD etc", "RETR motd" (§3.2.2).
//
// Presence is kept apart from emptiness, as in the core's URL:
//
//   - ftp://host has no url-path: Cwd is empty and HasName is false (no
//     "name" key in the JSON parts).
//   - ftp://host/ and ftp://host/dir/ have a name that is present and
//     empty ("name": ""); the directory is listed.
//   - Cwd is always a list (possibly empty, never null in JSON): the CWD
//     commands to give, none when there are none.
//   - Typecode is present only when ";type=" (or the draft form) is
//     written; it is reported in lower case, the case of §3.2.2's
//     "the characters "a", "i", or "d"" (§5's ftptype allows either case).
//
// # Draft 03's typecode suffix
//
// The March 1994 URL draft 03 (as the diff Tim Berners-Lee sent the URI
// working group on 24 March 1994 quotes it) wrote the data
// type as "a suffix to the URL separated by an unencoded exclamation mark
// (ASCII 21 hex)": !I (image), !A (ASCII) or !D (directory list). When the
// last segment has no ";type=" and ends in "!A", "!I" or "!D" (upper case,
// as the draft writes them), the suffix is read as the typecode and
// reported as a violation of rule "ftptype" naming the draft form; under
// RFC 1738 alone the "!" would be part of the name. Normalize rewrites it
// as ";type=". Build never writes it, and encodes the "!" of a name that
// would otherwise be read so.
//
// # Rules
//
// Check reports, with offsets into the input:
//   - "fsegment": an unencoded ";" inside a directory or the name
//     (§3.2.2: "/" and ";" are reserved and must be encoded);
//   - "ftptype": a ";type=" anywhere but at the end of the url-path, a
//     typecode other than a, i, d (either case), or the draft form;
//   - "ftpurl": ";type=" written in upper case.
//
// The generic rules (characters, escapes, host, port, the password
// warning) are the core's.
//
// # Protocol plan
//
// NewPlan turns a URL into the commands of §3.2.1–§3.2.3: USER and PASS
// (anonymous and the end user's e-mail address when the URL has no user),
// one CWD per directory, then NLST for ";type=d" or TYPE and RETR. Where
// the URL's name is empty (ftp://host/dir/) there is no file to retrieve,
// and the directory is listed with NLST as for ";type=d". Without a
// typecode §3.2.3 says the client "must guess the appropriate mode"; the
// plan's TYPE is then TYPE I (image: the file's exact octets), marked
// Guessed, and Client.ASCII makes it TYPE A.
//
// Peers depart from this plan; see the package tests and
// docs/schemes-a.md: curl decodes the path before splitting it (so
// "%2Ftmp" becomes "CWD /", "CWD tmp"), turns a leading empty segment
// into "CWD /", drops other empty segments, and sends TYPE A before LIST
// and SIZE before RETR. Like this plan, curl and Python's urllib send
// TYPE I when the URL gives no typecode.
package ftp

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/rfc1738/locator"
)

func init() {
	locator.Register("ftp", Rules{})
}

// Path is the decoded structure of an ftp url-path (RFC 1738 §3.2.2).
type Path struct {
	// Cwd holds the decoded <cwd1> ... <cwdN>, each the argument of one
	// CWD command; an element may be empty.
	Cwd []string
	// Name is the decoded <name>; HasName is false when the URL has no
	// url-path at all.
	Name    string
	HasName bool
	// Typecode is the typecode in lower case ("a", "i" or "d"; anything
	// else as written, lower-cased, is a violation); HasTypecode reports
	// whether one was written.
	Typecode    string
	HasTypecode bool
	// Draft is true when the typecode was written in draft 03's form
	// "!A", "!I" or "!D" instead of ";type=".
	Draft bool
}

// MarshalJSON writes the JSON parts of an ftp URL:
// {"cwd": [...], "name": ..., "typecode": ...}, leaving out name and
// typecode when they are absent.
func (p Path) MarshalJSON() ([]byte, error) {
	type parts struct {
		Cwd      []string `json:"cwd"`
		Name     *string  `json:"name,omitempty"`
		Typecode *string  `json:"typecode,omitempty"`
	}
	q := parts{Cwd: p.Cwd}
	if q.Cwd == nil {
		q.Cwd = []string{}
	}
	if p.HasName {
		q.Name = &p.Name
	}
	if p.HasTypecode {
		q.Typecode = &p.Typecode
	}
	return json.Marshal(q)
}

// typePart locates the typecode part of an encoded url-path: the index
// of the ";" of ";type=" (any case) or of the "!" of draft 03's suffix in
// the last segment, or -1; the code as written; whether it is the draft
// form; whether ";type=" is written in another case. It does not
// allocate: Check runs it on every ftp URL Parse reads.
func typePart(p string) (at int, code string, draft, upperKey bool) {
	start := strings.LastIndexByte(p, '/') + 1
	last := p[start:]
	if j := typeKey(last); j >= 0 {
		return start + j, last[j+len(";type="):], false, last[j:j+len(";type=")] != ";type="
	}
	if k := len(last) - 2; k >= 0 && last[k] == '!' && isDraftCode(last[k+1]) {
		return start + k, last[k+1:], true, false
	}
	return -1, "", false, false
}

// typeKey returns the index in seg of the last ";" that begins ";type="
// (in any case), or -1.
func typeKey(seg string) int {
	for j := strings.LastIndexByte(seg, ';'); j >= 0; j = strings.LastIndexByte(seg[:j], ';') {
		if hasPrefixFold(seg[j:], ";type=") {
			return j
		}
	}
	return -1
}

func isDraftCode(c byte) bool { return c == 'A' || c == 'I' || c == 'D' }

// validCode reports whether code is an ftptype of RFC 1738 §5:
// "A" | "I" | "D" | "a" | "i" | "d".
func validCode(code string) bool {
	if len(code) != 1 {
		return false
	}
	switch code[0] {
	case 'a', 'i', 'd', 'A', 'I', 'D':
		return true
	}
	return false
}

func hasPrefixFold(s, pre string) bool {
	if len(s) < len(pre) {
		return false
	}
	for i := 0; i < len(pre); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != pre[i] {
			return false
		}
	}
	return true
}

func lower(s string) string {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			return strings.ToLower(s)
		}
	}
	return s
}

// Split returns the decoded structure of u's url-path (RFC 1738 §3.2.2):
// the path is cut at each "/" first, then each segment is decoded, so
// "%2F" is a "/" inside a directory or name. A URL with no url-path has
// no name. Split reads any URL; it does not judge it (see Check).
func Split(u *locator.URL) Path {
	var p Path
	if !u.HasPath() {
		p.Cwd = []string{}
		return p
	}
	path := u.Path()
	at, code, draft, _ := typePart(path)
	if at >= 0 {
		p.HasTypecode = true
		p.Typecode = lower(code)
		p.Draft = draft
		path = path[:at]
	}
	segs := strings.Split(path, "/")
	for i, s := range segs {
		segs[i] = locator.Decode(s)
	}
	p.Cwd = segs[:len(segs)-1]
	p.Name = segs[len(segs)-1]
	p.HasName = true
	return p
}

// Rules are the ftp scheme's rules. They implement locator.Rules,
// locator.Explainer and locator.Normalizer.
type Rules struct{}

// Parts returns Split(u), which marshals as the ftp URL's JSON parts.
func (Rules) Parts(u *locator.URL) any { return Split(u) }

// Check adds to r the ftp-specific problems of u (RFC 1738 §3.2.2, §5
// fpath, fsegment, ftptype) with offsets into u.Input.
func (Rules) Check(u *locator.URL, r locator.Report) locator.Report {
	if !u.HasPath() {
		return r
	}
	add := func(off int, rule, msg string) { r.Add(off, locator.Violation, rule, msg) }
	base := u.Offset(locator.PathComponent)
	p := u.Path()
	typeAt, code, draft, upperKey := typePart(p)
	end := len(p)
	if typeAt >= 0 {
		end = typeAt
	}
	for i := 0; i < end; i++ {
		if p[i] != ';' {
			continue
		}
		if hasPrefixFold(p[i:], ";type=") {
			add(base+i, "ftptype", "\";type=\" ends the url-path; here it is inside a directory name, where ';' must be encoded as %3B (RFC 1738 §3.2.2)")
			continue
		}
		add(base+i, "fsegment", "';' is reserved in an ftp directory or name and must be encoded as %3B (RFC 1738 §3.2.2)")
	}
	if typeAt < 0 {
		return r
	}
	at := base + typeAt
	switch {
	case draft:
		add(at, "ftptype", "\"!"+code+"\" is draft 03's (March 1994) typecode suffix, read here as the typecode; RFC 1738 writes \";type="+lower(code)+"\" (§3.2.2), and reads the \"!"+code+"\" as part of the name")
	case !validCode(code):
		add(at+len(";type="), "ftptype", "typecode "+quote(code)+" is not one of the characters a, i, d (RFC 1738 §3.2.2)")
	}
	if upperKey {
		add(at, "ftpurl", quote(p[typeAt:typeAt+len(";type=")])+" is written \";type=\" in lower case (RFC 1738 §5 ftpurl)")
	}
	return r
}

// Normalize rewrites u's typecode part in the form RFC 1738 §3.2.2
// writes it: ";type=" and the code in lower case (§5 ftptype accepts
// either case), and draft 03's "!A", "!I", "!D" as ";type=a", ";type=i",
// ";type=d". An invalid typecode is left as written.
func (Rules) Normalize(p *locator.Parts) {
	if !p.HasPath {
		return
	}
	at, code, _, _ := typePart(p.Path)
	if at < 0 || !validCode(code) {
		return
	}
	p.Path = p.Path[:at] + ";type=" + lower(code)
}

func quote(s string) string { return strconv.Quote(s) }
