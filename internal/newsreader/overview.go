package newsreader

import (
	"errors"
	"strconv"
	"strings"
)

// An Overview is one line of the overview database (RFC 3977 §8.1,
// §8.3.2; RFC 2980 §2.8 XOVER): an article's number and the fields a
// reader lists it by.
type Overview struct {
	Number     int64
	Subject    string
	From       string
	Date       string
	MessageID  string
	References string
	// Bytes and Lines are the ":bytes" and ":lines" metadata; -1 when the
	// server leaves them empty.
	Bytes, Lines int64
	// Extra holds the fields after the seventh (such as "Xref: ...").
	Extra []string
}

// An OverviewError says a line is not an overview line; Field is the
// TAB-separated field (0 the article number) at fault.
type OverviewError struct {
	Line  string
	Field int
	Msg   string
}

func (e *OverviewError) Error() string {
	return "overview line field " + strconv.Itoa(e.Field) + ": " + e.Msg + " (RFC 3977 §8.3.2): " + strconv.Quote(truncate(e.Line, 200))
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// ParseOverview reads one overview line (RFC 3977 §8.3.2): "the article
// number, followed by each of the headers and metadata items in the
// overview format", TAB-separated, the first seven being Subject, From,
// Date, Message-ID, References, :bytes and :lines (§8.4.2: "the order
// ... MUST be" this). The number is digits; :bytes and :lines are digits
// or empty.
func ParseOverview(line string) (Overview, error) {
	f := strings.Split(line, "\t")
	if len(f) < 8 {
		return Overview{}, &OverviewError{Line: line, Field: len(f) - 1, Msg: "an overview line has the article number and at least seven fields; found " + strconv.Itoa(len(f))}
	}
	n, err := parseNumber(f[0])
	if err != nil {
		return Overview{}, &OverviewError{Line: line, Field: 0, Msg: "the article number is digits"}
	}
	o := Overview{Number: n, Subject: f[1], From: f[2], Date: f[3], MessageID: f[4], References: f[5], Bytes: -1, Lines: -1}
	for i, p := range []*int64{&o.Bytes, &o.Lines} {
		s := strings.TrimSpace(f[6+i])
		if s == "" {
			continue
		}
		v, err := parseNumber(s)
		if err != nil {
			return Overview{}, &OverviewError{Line: line, Field: 6 + i, Msg: []string{":bytes", ":lines"}[i] + " is digits or empty"}
		}
		*p = v
	}
	if len(f) > 8 {
		o.Extra = f[8:]
	}
	return o, nil
}

// parseNumber reads decimal digits (at most 18, so that the value fits
// an int64).
func parseNumber(s string) (int64, error) {
	if s == "" || len(s) > 18 {
		return 0, errors.New("not a number")
	}
	var n int64
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, errors.New("not a number")
		}
		n = n*10 + int64(s[i]-'0')
	}
	return n, nil
}

// An Active is one line of the active list (RFC 3977 §7.6.3: "group
// high low status"; RFC 977 §3.6.1 LIST: "group last first p").
type Active struct {
	Group     string
	High, Low int64
	// Status is "y" (posting permitted), "n", "m" (moderated), or
	// another the server uses ("x", "j", "=other.group").
	Status string
}

// An ActiveError says a line is not an active line.
type ActiveError struct {
	Line string
	Msg  string
}

func (e *ActiveError) Error() string {
	return "active line: " + e.Msg + " (RFC 3977 §7.6.3): " + strconv.Quote(truncate(e.Line, 200))
}

// ParseActive reads one line of LIST ACTIVE (RFC 3977 §7.6.3): four
// fields separated by spaces, the group name, the high and low water
// marks (digits), and the status; the group and status hold no control
// octets.
func ParseActive(line string) (Active, error) {
	f := fields(line)
	if len(f) != 4 {
		return Active{}, &ActiveError{Line: line, Msg: "an active line is \"group high low status\"; found " + strconv.Itoa(len(f)) + " fields"}
	}
	for _, s := range []string{f[0], f[3]} {
		for i := 0; i < len(s); i++ {
			if s[i] < 0x20 || s[i] == 0x7f {
				return Active{}, &ActiveError{Line: line, Msg: "a group name or status holds no control octets (RFC 3977 §4.1 wildmat-exact)"}
			}
		}
	}
	hi, err := parseNumber(f[1])
	if err != nil {
		return Active{}, &ActiveError{Line: line, Msg: "the high water mark is digits"}
	}
	lo, err := parseNumber(f[2])
	if err != nil {
		return Active{}, &ActiveError{Line: line, Msg: "the low water mark is digits"}
	}
	return Active{Group: f[0], High: hi, Low: lo, Status: f[3]}, nil
}

// Header returns the value of the header field name (matched without
// regard to case) in the header lines of an article (RFC 5536 §2.1,
// RFC 5322 §2.2): folded lines unfolded (the CR LF before a line that
// begins with a space or TAB removed, RFC 5322 §2.2.3), surrounding
// white space removed; ok is false when the field is absent.
func Header(lines []string, name string) (value string, ok bool) {
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		colon := strings.IndexByte(l, ':')
		if colon <= 0 || !strings.EqualFold(l[:colon], name) {
			continue
		}
		v := l[colon+1:]
		for i+1 < len(lines) && len(lines[i+1]) > 0 && (lines[i+1][0] == ' ' || lines[i+1][0] == '\t') {
			i++
			v += lines[i]
		}
		return strings.TrimSpace(v), true
	}
	return "", false
}

// fields splits s at runs of spaces and TABs, the separators of NNTP's
// arguments (RFC 3977 §3.1, §3.2); other white space is not one.
func fields(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == '\t' })
}
