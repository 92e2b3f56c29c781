package gemini

import (
	"strconv"
	"strings"

	"github.com/rfc1738/locator"
)

func init() {
	// The core does not know gemini: it is told how to split its URLs
	// (§3.1's Internet syntax with http's path and search, default port
	// 1965), then given the rules.
	locator.RegisterSyntax("gemini", locator.Syntax{DefaultPort: defaultPort, Internet: true, Search: true, Hierarchical: true})
	locator.Register("gemini", rules{})
}

// rules are the gemini rules Parse applies (locator.Rules), with
// Explainer.
type rules struct{}

// Check reports what Gemini §1.2 and §2 forbid beyond the generic
// grammar: a user or password, and a request longer than maxRequest
// octets. A URL without "//" or a host the core reports already
// (ip-schemepart, host), as for every Internet scheme.
func (rules) Check(u *locator.URL, r locator.Report) locator.Report {
	add := func(off int, rule, msg string) { r.Add(off, locator.Violation, rule, msg) }
	if u.HasUser() {
		add(u.Offset(locator.UserComponent), "geminiurl", "a gemini URL has no user or password (Gemini §1.2: the userinfo subcomponent is NOT allowed)")
	}
	if n, off := requestLen(u); n > maxRequest {
		add(off, "request", "the request URL is "+strconv.Itoa(n)+" octets and passes Gemini's limit of "+strconv.Itoa(maxRequest)+" here (Gemini §2): no server is asked for it")
	}
	return r
}

// Parts is the decoded structure of a gemini URL, as its JSON parts.
type Parts struct {
	Path   *string `json:"path,omitempty"`   // the hpath, decoded, without its leading "/"
	Search *string `json:"search,omitempty"` // the search part, decoded
}

// Parts returns u's path and search, decoded.
func (rules) Parts(u *locator.URL) any {
	var p Parts
	if u.HasPath() {
		s := locator.Decode(u.Path())
		p.Path = &s
	}
	if u.HasSearch() {
		s := locator.Decode(u.Search())
		p.Search = &s
	}
	return p
}

// Explain says what the client sends and how it trusts the server.
func (rules) Explain(u *locator.URL) string {
	pl, err := NewPlan(u)
	if err != nil {
		return "No Gemini request can be sent: " + err.Error() + "."
	}
	var b strings.Builder
	b.WriteString("Gemini object on " + hostName(pl.Host) + " port " + strconv.Itoa(pl.Port) + ". ")
	b.WriteString("The client connects, completes a TLS handshake, trusts the server's certificate on first use (Gemini §4.2), and sends " +
		strconv.Quote(string(pl.Request)) + " (Gemini §2); the server answers with a status line and, for status 2x, the object. ")
	if u.HasFragment() {
		b.WriteString("The fragment is not sent. ")
	}
	if u.HasSearch() {
		b.WriteString("The search part is the input a server asks for with status 10 (Gemini §3.2.1).")
	}
	return strings.TrimSpace(b.String())
}

func hostName(h string) string {
	if strings.IndexByte(h, ':') >= 0 {
		return "[" + h + "]"
	}
	return h
}
