package gateway

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strconv"
	"strings"
	"sync"

	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/internal/dest"
)

// A Rule names destinations: a host name ("gopher.example.org"; an
// internationalised name is matched by its A-labels, as dest.Host gives
// the dialer a URL's host), every name under a domain (".example.org"),
// an address ("127.0.0.1", "::1") or a network ("10.0.0.0/8",
// "fc00::/7"), each optionally followed by a port or a port range
// (":70", ":7000-7099"); or a port alone (":70"), which matches every
// host. An IPv6 address with a port is written in brackets
// ("[::1]:70").
type Rule struct {
	text   string
	name   string       // a host name or ".domain", lower case, no final dot
	prefix netip.Prefix // a network (an address is a /32 or /128)
	lo, hi int          // the ports; 0, 0: every port
}

func (r Rule) String() string { return r.text }

// ParseRule reads a rule (see Rule).
func ParseRule(s string) (Rule, error) {
	r := Rule{text: s}
	bad := func(why string) (Rule, error) {
		return Rule{}, fmt.Errorf("gateway: rule %q: %s", s, why)
	}
	host, ports := s, ""
	switch {
	case strings.HasPrefix(s, "["):
		end := strings.IndexByte(s, ']')
		if end < 0 {
			return bad("an unclosed [")
		}
		host, ports = s[1:end], s[end+1:]
		if ports != "" && !strings.HasPrefix(ports, ":") {
			return bad("after ] only :PORT may follow")
		}
		ports = strings.TrimPrefix(ports, ":")
	case strings.Count(s, ":") == 1:
		host, ports, _ = strings.Cut(s, ":")
	}
	if ports != "" {
		lo, hi, rng := strings.Cut(ports, "-")
		var err1, err2 error
		r.lo, err1 = strconv.Atoi(lo)
		r.hi = r.lo
		if rng {
			r.hi, err2 = strconv.Atoi(hi)
		}
		if err1 != nil || err2 != nil || r.lo < 1 || r.hi > 65535 || r.lo > r.hi {
			return bad("the port is a number from 1 to 65535, or a range LOW-HIGH")
		}
	}
	switch {
	case host == "" && ports == "":
		return bad("empty")
	case host == "":
	case strings.Contains(host, "/"):
		p, err := netip.ParsePrefix(host)
		if err != nil {
			return bad(err.Error())
		}
		r.prefix = p.Masked()
	default:
		if a, err := netip.ParseAddr(host); err == nil {
			if a.Zone() != "" {
				return bad("an address with a zone")
			}
			r.prefix = netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen())
			break
		}
		if dest.Numeric(host) {
			return bad("write an IPv4 address in dotted decimal")
		}
		name, err := dest.Host(host)
		if err != nil {
			return bad(err.Error())
		}
		if name != host && dest.Numeric(name) {
			return bad("write an IPv4 address in dotted decimal")
		}
		if a, err := netip.ParseAddr(name); err == nil {
			// An address written with escapes or full-width digits.
			r.prefix = netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen())
			break
		}
		r.name = strings.TrimSuffix(name, ".")
		if r.name == "" {
			return bad("empty")
		}
	}
	return r, nil
}

// hasHost says whether the rule names hosts (it is not a port alone).
func (r Rule) hasHost() bool { return r.name != "" || r.prefix.IsValid() }

func (r Rule) matches(name string, a netip.Addr, port int) bool {
	if r.lo != 0 && (port < r.lo || port > r.hi) {
		return false
	}
	switch {
	case r.prefix.IsValid():
		return a.IsValid() && r.prefix.Contains(a)
	case r.name != "":
		n := strings.TrimSuffix(strings.ToLower(name), ".")
		if strings.HasPrefix(r.name, ".") {
			return n == r.name[1:] || strings.HasSuffix(n, r.name)
		}
		return n == r.name
	}
	return true
}

// A Policy says which destinations the gateway may connect to. It is
// applied to every connection a client makes (the URL's host, an FTP
// passive-mode data address, a redirection's host), on the address the
// connection is made to: a name is resolved once, each of its addresses
// checked, and an allowed address itself dialled, so that a name cannot
// resolve to one address when checked and another when dialled (DNS
// rebinding).
//
//   - A destination a Deny rule matches is refused.
//   - Addresses of special networks (loopback, private, link-local,
//     shared, multicast, reserved; IPv4 addresses written inside IPv6
//     ones are checked as the IPv4 address) are refused unless an Allow
//     rule that names hosts matches (a rule of a port alone does not).
//   - When Allow is not empty, only destinations it matches are allowed.
type Policy struct {
	Allow, Deny []Rule
}

// special networks: none is a destination a gateway open to its users
// should reach on their behalf unless it is told so.
var special = func() []struct {
	p    netip.Prefix
	what string
} {
	var s []struct {
		p    netip.Prefix
		what string
	}
	for _, x := range [][2]string{
		{"0.0.0.0/8", "\"this network\" (RFC 1122)"},
		{"10.0.0.0/8", "private (RFC 1918)"},
		{"100.64.0.0/10", "shared address space (RFC 6598)"},
		{"127.0.0.0/8", "loopback"},
		{"169.254.0.0/16", "link-local"},
		{"172.16.0.0/12", "private (RFC 1918)"},
		{"192.0.0.0/24", "IETF protocol assignments"},
		{"192.0.2.0/24", "documentation"},
		{"192.88.99.0/24", "6to4 relay anycast"},
		{"192.168.0.0/16", "private (RFC 1918)"},
		{"198.18.0.0/15", "benchmarking"},
		{"198.51.100.0/24", "documentation"},
		{"203.0.113.0/24", "documentation"},
		{"224.0.0.0/4", "multicast"},
		{"240.0.0.0/4", "reserved (and broadcast)"},
		{"::/128", "unspecified"},
		{"::1/128", "loopback"},
		{"100::/64", "discard-only"},
		{"2001::/32", "Teredo"},
		{"2001:db8::/32", "documentation"},
		{"fc00::/7", "unique local (private)"},
		{"fe80::/10", "link-local"},
		{"fec0::/10", "site-local"},
		{"ff00::/8", "multicast"},
	} {
		s = append(s, struct {
			p    netip.Prefix
			what string
		}{netip.MustParsePrefix(x[0]), x[1]})
	}
	return s
}()

// embeddedIPv4 returns the IPv4 address an IPv6 address carries in the
// forms that make a host reach it (IPv4-mapped, IPv4-compatible, NAT64,
// 6to4), so that the IPv4 address is what is checked.
func embeddedIPv4(a netip.Addr) (netip.Addr, bool) {
	if a.Is4() {
		return a, true
	}
	if a.Is4In6() {
		return a.Unmap(), true
	}
	b := a.As16()
	var v4 [4]byte
	switch {
	case netip.MustParsePrefix("64:ff9b::/96").Contains(a),
		netip.MustParsePrefix("::/96").Contains(a) && !a.IsUnspecified() && !a.IsLoopback():
		copy(v4[:], b[12:])
	case netip.MustParsePrefix("2002::/16").Contains(a):
		copy(v4[:], b[2:6])
	default:
		return netip.Addr{}, false
	}
	return netip.AddrFrom4(v4), true
}

// Special returns what special network a is in ("loopback", "private
// (RFC 1918)", ...), or "" for an ordinary public address.
func Special(a netip.Addr) string {
	a = a.WithZone("")
	if v4, ok := embeddedIPv4(a); ok && !a.Is4() {
		if w := Special(v4); w != "" {
			return w + ", written inside an IPv6 address"
		}
		return ""
	}
	for _, s := range special {
		if s.p.Contains(a) {
			return s.what
		}
	}
	return ""
}

// Check says whether name (as the URL wrote it) at address a, port
// port, may be connected to; the error says why not.
func (p *Policy) Check(name string, a netip.Addr, port int) error {
	a = a.Unmap()
	where := net.JoinHostPort(a.String(), strconv.Itoa(port))
	if name != "" && name != a.String() {
		where = name + " (" + where + ")"
	}
	for _, r := range p.Deny {
		if r.matches(name, a, port) {
			return fmt.Errorf("%s is denied by the rule %q", where, r.text)
		}
	}
	byHost, byPort := false, false
	for _, r := range p.Allow {
		if r.matches(name, a, port) {
			if r.hasHost() {
				byHost = true
			} else {
				byPort = true
			}
		}
	}
	if w := Special(a); w != "" && !byHost {
		return fmt.Errorf("%s is in a %s network, which the gateway does not reach unless a rule naming it allows it", where, w)
	}
	if len(p.Allow) > 0 && !byHost && !byPort {
		return fmt.Errorf("%s is not among the destinations allowed", where)
	}
	return nil
}

// refusal is the gateway's refusal of a destination, as access reports
// a local policy's (exit 4, HTTP 403).
func refusal(addr, why string) error {
	return &access.PolicyError{Rule: "gateway destination policy", Reason: why + " (" + addr + ")"}
}

// A Resolver looks names up (net.DefaultResolver; tests give their own).
type Resolver = dest.Resolver

// A connectFunc opens a connection to an address already checked
// (network "tcp" or "udp", as access dialled).
type connectFunc func(ctx context.Context, network, addr string) (net.Conn, error)

// dialer returns an access.DialFunc that resolves the host once, checks
// each address against p, and dials the first allowed address that
// answers: the address checked is the address connected to. It honours
// the network asked for (Prospero's ARDP runs over UDP) and applies the
// same policy to every network.
//
// The host is read as dest.Host says (escapes decoded, an
// internationalised name mapped to its A-labels) before it is resolved
// or checked, so that "%6c%6fcalhost" and "ⓛocalhost" are localhost;
// each connection is counted against dest.Addr, the address and port
// dialled.
//
// open, when not nil, holds the connections the same request has open.
// While an ftp URL is followed, the address its control connection
// reached may be connected to again on any port unless a Deny rule
// matches: the data connection (RFC 959 §3.2), whose port the server
// names in its PASV or EPSV reply and the FTP client connects to on the
// control connection's address only (access.Request.DialSame). A rule
// naming the server ("ftp.example.org", "ftp.example.org:21",
// "127.0.0.1:2121") thus admits its data connections, which no rule
// could name in advance. The server reaches no other host this way, and
// nothing once its control connection is closed or a redirection is
// followed (an HTTP server's redirection to another port of its own
// address is checked as any other destination).
func (p *Policy) dialer(res Resolver, connect connectFunc, open *openConns) access.DialFunc {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		raw, ps, err := net.SplitHostPort(addr)
		if err != nil {
			return nil, refusal(addr, err.Error())
		}
		port, err := strconv.Atoi(ps)
		if err != nil || port < 1 || port > 65535 {
			return nil, refusal(addr, "the port is not a number from 1 to 65535")
		}
		host, addrs, err := dest.Addrs(ctx, res, raw)
		if err != nil {
			if he := (*dest.HostError)(nil); errors.As(err, &he) {
				return nil, refusal(addr, he.Reason)
			}
			return nil, err
		}
		var first error
		for _, a := range addrs {
			if err := p.Check(host, a, port); err != nil {
				if open == nil || !open.reached(a) || p.denied(host, a, port) != nil {
					if first == nil {
						first = refusal(addr, err.Error())
					}
					continue
				}
			}
			c, err := connect(ctx, network, dest.Addr(a, ps))
			if err == nil {
				if open != nil {
					c = open.add(c, a)
				}
				return c, nil
			}
			if first == nil || errors.As(first, new(*access.PolicyError)) {
				first = err
			}
		}
		return nil, first
	}
}

// denied returns the refusal of the first Deny rule that matches.
func (p *Policy) denied(name string, a netip.Addr, port int) error {
	for _, r := range p.Deny {
		if r.matches(name, a, port) {
			return fmt.Errorf("%s is denied by the rule %q", net.JoinHostPort(a.String(), strconv.Itoa(port)), r.text)
		}
	}
	return nil
}

// openConns are the connections one request has open, with the
// address each reached and the hop of the request (the URL given, then
// each redirection) that opened it.
type openConns struct {
	mu sync.Mutex
	m  map[*openConn]openedAt
	// hop counts the redirections followed; second is set while the
	// URL being followed is one whose client makes a second connection
	// to the server of its first (ftp: RFC 959 §3.2's data connection).
	hop    int
	second bool
}

type openedAt struct {
	a   netip.Addr
	hop int
}

func newOpenConns(scheme string) *openConns {
	return &openConns{m: map[*openConn]openedAt{}, second: secondConnection(scheme)}
}

// secondConnection says whether a scheme's client opens a second
// connection to the server of its first, on a port the server names:
// FTP's data connection in passive mode (RFC 959 §3.2, RFC 2428 §3).
func secondConnection(scheme string) bool { return strings.EqualFold(scheme, "ftp") }

// redirected notes that the request follows a redirection to a URL of
// scheme: connections opened before it admit no second connection.
func (o *openConns) redirected(scheme string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.hop++
	o.second = secondConnection(scheme)
}

// reached says whether a may be connected to as a second connection: a
// connection open now reached it, opened while following the same URL,
// whose scheme makes second connections.
func (o *openConns) reached(a netip.Addr) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	if !o.second {
		return false
	}
	for _, x := range o.m {
		if x.a == a && x.hop == o.hop {
			return true
		}
	}
	return false
}

func (o *openConns) add(c net.Conn, a netip.Addr) net.Conn {
	oc := &openConn{Conn: c, o: o}
	o.mu.Lock()
	o.m[oc] = openedAt{a, o.hop}
	o.mu.Unlock()
	return oc
}

// closeAll closes what is still open (the request has ended): nothing
// a request opened outlives it, and every slot it held is given back.
func (o *openConns) closeAll() {
	o.mu.Lock()
	var cs []*openConn
	for c := range o.m {
		cs = append(cs, c)
	}
	o.mu.Unlock()
	for _, c := range cs {
		c.Close()
	}
}

type openConn struct {
	net.Conn
	o    *openConns
	once sync.Once
}

func (c *openConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() {
		c.o.mu.Lock()
		delete(c.o.m, c)
		c.o.mu.Unlock()
	})
	return err
}
