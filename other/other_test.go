package other

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/internal/loctest"
)

func TestDescribe(t *testing.T) {
	// Every name RFC 1738 §4 reserves, the drafts' session schemes and
	// the 1993 draft's names for study are described.
	for _, s := range []string{"afs", "mid", "cid", "nfs", "tn3270", "mailserver", "z39.50", "rlogin", "urn", "x500", "whois"} {
		d, ok := Describe(s)
		if !ok || d == "" {
			t.Errorf("Describe(%q) = %q, %v", s, d, ok)
		}
	}
	for _, s := range []string{"afs", "mid", "cid", "nfs", "tn3270", "mailserver", "z39.50"} {
		if d, _ := Describe(s); !strings.Contains(d, "RFC 1738 §4 reserves") {
			t.Errorf("Describe(%q) does not say §4 reserves it: %q", s, d)
		}
	}
	if d, ok := Describe("x-my-scheme"); !ok || !strings.Contains(d, "experimental") {
		t.Errorf("Describe(x-my-scheme) = %q, %v", d, ok)
	}
	for _, s := range []string{"http", "foo", "x", "xfoo", ""} {
		if d, ok := Describe(s); ok {
			t.Errorf("Describe(%q) = %q, want false", s, d)
		}
	}
}

func TestCheck(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"rlogin://aas@a.sn.no", nil},
		{"rlogin://aas@a.sn.no/", nil},
		{"tn3270://h:2323/", nil},
		{"tn3270://h/x", []string{"11 telneturl"}},
		{"rlogin://h/x?y", []string{"11 telneturl"}},
		{"mid:960830.1639@XIson.com", nil},
		{"mid:a?b@c", nil},
		{"mid:foo", []string{"4 midaddress"}},
		{"mid:960830.1639@XIson.com/partA.960830.1639@XIson.com", []string{"25 midaddress"}},
		{"cid:foo4*foo1@bar.net", nil},
		{"cid:foo4", []string{"4 cidaddress"}},
		{"mid://a@b", []string{"4 midaddress"}},
		{"afs://cell.edu/usr/x", nil},
		{"nfs://h/export/x", nil},
		{"z39.50://h/db?q", nil},
		{"mailserver:a@b/subject", nil},
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

func TestPartsAndExplain(t *testing.T) {
	tests := []struct{ in, parts, explain string }{
		{"rlogin://aas@a.sn.no", `{}`, "rlogin session with a.sn.no (port 513), logging in as \"aas\""},
		{"tn3270://h/", `{}`, "tn3270 session with h (port 23)"},
		{"mid:960830.1639@XIson.com", `{"message_id":"960830.1639@XIson.com"}`, "Message-ID \"<960830.1639@XIson.com>\""},
		{"mid:a@b/c%20d@e", `{"message_id":"a@b","content_id":"c d@e"}`, "Content-ID \"<c d@e>\""},
		{"cid:foo4*foo1@bar.net", `{"content_id":"foo4*foo1@bar.net"}`, "Content-ID \"<foo4*foo1@bar.net>\""},
		{"afs://cell.edu/usr/a%20b", `{"cell":"cell.edu","path":"/usr/a b"}`, "AFS cell \"cell.edu\""},
		{"nfs://h/x", `{}`, "Network File System"},
		{"mailserver:a@b", `{}`, "mail servers"},
		{"z39.50://h/", `{}`, "Z39.50"},
	}
	for _, tt := range tests {
		u, err := locator.Parse(tt.in)
		if err != nil {
			t.Fatal(err)
		}
		r := locator.Lookup(u.Scheme())
		if r == nil {
			t.Fatalf("no rules for %q", u.Scheme())
		}
		b, _ := json.Marshal(r.Parts(u))
		if string(b) != tt.parts {
			t.Errorf("Parts(%q) = %s, want %s", tt.in, b, tt.parts)
		}
		if e := r.(locator.Explainer).Explain(u); !strings.Contains(e, tt.explain) {
			t.Errorf("Explain(%q) = %q, want it to contain %q", tt.in, e, tt.explain)
		}
	}
}

func TestBuild(t *testing.T) {
	tests := []struct {
		got  func() (string, error)
		want string
	}{
		{func() (string, error) { return BuildSession("rlogin", "aas", "a.sn.no", "") }, "rlogin://aas@a.sn.no/"},
		{func() (string, error) { return BuildSession("tn3270", "a b@c", "h", "2323") }, "tn3270://a%20b%40c@h:2323/"},
		{func() (string, error) { return BuildMID("<960830.1639@XIson.com>", "") }, "mid:960830.1639@XIson.com"},
		{func() (string, error) { return BuildMID("a?b@c", "p/q@r") }, "mid:a%3Fb@c/p%2Fq@r"},
		{func() (string, error) { return BuildCID("foo4*foo1@bar.net") }, "cid:foo4*foo1@bar.net"},
	}
	for _, tt := range tests {
		s, err := tt.got()
		if err != nil || s != tt.want {
			t.Errorf("got %q, %v; want %q", s, err, tt.want)
		}
	}
	for _, bad := range []struct {
		got           func() (string, error)
		scheme, field string // of the *locator.SchemeError
	}{
		{func() (string, error) { return BuildSession("telnet", "", "h", "") }, "telnet", "url"},
		{func() (string, error) { return BuildSession("rlogin", "", "", "") }, "rlogin", "host"},
		{func() (string, error) { return BuildSession("rlogin", "", "a b", "") }, "rlogin", "host"},
		{func() (string, error) { return BuildSession("tn3270", "", "h", "x") }, "tn3270", "port"},
		{func() (string, error) { return BuildMID("foo", "") }, "mid", "message-id"},
		{func() (string, error) { return BuildCID("") }, "cid", "content-id"},
	} {
		s, err := bad.got()
		if err == nil {
			t.Errorf("built %q, want an error", s)
			continue
		}
		if se, ok := err.(*locator.SchemeError); !ok || se.Scheme != bad.scheme || se.Field != bad.field {
			t.Errorf("error %T %v, want a *locator.SchemeError of %s field %s", err, err, bad.scheme, bad.field)
		}
	}
	// An IPv6 host is written in brackets, which RFC 1738's hostport
	// does not have: the read-back refuses it.
	if s, err := BuildSession("rlogin", "", "::1", ""); err == nil {
		t.Errorf("BuildSession(IPv6 host) = %q, want an error", s)
	} else if be, ok := err.(*locator.BuildError); !ok || be.Scheme != "rlogin" {
		t.Errorf("BuildSession(IPv6 host) error %T %v, want a *locator.BuildError", err, err)
	}
}

// TestPerlURI checks old-base.t's rlogin rows: rlogin://aas@a.sn.no has
// user aas and host a.sn.no.
func TestPerlURI(t *testing.T) {
	n := 0
	for _, r := range loctest.ReadTSV(t, "perl-uri", "extracted", "old-base_scheme_parse.tsv") {
		if len(r) < 3 || !strings.HasPrefix(r[0], "rlogin:") {
			continue
		}
		u, err := locator.Parse(r[0])
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]string{"user": u.User(), "host": u.Host()}[r[1]]
		if got != r[2] || !u.Conforms() {
			t.Errorf("%s %s = %q, want %q (%v)", r[0], r[1], got, r[2], u.Problems())
		}
		n++
	}
	if n != 2 {
		t.Errorf("%d rlogin rows, want 2", n)
	}
}

// FuzzParse reads any text as a URL and applies the rules of its scheme
// (rlogin, tn3270, mid, cid, afs or any other) and Describe: none may
// panic, problem offsets lie in the input. Then the URL's exported fields
// are overwritten with fuzzed values: the rules must not
// panic, and must answer as on the URL its String reads back as.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"rlogin://a@b/", "tn3270://h/x", "mid:a@b/c@d", "cid:x", "afs://c/p", "x-y:z"} {
		f.Add(s, "", "", "", "", "", "", "", uint16(0))
	}
	f.Add("rlogin://a@b/", "u", "p", "h", "513", "x", "q", "f", uint16(0x7fff))
	f.Add("mid:a@b/c@d", "", "", "", "", "x@y/%3C", "", "", uint16(1<<4|1<<7))
	f.Add("afs://c/p", "", "", "", "", "", "", "", uint16(1<<7))
	f.Fuzz(func(t *testing.T, s, user, pass, host, port, path, search, frag string, mask uint16) {
		u, err := locator.Parse(s)
		if err != nil {
			return
		}
		for _, p := range u.Problems() {
			if p.Offset < 0 || p.Offset > len(s) {
				t.Fatalf("%q: offset %d: %v", s, p.Offset, p)
			}
		}
		if r := locator.Lookup(u.Scheme()); r != nil {
			if _, err := json.Marshal(r.Parts(u)); err != nil {
				t.Fatal(err)
			}
			if e, ok := r.(locator.Explainer); ok {
				_ = e.Explain(u)
			}
		}
		_, _ = Describe(u.Scheme())
		m := loctest.Mutation{User: user, Password: pass, Host: host, Port: port, Path: path, Search: search, Fragment: frag, Mask: mask}
		loctest.CheckMutated(t, u, m, func(u *locator.URL) string {
			d, ok := Describe(u.Scheme())
			return fmt.Sprintf("describe %q %v\n", d, ok)
		})
	})
}

// FuzzBuild: a built mid, cid or session URL reads back as its parts and
// conforms, but for a mid URL with a content-id: RFC 2111's
// mid:message-id/content-id, which Parse reports as beyond RFC 1738 and
// the drafts (rule "midaddress").
func FuzzBuild(f *testing.F) {
	f.Add("a@b", "c@d", "aas", "a.sn.no", "")
	f.Add("x?y@z", "", "", "h", "513")
	f.Fuzz(func(t *testing.T, id, part, user, host, port string) {
		if s, err := BuildMID(id, part); err == nil {
			u, err := locator.Parse(s)
			if err != nil {
				t.Fatalf("BuildMID(%q, %q) = %q: %v", id, part, s, err)
			}
			b, _ := json.Marshal(locator.Lookup("mid").Parts(u))
			mid := strings.TrimSuffix(strings.TrimPrefix(id, "<"), ">")
			cid := strings.TrimSuffix(strings.TrimPrefix(part, "<"), ">")
			want := msgParts{MessageID: &mid}
			if cid != "" {
				want.ContentID = &cid
			}
			w, _ := json.Marshal(want)
			if string(b) != string(w) {
				t.Fatalf("BuildMID(%q, %q) = %q, parts %s, want %s", id, part, s, b, w)
			}
			rfc2111 := func(p locator.Problem) bool { return cid != "" && p.Rule == "midaddress" }
			if d := loctest.Departures(u, rfc2111); len(d) > 0 {
				t.Fatalf("BuildMID(%q, %q) = %q does not conform: %v", id, part, s, d)
			}
		}
		if s, err := BuildCID(id); err == nil {
			u, err := locator.Parse(s)
			if err != nil {
				t.Fatalf("BuildCID(%q) = %q: %v", id, s, err)
			}
			if got := locator.Decode(u.Path()); got != strings.TrimSuffix(strings.TrimPrefix(id, "<"), ">") {
				t.Fatalf("BuildCID(%q) = %q, reads back %q", id, s, got)
			}
			if !u.Conforms() {
				t.Fatalf("BuildCID(%q) = %q does not conform: %v", id, s, u.Problems())
			}
		}
		if s, err := BuildSession("rlogin", user, host, port); err == nil {
			u, err := locator.Parse(s)
			if err != nil || locator.Decode(u.User()) != user || u.HasUser() != (user != "") || u.Host() != host || u.Port() != port || !u.Conforms() {
				t.Fatalf("BuildSession(%q, %q, %q) = %q, reads back %+v, %v", user, host, port, s, u, err)
			}
		}
	})
}

func ExampleDescribe() {
	d, ok := Describe("x-my-protocol")
	fmt.Println(ok, strings.HasPrefix(d, "An experimental scheme"))
	_, ok = Describe("gopher")
	fmt.Println(ok)
	// Output:
	// true true
	// false
}

func ExampleBuildMID() {
	s, _ := BuildMID("<960830.1639@XIson.com>", "")
	fmt.Println(s)
	// Output: mid:960830.1639@XIson.com
}
