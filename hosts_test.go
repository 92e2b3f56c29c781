package locator

import (
	"strconv"
	"strings"
	"testing"
)

// TestHostLengths: RFC 1034 §3.1, a label of at most 63 octets and a
// name of at most 255 on the wire (253 written, 254 with a final ".").
func TestHostLengths(t *testing.T) {
	l63, l64 := strings.Repeat("a", 63), strings.Repeat("b", 64)
	name := func(n int) string { // n octets: labels of 49 and dots, a toplabel of letters
		var b strings.Builder
		for b.Len() < n {
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			k := min(49, n-b.Len())
			b.WriteString(strings.Repeat("c", k))
		}
		return b.String()
	}
	for _, tc := range []struct {
		host string
		want string // "rule@offset" of the problems, in order; "" for none
	}{
		{l63 + ".example", ""},
		{l64 + ".example", "domainlabel@7"},
		{"x." + l64, "domainlabel@9"},
		{"x." + l64 + "." + l64, "domainlabel@9 domainlabel@74"},
		{name(253), ""},
		{name(253) + ".", "hostname@260"}, // the final "." is reported, not the length
		{name(254), "hostname@7"},
		{name(254) + ".", "hostname@7 hostname@261"},
		{"a_" + l64 + ".x", "domainlabel@7 hostname@8"},
	} {
		u, err := Parse("http://" + tc.host + "/")
		if err != nil {
			t.Fatalf("%q: %v", tc.host, err)
		}
		var got []string
		for _, p := range u.Problems() {
			got = append(got, p.Rule+"@"+strconv.Itoa(p.Offset))
		}
		if g := strings.Join(got, " "); g != tc.want {
			t.Errorf("host of %d octets %.20q...: problems %q, want %q", len(tc.host), tc.host, g, tc.want)
		}
	}
}

// TestIPv6Zone: RFC 6874 zone identifiers ("%25" and the zone) parse,
// with a violation of RFC 1738 that names RFC 6874.
func TestIPv6Zone(t *testing.T) {
	u, err := Parse("http://[fe80::1%25eth0]:8080/x")
	if err != nil {
		t.Fatal(err)
	}
	if u.Host() != "fe80::1%25eth0" || u.Port() != "8080" || u.Path() != "x" || u.String() != "http://[fe80::1%25eth0]:8080/x" {
		t.Fatalf("got %+v", u)
	}
	found := false
	for _, p := range u.Problems() {
		if p.Offset == 15 && p.Rule == "host" && p.Severity == Violation && strings.Contains(p.Message, "RFC 6874") {
			found = true
		}
	}
	if !found || u.Conforms() {
		t.Fatalf("no RFC 6874 violation at 15: %v", u.Problems())
	}
	if n := Normalize(u).String(); n != "http://[fe80::1%25eth0]:8080/x" {
		t.Errorf("Normalize = %q", n)
	}
	if _, err := Parse("http://[FE80::A%25En%41]/"); err != nil {
		t.Errorf("an escaped zone: %v", err)
	}
	for _, bad := range []string{"http://[fe80::1%25]/", "http://[fe80::1%eth0]/", "http://[fe80::1%25e/0]/", "http://[fe80::1%25e%zz]/", "http://[zz%25eth0]/"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q) succeeds", bad)
		}
	}
}

// TestPrefixedURLScheme: the "URL:" prefix is removed once; a scheme
// "url" is refused, so that String always reads back (a fuzz finding,
// "URL:URL:").
func TestPrefixedURLScheme(t *testing.T) {
	for _, s := range []string{"URL:URL:", "URL:url:x", "<URL:URL:http://h/>", "URL: URL:a"} {
		_, err := Parse(s)
		pe, ok := err.(*ParseError)
		if !ok || pe.Problem.Rule != "prefixedurl" {
			t.Errorf("Parse(%q): %v, want a prefixedurl error", s, err)
		}
	}
	for _, s := range []string{"URL:http://h/", "url:x:y", "urn:x"} {
		u, err := Parse(s)
		if err != nil {
			t.Fatalf("Parse(%q): %v", s, err)
		}
		if v, err := Parse(u.String()); err != nil || !v.SameComponents(u) {
			t.Errorf("Parse(%q).String() = %q does not read back: %v", s, u.String(), err)
		}
	}
}
