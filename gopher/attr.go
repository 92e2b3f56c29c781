package gopher

import (
	"strconv"
	"strings"
	"time"
)

// A Block is one Gopher+ attribute block (Gopher+ §2.5): a line whose
// column 1 is "+", the block's name up to the ":" and the rest of that
// line as Value, then the lines that begin with a space, each without
// that space, as Lines.
type Block struct {
	Name  string // "+INFO", "+ADMIN", "+VIEWS", "+ABSTRACT", "+ASK", ...
	Value string // the text after "+NAME:" on the first line, trimmed
	Lines []string
}

// Text returns the block's lines joined by LF.
func (b *Block) Text() string { return strings.Join(b.Lines, "\n") }

// Attributes are one item's attribute blocks, as "!" returns them for an
// item and "$" for every item of a directory (Gopher+ §2.5, §2.7), read
// into their types where Gopher+ Appendix I defines them; every block,
// known or not, is in Blocks in the server's order.
type Attributes struct {
	// Info is the item the +INFO block describes (Gopher+ A1.0).
	Info Item
	// Admin is the +ADMIN block (A2.0), nil when absent.
	Admin *Admin
	// Views are the +VIEWS block's lines (A3.0).
	Views []View
	// Abstract is the +ABSTRACT block's text (A4.0), lines joined by LF.
	Abstract string
	// Ask is the +ASK block's form (Gopher+ §2.8), nil when absent.
	Ask []Field
	// Blocks holds every block.
	Blocks []Block
}

// Block returns the first block named name ("+ABSTRACT"), or nil.
func (a *Attributes) Block(name string) *Block {
	for i := range a.Blocks {
		if a.Blocks[i].Name == name {
			return &a.Blocks[i]
		}
	}
	return nil
}

// Admin is a +ADMIN block (Gopher+ A2.0): the administrator and the
// modification date, which every item must have, and every "Name: value"
// line in order.
type Admin struct {
	Admin   string // the Admin line as written: "Frodo Gophermeister <fng@bogus.edu>"
	Email   string // the address inside the angle brackets
	ModDate time.Time
	// ModDateText is the Mod-Date line as written.
	ModDateText string
	Fields      [][2]string
}

// A View is one line of a +VIEWS block (Gopher+ A3.0):
// "Content-Type[ viewLanguage]: [<size>]".
type View struct {
	Type     string // "Text/plain", as written
	Language string // "En_US", or ""
	SizeText string // "<10k>" as written, or ""
	// Size is the size the server says, in octets (an estimate: "<.1k>"
	// is 100), or -1.
	Size int64
}

// Name returns the view as a Gopher+ request names it (Gopher+ §2.6,
// RFC 1738 §3.4.8): the type, and the language after a space.
func (v View) Name() string {
	if v.Language != "" {
		return v.Type + " " + v.Language
	}
	return v.Type
}

// An AttrError reports an attribute reply that is not Gopher+ §2.5's
// form, with the line's number (from 1), the offset in it and the rule.
type AttrError struct {
	Line    int
	Offset  int
	Rule    string
	Message string
}

func (e *AttrError) Error() string {
	return "gopher+ attributes line " + strconv.Itoa(e.Line) + ": offset " + strconv.Itoa(e.Offset) + ": " + e.Rule + ": " + e.Message
}

// ParseAttributes reads the attribute information of one or more items
// from its lines (CR LF removed, the reply's header and "." line not
// included): blocks begin with "+" in column 1, their lines with a space
// (Gopher+ §2.5), and each item's attributes begin with its +INFO block
// (§2.7). A line that is neither, or blocks before the first +INFO, are
// an *AttrError. Lines empty or holding only spaces are passed over
// (servers end blocks with them). maxItems bounds the items read (0: no
// bound); past it the error says so.
func ParseAttributes(lines []string, maxItems int) ([]Attributes, error) {
	var out []Attributes
	var cur *Block
	for n, line := range lines {
		if strings.TrimLeft(line, " ") == "" {
			continue
		}
		switch line[0] {
		case '+':
			colon := strings.IndexByte(line, ':')
			name, value := line, ""
			if colon >= 0 {
				name, value = line[:colon], strings.TrimLeft(line[colon+1:], " ")
			}
			if name != "+INFO" {
				value = strings.TrimSpace(value)
			}
			if name == "+" || strings.ContainsAny(name[1:], "+ \t") {
				return nil, &AttrError{Line: n + 1, Offset: 0, Rule: "Gopher+ §2.5", Message: "a block's name begins with \"+\", holds no other \"+\" or space, and ends at \":\": " + strconv.Quote(trimTo(line, 60))}
			}
			if name == "+INFO" {
				if maxItems > 0 && len(out) == maxItems {
					return out, &AttrError{Line: n + 1, Rule: "limit", Message: "more than " + strconv.Itoa(maxItems) + " items' attributes"}
				}
				it, err := ParseMenuLine(value)
				if err != nil {
					me := err.(*MenuError)
					return nil, &AttrError{Line: n + 1, Offset: len(line) - len(value) + me.Offset, Rule: "Gopher+ A1.0", Message: "the +INFO block holds the item's menu line: " + me.Message}
				}
				out = append(out, Attributes{Info: it})
			} else if len(out) == 0 {
				return nil, &AttrError{Line: n + 1, Rule: "Gopher+ §2.5", Message: "the first block of an item's attributes is +INFO, not " + name}
			}
			a := &out[len(out)-1]
			a.Blocks = append(a.Blocks, Block{Name: name, Value: value})
			cur = &a.Blocks[len(a.Blocks)-1]
		case ' ':
			if cur == nil {
				return nil, &AttrError{Line: n + 1, Rule: "Gopher+ §2.5", Message: "a line of a block before any block began"}
			}
			cur.Lines = append(cur.Lines, line[1:])
		default:
			return nil, &AttrError{Line: n + 1, Rule: "Gopher+ §2.5", Message: "an attribute line begins with \"+\" (a block's name) or a space (the block's content), not " + quote(line[0])}
		}
	}
	for i := range out {
		if err := out[i].interpret(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// interpret reads a's known blocks into their typed fields.
func (a *Attributes) interpret() error {
	for i := range a.Blocks {
		b := &a.Blocks[i]
		switch b.Name {
		case "+ADMIN":
			if a.Admin == nil {
				a.Admin = parseAdmin(b.Lines)
			}
		case "+VIEWS":
			for _, l := range b.Lines {
				if v, ok := parseView(l); ok {
					a.Views = append(a.Views, v)
				}
			}
		case "+ABSTRACT":
			if a.Abstract == "" {
				a.Abstract = strings.TrimSpace(b.Text())
			}
		case "+ASK":
			if a.Ask == nil {
				f, err := ParseAsk(b.Lines)
				if err != nil {
					return err
				}
				a.Ask = f
			}
		}
	}
	return nil
}

func parseAdmin(lines []string) *Admin {
	ad := &Admin{}
	for _, l := range lines {
		name, value, ok := strings.Cut(strings.TrimSpace(l), ":")
		if !ok {
			continue
		}
		value = strings.TrimSpace(value)
		ad.Fields = append(ad.Fields, [2]string{name, value})
		switch name {
		case "Admin":
			if ad.Admin == "" {
				ad.Admin = value
				ad.Email = bracketed(value)
			}
		case "Mod-Date":
			if ad.ModDateText == "" {
				ad.ModDateText = value
				ad.ModDate = parseStamp(bracketed(value))
			}
		}
	}
	return ad
}

// bracketed returns the text inside the last "<...>" of s, or "".
func bracketed(s string) string {
	j := strings.LastIndexByte(s, '>')
	if j < 0 {
		return ""
	}
	i := strings.LastIndexByte(s[:j], '<')
	if i < 0 {
		return ""
	}
	return s[i+1 : j]
}

// parseStamp reads Gopher+ A2.0's <YYYYMMDDhhmmss> (UTC is assumed: the
// text names no zone); the zero time when s is not one.
func parseStamp(s string) time.Time {
	t, err := time.Parse("20060102150405", s)
	if err != nil {
		return time.Time{}
	}
	return t
}

// parseView reads "Content-Type[ viewLanguage]: [<size>]"; ok is false
// for a line with no type.
func parseView(l string) (View, bool) {
	l = strings.TrimSpace(l)
	head, size, _ := strings.Cut(l, ":")
	head = strings.TrimSpace(head)
	if head == "" {
		return View{}, false
	}
	v := View{Size: -1}
	v.Type, v.Language, _ = strings.Cut(head, " ")
	v.Language = strings.TrimSpace(v.Language)
	size = strings.TrimSpace(size)
	if size != "" {
		v.SizeText = size
		v.Size = parseSize(bracketed(size))
	}
	return v, true
}

// parseSize reads a +VIEWS size: a decimal number, perhaps with a
// fraction ("<.1k>"), and an optional unit k, M or G (either case); -1
// when it is not one.
func parseSize(s string) int64 {
	s = strings.TrimSpace(s)
	mult := 1.0
	if s != "" {
		switch s[len(s)-1] {
		case 'k', 'K':
			mult = 1e3
		case 'm', 'M':
			mult = 1e6
		case 'g', 'G':
			mult = 1e9
		}
		if mult != 1 {
			s = strings.TrimSpace(s[:len(s)-1])
		}
	}
	if s == "" || strings.Trim(s, "0123456789.") != "" || strings.Count(s, ".") > 1 || s == "." {
		return -1
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f*mult > 1e18 {
		return -1
	}
	return int64(f*mult + 0.5)
}

func trimTo(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}
