package http

import (
	"strconv"
	"strings"

	"github.com/rfc1738/locator"
)

// Explain says for a person what u stands for: the server to connect to,
// the request line and Host header (NewRequest), what is left out, and
// the absolute form a proxy would be sent (for https, the CONNECT that
// opens a tunnel, then the request in it: RFC 9110 §9.3.6). A host name
// with non-ASCII characters is shown in its A-label form, as it is sent.
func (Rules) Explain(u *locator.URL) string {
	var b strings.Builder
	r, err := NewRequest(u)
	if err != nil {
		b.WriteString("HTTP (RFC 1738 §3.3), but no request: " + err.(*RequestError).Problem.String() + "\n")
		return b.String()
	}
	port := ":" + strconv.Itoa(u.EffectivePort())
	if r.TLS {
		b.WriteString("HTTPS (HTTP over TLS, RFC 2818; not part of RFC 1738, read with http's rules): connect to ")
	} else {
		b.WriteString("HTTP (RFC 1738 §3.3): connect to ")
	}
	b.WriteString(strings.TrimSuffix(r.Addr, port) + " port " + port[1:] + ", then send\n")
	b.WriteString("  " + r.Line() + "\n")
	b.WriteString("  Host: " + r.Host + "\n")
	if u.HasUser() {
		b.WriteString("The user and password are not sent: §3.3 allows none in an HTTP URL.\n")
	}
	if u.HasFragment() {
		b.WriteString("The fragment " + strconv.Quote(u.Fragment()) + " is not sent; the client uses it within the object it gets.\n")
	}
	if p, err := NewProxyRequest(u); err == nil {
		if p.Tunnel != nil {
			// RFC 9110 §9.3.6: the proxy opens a tunnel; TLS and the
			// request above go through it.
			b.WriteString("Through a proxy: " + p.Line() + "\n")
			b.WriteString("  Host: " + p.Host + "\n")
			b.WriteString("then, once the proxy answers 2xx, TLS with " + strings.TrimSuffix(p.Tunnel.Addr, port) + " through the tunnel, and in it\n")
			b.WriteString("  " + p.Tunnel.Line() + "\n")
			b.WriteString("  Host: " + p.Tunnel.Host + "\n")
		} else {
			b.WriteString("Through a proxy: " + p.Line() + "\n")
		}
	}
	return b.String()
}
