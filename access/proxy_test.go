package access_test

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/rfc1738/locator/access"
)

// TestProxyFunc: the CERN/Lynx convention, one proxy per scheme, "*"
// for the rest (all_proxy), no_proxy's names, addresses and prefixes
// reached directly.
func TestProxyFunc(t *testing.T) {
	pc := access.ProxyConfig{
		Proxies: map[string]string{"gopher": "gw.example:8080", "ftp": "http://ftpgw.example/", "*": "http://all.example:3128"},
		NoProxy: []string{"example.org", ".internal", "10.0.0.0/8", "192.0.2.7", "::1", "Direct.Example:8080"},
	}
	f := pc.ProxyFunc()
	for _, c := range []struct{ url, want string }{
		{"gopher://gopher.floodgap.com/", "http://gw.example:8080"},
		{"ftp://ftp.funet.fi/pub/", "http://ftpgw.example/"},
		{"wais://wais.example/db?x", "http://all.example:3128"},
		{"https://www.example.net/", "http://all.example:3128"},
		{"http://example.org/", ""},                           // the name
		{"http://www.example.org/", ""},                       // a name under it
		{"http://notexample.org/", "http://all.example:3128"}, // not under it
		{"gopher://a.b.internal/", ""},                        // ".internal"
		{"http://10.1.2.3/", ""},                              // the prefix
		{"http://11.1.2.3/", "http://all.example:3128"},
		{"http://192.0.2.7:8000/", ""}, // the address, any port
		{"http://[::1]:70/", ""},       // an IPv6 address
		{"http://direct.example/", ""}, // a port on the entry is ignored
		{"http://EXAMPLE.ORG./", ""},   // case and the final dot
		{"http://%65xample.org/", ""},  // the host decoded
		{"file:///etc/hostname", ""},   // no host, no proxy
		{"mailto:a@example.net", ""},   // no host part
	} {
		u := parse(t, c.url)
		p, err := f(u)
		if err != nil {
			t.Errorf("%s: %v", c.url, err)
			continue
		}
		got := ""
		if p != nil {
			got = p.String()
		}
		if got != c.want {
			t.Errorf("%s: proxy %q, want %q", c.url, got, c.want)
		}
	}
	if p, _ := (access.ProxyConfig{Proxies: map[string]string{"*": "http://p:1"}, NoProxy: []string{"*"}}).ProxyFunc()(parse(t, "http://x/")); p != nil {
		t.Errorf("no_proxy=* still proxies: %v", p)
	}
}

func TestProxyFromEnvironment(t *testing.T) {
	t.Setenv("gopher_proxy", "http://gw:70")
	t.Setenv("FTP_PROXY", "http://ftpgw:21")
	t.Setenv("HTTP_PROXY", "http://evil:1") // a CGI program's environment: ignored
	t.Setenv("http_proxy", "")
	t.Setenv("all_proxy", "")
	t.Setenv("ALL_PROXY", "")
	t.Setenv("no_proxy", "a.example, b.example")
	pc := access.ProxyFromEnvironment()
	if pc.Proxies["gopher"] != "http://gw:70" || pc.Proxies["ftp"] != "http://ftpgw:21" {
		t.Errorf("proxies %v", pc.Proxies)
	}
	if _, ok := pc.Proxies["http"]; ok {
		t.Errorf("HTTP_PROXY was taken: %v", pc.Proxies)
	}
	if len(pc.NoProxy) != 2 || pc.NoProxy[1] != "b.example" {
		t.Errorf("no_proxy %q", pc.NoProxy)
	}
}

// TestProxyRefusals: a proxy that is not a URL with a host refuses the
// URL (never a direct connection the user meant to avoid), and a proxy
// of a scheme whose client cannot carry other schemes is refused before
// any connection.
func TestProxyRefusals(t *testing.T) {
	for _, c := range []struct {
		proxy string
	}{{"http://"}, {"gopher://gw.example/"}} {
		var log bytes.Buffer
		cl := &access.Client{Dialogue: &log, Proxy: access.ProxyConfig{Proxies: map[string]string{"*": c.proxy}}.ProxyFunc()}
		_, err := cl.Get(context.Background(), parse(t, "ftp://ftp.example.invalid/x"))
		var pe *access.PolicyError
		if !errors.As(err, &pe) || pe.Rule != "proxy" {
			t.Errorf("proxy %s: %v, want a refusal by rule proxy", c.proxy, err)
		}
		if bytes.Contains(log.Bytes(), []byte("connect")) {
			t.Errorf("proxy %s: a connection was made:\n%s", c.proxy, log.String())
		}
	}
}

// TestGetFromRefusedWhereNoResume: a scheme whose client cannot begin an
// object at an offset (gopher: RFC 1436 has no such request) is refused
// before any connection; a negative offset too.
func TestGetFromRefusedWhereNoResume(t *testing.T) {
	var log bytes.Buffer
	c := &access.Client{Dialogue: &log}
	for _, off := range []int64{10, -1} {
		_, err := c.GetFrom(context.Background(), parse(t, "gopher://gopher.example.invalid/0/a"), off)
		var pe *access.PolicyError
		if !errors.As(err, &pe) || pe.Rule != "resume" || access.Classify(err) != access.Forbidden {
			t.Errorf("offset %d: %v, want a refusal by rule resume", off, err)
		}
	}
	if log.Len() != 0 {
		t.Errorf("dialogue: %s", log.String())
	}
}
