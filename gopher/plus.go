package gopher

import (
	"strings"

	"github.com/rfc1738/locator"
)

// Plus is the structure of a Gopher+ string (RFC 1738 §3.4.4–3.4.9;
// draft 03's summary of the "gopher+ string part of Gopher URL"):
//
//	+[view_name[ language_name]][TAB 1 CRLF +-1 CRLF value CRLF ... . CRLF]
//	?
//	![attribute_name[ attribute_name]...]
//	$[attribute_name[ attribute_name]...]
//
// (in a URL the space is %20, TAB %09, CR %0D and LF %0A).
type Plus struct {
	// Command is the first octet: '+' the item's data (its default view,
	// or the alternate view named), '?' an item with an electronic form
	// the user fills out (§3.4.5), '!' attributes of the item, '$'
	// attributes of every item of a directory (§3.4.6).
	Command byte

	// View and Language name an alternate view for '+' (§3.4.8):
	// "+application/postscript%20Es_ES". Both are empty for the
	// default view.
	View     string
	Language string

	// Attributes are the attribute names asked for with '!' or '$'
	// (§3.4.7), e.g. "+ABSTRACT"; none means all attributes.
	Attributes []string

	// Form holds the values of a filled-out ASK form sent with '+'
	// (§3.4.9), one per line; HasForm records that the data block is
	// there (it may hold no values).
	Form    []string
	HasForm bool
}

// ParsePlus reads a decoded Gopher+ string. The error, a
// *locator.SchemeError of field "plus", names the offset in s and the
// rule broken.
func ParsePlus(s string) (*Plus, error) {
	var pl Plus
	if e := parsePlus(s, false, &pl, nil); e != nil {
		return nil, e
	}
	return &pl, nil
}

// String returns the decoded Gopher+ string p stands for.
func (p *Plus) String() string {
	var b strings.Builder
	b.WriteByte(p.Command)
	switch p.Command {
	case '+':
		b.WriteString(p.View)
		if p.Language != "" {
			b.WriteByte(' ')
			b.WriteString(p.Language)
		}
		if p.HasForm {
			b.WriteString("\t1\r\n+-1\r\n")
			for _, v := range p.Form {
				b.WriteString(v)
				b.WriteString("\r\n")
			}
			b.WriteString(".\r\n")
		}
	case '!', '$':
		b.WriteString(strings.Join(p.Attributes, " "))
	}
	return b.String()
}

// wire returns the octets p stands for after "selector TAB search TAB"
// in a request, line end included: the Gopher+ string itself, CR LF
// ended (the ASK block of §3.4.9 already ends with its own "." CR LF),
// and for '?' the request for the item's +ASK attribute (§3.4.5).
func (p *Plus) wire() string {
	switch p.Command {
	case '?':
		return "!+ASK\r\n"
	case '+':
		if p.HasForm {
			return p.String()
		}
	}
	return p.String() + "\r\n"
}

// plusProblem is one problem of a Gopher+ string, offset into its text.
type plusProblem struct {
	off       int
	rule, msg string
}

// parsePlus reads the Gopher+ string s into pl. When encoded is true, s
// is still URL-encoded and escapes are decoded as they are read, so that
// offsets refer to the URL. It returns the first problem as a
// *locator.SchemeError and passes every problem to report, when report
// is not nil.
func parsePlus(s string, encoded bool, pl *Plus, report func(plusProblem)) *locator.SchemeError {
	var first *locator.SchemeError
	bad := func(off int, msg string) {
		if first == nil {
			first = schemeError("plus", off, "gopher+_string", msg)
		}
		if report != nil {
			report(plusProblem{off, "gopher+_string", msg})
		}
	}
	next := func(i int) (byte, int) {
		if encoded {
			return octet(s, i)
		}
		return s[i], 1
	}
	// word reads octets from i up to (not including) an octet of stop or
	// the end, reporting CR, LF and TAB not in stop.
	word := func(i int, stop string) (string, int) {
		var b []byte
		for i < len(s) {
			c, n := next(i)
			if strings.IndexByte(stop, c) >= 0 {
				break
			}
			if c == '\r' || c == '\n' || c == '\t' {
				bad(i, "an unexpected "+ctlName(c)+" would end the Gopher+ request line early; it is allowed only in the ASK data block of RFC 1738 §3.4.9")
			}
			b = append(b, c)
			i += n
		}
		return string(b), i
	}

	if s == "" {
		bad(0, "the Gopher+ string is empty; draft 03: \"Gopher+ strings consist of one or more characters\" (RFC 1738 §3.4.4 defines \"+\", \"?\", \"!\" and \"$\")")
		return first
	}
	c, n := next(0)
	pl.Command = c
	i := n
	switch c {
	case '+':
		pl.View, i = word(i, " \t")
		if i < len(s) {
			if c, n := next(i); c == ' ' {
				sp := i
				pl.Language, i = word(i+n, " \t")
				if pl.Language == "" {
					bad(sp, "a coded space after the view name is followed by no language name (RFC 1738 §3.4.8: +<view_name>%20<language_name>)")
				} else if pl.View == "" {
					bad(sp, "a language name needs a view name before it (RFC 1738 §3.4.8: +<view_name>%20<language_name>)")
				}
				if i < len(s) {
					if c, _ := next(i); c == ' ' {
						bad(i, "a view is named by a view name and a language name only (RFC 1738 §3.4.8)")
						_, i = word(i, "\t")
					}
				}
			}
		}
		if i < len(s) {
			_, n := next(i)
			askBlock(s, i+n, next, pl, bad)
		}
	case '?':
		if i < len(s) {
			bad(i, "a Gopher+ string \"?\" stands alone (RFC 1738 §3.4.4); the values of a filled-out form follow \"+\" (§3.4.9)")
		}
	case '!', '$':
		for i < len(s) {
			at := i
			var name string
			name, i = word(i, " ")
			if name == "" {
				bad(at, "empty attribute name: names are separated by one coded space (RFC 1738 §3.4.7)")
			} else {
				pl.Attributes = append(pl.Attributes, name)
			}
			if i < len(s) {
				_, n := next(i)
				i += n
				if i == len(s) {
					bad(i-n, "a coded space after the last attribute name (RFC 1738 §3.4.7)")
				}
			}
		}
	default:
		bad(0, "a Gopher+ string begins \"+\", \"?\", \"!\" or \"$\" (RFC 1738 §3.4.4–3.4.9), not "+quote(c))
	}
	return first
}

// askBlock reads the filled-out ASK block of §3.4.9 from s[i:], which
// follows a TAB: "1" CR LF "+-1" CR LF *(value CR LF) "." CR LF.
func askBlock(s string, i int, next func(int) (byte, int), pl *Plus, bad func(int, string)) {
	pl.HasForm = true
	// line reads one CR LF ended line from i; ok is false when the line
	// is not ended by CR LF.
	line := func(i int) (text string, end int, ok bool) {
		var b []byte
		for i < len(s) {
			c, n := next(i)
			if c == '\r' {
				if i+n < len(s) {
					if c2, n2 := next(i + n); c2 == '\n' {
						return string(b), i + n + n2, true
					}
				}
				bad(i, "CR not followed by LF in the ASK data block (RFC 1738 §3.4.9: lines end %0D%0A)")
				return string(b), len(s), false
			}
			if c == '\n' {
				bad(i, "LF not preceded by CR in the ASK data block (RFC 1738 §3.4.9: lines end %0D%0A)")
				return string(b), len(s), false
			}
			b = append(b, c)
			i += n
		}
		bad(i, "the ASK data block ends without \".\" CR LF (RFC 1738 §3.4.9: ...%0D%0A.%0D%0A)")
		return string(b), i, false
	}
	at := i
	flag, i, ok := line(i)
	if !ok {
		return
	}
	if flag != "1" {
		bad(at, "after the TAB of a Gopher+ string comes the data flag \"1\" CR LF (RFC 1738 §3.4.9), not "+quoteString(flag))
		return
	}
	at = i
	length, i, ok := line(i)
	if !ok {
		return
	}
	if length != "+-1" {
		bad(at, "the ASK data block begins \"+-1\" CR LF, data ended by a lone \".\" (RFC 1738 §3.4.9), not "+quoteString(length))
		return
	}
	for {
		v, end, ok := line(i)
		if !ok {
			return
		}
		i = end
		if v == "." {
			break
		}
		pl.Form = append(pl.Form, v)
	}
	if i < len(s) {
		bad(i, "nothing follows the \".\" CR LF that ends the ASK data block (RFC 1738 §3.4.9)")
	}
}

func quote(c byte) string {
	if c < 0x20 || c >= 0x7f {
		return "octet %" + string("0123456789ABCDEF"[c>>4]) + string("0123456789ABCDEF"[c&15])
	}
	return "'" + string(c) + "'"
}

func quoteString(s string) string {
	return "\"" + locator.Escape(s, locator.EncodeXchar) + "\""
}
