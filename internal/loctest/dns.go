package loctest

import (
	"context"
	"net"
	"net/netip"
	"strings"
	"sync"
)

// A FakeDNS is a test's resolver (access.Client.Resolver): it answers
// each name with an address of its own in 192.0.2.0/24 (TEST-NET-1,
// RFC 5737: no host has one), so that a test whose dialer never
// connects can name hosts that do not exist and still see which host
// and port a client dialled (Name). The zero value is ready.
type FakeDNS struct {
	mu    sync.Mutex
	names []string // names[i] has 192.0.2.(i+1)
}

// LookupNetIP answers host with its address.
func (d *FakeDNS) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	host = strings.TrimSuffix(host, ".")
	for i, n := range d.names {
		if n == host {
			return []netip.Addr{netip.AddrFrom4([4]byte{192, 0, 2, byte(i + 1)})}, nil
		}
	}
	if len(d.names) == 254 {
		return nil, &net.DNSError{Err: "FakeDNS is full", Name: host}
	}
	d.names = append(d.names, host)
	return []netip.Addr{netip.AddrFrom4([4]byte{192, 0, 2, byte(len(d.names))})}, nil
}

// Name returns addr ("192.0.2.3:119", as a dialer is given it) with the
// name its address answered ("news.example.com:119"); any other address
// as it is.
func (d *FakeDNS) Name(addr string) string {
	h, p, err := net.SplitHostPort(addr)
	if err != nil {
		return addr
	}
	a, err := netip.ParseAddr(h)
	if err != nil || !a.Is4() || a.As4()[0] != 192 || a.As4()[1] != 0 || a.As4()[2] != 2 {
		return addr
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if i := int(a.As4()[3]) - 1; i >= 0 && i < len(d.names) {
		return net.JoinHostPort(d.names[i], p)
	}
	return addr
}
