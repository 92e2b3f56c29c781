package prospero

// The text of Prospero protocol version 5 messages (prospero-protocol.tex,
// cited as "Prospero §..."): lines, tokens and quoting, and the replies
// to LIST and GET-OBJECT-INFO.

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/file"
	"github.com/rfc1738/locator/ftp"
	"github.com/rfc1738/locator/gopher"
)

// A SyntaxError says why a line of a Prospero message cannot be read:
// the offset in the line and the rule it breaks.
type SyntaxError struct {
	Offset int
	Rule   string
	Msg    string
}

func (e *SyntaxError) Error() string {
	return "Prospero message: offset " + strconv.Itoa(e.Offset) + ": " + e.Rule + ": " + e.Msg
}

// readLine reads one line of a Prospero message: Prospero §"Spaces,
// quoting, and line-feeds": lines are "separated by an unquoted ASCII LF
// character" (a quoted LF belongs to its token); a CR before the LF is
// removed. A line longer than max octets is an error as soon as its
// max+1st octet is read; a message that ends inside a line returns it
// with io.ErrUnexpectedEOF (io.EOF when nothing was read).
func readLine(br *bufio.Reader, max int) (string, error) {
	var b []byte
	quoted := false
	for {
		c, err := br.ReadByte()
		if err != nil {
			if errors.Is(err, io.EOF) {
				if len(b) == 0 {
					return "", io.EOF
				}
				return strings.TrimSuffix(string(b), "\r"), io.ErrUnexpectedEOF
			}
			return "", err
		}
		if c == '\n' && !quoted {
			return strings.TrimSuffix(string(b), "\r"), nil
		}
		if c == '\'' {
			quoted = !quoted // a doubled quote inside quotes toggles twice
		}
		if len(b) >= max {
			return "", &access.ProtocolError{Msg: "a Prospero reply line longer than " + strconv.Itoa(max) + " octets"}
		}
		b = append(b, c)
	}
}

// tokens splits a line into tokens (Prospero §"Spaces, quoting, and
// line-feeds"): tokens are separated by unquoted spaces and tabs; single
// quotes quote, a doubled quote inside quotes is one quote, and a token
// may mix quoted and unquoted parts ("6' bytes'" is "6 bytes"); ” is
// the null token. A NUL, which "cannot be quoted", and a quote left open
// are errors.
func tokens(line string) ([]string, error) {
	var toks []string
	var cur strings.Builder
	in, quoted, openAt := false, false, 0
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == 0:
			return nil, &SyntaxError{i, "Prospero §2.1 quoting", "a NUL, the one character that cannot be quoted"}
		case quoted:
			if c == '\'' {
				if i+1 < len(line) && line[i+1] == '\'' {
					cur.WriteByte('\'')
					i++
					continue
				}
				quoted = false
				continue
			}
			cur.WriteByte(c)
		case c == '\'':
			quoted, in, openAt = true, true, i
		case c == ' ' || c == '\t':
			if in {
				toks = append(toks, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteByte(c)
			in = true
		}
	}
	if quoted {
		return nil, &SyntaxError{openAt, "Prospero §2.1 quoting", "a quote that is not closed"}
	}
	if in {
		toks = append(toks, cur.String())
	}
	return toks, nil
}

// quote writes s as one quoted token: between single quotes, each quote
// doubled. s must hold no NUL.
func quote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}

// A link is one LINK line of a LIST reply (Prospero §"Links") with the
// ATTRIBUTE lines that follow it.
type link struct {
	Type         string // link-type: L (normal) or U (union)
	Target       string // FILE, DIRECTORY, DIRECTORY+FILE, OBJECT, EXTERNAL, SYMBOLIC, ...
	Name         string // name-component
	HostType     string // INTERNET-D, VIRTUAL-SYSTEM, ...
	Host         string // host-name, a port as host(port)
	HSONameType  string // ASCII
	HSOName      string
	Version      string // object-version
	DestExp      string // DEST-EXP, or ""
	IDs          [][2]string
	Attributes   []Attribute
	NoReadAccess bool // the fields came back as NULL: the link may not be read
}

// An Attribute is one ATTRIBUTE line (Prospero §"Link Attributes").
type Attribute struct {
	Depth     int    // the ">" after ATTRIBUTE: a sub-attribute of the value before
	AppliesTo string // LINK, CACHED, REPLACEMENT, ADDITIONAL, OBJECT
	Kind      string // FIELD, APPLICATION or INTRINSIC
	Name      string
	ValueType string // SEQUENCE, LINK, FILTER ("" for FIELD lines without one)
	Values    []string
}

// parseLink reads a LINK line: LINK link-type target name-component
// host-type host-name hsoname-type hsoname object-version [DEST-EXP
// dest-expiration] [ID id-type id-value]...
func parseLink(line string) (*link, error) {
	t, err := tokens(line)
	if err != nil {
		return nil, err
	}
	return linkFrom(t, line)
}

func linkFrom(t []string, line string) (*link, error) {
	if len(t) == 0 || t[0] != "LINK" {
		return nil, &SyntaxError{0, "Prospero §LIST Links", "not a LINK line"}
	}
	if len(t) < 9 {
		return nil, &SyntaxError{len(line), "Prospero §LIST Links", fmt.Sprintf("a LINK line has 8 fields after LINK, this one %d", len(t)-1)}
	}
	l := &link{Type: t[1], Target: t[2], Name: t[3], HostType: t[4], Host: t[5], HSONameType: t[6], HSOName: t[7], Version: t[8]}
	if l.Type == "NULL" && l.Target == "NULL" {
		l.NoReadAccess = true
	}
	rest := t[9:]
	for len(rest) > 0 {
		switch rest[0] {
		case "DEST-EXP":
			if len(rest) < 2 {
				return nil, &SyntaxError{len(line), "Prospero §LIST Links", "DEST-EXP without its value"}
			}
			l.DestExp, rest = rest[1], rest[2:]
		case "ID":
			if len(rest) < 3 {
				return nil, &SyntaxError{len(line), "Prospero §Object ID fields", "ID without its type and value"}
			}
			l.IDs, rest = append(l.IDs, [2]string{rest[1], rest[2]}), rest[3:]
		default:
			return nil, &SyntaxError{strings.Index(line, rest[0]), "Prospero §LIST Links", "an unknown token " + strconv.Quote(rest[0]) + " after the object-version"}
		}
	}
	return l, nil
}

// ParseAttribute reads an ATTRIBUTE line: ATTRIBUTE[>...] applies-to
// FIELD name [value-type] value... or ATTRIBUTE[>...] applies-to
// (APPLICATION | INTRINSIC) name value-type value.... A FIELD line's
// value type is optional (Prospero §"Link Attributes", footnote: older
// servers leave it out, and the Prospero server the tests run does).
func ParseAttribute(line string) (*Attribute, error) {
	t, err := tokens(line)
	if err != nil {
		return nil, err
	}
	return attributeFrom(t, line)
}

func attributeFrom(t []string, line string) (*Attribute, error) {
	if len(t) == 0 || !strings.HasPrefix(t[0], "ATTRIBUTE") {
		return nil, &SyntaxError{0, "Prospero §Link Attributes", "not an ATTRIBUTE line"}
	}
	a := &Attribute{}
	depth := strings.TrimPrefix(t[0], "ATTRIBUTE")
	if strings.Trim(depth, ">") != "" {
		return nil, &SyntaxError{9, "Prospero §Link Attributes", "ATTRIBUTE is followed by \">\" signs only"}
	}
	a.Depth = len(depth)
	if len(t) < 4 {
		return nil, &SyntaxError{len(line), "Prospero §Link Attributes", "an ATTRIBUTE line names applies-to, FIELD/APPLICATION/INTRINSIC and the attribute"}
	}
	a.AppliesTo, a.Kind, a.Name = t[1], t[2], t[3]
	rest := t[4:]
	switch a.Kind {
	case "FIELD":
		if len(rest) > 0 && isValueType(rest[0]) {
			a.ValueType, rest = rest[0], rest[1:]
		}
	case "APPLICATION", "INTRINSIC":
		if len(rest) == 0 {
			return nil, &SyntaxError{len(line), "Prospero §Link Attributes", "an " + a.Kind + " attribute names its value type"}
		}
		a.ValueType, rest = rest[0], rest[1:]
	default:
		return nil, &SyntaxError{strings.Index(line, t[2]), "Prospero §Link Attributes", "the attribute kind is FIELD, APPLICATION or INTRINSIC, not " + strconv.Quote(t[2])}
	}
	a.Values = append([]string{}, rest...)
	return a, nil
}

func isValueType(s string) bool { return s == "SEQUENCE" || s == "LINK" || s == "FILTER" }

// A reply is what a LIST or GET-OBJECT-INFO reply says.
type reply struct {
	Version    string      // the server's VERSION line: version and software id
	Links      []*link     // LIST's links, in the server's order
	Attributes []Attribute // GET-OBJECT-INFO's (attributes before any LINK)
	NoneFound  bool        // NONE-FOUND
	Truncated  bool        // more links than the limit; the rest were not read
	Warnings   []string
}

// Limits on a reply.
const (
	maxAttributesPerLink = 1024
	maxWarnings          = 64
)

// readReply reads a reply message from r (Prospero §"Commands
// Reference" and §"Standard Responses"). FAILURE is a *access.ServerError
// with the failure's identifying-info as its code, ERROR and malformed
// lines a *access.ProtocolError, FORWARDED a *forwarded; WARNING lines
// are noted and kept. Lines are bounded by maxLine and links by
// maxLinks (Truncated is then set and reading stops).
func readReply(r io.Reader, maxLine, maxLinks int, log func(string)) (*reply, error) {
	br := bufio.NewReaderSize(r, 4096)
	rep := &reply{}
	var cur *link
	for n := 1; ; n++ {
		line, err := readLine(br, maxLine)
		if err == io.EOF {
			return rep, nil
		}
		if err != nil && err != io.ErrUnexpectedEOF {
			return rep, err
		}
		if log != nil {
			log(line)
		}
		t, terr := tokens(line)
		if terr != nil {
			return rep, lineError(n, terr)
		}
		if len(t) == 0 {
			continue
		}
		switch kw := t[0]; {
		case kw == "VERSION":
			rep.Version = strings.Join(t[1:], " ")
		case kw == "VERSION-NOT-SUPPORTED":
			return rep, &access.ServerError{Code: kw, Text: strings.Join(t[1:], " ")}
		case kw == "LINK":
			if len(rep.Links) >= maxLinks {
				rep.Truncated = true
				return rep, nil
			}
			l, lerr := linkFrom(t, line)
			if lerr != nil {
				return rep, lineError(n, lerr)
			}
			rep.Links = append(rep.Links, l)
			cur = l
		case strings.HasPrefix(kw, "ATTRIBUTE"):
			a, aerr := attributeFrom(t, line)
			if aerr != nil {
				return rep, lineError(n, aerr)
			}
			if cur == nil {
				if len(rep.Attributes) >= maxAttributesPerLink {
					return rep, &access.ProtocolError{Msg: fmt.Sprintf("more than %d attributes of the object", maxAttributesPerLink)}
				}
				rep.Attributes = append(rep.Attributes, *a)
				break
			}
			if len(cur.Attributes) >= maxAttributesPerLink {
				return rep, &access.ProtocolError{Msg: fmt.Sprintf("more than %d attributes of link %q", maxAttributesPerLink, cur.Name)}
			}
			cur.Attributes = append(cur.Attributes, *a)
		case kw == "NONE-FOUND":
			rep.NoneFound = true
		case kw == "FAILURE":
			code, text := "FAILURE", ""
			if len(t) > 1 {
				code, text = t[1], strings.Join(t[2:], " ")
			}
			return rep, &access.ServerError{Code: code, Text: text}
		case kw == "ERROR":
			return rep, &access.ProtocolError{Msg: "the server says ERROR: " + strings.Join(t[1:], " ")}
		case kw == "WARNING":
			if len(rep.Warnings) >= maxWarnings {
				return rep, &access.ProtocolError{Msg: fmt.Sprintf("more than %d WARNING lines", maxWarnings)}
			}
			rep.Warnings = append(rep.Warnings, strings.Join(t[1:], " "))
		case kw == "FORWARDED":
			if len(t) < 6 {
				return rep, lineError(n, &SyntaxError{len(line), "Prospero §FORWARDED", "FORWARDED names host-type host-name hsoname-type hsoname version"})
			}
			return rep, &forwarded{hostType: t[1], host: t[2], hsoname: t[4], version: t[5]}
		case kw == "UNRESOLVED":
			return rep, &access.ServerError{Code: "UNRESOLVED", Text: strings.Join(t[1:], " ")}
		case kw == "SUCCESS", kw == "AUTHENTICATED":
		default:
			return rep, lineError(n, &SyntaxError{0, "Prospero §Standard Responses", "an unknown reply " + strconv.Quote(kw)})
		}
		if err == io.ErrUnexpectedEOF {
			return rep, nil // the last line had no LF
		}
	}
}

func lineError(n int, err error) error {
	return &access.ProtocolError{Msg: fmt.Sprintf("reply line %d: %v", n, err)}
}

// forwarded is a FORWARDED reply: the object moved.
type forwarded struct{ hostType, host, hsoname, version string }

func (f *forwarded) Error() string { return "FORWARDED to " + f.host + " " + f.hsoname }

// splitHost splits Prospero's host-name "host(port)" into host and port
// digits ("" when there is none).
func splitHost(s string) (host, port string, err error) {
	i := strings.IndexByte(s, '(')
	if i < 0 {
		return s, "", nil
	}
	if !strings.HasSuffix(s, ")") || i == 0 {
		return "", "", &SyntaxError{i, "Prospero host(port)", "a host name with a port is written host(port)"}
	}
	port = s[i+1 : len(s)-1]
	if n, err := strconv.Atoi(port); err != nil || n <= 0 || n > 65535 || notDigit(port) >= 0 {
		return "", "", &SyntaxError{i + 1, "Prospero host(port)", "the port is a number from 1 to 65535"}
	}
	return s[:i], port, nil
}

// An AccessMethod is one value of the ACCESS-METHOD attribute (Prospero
// §"Attributes", access-method): "a tuple of at least 5 elements": the
// method, host-type, host-name, hsoname-type, hsoname, then the
// method's own; empty host and hsoname default to the link's.
type AccessMethod struct {
	Method      string
	HostType    string
	Host        string
	HSONameType string
	HSOName     string
	Args        []string
}

// accessMethods returns the ACCESS-METHOD values among attrs (depth 0),
// with the defaults of link (nil for an object's own).
func accessMethods(attrs []Attribute, l *link) ([]AccessMethod, error) {
	var out []AccessMethod
	for _, a := range attrs {
		if a.Depth != 0 || !strings.EqualFold(a.Name, "ACCESS-METHOD") {
			continue
		}
		v := a.Values
		if len(v) < 5 {
			return out, &SyntaxError{0, "Prospero §access-method", fmt.Sprintf("an access method is a tuple of at least 5 elements; this one has %d", len(v))}
		}
		m := AccessMethod{Method: v[0], HostType: v[1], Host: v[2], HSONameType: v[3], HSOName: v[4], Args: v[5:]}
		if l != nil {
			if m.HostType == "" && m.Host == "" {
				m.HostType, m.Host = l.HostType, l.Host
			}
			if m.HSONameType == "" && m.HSOName == "" {
				m.HSONameType, m.HSOName = l.HSONameType, l.HSOName
			}
		}
		out = append(out, m)
	}
	return out, nil
}

// URL writes an access method as the URL of that method (RFC 1738
// §3.11: access methods "might themselves be represented as different
// URLs"): AFTP and FTP as ftp URLs (AFTP's hsoname is relative to the
// anonymous FTP area, so its segments are the CWDs from the login
// directory; FTP's is a full path, so its first segment carries the
// "/" as %2F, §3.2.2), the sixth element TEXT or ASCII as ;type=a and
// BINARY as ;type=i; GOPHER as a gopher URL whose type is the sixth
// element or the selector's first character; LOCAL as a file URL of this
// machine. Other methods (AFS, NFS, PROSPERO-CONTENTS) have no URL: "".
func (m AccessMethod) URL() (string, error) {
	if m.HSONameType != "ASCII" && m.HSONameType != "" {
		return "", nil
	}
	method := strings.ToUpper(m.Method)
	switch method {
	case "AFTP", "FTP", "GOPHER":
		if m.HostType != "INTERNET-D" {
			return "", nil
		}
	}
	host, port, err := splitHost(m.Host)
	if err != nil {
		return "", err
	}
	switch method {
	case "AFTP", "FTP":
		var r ftp.URL
		r.Host, r.Port = host, port
		p := m.HSOName
		if method == "AFTP" {
			p = strings.TrimPrefix(p, "/")
		}
		segs := strings.Split(p, "/")
		if method == "FTP" && strings.HasPrefix(m.HSOName, "/") {
			segs = segs[1:]
			if len(segs) > 0 {
				segs[0] = "/" + segs[0]
			}
		}
		if len(segs) > 0 {
			r.Cwd, r.Name = segs[:len(segs)-1], segs[len(segs)-1]
		}
		r.HasName = true
		if len(m.Args) > 0 {
			switch strings.ToUpper(m.Args[0]) {
			case "TEXT", "ASCII":
				r.Typecode, r.HasTypecode = "a", true
			case "BINARY":
				r.Typecode, r.HasTypecode = "i", true
			}
		}
		return r.Build()
	case "GOPHER":
		g := &gopher.URL{Host: host, Port: port, Selector: m.HSOName}
		if len(m.Args) > 0 && len(m.Args[0]) == 1 {
			g.Type = m.Args[0]
		} else if m.HSOName != "" {
			g.Type = m.HSOName[:1]
		}
		return g.Build()
	case "LOCAL":
		if !strings.HasPrefix(m.HSOName, "/") {
			return "", nil
		}
		return (&file.URL{Path: m.HSOName}).Build()
	}
	return "", nil
}
