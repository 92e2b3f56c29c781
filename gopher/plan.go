package gopher

import (
	"strconv"
	"strings"
)

// A Plan is the exchange a gopher URL stands for: connect to Host at Port
// and send Request, then read the server's reply until it closes the
// connection.
type Plan struct {
	Host string // as in the URL, an IPv6 literal without brackets
	Port int

	// Request is every octet the client sends (RFC 1738 §3.4.1–3.4.9):
	//
	//	selector CR LF
	//	selector TAB search CR LF
	//	selector TAB search TAB gopher+ CR LF
	//	selector TAB search TAB +[view] TAB 1 CR LF +-1 CR LF value CR LF ... . CR LF
	//
	// The search field is sent when it holds words, and for a search
	// item (type 7) even when empty. An empty one is left out otherwise,
	// as Gopher+ §2.4, the example lines of §3.4.9 and draft 03 write the
	// request ("a_gopher_selector<tab>+"), although §3.4.3's prose says
	// the search string "may be empty": Gopher+ servers read the field
	// after the selector as the Gopher+ command, and UMN gopherd answers
	// "Malformed command" to an empty one (the client does the same).
	Request []byte

	// AskForm is true for the Gopher+ string "?": Request fetches the
	// item's +ASK attribute (the form), and the answers the user gives are
	// sent in a second request that the URL does not hold (§3.4.5).
	AskForm bool
}

// Plan returns the exchange g stands for. It fails when a field would
// change the request's lines (a CR or LF in the selector or search), the
// port is not a number from 1 to 65535, or the Gopher+ string is not one
// of RFC 1738's forms; then nothing may be sent. The error is a
// *locator.SchemeError naming the field.
func (g *URL) Plan() (*Plan, error) {
	if i := strings.IndexAny(g.Selector, "\t\r\n"); i >= 0 {
		return nil, schemeError("selector", i, "selector", "decoded "+ctlName(g.Selector[i])+" in the selector would be read as a protocol delimiter (RFC 1738 §3.4.1)")
	}
	if i := strings.IndexAny(g.Search, "\t\r\n"); i >= 0 {
		return nil, schemeError("search", i, "search", "decoded "+ctlName(g.Search[i])+" in the search string would be read as a protocol delimiter (RFC 1738 §3.4.2)")
	}
	pl := &Plan{Host: g.Host, Port: DefaultPort}
	if g.Port != "" {
		n, err := strconv.Atoi(g.Port)
		if err != nil || n < 1 || n > 65535 {
			return nil, schemeError("port", 0, "port", "port "+strconv.Quote(g.Port)+" is not a number from 1 to 65535")
		}
		pl.Port = n
	}
	var plus *Plus
	if g.HasPlus {
		var err error
		if plus, err = ParsePlus(g.Plus); err != nil {
			return nil, err
		}
	}
	b := make([]byte, 0, len(g.Selector)+len(g.Search)+len(g.Plus)+8)
	b = append(b, g.Selector...)
	if g.Search != "" || g.Type == "7" && (g.HasSearch || g.HasPlus) {
		b = append(b, '\t')
		b = append(b, g.Search...)
	}
	if plus != nil {
		b = append(b, '\t')
		b = append(b, plus.wire()...)
		pl.AskForm = plus.Command == '?'
	} else {
		b = append(b, '\r', '\n')
	}
	pl.Request = b
	return pl, nil
}
