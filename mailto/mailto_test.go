package mailto

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/internal/loctest"
)

func TestCheck(t *testing.T) {
	tests := []struct {
		in   string
		want []string // "offset rule" of each violation
	}{
		{"mailto:gisle@aas.no", nil},
		{"mailto:libwww-perl@ics.uci.edu", nil},
		{"mailto:user+detail@example.com", nil},
		{"mailto:gorby%25kremvax@example.com", nil},
		{"mailto:%22a%20b%22@c", nil},
		{"mailto:a@%5B1.2.3.4%5D", nil},
		{"mailto:unlikely%3Faddress@example.com", nil},
		{"mailto:a..b@c", []string{"9 addr-spec"}},
		{"mailto:.a@c", []string{"7 addr-spec"}},
		{"mailto:a@b.", []string{"11 addr-spec"}},
		{"mailto:foo", []string{"10 addr-spec"}},
		{"mailto:a(b@c", []string{"8 addr-spec"}},
		{"mailto:%22ab@c", []string{"14 addr-spec"}},
		{"mailto:", []string{"7 encoded822addr"}},
		{"mailto://a@b", []string{"7 mailtourl"}},
		// RFC 2368's extensions, beyond RFC 1738.
		{"mailto:infobot@example.com?subject=current-issue", []string{"26 mailtourl"}},
		{"mailto:?to=joe@example.com&cc=bob@example.com&body=hello", []string{"7 encoded822addr", "7 mailtourl"}},
		{"mailto:joe@example.com?cc=bob@example.com?body=hello", []string{"22 mailtourl", "41 hvalue", "46 hvalue"}},
		{"mailto:a@b?subject", []string{"10 mailtourl", "11 header"}},
		{"mailto:a@b?=x", []string{"10 mailtourl", "11 hname"}},
		{"mailto:a@b,c@d", []string{"10 mailtourl"}},
		{"mailto:addr1%2C%20addr2", []string{"12 addr-spec", "12 mailtourl", "23 addr-spec"}},
	}
	for _, tt := range tests {
		u, err := locator.Parse(tt.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.in, err)
			continue
		}
		got := loctest.Where(u.Problems(), locator.Violation)
		if strings.Join(got, ",") != strings.Join(tt.want, ",") {
			t.Errorf("Parse(%q) violations = %q, want %q\n%v", tt.in, got, tt.want, u.Problems())
		}
	}
}

func TestFrom(t *testing.T) {
	tests := []struct {
		in   string
		want URL
	}{
		{"mailto:gisle@aas.no", URL{Address: "gisle@aas.no"}},
		{"mailto:gorby%25kremvax@example.com", URL{Address: "gorby%kremvax@example.com"}},
		{"mailto:infobot@example.com?body=send%20current-issue%0D%0Asend%20index",
			URL{Address: "infobot@example.com", Headers: []Header{{"body", "send current-issue\r\nsend index"}}}},
		{"mailto:foobar@example.com?In-Reply-To=%3c3469A91.D10AF4C@example.com",
			URL{Address: "foobar@example.com", Headers: []Header{{"In-Reply-To", "<3469A91.D10AF4C@example.com"}}}},
		{"mailto:?to=joe@example.com&cc=bob@example.com&body=hello",
			URL{Headers: []Header{{"to", "joe@example.com"}, {"cc", "bob@example.com"}, {"body", "hello"}}}},
		{"mailto:unlikely%3Faddress@example.com?blat=foop", URL{Address: "unlikely?address@example.com", Headers: []Header{{"blat", "foop"}}}},
	}
	for _, tt := range tests {
		m, err := Parse(tt.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.in, err)
			continue
		}
		if !reflect.DeepEqual(*m, tt.want) {
			t.Errorf("Parse(%q) = %+v, want %+v", tt.in, *m, tt.want)
		}
		b, _ := json.Marshal(locator.Lookup("mailto").Parts(loctest.MustParse(t, tt.in)))
		if want := `{"address":` + strconv.Quote(tt.want.Address) + `}`; string(b) != want {
			t.Errorf("Parts(%q) = %s, want %s", tt.in, b, want)
		}
	}
	_, err := Parse("news:a@b")
	if se, ok := err.(*locator.SchemeError); !ok || se.Scheme != "mailto" || se.Field != "url" || se.Rule != "mailtourl" {
		t.Errorf("Parse(news URL): %v, want a *locator.SchemeError of field url", err)
	}
}

func TestSplitAddrSpec(t *testing.T) {
	good := []struct{ in, local, domain string }{
		{"a@b", "a", "b"},
		{"first.last@example.com", "first.last", "example.com"},
		{`"a b"@c`, `"a b"`, "c"},
		{`"a\"b"@c`, `"a\"b"`, "c"},
		{"a@[1.2.3.4]", "a", "[1.2.3.4]"},
		{"gorby%kremvax@example.com", "gorby%kremvax", "example.com"},
		{"a/b=c?d@e", "a/b=c?d", "e"},
	}
	for _, tt := range good {
		l, d, err := SplitAddrSpec(tt.in)
		if err != nil || l != tt.local || d != tt.domain {
			t.Errorf("SplitAddrSpec(%q) = %q, %q, %v; want %q, %q", tt.in, l, d, err, tt.local, tt.domain)
		}
	}
	for _, bad := range []string{"", "a", "@b", "a@", "a@@b", "a b@c", `"a@c`, "a@[b", "a.@b", "a@b..c", "a@b c", "é@b", "a,b@c"} {
		if _, _, err := SplitAddrSpec(bad); err == nil {
			t.Errorf("SplitAddrSpec(%q) succeeded", bad)
		} else if _, ok := err.(*locator.SchemeError); !ok {
			t.Errorf("SplitAddrSpec(%q) error is %T", bad, err)
		}
	}
}

func TestBuild(t *testing.T) {
	tests := []struct {
		m    URL
		want string
	}{
		{URL{Address: "gisle@aas.no"}, "mailto:gisle@aas.no"},
		{URL{Address: "gorby%kremvax@example.com"}, "mailto:gorby%25kremvax@example.com"},
		{URL{Address: "unlikely?address@example.com", Headers: []Header{{"blat", "foop"}}}, "mailto:unlikely%3Faddress@example.com?blat=foop"},
		{URL{Address: "infobot@example.com", Headers: []Header{{"body", "send current-issue\r\nsend index"}}},
			"mailto:infobot@example.com?body=send%20current-issue%0D%0Asend%20index"},
		{URL{Headers: []Header{{"to", "joe@example.com"}, {"cc", "a&b=c"}}}, "mailto:?to=joe@example.com&cc=a%26b%3Dc"},
		// A leading "//" would be read as a login and host (§3.1); found
		// by FuzzBuild (testdata/fuzz/FuzzBuild/bcb1edd692f5a6e5).
		{URL{Address: "//:A"}, "mailto:%2F/:A"},
	}
	for _, tt := range tests {
		s, err := tt.m.Build()
		if err != nil || s != tt.want {
			t.Errorf("Build(%+v) = %q, %v; want %q", tt.m, s, err, tt.want)
		}
	}
	for _, bad := range []URL{{}, {Address: "a@b", Headers: []Header{{"", "x"}}}} {
		if s, err := bad.Build(); err == nil {
			t.Errorf("Build(%+v) = %q, want an error", bad, s)
		} else if _, ok := err.(*locator.SchemeError); !ok {
			t.Errorf("Build(%+v): %T, want *locator.SchemeError", bad, err)
		}
	}
}

func TestDraft(t *testing.T) {
	m, err := Parse("mailto:joe@example.com?cc=bob@example.com&subject=hi&body=hello&to=ann@x.org,%20bo@y.org&body=again")
	if err != nil {
		t.Fatal(err)
	}
	got := m.Draft()
	want := Draft{
		To:     []string{"joe@example.com", "ann@x.org", "bo@y.org"},
		Header: []Header{{"cc", "bob@example.com"}, {"subject", "hi"}},
		Body:   "hello\r\nagain",
		Unsafe: []string{"cc"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Draft = %+v, want %+v", got, want)
	}
}

// TestPerlURI checks the mailto rows of libwww-perl URI's mailto.t and
// old-base.t: "to"/"address"/"encoded822addr" is our Address, a setter
// row is our Build.
func TestPerlURI(t *testing.T) {
	n := 0
	for _, r := range loctest.ReadTSV(t, "perl-uri", "extracted", "scheme_components_handwritten.tsv") {
		if len(r) < 4 || !strings.HasPrefix(r[1], "mailto:") {
			continue
		}
		if strings.HasPrefix(r[1], "mailto: + to(") {
			// mailto: + to("?/#"): the setter is our Build.
			arg, err := strconv.Unquote(strings.TrimSuffix(strings.TrimPrefix(r[1], "mailto: + to("), ")"))
			if err != nil {
				t.Fatal(err)
			}
			s, err := (&URL{Address: arg}).Build()
			if err != nil || s != r[3] {
				t.Errorf("Build(%q) = %q, %v; want %q", arg, s, err, r[3])
			}
			n++
			continue
		}
		m, err := Parse(r[1])
		if err != nil {
			t.Fatal(err)
		}
		u := loctest.MustParse(t, r[1])
		var got []string
		for _, acc := range strings.Split(r[2], ",") {
			switch acc {
			case "to":
				got = append(got, m.Address)
			case "as_string":
				got = append(got, u.String())
			default:
				t.Fatalf("accessor %q", acc)
			}
		}
		if strings.Join(got, "|") != r[3] {
			t.Errorf("%s %s = %q, want %q", r[1], r[2], strings.Join(got, "|"), r[3])
		}
		n++
	}
	for _, r := range loctest.ReadTSV(t, "perl-uri", "extracted", "old-base_scheme_parse.tsv") {
		if len(r) < 3 || !strings.HasPrefix(r[0], "mailto:") {
			continue
		}
		m, err := Parse(r[0])
		if err != nil {
			t.Fatal(err)
		}
		got := m.Address
		if r[1] == "as_string" {
			got = loctest.MustParse(t, r[0]).String()
		}
		if got != r[2] {
			t.Errorf("%s %s = %q, want %q", r[0], r[1], got, r[2])
		}
		n++
	}
	if n != 6 {
		t.Errorf("%d Perl URI mailto rows checked, want 6", n)
	}
}

// FuzzParse reads any text as a URL and, for mailto URLs, applies the
// package's functions: none may panic, problem offsets lie in the input.
// Then the URL's exported fields are overwritten with fuzzed values:
// From, Draft, SplitAddrSpec and the rules must not panic, and must
// answer as on the URL its String reads back as.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"mailto:a@b", "mailto:%22a%5C%22b%22@[x]", "mailto:?to=a&b", "mailto:a@b,c@d?x=y", "mailto:a%2C%20\"b,c\"@d"} {
		f.Add(s, "", "", "", "", "", "", "", uint16(0))
	}
	f.Add("mailto:a@b", "u", "p", "h", "1", "x@Y.z", "subject=a", "f", uint16(0x7fff))
	f.Add("mailto:a@b", "", "", "", "", "", "", "", uint16(1<<7))
	f.Add("mailto://a@B", "", "", "", "", "c@D", "", "", uint16(1<<4|1<<7))
	f.Fuzz(func(t *testing.T, s, user, pass, host, port, path, search, frag string, mask uint16) {
		u, err := locator.Parse(s)
		if err != nil || u.Scheme() != "mailto" {
			return
		}
		for _, p := range u.Problems() {
			if p.Offset < 0 || p.Offset > len(s) {
				t.Fatalf("%q: problem offset %d out of range: %v", s, p.Offset, p)
			}
		}
		m, err := From(u)
		if err != nil {
			t.Fatal(err)
		}
		_ = m.Draft()
		_, _, _ = SplitAddrSpec(m.Address)
		mu := loctest.Mutation{User: user, Password: pass, Host: host, Port: port, Path: path, Search: search, Fragment: frag, Mask: mask}
		loctest.CheckMutated(t, u, mu, view)
	})
}

// view writes what the package's accessors answer for u.
func view(u *locator.URL) string {
	m, err := From(u)
	if err != nil {
		return "from: " + err.Error()
	}
	local, domain, err := SplitAddrSpec(m.Address)
	return fmt.Sprintf("from %#v\ndraft %#v\nsplit %q %q %v\n", *m, m.Draft(), local, domain, err)
}

// FuzzBuild: build then parse returns the same address and headers, and
// the URL conforms to RFC 1738 exactly when it has no headers and its
// address is one RFC 822 addr-spec (SplitAddrSpec): Build encodes any
// address and RFC 2368 headers, and leaves judging them to Parse, which
// reports headers, lists and other addresses as beyond RFC 1738 (§3.5).
func FuzzBuild(f *testing.F) {
	f.Add("a@b", "subject", "hi there?&=", "")
	f.Add("gorby%kremvax@example.com", "", "", "")
	f.Add("", "to", "x@y", "body")
	f.Fuzz(func(t *testing.T, addr, h1, v1, h2 string) {
		m := URL{Address: addr}
		if h1 != "" {
			m.Headers = append(m.Headers, Header{h1, v1})
		}
		if h2 != "" {
			m.Headers = append(m.Headers, Header{h2, ""})
		}
		s, err := m.Build()
		if err != nil {
			return
		}
		back, err := Parse(s)
		if err != nil {
			t.Fatalf("Build(%+v) = %q: %v", m, s, err)
		}
		if !reflect.DeepEqual(*back, m) {
			t.Fatalf("Build(%+v) = %q, read back as %+v", m, s, *back)
		}
		_, _, splitErr := SplitAddrSpec(addr)
		want := len(m.Headers) == 0 && splitErr == nil
		if u := loctest.MustParse(t, s); u.Conforms() != want {
			t.Fatalf("Build(%+v) = %q: Conforms() = %v, want %v (SplitAddrSpec: %v; problems %v)", m, s, u.Conforms(), want, splitErr, u.Problems())
		}
	})
}

func ExampleParse() {
	m, err := Parse("mailto:gorby%25kremvax@example.com?subject=hello%20there")
	if err != nil {
		panic(err)
	}
	local, domain, _ := SplitAddrSpec(m.Address)
	fmt.Println(m.Address, local, domain)
	fmt.Printf("%q\n", m.Headers)
	// Output:
	// gorby%kremvax@example.com gorby%kremvax example.com
	// [{"subject" "hello there"}]
}

func ExampleURL_Build() {
	s, _ := (&URL{Address: "unlikely?address@example.com", Headers: []Header{{"blat", "foop"}}}).Build()
	fmt.Println(s)
	// Output: mailto:unlikely%3Faddress@example.com?blat=foop
}
