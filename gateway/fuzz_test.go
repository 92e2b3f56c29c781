package gateway

import (
	"bytes"
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/rfc1738/locator"
)

// loopbackResolver answers every name with 127.0.0.1, as a hostile DNS
// name pointing at the gateway's own machine would (a rebinding attempt).
type loopbackResolver struct{}

func (loopbackResolver) LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error) {
	return []netip.Addr{netip.MustParseAddr("127.0.0.1")}, nil
}

// FuzzRequestTarget feeds arbitrary request targets, in the proxy form
// and the path form, to a gateway with the default policy (loopback,
// private and link-local networks refused; every name resolves to
// 127.0.0.1). Whatever the target: no panic, an HTTP status is written,
// no connection is attempted to a loopback, private or link-local
// address (a public address literal may be dialled; the dial fails), and
// a password written in the target appears neither in the page nor in
// the access log.
func FuzzRequestTarget(f *testing.F) {
	for _, s := range []string{
		"gopher://127.0.0.1:7070/1/", "/gopher://host/1/", "ftp://u:sekrit@h/pub/x",
		"/ftp://u:sekrit@h/%2Fetc/motd;type=a", "http://2130706433/", "/gopher://0x7f.1/1",
		"gopher://[::ffff:127.0.0.1]:70/7/search?foo%20bar", "news:a@b", "/-/get?url=wais://h/db%3Fx",
		"gopher://h/1%0D%0AQUIT", "/", "/-/", "*", "file:///etc/passwd", "telnet://u:pw@h/",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, target string) {
		var denied atomic.Int32
		var logBuf bytes.Buffer
		s := New(Config{Log: &logBuf, Resolver: loopbackResolver{}, Timeout: 2e9, MaxTarget: 4096})
		s.dial = func(ctx context.Context, addr string) (net.Conn, error) {
			if ap, err := netip.ParseAddrPort(addr); err != nil || Special(ap.Addr()) != "" {
				denied.Add(1)
			}
			return nil, errors.New("the fuzz target never connects")
		}
		r := &http.Request{
			Method:     "GET",
			RequestURI: target,
			URL:        &url.URL{Path: "/"},
			Host:       "127.0.0.1:8080",
			Header:     http.Header{},
			RemoteAddr: "127.0.0.1:40000",
			Proto:      "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		}
		r = r.WithContext(context.Background())
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, r)
		if rec.Code < 200 || rec.Code > 599 {
			t.Fatalf("%q: status %d", target, rec.Code)
		}
		if n := denied.Load(); n != 0 {
			t.Fatalf("%q: %d connections attempted to a loopback, private or link-local address under the default policy", target, n)
		}
		raw := strings.TrimPrefix(target, "/")
		if u, err := locator.Parse(raw); err == nil && u.HasPassword() {
			pw := locator.Decode(u.Password())
			if len(pw) >= 6 && strings.Trim(pw, "0123456789.:/%") != "" {
				if strings.Contains(rec.Body.String(), pw) {
					t.Fatalf("%q: the password %q is in the page", target, pw)
				}
				if strings.Contains(logBuf.String(), pw) {
					t.Fatalf("%q: the password %q is in the access log %q", target, pw, logBuf.String())
				}
			}
		}
	})
}

// FuzzParseRule: a rule either parses or is refused with an error; one
// that parses checks addresses without panicking, and a rule naming an
// address allows that address.
func FuzzParseRule(f *testing.F) {
	for _, s := range []string{"127.0.0.1", "127.0.0.0/8:7070-7080", ".example.org", "[::1]:70", ":21", "gopher.example.org:70", "10.0.0.0/8", "::/0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := ParseRule(s)
		if err != nil {
			return
		}
		p := Policy{Allow: []Rule{r}}
		for _, a := range []string{"127.0.0.1", "10.1.2.3", "::1", "192.0.2.1", "::ffff:127.0.0.1"} {
			p.Check("example.org", netip.MustParseAddr(a), 70)
		}
		if a, err := netip.ParseAddr(s); err == nil && a.Is4() {
			if err := p.Check("", a, 70); err != nil {
				t.Fatalf("rule %q does not allow its own address: %v", s, err)
			}
		}
	})
}
