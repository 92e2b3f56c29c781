// Package prospero reads, judges and builds Prospero URLs as RFC 1738
// §3.11 describes them:
//
//	prospero://<host>:<port>/<hsoname>;<field>=<value>
//
// The hsoname is "the host-specific object name in the Prospero protocol,
// suitably encoded. This name is opaque": "a slash "/" may appear in the
// <hsoname> without quoting and no significance may be assumed", and an
// hsoname that begins with "/" follows the URL's own "/", so
// prospero://host.dom//pros/name names "/pros/name". Each ";" begins a
// field=value pair (fieldspec = ";" fieldname "=" fieldvalue, §5), e.g.
// OBJECT-VERSION. "No username or password is allowed."
//
// The October 1993 draft wrote a version and attributes after the hsoname
// separated by %00 (hsoname [ %00 version [ attributes ] ], "the first
// attribute would be separated from the host specific name by %00%00");
// that form is read and reported as the draft form (rule "prosperourl").
//
// Parts (the JSON "parts") are {hsoname, fields: {name: value}}, decoded:
// hsoname is always present (possibly ""), fields only when the URL has
// at least one (when a name repeats, the first value is kept there; From
// keeps them all). The draft form adds {version, attributes}.
package prospero

import (
	"strconv"
	"strings"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/internal/urlbuild"
)

// defaultPort is the port a Prospero URL means when it names none.
const defaultPort = 1525

// URL is a Prospero URL's decoded structure.
type URL struct {
	Host string
	Port string // "" for the default 1525

	HSOName string  // decoded, "/" and all
	Fields  []Field // the ;field=value pairs, decoded, in order

	// Version and Attributes are the 1993 draft's %00 form; HasVersion
	// records the first %00.
	Version    string
	HasVersion bool
	Attributes []string
}

// A Field is one ;name=value of a Prospero URL, decoded.
type Field struct {
	Name, Value string
}

// schemeError is the *locator.SchemeError of a Prospero URL's field: the
// field ("url", "hsoname", "version", "attribute", "host", "port"), the
// offset in its text and the rule broken.
func schemeError(field string, off int, rule, msg string) *locator.SchemeError {
	return &locator.SchemeError{Scheme: "prospero", Field: field, Offset: off, Rule: rule, Message: msg}
}

// Parse reads s with locator.Parse and returns its Prospero structure.
// The error is a *locator.ParseError when s is not a URL at all, and a
// *locator.SchemeError when it is not a prospero URL.
func Parse(s string) (*URL, error) { return urlbuild.Parse(s, From) }

// From decodes the Prospero structure of u; problems are in u.Problems.
// It fails only when u is not a prospero URL, with a
// *locator.SchemeError of field "url".
func From(u *locator.URL) (*URL, error) {
	if u.Scheme() != "prospero" {
		return nil, schemeError("url", 0, "prosperourl", "scheme is "+strconv.Quote(u.Scheme())+", not prospero")
	}
	pr := &URL{}
	if u.HasAuthority() { // a host and port are written only after "//"
		pr.Host = u.Host()
		if u.HasPort() {
			pr.Port = u.Port()
		}
	}
	sp := splitPath(u.Path())
	pr.HSOName = locator.Decode(u.Path()[:sp.nameEnd])
	if sp.nuls != nil {
		pr.HasVersion = true
		pieces := sp.pieces(u.Path())
		pr.Version = locator.Decode(pieces[0])
		for _, a := range pieces[1:] {
			pr.Attributes = append(pr.Attributes, locator.Decode(a))
		}
	}
	for _, f := range sp.fields {
		name, value := u.Path()[f[0]:f[1]], ""
		if f[2] >= 0 {
			value = u.Path()[f[2]:f[3]]
		}
		pr.Fields = append(pr.Fields, Field{locator.Decode(name), locator.Decode(value)})
	}
	return pr, nil
}

// pathSplit locates the parts of an encoded ppath.
type pathSplit struct {
	nameEnd int   // end of the hsoname
	nuls    []int // offsets of each %00 (the 1993 draft form), before the first ";"
	hsoEnd  int   // end of hsoname and draft parts: the first ";" or the end
	// fields holds, per fieldspec, name start and end and value start
	// and end (value -1, -1 when there is no "=").
	fields [][4]int
}

func splitPath(p string) pathSplit {
	sp := pathSplit{hsoEnd: len(p)}
	if i := strings.IndexByte(p, ';'); i >= 0 {
		sp.hsoEnd = i
	}
	sp.nameEnd = sp.hsoEnd
	for i := 0; i+2 < sp.hsoEnd; i++ {
		if p[i] == '%' && p[i+1] == '0' && p[i+2] == '0' {
			if sp.nuls == nil {
				sp.nameEnd = i
			}
			sp.nuls = append(sp.nuls, i)
			i += 2
		}
	}
	for start := sp.hsoEnd; start < len(p); {
		end := strings.IndexByte(p[start+1:], ';')
		if end < 0 {
			end = len(p)
		} else {
			end += start + 1
		}
		f := [4]int{start + 1, end, -1, -1}
		if eq := strings.IndexByte(p[start+1:end], '='); eq >= 0 {
			f[1] = start + 1 + eq
			f[2], f[3] = f[1]+1, end
		}
		sp.fields = append(sp.fields, f)
		start = end
	}
	return sp
}

// pieces returns the encoded texts between the %00s: version, then each
// attribute.
func (sp pathSplit) pieces(p string) []string {
	var out []string
	for k, at := range sp.nuls {
		end := sp.hsoEnd
		if k+1 < len(sp.nuls) {
			end = sp.nuls[k+1]
		}
		out = append(out, p[at+3:end])
	}
	return out
}

// Build writes pr as a correctly encoded Prospero URL: the hsoname with
// each "/"-separated psegment encoded (";" becomes %3B), and each field
// name and value with every octet outside uchar | "?" | ":" | "@" | "&"
// encoded (so "=", ";" and "/" become escapes). A version or attributes
// give the 1993 draft's %00 form, which cannot be combined with fields.
// It fails, with a *locator.SchemeError naming the field, when the
// hsoname holds a NUL (which %00 would turn into the draft's separator),
// when the version is not digits or an attribute not letters and digits
// (the draft's grammar), or the host or port is not RFC 1738's; and with
// a *locator.BuildError when what it wrote does not conform (an IPv6
// host, which RFC 1738's hostport cannot write, among them).
func (pr *URL) Build() (string, error) {
	draft := pr.HasVersion || pr.Version != "" || len(pr.Attributes) > 0
	if draft && len(pr.Fields) > 0 {
		return "", schemeError("url", 0, "prosperourl", "the 1993 draft's %00 version form and RFC 1738's fields do not combine")
	}
	if i := strings.IndexByte(pr.HSOName, 0); i >= 0 {
		return "", schemeError("hsoname", i, "hsoname", "an hsoname holds no NUL: %00 would be read as the 1993 draft's version separator")
	}
	if f, i := urlbuild.BadHostport(pr.Host, pr.Port); i >= 0 {
		return "", schemeError(f, i, "hostport", "the "+f+" holds a character RFC 1738 §3.1 does not allow there")
	}
	if pr.Host == "" {
		return "", schemeError("host", 0, "hostport", "a Prospero URL names a host (RFC 1738 §3.11)")
	}
	var b strings.Builder
	b.WriteString("prospero://")
	urlbuild.WriteHostport(&b, pr.Host, pr.Port)
	b.WriteByte('/')
	for i, seg := range strings.Split(pr.HSOName, "/") {
		if i > 0 {
			b.WriteByte('/')
		}
		b.WriteString(locator.Escape(seg, locator.EncodeFSegment))
	}
	if draft {
		if i := notDigit(pr.Version); i >= 0 {
			return "", schemeError("version", i, "version", "the 1993 draft's version is digits")
		}
		b.WriteString("%00" + pr.Version)
		for k, a := range pr.Attributes {
			if a == "" || notAlphanum(a) >= 0 {
				return "", schemeError("attribute", k, "attribute", "the 1993 draft's attribute is alphanums, not "+strconv.Quote(a))
			}
			b.WriteString("%00" + a)
		}
	}
	for _, f := range pr.Fields {
		b.WriteString(";" + locator.Escape(f.Name, locator.EncodeField) + "=" + locator.Escape(f.Value, locator.EncodeField))
	}
	s := b.String()
	// The fields are encoded, so any problem read back is in the host or
	// port (the draft form's own "prosperourl" report aside). Unlike
	// urlbuild.CheckBuilt no IPv6 literal is allowed: every URL Build
	// writes conforms to RFC 1738.
	u, err := locator.Parse(s)
	if err != nil {
		return "", &locator.BuildError{Scheme: "prospero", URL: s, Problem: err.(*locator.ParseError).Problem}
	}
	for _, p := range u.Problems() {
		if p.Severity >= locator.Violation && p.Rule != "prosperourl" {
			return "", &locator.BuildError{Scheme: "prospero", URL: s, Problem: p}
		}
	}
	return s, nil
}

func notDigit(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return i
		}
	}
	return -1
}

func notAlphanum(s string) int {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
			return i
		}
	}
	return -1
}
