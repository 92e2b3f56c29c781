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
	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/internal/dest"
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
		s.dial = func(ctx context.Context, network, addr string) (net.Conn, error) {
			if ap, err := netip.ParseAddrPort(addr); err != nil || access.Special(ap.Addr()) != "" {
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
			// A password that is also written elsewhere in the URL (as its
			// user name: "0://sekrit:sekrit@") is shown there, rightly.
			if len(pw) >= 6 && strings.Trim(pw, "0123456789.:/%") != "" && !strings.Contains(locator.Decode(access.Masked(u)), pw) {
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

// FuzzDialHost: whatever host a URL gives, dest.Host, by which the
// dialer reads it, either refuses it or returns a host made of
// host-name and address characters only (no escape, space, control or
// non-ASCII octet reaches the resolver), and reading its result again
// gives the same host (it is decoded once, wholly). Loopback spelled with escapes or IDNA mappings decodes to a
// form the policy sees as loopback.
func FuzzDialHost(f *testing.F) {
	for _, s := range []string{"example.org", "%e2%93%9bocalhost", "ⓛocalhost", "%31%32%37.0.0.1", "１２７.０.０.１", "b%C3%BCcher.example", "::1", "fe80::1%25eth0", "::%0", "%25", "a%2Fb", "xn--bcher-kva.example", "EXAMPLE."} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, h string) {
		got, err := dest.Host(h)
		if err != nil {
			return
		}
		for i := 0; i < len(got); i++ {
			c := got[i]
			if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_' || c == ':') {
				t.Fatalf("dest.Host(%q) = %q holds %q", h, got, c)
			}
		}
		if again, err := dest.Host(got); err != nil || again != got {
			t.Fatalf("dest.Host(%q) = %q, and again %q, %v", h, got, again, err)
		}
		if got == "localhost" || got == "localhost." {
			return
		}
		if a, err := netip.ParseAddr(got); err == nil && strings.Contains(strings.ToLower(h), "127") && a.Is4() && a.As4()[0] == 127 && access.Special(a) != "loopback" {
			t.Fatalf("dest.Host(%q) = %q is not seen as loopback", h, got)
		}
	})
}

// FuzzMaskURLs: a password placed in a URL, however the URL is escaped
// (as written, once, twice) and whatever text comes before it, is not
// in maskURLs's result; text without a ":" is returned as it is.
func FuzzMaskURLs(f *testing.F) {
	f.Add("ftp", "user", "sekrit", "host/x", "/-/get?url=", 0)
	f.Add("gopher", "a", "p?w&d", "h:70/1", "gopher://x/hURL:", 1)
	f.Add("telnet", "u", "pw12", "[::1]:23", "", 2)
	f.Fuzz(func(t *testing.T, scheme, user, pass, rest, prefix string, enc int) {
		if len(pass) < 4 || strings.ContainsAny(pass, "/@:%*") || strings.ContainsAny(user, "/@:%") || strings.ContainsAny(scheme, ":/%") {
			return
		}
		for i := 0; i < len(pass); i++ {
			if pass[i] <= ' ' || pass[i] == 0x7f {
				return
			}
		}
		escape := func(s string) string { return s }
		switch enc % 3 {
		case 1, -1:
			escape = url.QueryEscape
		case 2, -2:
			escape = func(s string) string { return url.QueryEscape(url.QueryEscape(s)) }
		}
		in := prefix + escape(scheme+"://"+user+":"+pass+"@"+rest)
		secret := escape(pass)
		if strings.Count(in, secret) != 1 {
			return
		}
		if got := maskURLs(in); strings.Contains(got, secret) {
			t.Fatalf("maskURLs(%q) = %q keeps the password %q", in, got, secret)
		}
		l := strings.ToLower(prefix)
		if !strings.Contains(l, ":") && !strings.Contains(l, "%3a") && !strings.Contains(l, "%253a") && maskURLs(prefix) != prefix {
			t.Fatalf("maskURLs(%q) = %q changed text without a URL", prefix, maskURLs(prefix))
		}
	})
}
