package mailto

import (
	"strings"

	"github.com/rfc1738/locator"
)

// A Draft is the message a client prepares from a mailto URL (RFC 2368
// §3): recipients, header fields and body, all decoded. A mailto URL is
// not dereferenced; the user edits, sends or drops the draft.
type Draft struct {
	To     []string // the address(es) and every "to" header's, split at ","
	Header []Header // other header fields, in order (not to, not body)
	Body   string   // the "body" headers, joined by CR LF
	// Unsafe names the header fields other than Subject, Keywords and
	// Body, which RFC 2368 §4 says a client should not set unasked.
	Unsafe []string
}

// Draft returns the message m prepares.
func (m *URL) Draft() Draft {
	var d Draft
	addTo := func(list string) {
		if list == "" {
			return
		}
		eachAddress(list, 0, len(list), false, func(from, to int) {
			if a := strings.TrimSpace(list[from:to]); a != "" {
				d.To = append(d.To, a)
			}
		})
	}
	addTo(m.Address)
	var body []string
	for _, h := range m.Headers {
		switch strings.ToLower(h.Name) {
		case "to":
			addTo(h.Value)
		case "body":
			body = append(body, h.Value)
		default:
			d.Header = append(d.Header, h)
			if n := strings.ToLower(h.Name); n != "subject" && n != "keywords" {
				d.Unsafe = append(d.Unsafe, h.Name)
			}
		}
	}
	d.Body = strings.Join(body, "\r\n")
	return d
}

// addrOK is what Build leaves unencoded in an address, header name or
// value: unreserved characters and "@", "/", ":" and ";" (RFC 1738
// reserves nothing in a mailto URL; RFC 2368 reserves "?", "=" and "&",
// and "%" is always %25, §3.5).
var addrOK [256]bool

func init() {
	for c := 0; c < 256; c++ {
		addrOK[c] = locator.IsUnreserved(byte(c))
	}
	for _, c := range "@/:;" {
		addrOK[c] = true
	}
}

func escape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if addrOK[c] {
			b.WriteByte(c)
		} else {
			b.WriteByte('%')
			b.WriteByte("0123456789ABCDEF"[c>>4])
			b.WriteByte("0123456789ABCDEF"[c&15])
		}
	}
	return b.String()
}

// Build writes m as a correctly encoded mailto URL: every octet of the
// address and headers that RFC 1738 or RFC 2368 would read otherwise is
// encoded, so the URL reads back as m. It fails only when there is
// nothing to write (no address and no headers) or a header name is
// empty; whether the address is an RFC 822 addr-spec is judged by Parse
// (see SplitAddrSpec), as is the use of RFC 2368's headers and address
// lists, beyond RFC 1738. The error is a *locator.SchemeError.
func (m *URL) Build() (string, error) {
	if m.Address == "" && len(m.Headers) == 0 {
		return "", &locator.SchemeError{Scheme: "mailto", Field: "address", Rule: "encoded822addr", Message: "the address is empty (RFC 1738 §5: encoded822addr = 1*xchar)"}
	}
	var b strings.Builder
	b.WriteString("mailto:")
	a := escape(m.Address)
	if strings.HasPrefix(a, "//") {
		// "mailto://" would be read as the Internet syntax's "//" login
		// and host (RFC 1738 §3.1), not as the address: the first "/"
		// is encoded, which reads back as the same address.
		a = "%2F" + a[1:]
	}
	b.WriteString(a)
	for i, h := range m.Headers {
		if h.Name == "" {
			return "", &locator.SchemeError{Scheme: "mailto", Field: "header", Offset: i, Rule: "hname", Message: "header name is empty (RFC 2368)"}
		}
		if i == 0 {
			b.WriteByte('?')
		} else {
			b.WriteByte('&')
		}
		b.WriteString(escape(h.Name))
		b.WriteByte('=')
		b.WriteString(escape(h.Value))
	}
	return b.String(), nil
}
