package access

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"strconv"
	"strings"
	"testing"
)

func TestParseRule(t *testing.T) {
	tests := []struct {
		in   string
		want Rule // text is filled in
		err  string
	}{
		{"gopher.example.org", Rule{name: "gopher.example.org"}, ""},
		{"Gopher.Example.ORG.", Rule{name: "gopher.example.org"}, ""},
		{".example.org:70", Rule{name: ".example.org", lo: 70, hi: 70}, ""},
		{"127.0.0.1", Rule{prefix: netip.MustParsePrefix("127.0.0.1/32")}, ""},
		{"127.0.0.1:7000-7099", Rule{prefix: netip.MustParsePrefix("127.0.0.1/32"), lo: 7000, hi: 7099}, ""},
		{"10.1.2.3/8", Rule{prefix: netip.MustParsePrefix("10.0.0.0/8")}, ""},
		{"::1", Rule{prefix: netip.MustParsePrefix("::1/128")}, ""},
		{"[::1]:70", Rule{prefix: netip.MustParsePrefix("::1/128"), lo: 70, hi: 70}, ""},
		{"fc00::/7", Rule{prefix: netip.MustParsePrefix("fc00::/7")}, ""},
		{":21", Rule{lo: 21, hi: 21}, ""},
		{"", Rule{}, "empty"},
		{"h:0", Rule{}, "port"},
		{"h:70000", Rule{}, "port"},
		{"h:80-70", Rule{}, "port"},
		{"2130706433", Rule{}, "dotted decimal"},
		{"0x7f.1", Rule{}, "dotted decimal"},
		{"[::1", Rule{}, "unclosed"},
		{"10.0.0.0/33", Rule{}, "out of range"},
	}
	for _, tt := range tests {
		r, err := ParseRule(tt.in)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("ParseRule(%q) = %v, %v; want an error about %s", tt.in, r, err, tt.err)
			}
			continue
		}
		tt.want.text = tt.in
		if err != nil || r != tt.want {
			t.Errorf("ParseRule(%q) = %+v, %v; want %+v", tt.in, r, err, tt.want)
		}
	}
}

func TestSpecial(t *testing.T) {
	tests := []struct {
		addr, want string
	}{
		{"127.0.0.1", "loopback"},
		{"127.255.0.9", "loopback"},
		{"10.9.8.7", "private (RFC 1918)"},
		{"172.31.0.1", "private (RFC 1918)"},
		{"172.32.0.1", ""},
		{"192.168.1.1", "private (RFC 1918)"},
		{"169.254.169.254", "link-local"},
		{"100.64.0.1", "shared address space (RFC 6598)"},
		{"0.0.0.0", "\"this network\" (RFC 1122)"},
		{"255.255.255.255", "reserved (and broadcast)"},
		{"224.0.0.1", "multicast"},
		{"::1", "loopback"},
		{"::", "unspecified"},
		{"fe80::1", "link-local"},
		{"fd00::1", "unique local (private)"},
		{"::ffff:127.0.0.1", "loopback, written inside an IPv6 address"},
		{"::ffff:10.0.0.1", "private (RFC 1918), written inside an IPv6 address"},
		{"64:ff9b::7f00:1", "loopback, written inside an IPv6 address"},
		{"2002:7f00:1::", "loopback, written inside an IPv6 address"},
		{"::127.0.0.1", "loopback, written inside an IPv6 address"},
		{"2001:0:4136:e378::1", "Teredo"},
		{"93.184.215.14", ""},
		{"2606:2800:21f:cb07:6820:80da:af6b:8b2c", ""},
		{"::ffff:93.184.215.14", ""},
	}
	for _, tt := range tests {
		if got := Special(netip.MustParseAddr(tt.addr)); got != tt.want {
			t.Errorf("Special(%s) = %q, want %q", tt.addr, got, tt.want)
		}
	}
}

func TestPolicyCheck(t *testing.T) {
	rs := func(ss ...string) []Rule {
		var out []Rule
		for _, s := range ss {
			r, err := ParseRule(s)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, r)
		}
		return out
	}
	tests := []struct {
		p    Policy
		name string
		addr string
		port int
		err  string // "" allowed
	}{
		{Policy{Special: SpecialNever}, "example.org", "93.184.215.14", 70, ""},
		{Policy{Special: SpecialNever}, "localhost", "127.0.0.1", 70, "loopback"},
		{Policy{Special: SpecialNever}, "", "::ffff:127.0.0.1", 70, "loopback"},
		{Policy{Special: SpecialNever}, "", "10.0.0.1", 70, "private"},
		{Policy{Special: SpecialNever, Allow: rs(":70")}, "", "127.0.0.1", 70, "loopback"},
		{Policy{Special: SpecialNever, Allow: rs(":70")}, "", "93.184.215.14", 70, ""},
		{Policy{Special: SpecialNever, Allow: rs(":70")}, "", "93.184.215.14", 71, "not among"},
		{Policy{Special: SpecialNever, Allow: rs("127.0.0.1:7070")}, "", "127.0.0.1", 7070, ""},
		{Policy{Special: SpecialNever, Allow: rs("127.0.0.1:7070")}, "", "127.0.0.1", 7071, "loopback"},
		{Policy{Special: SpecialNever, Allow: rs("127.0.0.1:7070")}, "", "93.184.215.14", 70, "not among"},
		{Policy{Special: SpecialNever, Allow: rs("localhost")}, "localhost", "127.0.0.1", 1, ""},
		{Policy{Special: SpecialNever, Allow: rs("localhost")}, "evil.test", "127.0.0.1", 1, "loopback"},
		{Policy{Special: SpecialNever, Allow: rs(".example.org")}, "gopher.example.org", "93.184.215.14", 70, ""},
		{Policy{Special: SpecialNever, Allow: rs(".example.org")}, "gopher.example.net", "93.184.215.14", 70, "not among"},
		{Policy{Special: SpecialNever, Allow: rs("10.0.0.0/8")}, "", "10.1.1.1", 70, ""},
		{Policy{Special: SpecialNever, Deny: rs(":25")}, "", "93.184.215.14", 25, "denied by the rule \":25\""},
		{Policy{Special: SpecialNever, Allow: rs("127.0.0.0/8"), Deny: rs("127.0.0.2")}, "", "127.0.0.2", 70, "denied"},
	}
	for _, tt := range tests {
		err := tt.p.checkAddr(tt.name, netip.MustParseAddr(tt.addr), tt.port, false)
		if tt.err == "" && err != nil || tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)) {
			t.Errorf("%+v.Check(%q, %s, %d) = %v, want %q", tt.p, tt.name, tt.addr, tt.port, err, tt.err)
		}
	}
}

// fakeResolver answers names from a map, and counts the lookups.
type fakeResolver struct {
	m map[string][]string
	n int
}

func (f *fakeResolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	f.n++
	var out []netip.Addr
	for _, s := range f.m[host] {
		out = append(out, netip.MustParseAddr(s))
	}
	if out == nil {
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	return out, nil
}

// TestDialerRebinding: a name is resolved once, each address checked,
// and the address checked is the address dialled; a name that resolves
// to loopback is refused; inet_aton forms never reach the resolver.
func TestDialerRebinding(t *testing.T) {
	res := &fakeResolver{m: map[string][]string{
		"rebind.test": {"127.0.0.1"},
		"mixed.test":  {"10.0.0.5", "93.184.215.14"},
		"public.test": {"93.184.215.14"},
	}}
	var dialled []string
	connect := func(_ context.Context, network, addr string) (net.Conn, error) {
		dialled = append(dialled, addr)
		return nil, errors.New("not dialled in this test")
	}
	req := &Request{Client: &Client{Resolver: res, Dial: connect, Policy: Policy{Special: SpecialNever}}, URL: mustParse(t, "tst://h/"), info: Info{DefaultPort: 70}}
	d := func(ctx context.Context, network, hp string) (net.Conn, error) {
		h, p, _ := net.SplitHostPort(hp)
		port, _ := strconv.Atoi(p)
		return req.Dial(ctx, h, port)
	}
	ctx := context.Background()
	var pe *PolicyError
	if _, err := d(ctx, "tcp", "rebind.test:70"); !errors.As(err, &pe) || !strings.Contains(err.Error(), "loopback") {
		t.Errorf("rebind.test: %v", err)
	}
	if _, err := d(ctx, "tcp", "mixed.test:70"); err == nil || errors.As(err, &pe) {
		t.Errorf("mixed.test: %v, want the public address dialled", err)
	}
	if _, err := d(ctx, "tcp", "2130706433:70"); !errors.As(err, &pe) || !strings.Contains(err.Error(), "dotted decimal") {
		t.Errorf("2130706433: %v", err)
	}
	if _, err := d(ctx, "tcp", "[fe80::1%25eth0]:70"); !errors.As(err, &pe) {
		t.Errorf("a zone: %v", err)
	}
	if _, err := d(ctx, "tcp", "[::ffff:7f00:1]:70"); !errors.As(err, &pe) {
		t.Errorf("mapped loopback: %v", err)
	}
	if want := []string{"93.184.215.14:70"}; strings.Join(dialled, " ") != strings.Join(want, " ") {
		t.Errorf("dialled %q, want %q", dialled, want)
	}
	if res.n != 2 {
		t.Errorf("%d lookups, want 2 (one per name; none for addresses)", res.n)
	}
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
		p := Policy{Allow: []Rule{r}, Special: SpecialNever}
		for _, a := range []string{"127.0.0.1", "10.1.2.3", "::1", "192.0.2.1", "::ffff:127.0.0.1"} {
			p.checkAddr("example.org", netip.MustParseAddr(a), 70, true)
		}
		if a, err := netip.ParseAddr(s); err == nil && a.Is4() {
			if err := p.checkAddr("", a, 70, true); err != nil {
				t.Fatalf("rule %q does not allow its own address: %v", s, err)
			}
		}
	})
}

// TestDialDecodesHost: an escaped or internationalised spelling of
// localhost is looked up as "localhost" and refused as loopback under
// SpecialNever; a rule written with an internationalised name allows
// that name however the URL spells it (RFC 1738 §2.2: any octet may be
// escaped; UTS #46 maps the name for lookup).
func TestDialDecodesHost(t *testing.T) {
	res := &fakeResolver{m: map[string][]string{"localhost": {"127.0.0.1"}, "xn--bcher-kva.example": {"93.184.215.14"}}}
	var dialled []string
	connect := func(_ context.Context, network, addr string) (net.Conn, error) {
		dialled = append(dialled, network+" "+addr)
		return nil, errors.New("not dialled in this test")
	}
	ctx := context.Background()
	var pe *PolicyError
	req := &Request{Client: &Client{Resolver: res, Dial: connect, Policy: Policy{Special: SpecialNever}}, URL: mustParse(t, "tst://h/"), info: Info{DefaultPort: 70}}
	for _, h := range []string{"%e2%93%9bocalhost", "ⓛocalhost", "LOCALHOST", "%31%32%37.0.0.1", "%32130706433"} {
		if _, err := req.Dial(ctx, h, 70); !errors.As(err, &pe) {
			t.Errorf("%s: %v, want a refusal", h, err)
		}
	}
	req.Client.Policy.Allow = mustRules(t, "BÜCHER.example:70")
	for _, h := range []string{"b%C3%BCcher.example", "xn--bcher-kva.example"} {
		if _, err := req.DialPacket(ctx, h, 70); err == nil || errors.As(err, &pe) {
			t.Errorf("%s: %v, want it dialled", h, err)
		}
	}
	if want := "udp 93.184.215.14:70,udp 93.184.215.14:70"; strings.Join(dialled, ",") != want {
		t.Errorf("dialled %q, want %q", dialled, want)
	}
}

// TestSecondConnection: while an ftp URL is followed, the address of
// its open control connection may be connected to on any port (the data
// connection, RFC 959 §3.2) under a rule that names the server with its
// port, through DialSame; not by Dial, not once the control connection
// is closed, not from another request (a redirection's), not when a
// Deny rule matches.
func TestSecondConnection(t *testing.T) {
	res := &fakeResolver{m: map[string][]string{"ftp.test": {"127.0.0.1"}}}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	// Every connection, whatever address the dialer was asked for, goes
	// to this listener, which holds it until the test ends.
	go func() {
		var held []net.Conn
		defer func() {
			for _, c := range held {
				c.Close()
			}
		}()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			held = append(held, c)
		}
	}()
	connect := func(ctx context.Context, network, addr string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, network, ln.Addr().String())
	}
	c := &Client{Resolver: res, Dial: connect, Policy: Policy{Special: SpecialNever, Allow: mustRules(t, "ftp.test:21"), Deny: mustRules(t, ":6379")}}
	info := Info{DefaultPort: 21}
	req := &Request{Client: c, URL: mustParse(t, "tst://ftp.test/"), info: info}
	ctx := context.Background()
	if _, err := req.Dial(ctx, "127.0.0.1", 40000); err == nil {
		t.Fatal("a data connection by Dial was admitted")
	}
	ctrl, err := req.Dial(ctx, "ftp.test", 21)
	if err != nil {
		t.Fatal(err)
	}
	data, err := req.DialSame(ctx, ctrl, 40000)
	if err != nil {
		t.Fatalf("the data connection to the control connection's server: %v", err)
	}
	data.Close()
	if _, err := req.DialSame(ctx, ctrl, 6379); err == nil {
		t.Error("a denied port was admitted as a data connection")
	}
	next := &Request{Client: c, URL: mustParse(t, "tst://ftp.test/"), info: info, hop: 1}
	if _, err := next.DialSame(ctx, ctrl, 40000); err == nil {
		t.Error("a connection of an earlier hop admitted a second connection")
	}
	ctrl.Close()
	if _, err := req.DialSame(ctx, ctrl, 40000); err == nil {
		t.Error("a closed control connection admitted a second connection")
	}
}
