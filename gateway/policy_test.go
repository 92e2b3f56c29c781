package gateway

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"strings"
	"testing"

	"github.com/rfc1738/locator/access"
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
		{Policy{}, "example.org", "93.184.215.14", 70, ""},
		{Policy{}, "localhost", "127.0.0.1", 70, "loopback"},
		{Policy{}, "", "::ffff:127.0.0.1", 70, "loopback"},
		{Policy{}, "", "10.0.0.1", 70, "private"},
		{Policy{Allow: rs(":70")}, "", "127.0.0.1", 70, "loopback"},
		{Policy{Allow: rs(":70")}, "", "93.184.215.14", 70, ""},
		{Policy{Allow: rs(":70")}, "", "93.184.215.14", 71, "not among"},
		{Policy{Allow: rs("127.0.0.1:7070")}, "", "127.0.0.1", 7070, ""},
		{Policy{Allow: rs("127.0.0.1:7070")}, "", "127.0.0.1", 7071, "loopback"},
		{Policy{Allow: rs("127.0.0.1:7070")}, "", "93.184.215.14", 70, "not among"},
		{Policy{Allow: rs("localhost")}, "localhost", "127.0.0.1", 1, ""},
		{Policy{Allow: rs("localhost")}, "evil.test", "127.0.0.1", 1, "loopback"},
		{Policy{Allow: rs(".example.org")}, "gopher.example.org", "93.184.215.14", 70, ""},
		{Policy{Allow: rs(".example.org")}, "gopher.example.net", "93.184.215.14", 70, "not among"},
		{Policy{Allow: rs("10.0.0.0/8")}, "", "10.1.1.1", 70, ""},
		{Policy{Deny: rs(":25")}, "", "93.184.215.14", 25, "denied by the rule \":25\""},
		{Policy{Allow: rs("127.0.0.0/8"), Deny: rs("127.0.0.2")}, "", "127.0.0.2", 70, "denied"},
	}
	for _, tt := range tests {
		err := tt.p.Check(tt.name, netip.MustParseAddr(tt.addr), tt.port)
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
	p := Policy{}
	d := p.dialer(res, connect, nil)
	ctx := context.Background()
	var pe *access.PolicyError
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

func TestLynxSearch(t *testing.T) {
	for in, want := range map[string]string{
		"gopher://h:70/7/find?foo%20bar":     "gopher://h:70/7/find%09foo%20bar",
		"GOPHER://h/7?x":                     "GOPHER://h/7%09x",
		"gopher://h/7/find%09a?b":            "gopher://h/7/find%09a?b",
		"gopher://h/0/what?":                 "gopher://h/0/what?",
		"gopher://h/1/dir?x":                 "gopher://h/1/dir?x",
		"ftp://h/7/x?y":                      "ftp://h/7/x?y",
		"gopher://h":                         "gopher://h",
		"gopher://user@h/7/find?words?again": "gopher://user@h/7/find%09words?again",
	} {
		if got := lynxSearch(in); got != want {
			t.Errorf("lynxSearch(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestPathSafe(t *testing.T) {
	for s, want := range map[string]bool{
		"gopher://h/1/":               true,
		"gopher://h/0/a%09b":          true,
		"ftp://h/a/../b":              false,
		"ftp://h/a/%2e%2E/b":          false,
		"ftp://h/a/.":                 false,
		"gopher://h/0/a\\b":           false,
		"gopher://h/0/a#b":            false,
		"gopher://h/0/%zz":            false,
		"gopher://h/0/a b":            false,
		"wais://h/db?x/../y":          true,
		"gopher://h/0/...":            true,
		"gopher://h/0/a%2Fb":          true,
		"gopher://h/0/caf\xc3\xa9":    false,
		"news:<a@b>":                  true,
		"gopher://h/0/x?/./y":         true,
		"gopher://h/0/x%2e/y":         true,
		"gopher://h/0/%2E%2E%2Fx":     true,
		"gopher://h/0/x/%2E%2E?query": false,
	} {
		if got := pathSafe(s); got != want {
			t.Errorf("pathSafe(%q) = %v, want %v", s, got, want)
		}
	}
}

// TestMaskURLs: the access log masks the password of every URL a line
// carries, whatever its form: a URL that does not parse, one inside
// another (a Gopher h item's URL: selector), one escaped in the start
// page's query, once or twice.
func TestMaskURLs(t *testing.T) {
	for in, want := range map[string]string{
		"ftp://u:secret@h/x":                             "ftp://u:****@h/x",
		"ftp://u@h/x":                                    "ftp://u@h/x",
		"ftp://h/x@y":                                    "ftp://h/x@y",
		"ftp://u:p:q@h/":                                 "ftp://u:****@h/",
		"/favicon.ico":                                   "/favicon.ico",
		"gopher://a:b@c?d@e/":                            "gopher://a:****@e/",
		"gopher://x/hURL:ftp://u:pw@h/":                  "gopher://x/hURL:ftp://u:****@h/",
		"gopher://x/hURL:ftp%3A%2F%2Fu%3Apw%40h%2F":      "gopher://x/hURL:ftp%3A%2F%2Fu%3A****%40h%2F",
		"/-/get?url=ftp%3A%2F%2Fu%3Asekrit%40h%2F%zz":    "/-/get?url=ftp%3A%2F%2Fu%3A****%40h%2F%zz",
		"/-/get?url=ftp%253A%252F%252Fu%253Apw%2540h":    "/-/get?url=ftp%253A%252F%252Fu%253A****%2540h",
		"/-/get?url=ftp://u:p%40w@h%20more":              "/-/get?url=ftp://u:****@h%20more",
		"redirect to ftp://a:1@b/ and telnet://c:2@d":    "redirect to ftp://a:****@b/ and telnet://c:****@d",
		"ftp://u:pw@h":                                   "ftp://u:****@h",
		"://:@":                                          "://:****@",
		"%":                                              "%",
		"gopher://h:70/1/":                               "gopher://h:70/1/",
		"gopher://x/hURL:telnet://user:hunter2@[::1]:23": "gopher://x/hURL:telnet://user:****@[::1]:23",
		"ftp://a%2Fb:pw@h/":                              "ftp://a%2Fb:****@h/",
		"url=ftp%3A%2F%2Fa%252Fb%3Apw%40h%2Fx":           "url=ftp%3A%2F%2Fa%252Fb%3A****%40h%2Fx",
		"parse \"ftp://a b:pw@h\": offset 7":             "parse \"ftp://a b:****@h\": offset 7",
		"gopher://x/hURL:ftp%3A//u:pw@h/":                "gopher://x/hURL:ftp%3A//u:****@h/",
	} {
		if got := maskURLs(in); got != want {
			t.Errorf("maskURLs(%q) = %q, want %q", in, got, want)
		}
	}
}
