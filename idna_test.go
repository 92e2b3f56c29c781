package locator

import (
	"errors"
	"testing"
)

// TestASCIIHost: IDNA2008 / UTS #46 ToASCII with the Lookup profile
// (RFC 5891 §4.4, UTS #46 §4); IP literals unchanged but for case.
func TestASCIIHost(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"BÜCHER.example", "xn--bcher-kva.example"},
		{"bücher.example", "xn--bcher-kva.example"},
		{"xn--bcher-kva.example", "xn--bcher-kva.example"},
		{"XN--BCHER-KVA.Example", "xn--bcher-kva.example"},
		{"WWW.Example.COM", "www.example.com"},
		{"例え.テスト", "xn--r8jz45g.xn--zckzah"},
		{"ＥＸＡＭＰＬＥ.com", "example.com"}, // UTS #46 maps full-width forms
		{"faß.de", "xn--fa-hia.de"},    // nontransitional: ß kept
		{"host.example.", "host.example."},
		{"A..b", "a..b"}, // empty labels are the DNS length check's, not Lookup's
		{"10.0.0.1", "10.0.0.1"},
		{"999.1.2.3", "999.1.2.3"}, // a host number, judged elsewhere
		{"FE80::1", "fe80::1"},
		{"fe80::A%25Eth0", "fe80::a%25Eth0"}, // RFC 6874 zone keeps its case
		{"", ""},
	} {
		got, err := ASCIIHost(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("ASCIIHost(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
	for _, in := range []string{"a_b.example", "-a.example", "a-.example", "xn--zz.example", "a b"} {
		got, err := ASCIIHost(in)
		var he *HostError
		if err == nil || !errors.As(err, &he) || he.Host != in || got != "" {
			t.Errorf("ASCIIHost(%q) = %q, %v; want a *HostError", in, got, err)
		}
	}
}
