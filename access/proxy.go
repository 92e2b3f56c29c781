package access

import (
	"net/netip"
	"os"
	"strings"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/internal/dest"
)

// A ProxyFetcher is a Fetcher that can carry a URL of any scheme to a
// proxy server of its own scheme: an HTTP gateway, to which the whole
// URL goes on the request line (RFC 1945 §5.1.2; the CERN and Lynx
// convention of http_proxy, gopher_proxy, ...). When Client.Proxy names
// a proxy for a URL, the Client hands the URL to the Fetcher of the
// proxy's scheme with Request.Proxy set, and calls its Check, Fetch and
// (when it is a Prober) Probe as for a URL of its own scheme.
type ProxyFetcher interface {
	Fetcher
	// CarriesAnyScheme marks the Fetcher as one whose Check, Fetch and
	// Probe take a URL of any scheme when Request.Proxy is set.
	CarriesAnyScheme()
}

// ProxyConfig is where a Client sends URLs through a proxy: the
// convention of the CERN library and Lynx, kept by curl and wget, of one
// environment variable per scheme (http_proxy, ftp_proxy, gopher_proxy,
// wais_proxy, news_proxy, ...) naming an HTTP gateway, and no_proxy
// naming the hosts reached directly.
type ProxyConfig struct {
	// Proxies maps a scheme, in lower case, to its proxy's URL
	// ("http://gw.example.org:8080/"); "*" is the proxy of every scheme
	// not named (all_proxy, curl's --proxy). A proxy written without a
	// scheme ("gw:8080") is an http one.
	Proxies map[string]string
	// NoProxy lists the hosts reached without a proxy: a name, which
	// covers the names under it ("example.org" and ".example.org" both
	// cover "www.example.org"), an address, a CIDR prefix
	// ("10.0.0.0/8"), or "*" for every host. Matching ignores case and
	// a port.
	NoProxy []string
}

// ProxyFromEnvironment reads the proxies of the environment: for each
// scheme of the registry, <scheme>_proxy, or its upper-case form, except
// for http, whose upper-case HTTP_PROXY a CGI program's environment lets
// the client of a request set (curl ignores it for that reason);
// all_proxy (ALL_PROXY) for every other scheme; no_proxy (NO_PROXY),
// separated by commas or spaces. An empty variable is no proxy.
func ProxyFromEnvironment() ProxyConfig {
	get := func(name string, upper bool) string {
		if v := os.Getenv(name); v != "" {
			return v
		}
		if upper {
			return os.Getenv(strings.ToUpper(name))
		}
		return ""
	}
	pc := ProxyConfig{Proxies: map[string]string{}}
	for _, s := range Schemes() {
		if v := get(s+"_proxy", s != "http"); v != "" {
			pc.Proxies[s] = v
		}
	}
	if v := get("all_proxy", true); v != "" {
		pc.Proxies["*"] = v
	}
	pc.NoProxy = strings.FieldsFunc(get("no_proxy", true), func(r rune) bool { return r == ',' || r == ' ' || r == '\t' })
	return pc
}

// ProxyFunc returns the function for Client.Proxy that pc describes: the
// proxy of u's scheme (or "*"), unless u's host is one of NoProxy, or u
// is of a scheme that makes no connection (file, mailto: Info's
// DefaultPort is 0), which names something of this machine or is sent
// otherwise. A URL that names no host of a scheme that connects (news:,
// whose server the client knows) goes to the proxy, as Lynx sends it. A proxy that is not a URL with a host is an error, a
// *PolicyError with rule "proxy", so that the Client refuses the URL
// rather than connect directly to a server the user meant to reach
// only through the proxy.
func (pc ProxyConfig) ProxyFunc() func(u *locator.URL) (*locator.URL, error) {
	return func(u *locator.URL) (*locator.URL, error) {
		p, ok := pc.Proxies[u.Scheme()]
		if !ok {
			p = pc.Proxies["*"]
		}
		if p == "" || u.Host() != "" && pc.direct(u.Host()) {
			return nil, nil
		}
		if info, ok := Lookup(u.Scheme()); !ok || info.DefaultPort == 0 {
			return nil, nil
		}
		if !strings.Contains(p, "://") {
			p = "http://" + p
		}
		pu, err := locator.Parse(p)
		if err != nil || pu.Host() == "" {
			reason := "the proxy " + quote(p) + " for " + u.Scheme() + " URLs is not a URL with a host"
			if err != nil {
				reason += ": " + err.Error()
			}
			return nil, &PolicyError{URL: Masked(u), Rule: "proxy", Reason: reason}
		}
		return pu, nil
	}
}

// direct reports whether host is reached without a proxy.
func (pc ProxyConfig) direct(host string) bool {
	h := strings.TrimSuffix(strings.TrimPrefix(strings.TrimSuffix(host, "]"), "["), ".")
	h = dest.Name(h)
	addr, aerr := netip.ParseAddr(h)
	for _, n := range pc.NoProxy {
		n = strings.ToLower(strings.TrimSpace(n))
		if n == "*" {
			return true
		}
		if pfx, err := netip.ParsePrefix(n); err == nil {
			if aerr == nil && pfx.Contains(addr.Unmap()) {
				return true
			}
			continue
		}
		// A port on the entry ("example.org:8080") is not matched: the
		// host alone decides, as for curl.
		if a, err := netip.ParseAddrPort(n); err == nil {
			n = a.Addr().String()
		} else if i := strings.LastIndexByte(n, ':'); i > 0 && !strings.Contains(n[:i], ":") {
			n = n[:i]
		}
		n = strings.TrimSuffix(strings.TrimPrefix(strings.TrimSuffix(n, "]"), "["), ".")
		if a, err := netip.ParseAddr(n); err == nil {
			if aerr == nil && a.Unmap() == addr.Unmap() {
				return true
			}
			continue
		}
		n = strings.TrimPrefix(n, ".")
		if n == "" {
			continue
		}
		if h == n || strings.HasSuffix(h, "."+n) {
			return true
		}
	}
	return false
}
