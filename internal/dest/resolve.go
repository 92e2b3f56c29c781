package dest

import (
	"context"
	"net"
	"net/netip"
	"strconv"
	"strings"
)

// A Resolver looks names up; net.DefaultResolver is one, and a test may
// give its own.
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// A HostError is a host no resolver or dialer is asked for: Reason says
// why. A program's destination policy reports it as its own refusal.
type HostError struct {
	Host   string
	Reason string
}

func (e *HostError) Error() string { return e.Reason }

// Addrs returns the addresses a connection to host may be made to, and
// the host's name as a policy matches it (read by Host, without its
// final "."). An address is itself, an IPv6 address with a zone refused
// (it names an interface of this machine); a host in one of the numeric
// forms of Numeric is refused rather than guessed at; a name is looked
// up once, with res, and the addresses are returned unmapped, so that a
// dialler checks the address it then connects to and nothing else. A
// host refused is a *HostError; a failed lookup is the resolver's error.
// Brackets around an IPv6 address are removed first, so that a URL's
// host may be given as it is written.
func Addrs(ctx context.Context, res Resolver, host string) (string, []netip.Addr, error) {
	if strings.HasPrefix(host, "[") && strings.HasSuffix(host, "]") {
		host = host[1 : len(host)-1]
	}
	name, err := Host(host)
	if err != nil {
		return "", nil, &HostError{Host: host, Reason: err.Error()}
	}
	if a, err := netip.ParseAddr(name); err == nil {
		if a.Zone() != "" {
			return "", nil, &HostError{Host: host, Reason: "an IPv6 address with a zone names an interface of this machine"}
		}
		return name, []netip.Addr{a.Unmap()}, nil
	}
	if Numeric(name) {
		return "", nil, &HostError{Host: host, Reason: "the host " + strconv.Quote(name) + " is an IPv4 address in a form other than dotted decimal (RFC 1738 §3.1 hostnumber); resolvers read such forms differently"}
	}
	addrs, err := res.LookupNetIP(ctx, "ip", name)
	if err != nil {
		return "", nil, err
	}
	for i := range addrs {
		addrs[i] = addrs[i].Unmap()
	}
	if len(addrs) == 0 {
		return "", nil, &net.DNSError{Err: "no address", Name: name, IsNotFound: true}
	}
	return strings.TrimSuffix(name, "."), addrs, nil
}

// Numeric reports whether h is an IPv4 address in one of the forms
// inet_aton accepts beside dotted decimal — one to four parts, each
// decimal, octal (a leading 0) or hexadecimal (0x), like "2130706433",
// "0x7f.1" or "0177.0.0.1" — which resolvers and browsers read as an
// address although it is not one in RFC 1738 §3.1's grammar
// (hostnumber = digits "." digits "." digits "." digits). A policy
// refuses such a host instead of guessing which address it means.
func Numeric(h string) bool {
	h = strings.TrimSuffix(h, ".")
	if h == "" {
		return false
	}
	parts := strings.Split(h, ".")
	if len(parts) > 4 {
		return false
	}
	for _, p := range parts {
		q := strings.ToLower(p)
		if strings.HasPrefix(q, "0x") {
			q = q[2:]
			for i := 0; i < len(q); i++ {
				if !strings.ContainsRune("0123456789abcdef", rune(q[i])) {
					return false
				}
			}
			continue
		}
		if q == "" {
			return false
		}
		for i := 0; i < len(q); i++ {
			if q[i] < '0' || q[i] > '9' {
				return false
			}
		}
	}
	return true
}
