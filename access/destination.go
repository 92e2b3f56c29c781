package access

// Destinations: the rules that name them, the special networks, and the
// check every connection passes on the address it is made to.

import (
	"fmt"
	"net"
	"net/netip"
	"strconv"
	"strings"

	"github.com/rfc1738/locator/internal/dest"
)

// A Rule names destinations: a host name ("gopher.example.org"; an
// internationalised name is matched by its A-labels, as the dialer
// sees a URL's host), every name under a domain (".example.org"), an
// address ("127.0.0.1", "::1") or a network ("10.0.0.0/8", "fc00::/7"),
// each optionally followed by a port or a port range (":70",
// ":7000-7099"); or a port alone (":70"), which matches every host. An
// IPv6 address with a port is written in brackets ("[::1]:70"). A rule
// naming an address or a network matches every address a connection is
// made to, whatever name led there (localhost, "[::ffff:127.0.0.1]").
type Rule struct {
	text   string
	name   string       // a host name or ".domain", lower case, no final dot
	prefix netip.Prefix // a network (an address is a /32 or /128)
	lo, hi int          // the ports; 0, 0: every port
}

func (r Rule) String() string { return r.text }

// ParseRule reads a rule (see Rule). A rule that could never match a
// destination (an IPv4 address in a form other than dotted decimal,
// which no dialled address is written in; an address with a zone; a
// port out of range) is an error.
func ParseRule(s string) (Rule, error) {
	r := Rule{text: s}
	bad := func(why string) (Rule, error) {
		return Rule{}, fmt.Errorf("rule %q: %s", s, why)
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
	if ports != "" || strings.HasSuffix(s, ":") {
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
		if p.Addr().Is4In6() {
			// Dialled addresses are unmapped: ::ffff:10.0.0.0/104 is
			// 10.0.0.0/8.
			if p.Bits() < 96 {
				return bad("a network of IPv4-mapped addresses needs at least 96 bits")
			}
			p = netip.PrefixFrom(p.Addr().Unmap(), p.Bits()-96)
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
		if r.name == "" || r.name == "." {
			return bad("empty")
		}
	}
	return r, nil
}

// ParseRules reads each of ss as a rule (ParseRule).
func ParseRules(ss []string) ([]Rule, error) {
	var rs []Rule
	for _, s := range ss {
		r, err := ParseRule(s)
		if err != nil {
			return nil, err
		}
		rs = append(rs, r)
	}
	return rs, nil
}

// hasHost says whether the rule names hosts (it is not a port alone).
func (r Rule) hasHost() bool { return r.name != "" || r.prefix.IsValid() }

// matches says whether the rule matches a connection to a, reached by
// name, on port (0: any port, before the port is known).
func (r Rule) matches(name string, a netip.Addr, port int) bool {
	if r.lo != 0 && port != 0 && (port < r.lo || port > r.hi) {
		return false
	}
	switch {
	case r.prefix.IsValid():
		return a.IsValid() && r.prefix.Contains(a.Unmap())
	case r.name != "":
		n := strings.TrimSuffix(strings.ToLower(name), ".")
		if strings.HasPrefix(r.name, ".") {
			return n == r.name[1:] || strings.HasSuffix(n, r.name)
		}
		return n == r.name
	}
	return true
}

// A SpecialRule says when an address of a special network (Special:
// loopback, private, link-local, ...) may be connected to, beyond what
// an Allow rule naming it admits.
type SpecialRule int

const (
	// SpecialGiven, the zero value: a URL the person gave may reach
	// one; a URL a server sent from an ordinary address (a redirection,
	// and, through Options.From, a link, a base or a menu item) may
	// not. A page on the open Internet cannot lead the client onto this
	// machine's loopback or its private network.
	SpecialGiven SpecialRule = iota
	// SpecialNamed: only the addresses of Policy.Named (those the person
	// named: a crawl's seeds and proxies) and those an Allow rule naming
	// hosts matches.
	SpecialNamed
	// SpecialNever: only those an Allow rule naming hosts matches (a
	// gateway, which serves other people).
	SpecialNever
)

// special networks: none is a destination to reach on behalf of a
// server's words unless the person said so.
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
	case nat64.Contains(a), compat.Contains(a) && !a.IsUnspecified() && !a.IsLoopback():
		copy(v4[:], b[12:])
	case sixToFour.Contains(a):
		copy(v4[:], b[2:6])
	default:
		return netip.Addr{}, false
	}
	return netip.AddrFrom4(v4), true
}

var (
	nat64     = netip.MustParsePrefix("64:ff9b::/96")
	compat    = netip.MustParsePrefix("::/96")
	sixToFour = netip.MustParsePrefix("2002::/16")
)

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

// denied returns the refusal of the first Deny rule that matches.
func (p *Policy) denied(name string, a netip.Addr, port int) error {
	for _, r := range p.Deny {
		if r.matches(name, a, port) {
			return fmt.Errorf("%s is denied by the rule %q", where(name, a, port), r.text)
		}
	}
	return nil
}

func where(name string, a netip.Addr, port int) string {
	w := a.Unmap().String()
	if port != 0 {
		w = net.JoinHostPort(w, strconv.Itoa(port))
	}
	if name != "" && name != a.Unmap().String() {
		w = name + " (" + w + ")"
	}
	return w
}

// checkAddr says whether a connection to a, reached by name, on port,
// may be made; fromServer is true when the URL followed was sent by a
// server at an ordinary address (SpecialGiven). The error says why not.
func (p *Policy) checkAddr(name string, a netip.Addr, port int, fromServer bool) error {
	a = a.Unmap()
	if err := p.denied(name, a, port); err != nil {
		return err
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
		switch {
		case p.Special == SpecialNever:
			return fmt.Errorf("%s is in a %s network, which is reached only when an allow rule naming it allows it", where(name, a, port), w)
		case p.Special == SpecialNamed && !p.named(a):
			return fmt.Errorf("%s is in a %s network, which is reached only when a URL given names it or an allow rule allows it", where(name, a, port), w)
		case fromServer:
			return fmt.Errorf("%s is in a %s network, and a server on the open Internet named it: only a URL given, or an allow rule, may lead there", where(name, a, port), w)
		}
	}
	if len(p.Allow) > 0 && !byHost && !byPort {
		return fmt.Errorf("%s is not among the destinations allowed", where(name, a, port))
	}
	return nil
}

func (p *Policy) named(a netip.Addr) bool {
	for _, n := range p.Named {
		if n.Unmap() == a {
			return true
		}
	}
	return false
}

// Check says whether a connection to a, reached by name (as the URL
// wrote it, "" for none), on port, may be made to follow a URL the
// person gave; the error says why not. Every connection a Client makes
// passes this check on the address it dials.
func (p *Policy) Check(name string, a netip.Addr, port int) error {
	return p.checkAddr(name, a, port, false)
}
