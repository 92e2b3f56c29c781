package locator

import (
	"errors"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
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
	long := strings.Repeat("ü", maxHost/2-4) + ".example" // maxHost octets
	if got, err := ASCIIHost(long); err != nil || !strings.HasPrefix(got, "xn--") {
		t.Errorf("ASCIIHost of %d octets = %q, %v; want its A-label", len(long), got, err)
	}
	for _, in := range []string{"a_b.example", "-a.example", "a-.example", "xn--zz.example", "a b", "x" + long, strings.Repeat("a.", maxHost)} {
		got, err := ASCIIHost(in)
		var he *HostError
		if err == nil || !errors.As(err, &he) || he.Host != in || got != "" {
			t.Errorf("ASCIIHost(%q) = %q, %v; want a *HostError", in, got, err)
		}
	}
}

// TestASCIIHostNotUTF8: a host that is not UTF-8 is refused, with the
// offset of its first bad octet, rather than read as U+FFFD.
func TestASCIIHostNotUTF8(t *testing.T) {
	for _, tc := range []struct {
		in  string
		off int
	}{
		{"\xff.example", 0},
		{"a.\xffexample", 2},
		{"bücher.\xc3", 8},              // a sequence cut short at the end
		{"b\xc3(cher.example", 1},       // a lead octet without its continuation
		{"\xed\xa0\x80.example", 0},     // a surrogate, U+D800
		{"\xc0\xaf.example", 0},         // an overlong "/"
		{"x\x80", 1},                    // a continuation octet alone
		{"fe80::\xff", 6},               // an IP literal too
		{"fe80::1%25\xfe", 10},          // and its zone
		{"\xf4\x90\x80\x80.example", 0}, // past U+10FFFF
	} {
		got, err := ASCIIHost(tc.in)
		var he *HostError
		var ue *InvalidUTF8Error
		if got != "" || !errors.As(err, &he) || he.Host != tc.in || !errors.As(err, &ue) ||
			ue.Offset != tc.off || ue.Octet != tc.in[tc.off] {
			t.Errorf("ASCIIHost(%q) = %q, %v; want a *HostError with an *InvalidUTF8Error at offset %d", tc.in, got, err, tc.off)
			continue
		}
		if msg := err.Error(); !strings.Contains(msg, "offset "+strconv.Itoa(tc.off)) || !strings.Contains(msg, "RFC 3629") {
			t.Errorf("ASCIIHost(%q): message %q names no offset or rule", tc.in, msg)
		}
	}
	// U+FFFD written as UTF-8 is UTF-8; IDNA refuses it on its own.
	if _, err := ASCIIHost("\uFFFD.example"); err == nil || errors.As(err, new(*InvalidUTF8Error)) {
		t.Errorf("ASCIIHost(U+FFFD) = %v; want IDNA's refusal", err)
	}
}

// FuzzASCIIHost: ASCIIHost never panics; it refuses exactly the hosts
// that are not UTF-8 with an *InvalidUTF8Error at the first bad octet,
// and what it returns is ASCII and returns itself.
func FuzzASCIIHost(f *testing.F) {
	for _, s := range []string{"BÜCHER.example", "\xff.example", "fe80::A%25Eth0", "10.0.0.1", "xn--zz.example", "a\xc3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := ASCIIHost(s)
		var ue *InvalidUTF8Error
		if errors.As(err, &ue) {
			if ue.Offset < 0 || ue.Offset >= len(s) || !utf8.ValidString(s[:ue.Offset]) || ue.Octet != s[ue.Offset] {
				t.Fatalf("ASCIIHost(%q): %v", s, err)
			}
			if r, n := utf8.DecodeRuneInString(s[ue.Offset:]); r != utf8.RuneError || n != 1 {
				t.Fatalf("ASCIIHost(%q): %v", s, err)
			}
			return
		}
		if !utf8.ValidString(s) {
			t.Fatalf("ASCIIHost(%q) = %q, %v; want an *InvalidUTF8Error", s, got, err)
		}
		if err != nil {
			var he *HostError
			if !errors.As(err, &he) || got != "" {
				t.Fatalf("ASCIIHost(%q) = %q, %v", s, got, err)
			}
			return
		}
		if len(s) > maxHost && strings.IndexByte(s, ':') < 0 && !allDigitsOrDots(s) {
			t.Fatalf("ASCIIHost of %d octets = %q; want it refused", len(s), got)
		}
		// UTS #46 may map a character to many (U+FDFA to 18), so a
		// result may be past maxHost; and x/net/idna refuses to decode
		// an A-label of some thousand octets that it wrote, far past
		// DNS's 63 (RFC 1035 §2.3.4), so those are not read back.
		if strings.IndexByte(s, ':') < 0 && len(got) <= maxHost && longestLabel(got) <= 63 {
			for i := 0; i < len(got); i++ {
				if got[i] >= utf8.RuneSelf {
					t.Fatalf("ASCIIHost(%q) = %q, not ASCII", s, got)
				}
			}
			if again, err := ASCIIHost(got); err != nil || again != got {
				t.Fatalf("ASCIIHost(%q) = %q, which gives %q, %v", s, got, again, err)
			}
		}
	})
}

// longestLabel returns the length of the longest label of the name s.
func longestLabel(s string) int {
	n := 0
	for l := range strings.SplitSeq(s, ".") {
		n = max(n, len(l))
	}
	return n
}
