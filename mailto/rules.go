package mailto

import (
	"strconv"
	"strings"

	"github.com/rfc1738/locator"
)

func init() {
	locator.Register("mailto", rules{})
}

// rules implement locator.Rules, locator.Explainer and locator.Normalizer.
type rules struct{}

// Normalize writes the domain of each address in lower case and leaves
// its local part as written: RFC 5321 §2.4, "the local-part of a mailbox
// MUST BE treated as case sensitive", while "mailbox domains follow
// normal DNS rules and are hence not case sensitive". So
// mailto:fred@Example.COM and mailto:fred@example.com are Equal, and
// mailto:Fred@example.com is another mailbox. Only an address read as an
// RFC 822 addr-spec (§6.1) without a problem is changed, and in it only
// the letters of dot-atoms: a domain literal "[...]" and the hex digits
// of an escape stay as written. The "//" form (a violation, which the
// core reads as a host) is left to the core's steps.
func (rules) Normalize(p *locator.Parts) {
	if p.HasAuthority || p.Path == "" {
		return
	}
	s := p.Path
	var b []byte
	eachAddress(s, 0, len(s), true, func(from, to int) {
		from, to = trimSpace(s, from, to)
		ok := true
		at := addrSpec(s, from, to, true, func(int, string) { ok = false })
		if !ok || at < 0 {
			return
		}
		_, n := octet(s, at, true)
		bracket := false
		for i := at + n; i < to; {
			c, n := octet(s, i, true)
			switch {
			case c == '[':
				bracket = true
			case c == ']':
				bracket = false
			case n == 1 && !bracket && 'A' <= c && c <= 'Z':
				if b == nil {
					b = []byte(s)
				}
				b[i] = c + ('a' - 'A')
			}
			i += n
		}
	})
	if b != nil {
		p.Path = string(b)
	}
}

// Check judges the address as an RFC 822 addr-spec (§3.5) and reports
// RFC 2368's extensions (headers, several addresses) as beyond RFC 1738.
func (rules) Check(u *locator.URL, r locator.Report) locator.Report {
	add := func(off int, rule, msg string) { r.Add(off, locator.Violation, rule, msg) }
	a, base := addressText(u)
	if u.HasAuthority() {
		add(base, "mailtourl", "a mailto URL has no \"//\": mailtourl = \"mailto:\" encoded822addr (RFC 1738 §5)")
	}
	if a == "" {
		msg := "the address is empty: encoded822addr = 1*xchar (RFC 1738 §5)"
		if u.HasSearch() {
			msg = "the address is empty, the recipients named in headers: RFC 2368's form, beyond RFC 1738 (encoded822addr = 1*xchar)"
		}
		add(base, "encoded822addr", msg)
	} else {
		n := 0
		eachAddress(a, 0, len(a), true, func(from, to int) {
			comma := from - 1
			if comma >= 0 && a[comma] != ',' {
				comma = from - 3 // an encoded %2C
			}
			from, to = trimSpace(a, from, to)
			n++
			if n == 2 {
				add(base+comma, "mailtourl", "more than one address (RFC 2368's to = #mailbox) is beyond RFC 1738's single addr-spec (§3.5)")
			}
			addrSpec(a, from, to, true, func(off int, msg string) {
				add(base+off, "addr-spec", msg)
			})
		})
	}
	if u.HasSearch() {
		s, sbase := u.Search(), u.Offset(locator.SearchComponent)
		add(sbase-1, "mailtourl", "headers after \"?\" are RFC 2368's extension, beyond RFC 1738, where mailtourl = \"mailto:\" encoded822addr and \"?\" is part of the address")
		eachHeader(s, func(name, value string, nameAt, valueAt int, eq bool) {
			if !eq {
				add(sbase+nameAt, "header", "an RFC 2368 header is hname \"=\" hvalue; no \"=\" here")
			} else if name == "" {
				add(sbase+nameAt, "hname", "the header name before \"=\" is empty (RFC 2368)")
			}
			for i := 0; i < len(value); i++ {
				if value[i] == '?' || value[i] == '=' {
					add(sbase+valueAt+i, "hvalue", "'"+string(value[i])+"' is reserved in mailto URLs and must be encoded in a header value (RFC 2368 §2)")
				}
			}
			for i := 0; i < len(name); i++ {
				if name[i] == '?' {
					add(sbase+nameAt+i, "hname", "'?' is reserved in mailto URLs and must be encoded in a header name (RFC 2368 §2)")
				}
			}
		})
	}
	return r
}

type parts struct {
	Address string `json:"address"`
}

// Parts returns {address}, decoded.
func (rules) Parts(u *locator.URL) any {
	m, err := From(u)
	if err != nil {
		return nil
	}
	return parts{Address: m.Address}
}

// Explain says what a mailto URL designates (§3.5) and what a client does
// with it (RFC 2368 §3–4).
func (rules) Explain(u *locator.URL) string {
	m, err := From(u)
	if err != nil {
		return ""
	}
	d := m.Draft()
	var b strings.Builder
	if len(d.To) == 1 && len(m.Headers) == 0 {
		b.WriteString("The Internet mail address " + strconv.Quote(d.To[0]) + " (RFC 1738 §3.5). It designates no object to retrieve; a client offers to write a message to it.")
		return b.String()
	}
	if len(d.To) == 0 {
		b.WriteString("A mailto URL with no recipient.")
	} else {
		b.WriteString("A message to " + quoteList(d.To) + ".")
	}
	if len(m.Headers) > 0 {
		b.WriteString(" The client prepares a message with the header fields the URL gives (RFC 2368, beyond RFC 1738)")
		var names []string
		for _, h := range d.Header {
			names = append(names, h.Name+": "+strconv.Quote(h.Value))
		}
		if len(names) > 0 {
			b.WriteString(": " + strings.Join(names, "; "))
		}
		if d.Body != "" {
			b.WriteString("; body " + strconv.Quote(d.Body))
		}
		b.WriteString(".")
		if len(d.Unsafe) > 0 {
			b.WriteString(" RFC 2368 §4 counts only Subject, Keywords and Body as safe; a client should not set " + strings.Join(d.Unsafe, ", ") + " unasked.")
		}
	}
	return b.String()
}

func quoteList(l []string) string {
	q := make([]string, len(l))
	for i, s := range l {
		q[i] = strconv.Quote(s)
	}
	return strings.Join(q, ", ")
}

// trimSpace narrows the encoded s[from:to] past the linear white space
// (space and TAB, encoded or not) RFC 822 allows around an address.
func trimSpace(s string, from, to int) (int, int) {
	for from < to {
		c, n := octet(s, from, true)
		if c != ' ' && c != '\t' {
			break
		}
		from += n
	}
	for to > from {
		if s[to-1] == ' ' || s[to-1] == '\t' {
			to--
		} else if to-from >= 3 && s[to-3] == '%' && (s[to-2:to] == "20" || s[to-2:to] == "09") {
			to -= 3
		} else {
			break
		}
	}
	return from, to
}
