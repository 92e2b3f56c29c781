package access

import (
	"errors"
	"fmt"
	"net/netip"
	"strconv"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/internal/dest"
)

// Policy is local policy on what may be followed, applied by a Client before
// any connection. The zero value applies RFC 1738 §6's cautions with the
// defaults below.
type Policy struct {
	// AllowPorts lists ports that may be used although they belong to
	// another service (see BadPort).
	AllowPorts []int
	// Allow, when it holds a rule, lists the only destinations that may
	// be connected to; Deny lists destinations that may not (Rule: names,
	// domains, addresses, networks, ports). Both are matched against
	// every connection on the address it is made to, after the name is
	// looked up once (the address checked is the address dialled), and
	// against a URL's host before any connection. An Allow rule naming
	// hosts also admits an address of a special network (Special).
	Allow, Deny []Rule
	// Special says when an address of a special network may be reached
	// otherwise (SpecialGiven, SpecialNamed, SpecialNever).
	Special SpecialRule
	// Named are the addresses the person named, for SpecialNamed.
	Named []netip.Addr
}

// badPort reports whether port is one of the ports of other well-known
// services. RFC 1738 §6: "a URL
// with a port number other than the default for the scheme ... may cause
// a client to send data to a service that is not expecting it (for
// example, sending a mail command ... to an SMTP server)"; browsers keep
// this list (the "bad ports" of the WHATWG Fetch standard) for that
// reason. A URL whose port is in the list and is not its scheme's
// default is refused unless Policy.AllowPorts names it.
func badPort(port int) bool {
	for _, b := range badPorts {
		if b == port {
			return true
		}
	}
	return false
}

var badPorts = [...]int{
	1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69,
	77, 79, 87, 95, 101, 102, 103, 104, 109, 110, 111, 113, 115, 117, 119,
	123, 135, 137, 139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515,
	526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636, 989, 990,
	993, 995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061, 6000,
	6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
}

// check applies p and the checks every scheme shares to u: a port of
// another service, a denied host, and a decoded CR, LF or NUL in the
// user or password (they reach a login command in every protocol that
// has one).
func (p *Policy) check(u *locator.URL, info Info) error {
	masked := Masked(u)
	if u.HasPort() && u.Port() != "" {
		port := u.EffectivePort()
		if port != info.DefaultPort && badPort(port) && !p.allowsPort(port) {
			return &PolicyError{URL: masked, Offset: u.Offset(locator.PortComponent), Rule: "RFC 1738 §6",
				Reason: "port " + strconv.Itoa(port) + " belongs to another service and is not " + u.Scheme() + "'s default (" + strconv.Itoa(info.DefaultPort) + "); allow it explicitly to connect"}
		}
	}
	if u.Host() != "" {
		if err := p.checkHost(u.Host(), u.EffectivePort()); err != nil {
			return &PolicyError{URL: masked, Offset: u.Offset(locator.HostComponent), Rule: "host", Reason: err.Error()}
		}
	}
	for _, c := range []struct {
		comp locator.Component
		s    string
	}{{locator.UserComponent, u.User()}, {locator.PasswordComponent, u.Password()}, {locator.HostComponent, u.Host()}} {
		if i := DelimiterAt(c.s); i >= 0 {
			return &PolicyError{URL: masked, Offset: u.Offset(c.comp) + i, Rule: "RFC 1738 §6",
				Reason: "a decoded CR, LF or NUL here would become a protocol delimiter"}
		}
	}
	return nil
}

func (p *Policy) allowsPort(port int) bool {
	for _, a := range p.AllowPorts {
		if a == port {
			return true
		}
	}
	return false
}

// checkHost is the check of a host before any connection: an address
// written in the URL is checked as it will be dialled (Check); a name
// as allowsHost says.
func (p *Policy) checkHost(h string, port int) error {
	if a, err := netip.ParseAddr(dest.Name(h)); err == nil && a.Zone() == "" {
		// Special is the dialler's alone (an archive's replay connects
		// to nothing); Allow and Deny name what may be followed at all.
		err := p.denied("", a, port)
		if err == nil && len(p.Allow) > 0 {
			err = p.Check("", a, port)
		}
		if err != nil {
			return fmt.Errorf("host %s is not allowed by local policy: %v", strconv.Quote(h), err)
		}
		return nil
	}
	if !p.allowsHost(h, port) {
		return errors.New("host " + strconv.Quote(h) + " is not allowed by local policy")
	}
	return nil
}

// allowsHost is the check of a host before any connection, on what
// can be known without looking its name up: a Deny rule that matches
// the name or the address written, an address no Allow rule matches,
// or a name no Allow rule could match (they all name other hosts by
// name). The address a name leads to is checked when it is dialled.
func (p *Policy) allowsHost(h string, port int) bool {
	name := dest.Name(h)
	a, err := netip.ParseAddr(name)
	if err != nil {
		a = netip.Addr{}
	}
	if p.denied(name, a, port) != nil {
		return false
	}
	if len(p.Allow) == 0 {
		return true
	}
	for _, r := range p.Allow {
		if r.matches(name, a, port) || !a.IsValid() && r.prefix.IsValid() {
			return true
		}
	}
	return false
}

// DelimiterAt returns the offset in the encoded s of the first CR, LF or
// NUL, written or encoded (%0D, %0A, %00), or -1. Such an octet, once
// decoded, would end a protocol's command line early and begin another
// (RFC 1738 §6); clients call it on every part that reaches a command.
func DelimiterAt(s string) int {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\r', '\n', 0:
			return i
		case '%':
			if i+2 < len(s) && s[i+1] == '0' {
				switch s[i+2] {
				case '0', 'a', 'A', 'd', 'D':
					return i
				}
			}
		}
	}
	return -1
}

// Masked returns u as text with its password, if any, replaced by "****",
// for messages and logs: passwords never appear in output.
func Masked(u *locator.URL) string {
	if u == nil {
		return ""
	}
	if !u.HasPassword() {
		return u.String()
	}
	p := u.Parts()
	p.Password = "****"
	return p.String()
}

// allowsHostByRule says whether an Allow rule naming hosts matches h,
// as written (before any lookup).
func (p *Policy) allowsHostByRule(h string) bool {
	name := dest.Name(h)
	a, err := netip.ParseAddr(name)
	if err != nil {
		a = netip.Addr{}
	}
	for _, r := range p.Allow {
		if r.hasHost() && r.matches(name, a, 0) {
			return true
		}
	}
	return false
}
