package main

// What a crawl may connect to. A page is written by whoever runs its
// server: a link in it to http://127.0.0.1:8080/admin or to an address
// of the machine's own network would have the crawler (and --check)
// reach places the person never pointed it at. So every connection a
// crawl makes is checked on the address it goes to, as the gateway's
// destination policy checks its own: a name is looked up once, each
// address checked, and the allowed address itself dialled (a name
// cannot resolve to one address when checked and another when
// dialled). An address of a special network (gateway.Special:
// loopback, private, link-local, ...) is refused unless the person
// named it: a seed's host is, or resolves to, that address; the
// proxy's; or --allow-host names the host.

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"strings"
	"time"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/gateway"
	"github.com/rfc1738/locator/internal/dest"
)

// A crawlDest is the destination policy of a crawl.
type crawlDest struct {
	named map[netip.Addr]bool // the addresses of the seeds and the proxies
	allow []string            // --allow-host: names the person allowed
}

// newCrawlDest returns the policy for a crawl from seeds, through the
// proxies of pc, with --allow-host's names.
func newCrawlDest(ctx context.Context, seeds []*locator.URL, pc access.ProxyConfig, allow []string) *crawlDest {
	d := &crawlDest{named: map[netip.Addr]bool{}, allow: allow}
	hosts := []string{}
	for _, u := range seeds {
		hosts = append(hosts, u.Host())
	}
	for _, p := range pc.Proxies {
		if u, err := proxyURL(p); err == nil {
			hosts = append(hosts, u.Host())
		}
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	for _, h := range hosts {
		if h == "" {
			continue
		}
		_, addrs, err := dest.Addrs(ctx, net.DefaultResolver, h)
		if err != nil {
			continue // the crawl's own connection will say why
		}
		for _, a := range addrs {
			d.named[a] = true
		}
	}
	return d
}

// allowed says whether name, at address a, may be connected to.
func (d *crawlDest) allowed(name string, a netip.Addr) string {
	w := gateway.Special(a)
	if w == "" || d.named[a] {
		return ""
	}
	n := strings.TrimSuffix(strings.ToLower(name), ".")
	for _, h := range d.allow {
		h = strings.TrimSuffix(strings.ToLower(h), ".")
		if n == h || strings.HasPrefix(h, ".") && (strings.HasSuffix(n, h) || n == h[1:]) || h == a.String() {
			return ""
		}
	}
	return w
}

// dial is the crawl's access.DialFunc.
func (d *crawlDest) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	name, addrs, err := dest.Addrs(ctx, net.DefaultResolver, host)
	if err != nil {
		if he := (*dest.HostError)(nil); errors.As(err, &he) {
			return nil, &access.PolicyError{Rule: "crawl destination policy", Reason: he.Reason + " (" + addr + ")"}
		}
		return nil, err
	}
	var refused string
	for _, a := range addrs {
		if w := d.allowed(name, a); w != "" {
			refused = net.JoinHostPort(a.String(), port) + " is in a " + w + " network, which a crawl reaches only when a seed names it or --allow-host allows it"
			if host != a.String() {
				refused = host + " (" + refused + ")"
			}
			continue
		}
		var dl net.Dialer
		return dl.DialContext(ctx, network, net.JoinHostPort(a.String(), port))
	}
	return nil, &access.PolicyError{Rule: "crawl destination policy", Reason: refused}
}
