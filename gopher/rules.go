package gopher

import (
	"strconv"
	"strings"

	"github.com/rfc1738/locator"
)

func init() {
	locator.Register("gopher", rules{})
}

// rules are the gopher rules Parse applies (locator.Rules), with
// Explainer and Normalizer.
type rules struct{}

// Check reports what RFC 1738 §3.4 forbids beyond the generic grammar: a
// user or password (gopherurl has only hostport), a decoded TAB, CR or LF
// where the protocol would read it as a delimiter (gophertype, selector,
// search), and a Gopher+ string that is none of the forms of §3.4.4–3.4.9.
func (rules) Check(u *locator.URL, r locator.Report) locator.Report {
	add := func(off int, rule, msg string) { r.Add(off, locator.Violation, rule, msg) }
	if u.HasUser() {
		add(u.Offset(locator.UserComponent), "gopherurl", "a gopher URL has no user or password: gopherurl = \"gopher://\" hostport (RFC 1738 §5)")
	}
	p := u.Path()
	base := u.Offset(locator.PathComponent)
	if p == "" {
		return r
	}
	sp := split(p)
	switch sp.typeOctet {
	case '\t', '\r', '\n':
		add(base, "gtype", "the gophertype cannot be "+ctlName(sp.typeOctet)+": it is the first octet of a Gopher menu line, which TAB and CR LF delimit (RFC 1738 §3.4.1)")
	}
	ctl := func(from, to int, rule, what string) {
		for i := from; i < to; {
			c, n := octet(p, i)
			if c == '\r' || c == '\n' {
				add(base+i, rule, "decoded "+ctlName(c)+" in the "+what+" would end the Gopher request line early: "+
					what+"s may contain any octets except TAB, CR and LF (RFC 1738 §3.4.1)")
			}
			i += n
		}
	}
	ctl(sp.typeEnd, sp.selEnd, "selector", "selector")
	if sp.searchAt >= 0 {
		ctl(sp.searchAt, sp.searchEnd, "search", "search string")
	}
	if sp.plusAt >= 0 {
		var pl Plus
		parsePlus(p[sp.plusAt:], true, &pl, func(q plusProblem) {
			add(base+sp.plusAt+q.off, q.rule, q.msg)
		})
	}
	return r
}

// parts is the JSON form of a gopher URL's structure.
type parts struct {
	Type     string  `json:"type"`
	Selector string  `json:"selector"`
	Search   *string `json:"search,omitempty"`
	Plus     *string `json:"plus,omitempty"`
}

// Parts returns {type, selector, search, plus}, decoded; see the package
// documentation for which keys are present.
func (rules) Parts(u *locator.URL) any {
	g, err := From(u)
	if err != nil {
		return nil
	}
	pt := parts{Type: g.Type, Selector: g.Selector}
	if g.HasSearch {
		pt.Search = &g.Search
	}
	if g.HasPlus {
		pt.Plus = &g.Plus
	}
	return pt
}

// types names the gophertypes of RFC 1436 §3.8, for people.
var types = map[string]string{
	"0": "text file",
	"1": "directory (menu)",
	"2": "CSO phone-book server",
	"3": "error",
	"4": "BinHex Macintosh file",
	"5": "DOS binary archive",
	"6": "UNIX uuencoded file",
	"7": "index-search server",
	"8": "Telnet session",
	"9": "binary file",
	"+": "redundant server",
	"T": "TN3270 session",
	"g": "GIF image",
	"I": "image",
}

// Explain says what the URL asks of the Gopher server and sends, per
// §3.4.1–3.4.9.
func (rules) Explain(u *locator.URL) string {
	g, err := From(u)
	if err != nil {
		return ""
	}
	var b strings.Builder
	what := types[g.Type]
	if what == "" {
		what = "a type RFC 1436 does not name"
	}
	port := g.Port
	if port == "" {
		port = strconv.Itoa(DefaultPort)
	}
	b.WriteString("Gopher item of type " + strconv.Quote(g.Type) + " (" + what + ") on " + hostName(g.Host) + " port " + port + ". ")
	switch {
	case g.Selector == "" && !g.HasSearch:
		b.WriteString("The empty selector names the server's top-level directory (RFC 1738 §3.4.1). ")
	case g.Type == "7" && !g.HasSearch:
		b.WriteString("A search server: the client asks the user for search words and sends them after the selector and a TAB (RFC 1738 §3.4.2). ")
	case g.Type == "8" || g.Type == "T":
		b.WriteString("The item is an interactive session, not a document; the selector names the login (RFC 1436). ")
	}
	if g.HasPlus {
		pl, err := ParsePlus(g.Plus)
		if err != nil {
			b.WriteString("The Gopher+ string " + strconv.Quote(g.Plus) + " is not one of RFC 1738's forms: " + err.(*locator.SchemeError).Message + ". ")
		} else {
			b.WriteString(explainPlus(pl))
		}
	}
	plan, err := g.Plan()
	if err != nil {
		b.WriteString("No request can be sent: " + err.Error() + ".")
		return b.String()
	}
	b.WriteString("The client connects to " + plan.Host + " port " + strconv.Itoa(plan.Port) + " and sends " + strconv.Quote(string(plan.Request)) + ".")
	return b.String()
}

func explainPlus(p *Plus) string {
	switch p.Command {
	case '+':
		s := "A Gopher+ item: its default view (RFC 1738 §3.4.4). "
		if p.View != "" {
			s = "A Gopher+ item in the alternate view " + strconv.Quote(p.View)
			if p.Language != "" {
				s += ", language " + strconv.Quote(p.Language)
			}
			s += " (RFC 1738 §3.4.8). "
		}
		if p.HasForm {
			s += "A filled-out ASK form with " + strconv.Itoa(len(p.Form)) + " value(s) is sent as a data block (RFC 1738 §3.4.9). "
		}
		return s
	case '?':
		return "A Gopher+ item with an electronic form: the client fetches its +ASK attribute, asks the user to fill the form out and sends the answers with the selector (RFC 1738 §3.4.5). "
	case '!', '$':
		of := "the item"
		if p.Command == '$' {
			of = "every item of the directory"
		}
		if len(p.Attributes) == 0 {
			return "All Gopher+ attributes of " + of + " (RFC 1738 §3.4.6). "
		}
		return "The Gopher+ attributes " + strings.Join(p.Attributes, ", ") + " of " + of + " (RFC 1738 §3.4.7). "
	}
	return ""
}

func hostName(h string) string {
	if strings.IndexByte(h, ':') >= 0 {
		return "[" + h + "]"
	}
	return h
}

// Normalize writes the gophertype always (the empty gopher-path becomes
// "1") and re-encodes the selector, search and Gopher+ string uniformly
// (see the package documentation). A URL without "//" is left alone.
func (rules) Normalize(p *locator.Parts) {
	if !p.HasAuthority {
		return
	}
	u, err := p.URL()
	if err != nil {
		return
	}
	g, err := From(u)
	if err != nil {
		return
	}
	var b strings.Builder
	b.WriteString(locator.Escape(g.Type, locator.EncodeXchar))
	b.WriteString(locator.Escape(g.Selector, locator.EncodeXchar))
	if g.HasSearch {
		b.WriteString("%09")
		b.WriteString(locator.Escape(g.Search, locator.EncodeXchar))
	}
	if g.HasPlus {
		b.WriteString("%09")
		b.WriteString(locator.Escape(g.Plus, locator.EncodeXchar))
	}
	p.Path = b.String()
	p.HasPath = true
}
