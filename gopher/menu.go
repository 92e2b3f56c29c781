package gopher

import (
	"strconv"
	"strings"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/telnet"
)

// An Item is one line of a Gopher menu (RFC 1436 §3.8; Gopher+ §2.1, §2.8):
//
//	type display TAB selector TAB host TAB port [TAB gopher+] CR LF
//
// The fifth field is Gopher+'s: "+" for a Gopher+ item, "?" for one with
// an ASK form (RFC 1738 §3.4.4).
type Item struct {
	Type     byte   // the item type, the line's first octet
	Display  string // the display string, as a person reads it
	Selector string
	Host     string
	Port     string // digits as written
	// Plus is the fifth field ("+", "?", or what else the server wrote);
	// HasPlus records that the field is there.
	Plus    string
	HasPlus bool
}

// A MenuError reports a menu line that is none of RFC 1436's forms: the
// line's number (from 1) in the reply, the offset in the line, and the
// rule broken.
type MenuError struct {
	Line    int
	Offset  int
	Rule    string
	Message string
}

func (e *MenuError) Error() string {
	s := "gopher menu"
	if e.Line > 0 {
		s += " line " + strconv.Itoa(e.Line)
	}
	return s + ": offset " + strconv.Itoa(e.Offset) + ": " + e.Rule + ": " + e.Message
}

// ParseMenuLine reads one menu line, its CR LF removed. An information
// line (type "i", a common extension) and an error line (type "3", RFC
// 1436) may lack the selector, host and port; every other item needs all
// four fields and a port of digits (RFC 1436 §3.8: "The port field is a
// decimal number"). Extra fields after the Gopher+ one are ignored, as
// RFC 1436 §3.8 asks of clients.
func ParseMenuLine(line string) (Item, error) {
	var it Item
	if line == "" {
		return Item{Type: 'i'}, nil
	}
	it.Type = line[0]
	if it.Type == '\t' {
		return it, &MenuError{Offset: 0, Rule: "RFC 1436 §3.8", Message: "a menu line begins with its item type, not a TAB"}
	}
	var f [5]string
	var at [5]int
	n := 0
	start := 1
	for i := 1; i <= len(line); i++ {
		if i == len(line) || line[i] == '\t' {
			if n < len(f) {
				f[n], at[n] = line[start:i], start
			}
			n++
			start = i + 1
		}
	}
	it.Display, it.Selector, it.Host, it.Port = f[0], f[1], f[2], f[3]
	if n >= 5 {
		it.Plus, it.HasPlus = f[4], true
	}
	if i := strings.IndexAny(line, "\r\n\x00"); i >= 0 {
		return it, &MenuError{Offset: i, Rule: "RFC 1436 §3.8", Message: "a menu line holds no " + ctlName(line[i])}
	}
	if it.Type == 'i' || it.Type == '3' {
		return it, nil
	}
	if n < 4 {
		return it, &MenuError{Offset: len(line), Rule: "RFC 1436 §3.8", Message: "a menu item has four TAB-separated fields (display string, selector, host, port); this line has " + strconv.Itoa(n)}
	}
	if it.Host == "" {
		return it, &MenuError{Offset: at[2], Rule: "RFC 1436 §3.8", Message: "the item names no host"}
	}
	if it.Port == "" || strings.Trim(it.Port, "0123456789") != "" {
		return it, &MenuError{Offset: at[3], Rule: "RFC 1436 §3.8", Message: "the port field is a decimal number, not " + strconv.Quote(it.Port)}
	}
	if p, err := strconv.Atoi(it.Port); err != nil || p > 65535 {
		return it, &MenuError{Offset: at[3], Rule: "RFC 1436 §3.8", Message: "port " + it.Port + " is above 65535"}
	}
	return it, nil
}

// kind returns the access entry type of an item type: what it is for a
// person (RFC 1436 §3.8 and the types Gopher+ §2.9 and common use add).
func kind(t byte) string {
	switch t {
	case '1':
		return access.TypeDirectory
	case '7':
		return access.TypeSearch
	case '2', '8', 'T':
		return access.TypeSession
	case '3':
		return access.TypeError
	case 'i':
		return access.TypeInfo
	}
	return access.TypeFile
}

// URL returns the URL it names: a gopher URL written by Build (with the
// Gopher+ string "?" for an item with an ASK form, RFC 1738 §3.4.4), a
// telnet or tn3270 URL for types 8 and T (RFC 1436 §3.8: the selector is
// the name to log in as, RFC 1738 §3.8), the URL itself for an "h" item
// whose selector is "URL:" and a URL (the common convention for links
// out of gopherspace), and "" for an information or error line, which
// names nothing.
func (it Item) URL() (string, error) {
	switch it.Type {
	case 'i', '3':
		return "", nil
	case '8', 'T':
		port := it.Port
		if port == "0" || port == "23" {
			port = "" // 0: "the port is irrelevant" in many menus; 23 is telnet's default
		}
		ref := &telnet.URL{Host: it.Host, Port: port}
		if it.Selector != "" {
			ref.User, ref.HasUser = it.Selector, true
		}
		s, err := ref.Build()
		if err != nil {
			return "", err
		}
		if it.Type == 'T' {
			s = "tn3270" + strings.TrimPrefix(s, "telnet")
		}
		return s, nil
	case 'h':
		if rest, ok := strings.CutPrefix(it.Selector, "URL:"); ok {
			if _, err := locator.Parse(rest); err != nil {
				return "", err
			}
			return rest, nil
		}
	}
	g := URL{Host: it.Host, Type: string(it.Type), Selector: it.Selector}
	if it.Port != strconv.Itoa(DefaultPort) {
		g.Port = it.Port
	}
	if it.HasPlus && it.Plus == "?" {
		g.HasSearch, g.HasPlus, g.Plus = true, true, "?"
	}
	return g.Build()
}

// Entry returns the listing entry of it: its URL (see URL), its display
// string, the access type (kind; "link" for a URL: item), and under
// parts the item's own fields. An item whose URL cannot be written keeps
// URL "" and says why under parts["error"].
func (it Item) Entry() access.Entry {
	e := access.Entry{Name: it.Display, Type: kind(it.Type), Size: -1}
	e.Parts = map[string]any{"gophertype": string(it.Type)}
	if it.Type != 'i' && it.Type != '3' {
		e.Parts["selector"] = it.Selector
		e.Parts["host"] = it.Host
		e.Parts["port"] = it.Port
	}
	if it.HasPlus {
		e.Parts["plus"] = it.Plus
	}
	u, err := it.URL()
	if err != nil {
		e.Parts["error"] = err.Error()
	}
	e.URL = u
	if it.Type == 'h' && strings.HasPrefix(it.Selector, "URL:") && err == nil {
		e.Type = access.TypeLink
	}
	return e
}
