package telnet

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/internal/loctest"
)

func TestCheck(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"telnet://host", nil},
		{"telnet://host/", nil},
		{"telnet://user:pw@host:23/", nil},
		{"telnet://host/x", []string{"14 telneturl"}},
		{"telnet://host//", []string{"14 telneturl"}},
		{"telnet://host/?x", []string{"14 telneturl"}},
		{"<URL:telnet://h/x>", []string{"16 telneturl"}},
	}
	for _, tt := range tests {
		u := loctest.MustParse(t, tt.in)
		got := loctest.Where((Rules{}).Check(u, locator.Report{}).Problems())
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Check(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if b, _ := json.Marshal(Rules{}.Parts(u)); string(b) != "{}" {
			t.Errorf("Parts(%q) = %s", tt.in, b)
		}
	}
}

func TestSession(t *testing.T) {
	u := loctest.MustParse(t, "telnet://guest:se%3Acret@[::1]:2323/")
	s, err := NewSession(u)
	if err != nil {
		t.Fatal(err)
	}
	want := Session{Host: "::1", Port: 2323, User: "guest", Password: "se:cret", HasUser: true, HasPassword: true}
	if *s != want {
		t.Errorf("NewSession = %+v, want %+v", *s, want)
	}
	if s, _ := NewSession(loctest.MustParse(t, "telnet://host")); s.Port != 23 || s.HasUser {
		t.Errorf("NewSession(telnet://host) = %+v", s)
	}
	for _, in := range []string{"telnet:///", "ftp://host/", "telnet:host"} {
		if _, err := NewSession(loctest.MustParse(t, in)); err == nil {
			t.Errorf("NewSession(%q) did not fail", in)
		} else if _, ok := err.(*SessionError); !ok {
			t.Errorf("NewSession(%q) error %T", in, err)
		}
	}
	ex := Rules{}.Explain(u)
	if !strings.Contains(ex, "advisory only") || !strings.Contains(ex, `"se:cret"`) {
		t.Errorf("Explain does not give the advisory login: %s", ex)
	}
}

func TestBuild(t *testing.T) {
	tests := []struct {
		r    URL
		want string
	}{
		{URL{Host: "host"}, "telnet://host/"},
		{URL{Host: "host", Port: "2323", User: "a:b@c", HasUser: true, Password: "p/w", HasPassword: true}, "telnet://a%3Ab%40c:p%2Fw@host:2323/"},
		{URL{Host: "::1"}, "telnet://[::1]/"},
	}
	for _, tt := range tests {
		if got, err := tt.r.Build(); err != nil || got != tt.want {
			t.Errorf("Build(%+v) = %q %v, want %q", tt.r, got, err, tt.want)
		}
	}
	for _, r := range []URL{{}, {Host: "h h"}, {Host: "h", Port: "-1"}, {Host: "h", Port: "0#"}, {Host: "a/b"}} {
		if _, err := r.Build(); err == nil {
			t.Errorf("Build(%+v) did not fail", r)
		} else if _, ok := err.(*locator.BuildError); !ok {
			t.Errorf("Build(%+v): %T, want *locator.BuildError", r, err)
		}
	}
}

// From reads the login and server, decoded, and fails, with a
// *locator.SchemeError of field "url", only for a URL of another scheme.
func TestFrom(t *testing.T) {
	r, err := Parse("telnet://guest:se%3Acret@[::1]:2323/")
	want := URL{User: "guest", Password: "se:cret", HasUser: true, HasPassword: true, Host: "::1", Port: "2323"}
	if err != nil || *r != want {
		t.Errorf("Parse = %+v %v, want %+v", r, err, want)
	}
	if r, err := Parse("telnet:host"); err != nil || *r != (URL{}) {
		t.Errorf("Parse(telnet:host) = %+v %v: no host without \"//\"", r, err)
	}
	_, err = Parse("ftp://host/")
	if se, ok := err.(*locator.SchemeError); !ok || se.Scheme != "telnet" || se.Field != "url" {
		t.Errorf("Parse(ftp URL): %v, want a *locator.SchemeError of field url", err)
	}
	if _, err := Parse("//host/"); err == nil {
		t.Error("Parse of no URL did not fail")
	} else if _, ok := err.(*locator.ParseError); !ok {
		t.Errorf("Parse of no URL: %T, want *locator.ParseError", err)
	}
}

// TestCurl reads curl's telnet row of curl/url_to_protocol.tsv: the URL
// has no path, breaks no telnet rule and stands for a session.
func TestCurl(t *testing.T) {
	n := 0
	for _, f := range loctest.ReadTSV(t, "curl", "url_to_protocol.tsv") {
		if len(f) < 4 || f[1] != "telnet" {
			continue
		}
		n++
		u := loctest.MustParse(t, strings.NewReplacer("%HOSTIP", "127.0.0.1", "%TELNETPORT", "8990").Replace(f[3]))
		if p := (Rules{}).Check(u, locator.Report{}).Problems(); len(p) > 0 {
			t.Errorf("curl test %s: %v", f[0], p)
		}
		if s, err := NewSession(u); err != nil || s.Host != "127.0.0.1" || s.Port != 8990 {
			t.Errorf("curl test %s: %+v %v", f[0], s, err)
		}
	}
	if n != 1 {
		t.Errorf("%d telnet rows, want 1", n)
	}
}

// FuzzParse reads any text as a URL and, for telnet URLs, applies the
// package's functions: none may panic, problem offsets lie in the input.
// Then the URL's exported fields are overwritten with fuzzed values:
// From, NewSession and the rules must not panic, and must answer as on
// the URL its String reads back as.
func FuzzParse(f *testing.F) {
	f.Add("telnet://u:p@host:23/", "", "", "", "", "", "", "", uint16(0))
	f.Add("telnet://h/x?y#z", "", "", "", "", "", "", "", uint16(0))
	f.Add("telnet://h/", "u", "p", "h2", "23", "x", "q", "f", uint16(0x7fff))
	f.Add("telnet://h", "%0d", "", "::1", "x", "", "", "", uint16(1|1<<2|1<<3|1<<8|1<<10))
	f.Fuzz(func(t *testing.T, s, user, pass, host, port, path, search, frag string, mask uint16) {
		u, err := locator.Parse(s)
		if err != nil || u.Scheme() != "telnet" {
			return
		}
		for _, p := range (Rules{}).Check(u, locator.Report{}).Problems() {
			if p.Offset < 0 || p.Offset > len(s) {
				t.Fatalf("offset %d outside %q", p.Offset, s)
			}
		}
		_ = Rules{}.Explain(u)
		if _, err := NewSession(u); err != nil {
			if _, ok := err.(*SessionError); !ok {
				t.Fatalf("error %T", err)
			}
		}
		m := loctest.Mutation{User: user, Password: pass, Host: host, Port: port, Path: path, Search: search, Fragment: frag, Mask: mask}
		loctest.CheckMutated(t, u, m, view)
	})
}

// view writes what the package's accessors answer for u (a session error
// by its rule and message: its Input and offset left out).
func view(u *locator.URL) string {
	r, err := From(u)
	s := fmt.Sprintf("from %#v %v\n", r, err)
	ss, err := NewSession(u)
	if err != nil {
		se, ok := err.(*SessionError)
		if !ok {
			return s + fmt.Sprintf("session error %T", err)
		}
		return s + fmt.Sprintf("session error %v %s %s\n", se.Problem.Severity, se.Problem.Rule, se.Problem.Message)
	}
	return s + fmt.Sprintf("session %#v\n", *ss)
}

// FuzzBuild builds a URL from components and parses it back: Build either
// fails or gives a URL with the same components that conforms to RFC
// 1738, but for an IPv6 host (RFC 2732's brackets, which RFC 1738
// predates: a violation of rule "host" and nothing else).
func FuzzBuild(f *testing.F) {
	f.Add("u", "p", "host", "23", byte(3))
	f.Fuzz(func(t *testing.T, user, pass, host, port string, flags byte) {
		r := URL{User: user, Password: pass, Host: host, Port: port, HasUser: flags&1 != 0, HasPassword: flags&2 != 0}
		if r.HasPassword {
			r.HasUser = true
		}
		if !r.HasUser {
			r.User = ""
		}
		if !r.HasPassword {
			r.Password = ""
		}
		s, err := r.Build()
		if err != nil {
			return
		}
		u, err := locator.Parse(s)
		if err != nil {
			t.Fatalf("Build(%+v) = %q: %v", r, s, err)
		}
		if got, err := From(u); err != nil || *got != r {
			t.Fatalf("Build(%+v) = %q reads back as %+v %v", r, s, got, err)
		}
		ipv6 := func(p locator.Problem) bool { return p.Rule == "host" && strings.Contains(host, ":") }
		if d := loctest.Departures(u, ipv6); len(d) > 0 {
			t.Fatalf("Build(%+v) = %q does not conform: %v", r, s, d)
		}
	})
}
