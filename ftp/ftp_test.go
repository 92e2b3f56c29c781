package ftp

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/internal/loctest"
)

func TestParts(t *testing.T) {
	tests := []struct {
		in   string
		want string // JSON of the parts
	}{
		{"ftp://host", `{"cwd":[]}`},
		{"ftp://host/", `{"cwd":[],"name":""}`},
		{"ftp://host/dir/", `{"cwd":["dir"],"name":""}`},
		{"ftp://host/file", `{"cwd":[],"name":"file"}`},
		{"ftp://myname@host.dom/%2Fetc/motd", `{"cwd":["/etc"],"name":"motd"}`},
		{"ftp://myname@host.dom/etc/motd", `{"cwd":["etc"],"name":"motd"}`},
		{"ftp://myname@host.dom//etc/motd", `{"cwd":["","etc"],"name":"motd"}`},
		{"ftp://info.cern.ch/pub/www/doc;type=d", `{"cwd":["pub","www"],"name":"doc","typecode":"d"}`},
		{"ftp://ds.internic.net/rfc/rfc1436.txt;type=a", `{"cwd":["rfc"],"name":"rfc1436.txt","typecode":"a"}`},
		{"ftp://host/a/b;type=I", `{"cwd":["a"],"name":"b","typecode":"i"}`},
		{"ftp://host/a/b;TYPE=A", `{"cwd":["a"],"name":"b","typecode":"a"}`},
		{"ftp://host/;type=d", `{"cwd":[],"name":"","typecode":"d"}`},
		{"ftp://host/dir/;type=d", `{"cwd":["dir"],"name":"","typecode":"d"}`},
		{"ftp://host/a%3Bb/c%2Fd", `{"cwd":["a;b"],"name":"c/d"}`},
		{"ftp://host/q?path", `{"cwd":[],"name":"q?path"}`},
		// Draft 03's suffix is the typecode; RFC 1738 would read a name.
		{"ftp://host/pub/README!A", `{"cwd":["pub"],"name":"README","typecode":"a"}`},
		{"ftp://host/pub/dir!D", `{"cwd":["pub"],"name":"dir","typecode":"d"}`},
		// Lower case is not the draft's form; ";type=" wins over "!".
		{"ftp://host/pub/x!a", `{"cwd":["pub"],"name":"x!a"}`},
		{"ftp://host/pub/x!A;type=i", `{"cwd":["pub"],"name":"x!A","typecode":"i"}`},
		// An invalid typecode is kept as written (lower-cased) and judged by Check.
		{"ftp://host/f;type=x", `{"cwd":[],"name":"f","typecode":"x"}`},
		{"ftp://host/f;type=", `{"cwd":[],"name":"f","typecode":""}`},
		{"ftp://host/d;type=a/f", `{"cwd":["d;type=a"],"name":"f"}`},
	}
	for _, tt := range tests {
		u := loctest.MustParse(t, tt.in)
		got, err := json.Marshal(locator.Lookup("ftp").Parts(u))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != tt.want {
			t.Errorf("Parts(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

// ftpProblems returns the problems Check adds, as "offset rule" strings.
func ftpProblems(u *locator.URL) []string {
	var out []string
	for _, p := range (Rules{}).Check(u, locator.Report{}).Problems() {
		out = append(out, itoa(p.Offset)+" "+p.Rule+" "+p.Severity.String())
	}
	return out
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

func TestCheck(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"ftp://host/a/b;type=a", nil},
		{"ftp://host/a/b;type=D", nil},
		{"ftp://host", nil},
		{"ftp://host/a%3Bb", nil},
		{"ftp://host/a;b/c", []string{"12 fsegment violation"}},
		{"ftp://host/a/b;c", []string{"14 fsegment violation"}},
		{"ftp://host/a/b;c;type=i", []string{"14 fsegment violation"}},
		{"ftp://host/a;type=i/c", []string{"12 ftptype violation"}},
		{"ftp://host/a/b;type=x", []string{"20 ftptype violation"}},
		{"ftp://host/a/b;type=ai", []string{"20 ftptype violation"}},
		{"ftp://host/a/b;type=", []string{"20 ftptype violation"}},
		{"ftp://host/a/b;Type=a", []string{"14 ftpurl violation"}},
		{"ftp://host/a/README!A", []string{"19 ftptype violation"}},
		// Offsets count from the input as given, wrapper included.
		{"<URL:ftp://host/a;b>", []string{"17 fsegment violation"}},
	}
	for _, tt := range tests {
		u := loctest.MustParse(t, tt.in)
		if got := ftpProblems(u); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Check(%q) = %q, want %q", tt.in, got, tt.want)
		}
		// Parse applies the registered rules: the problems are in u.Problems.
		for _, w := range tt.want {
			found := false
			for _, p := range u.Problems() {
				if itoa(p.Offset)+" "+p.Rule+" "+p.Severity.String() == w {
					found = true
				}
			}
			if !found {
				t.Errorf("Parse(%q).Problems lacks %q: %v", tt.in, w, u.Problems())
			}
		}
		if conf := u.Conforms(); conf != (len(tt.want) == 0) {
			t.Errorf("Parse(%q).Conforms() = %v", tt.in, conf)
		}
	}
}

func TestNormalize(t *testing.T) {
	tests := []struct{ in, want string }{
		{"ftp://host/a/b;type=A", "ftp://host/a/b;type=a"},
		{"ftp://host/a/b;TYPE=I", "ftp://host/a/b;type=i"},
		{"ftp://host/a/README!A", "ftp://host/a/README;type=a"},
		{"ftp://host/a/dir!D", "ftp://host/a/dir;type=d"},
		{"ftp://host/a/b;type=x", "ftp://host/a/b;type=x"},
		{"ftp://host/a/b", "ftp://host/a/b"},
		{"ftp://host", "ftp://host"},
	}
	for _, tt := range tests {
		u := loctest.MustParse(t, tt.in)
		before := Split(u)
		p := u.Parts()
		Rules{}.Normalize(&p)
		if got := p.String(); got != tt.want {
			t.Errorf("Normalize(%q) = %q, want %q", tt.in, got, tt.want)
		}
		after := Split(loctest.MustParse(t, p.String()))
		before.Draft = false
		if !reflect.DeepEqual(before, after) {
			t.Errorf("Normalize(%q) changed the structure: %+v -> %+v", tt.in, before, after)
		}
	}
}

func TestPlan(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		// RFC 1738 §3.2.2's three examples.
		{"ftp://myname@host.dom/%2Fetc/motd", "USER myname | PASS  | CWD /etc | TYPE I | RETR motd"},
		{"ftp://myname@host.dom/etc/motd", "USER myname | PASS  | CWD etc | TYPE I | RETR motd"},
		{"ftp://myname@host.dom//etc/motd", "USER myname | PASS  | CWD  | CWD etc | TYPE I | RETR motd"},
		// RFC 1738 Appendix and References.
		{"ftp://info.cern.ch/pub/www/doc;type=d", "USER anonymous | PASS me@example.org | CWD pub | CWD www | NLST doc"},
		{"ftp://ds.internic.net/rfc/rfc1436.txt;type=a", "USER anonymous | PASS me@example.org | CWD rfc | TYPE A | RETR rfc1436.txt"},
		// No typecode: TYPE I, whatever the name (§3.2.3).
		{"ftp://host/pub/README", "USER anonymous | PASS me@example.org | CWD pub | TYPE I | RETR README"},
		{"ftp://host/pub/rfc959.txt", "USER anonymous | PASS me@example.org | CWD pub | TYPE I | RETR rfc959.txt"},
		{"ftp://host/pub/x.tar.gz", "USER anonymous | PASS me@example.org | CWD pub | TYPE I | RETR x.tar.gz"},
		// Listings.
		{"ftp://host", "USER anonymous | PASS me@example.org | NLST"},
		{"ftp://host/", "USER anonymous | PASS me@example.org | NLST"},
		{"ftp://host/pub/;type=d", "USER anonymous | PASS me@example.org | CWD pub | NLST"},
		{"ftp://host/pub/;type=i", "USER anonymous | PASS me@example.org | CWD pub | TYPE I | NLST"},
		{"ftp://host/pub/README!A", "USER anonymous | PASS me@example.org | CWD pub | TYPE A | RETR README"},
		// Login.
		{"ftp://@host/f;type=i", "USER  | PASS  | TYPE I | RETR f"},
		{"ftp://u%3a:p%40ss@host/f;type=i", "USER u: | PASS p@ss | TYPE I | RETR f"},
		{"ftp://[::1]:2121/a%20b/c%3Bd;type=I", "USER anonymous | PASS me@example.org | CWD a b | TYPE I | RETR c;d"},
	}
	for _, tt := range tests {
		u := loctest.MustParse(t, tt.in)
		p, err := NewPlan(u, "me@example.org")
		if err != nil {
			t.Errorf("NewPlan(%q): %v", tt.in, err)
			continue
		}
		if got := p.String(); got != tt.want {
			t.Errorf("NewPlan(%q) =\n  %s\nwant\n  %s", tt.in, got, tt.want)
		}
	}

	// The PASS flags of §3.2.1.
	p, _ := NewPlan(loctest.MustParse(t, "ftp://myname@host.dom/x"), "me@example.org")
	if c := p.Commands[1]; !c.IfAsked || !c.AskUser {
		t.Errorf("user without password: PASS = %+v, want IfAsked and AskUser", c)
	}
	p, _ = NewPlan(loctest.MustParse(t, "ftp://host.dom/x"), "")
	if c := p.Commands[1]; !c.IfAsked || !c.AskUser || c.Arg != "" {
		t.Errorf("anonymous without e-mail: PASS = %+v, want IfAsked and AskUser", c)
	}
	p, _ = NewPlan(loctest.MustParse(t, "ftp://u:pw@host.dom/x"), "")
	if c := p.Commands[1]; !c.IfAsked || c.AskUser || c.Arg != "pw" {
		t.Errorf("password in URL: PASS = %+v", c)
	}
	if p.Host != "host.dom" || p.Port != 21 {
		t.Errorf("plan server = %s %d", p.Host, p.Port)
	}
	p, _ = NewPlan(loctest.MustParse(t, "ftp://host.dom:2121/x;type=a"), "")
	if p.Port != 2121 || p.Commands[2].Guessed {
		t.Errorf("port or Guessed wrong: %+v", p)
	}
}

func TestPlanErrors(t *testing.T) {
	tests := []struct {
		in     string
		offset int
		rule   string
	}{
		{"http://host/x", 0, "ftpurl"},
		{"ftp:///x", 6, "host"},
		{"ftp://host/x;type=e", 12, "ftptype"},
		{"ftp://host/a%0D%0ADELE%20x/f", 12, "RFC 1738 §6"},
		{"ftp://us%0Aer@host/f", 8, "RFC 1738 §6"},
		{"ftp://u:p%0d@host/f", 9, "RFC 1738 §6"},
	}
	for _, tt := range tests {
		u := loctest.MustParse(t, tt.in)
		_, err := NewPlan(u, "")
		pe, ok := err.(*PlanError)
		if !ok {
			t.Errorf("NewPlan(%q) error = %v, want *PlanError", tt.in, err)
			continue
		}
		if pe.Problem.Offset != tt.offset || pe.Problem.Rule != tt.rule {
			t.Errorf("NewPlan(%q) = %v, want offset %d rule %s", tt.in, pe, tt.offset, tt.rule)
		}
		if !strings.Contains(pe.Error(), tt.rule) {
			t.Errorf("error text %q lacks the rule", pe.Error())
		}
	}
}

// TestUntypedType checks the TYPE of a URL without a typecode: TYPE I
// marked Guessed whatever the name, text suffixes included (RFC 1738
// §3.2.3 leaves the choice to the client), TYPE A with Client.ASCII; a
// typecode is followed either way, and a listing gets no TYPE.
func TestUntypedType(t *testing.T) {
	tests := []struct {
		in           string
		plain, ascii string // the TYPE sent, "" for none
		guessed      bool
	}{
		{"ftp://h/rfc959.txt", "I", "A", true},
		{"ftp://h/INDEX.HTML", "I", "A", true},
		{"ftp://h/README", "I", "A", true},
		{"ftp://h/x.tar.gz", "I", "A", true},
		{"ftp://h/motd", "I", "A", true},
		{"ftp://h/rfc959.txt;type=a", "A", "A", false},
		{"ftp://h/rfc959.txt;type=i", "I", "I", false},
		{"ftp://h/README!A", "A", "A", false},
		{"ftp://h/pub;type=d", "", "", false},
		{"ftp://h/pub/", "", "", false},
	}
	typeOf := func(p *Plan) (string, bool) {
		for _, c := range p.Commands {
			if c.Verb == "TYPE" {
				return c.Arg, c.Guessed
			}
		}
		return "", false
	}
	for _, tt := range tests {
		u := loctest.MustParse(t, tt.in)
		for _, c := range []struct {
			client *Client
			want   string
		}{{&Client{}, tt.plain}, {&Client{ASCII: true}, tt.ascii}} {
			p, err := c.client.plan(u)
			if err != nil {
				t.Errorf("%q ASCII=%v: %v", tt.in, c.client.ASCII, err)
				continue
			}
			if got, guessed := typeOf(p); got != c.want || guessed != tt.guessed {
				t.Errorf("%q ASCII=%v: TYPE %q guessed %v, want %q guessed %v", tt.in, c.client.ASCII, got, guessed, c.want, tt.guessed)
			}
		}
	}
}

func TestBuild(t *testing.T) {
	tests := []struct {
		r    URL
		want string
	}{
		{URL{Host: "host.dom", User: "myname", HasUser: true, Path: Path{Cwd: []string{"/etc"}, Name: "motd", HasName: true}},
			"ftp://myname@host.dom/%2Fetc/motd"},
		{URL{Host: "host.dom", Path: Path{Cwd: []string{"", "etc"}, Name: "motd", HasName: true}}, "ftp://host.dom//etc/motd"},
		{URL{Host: "h", Path: Path{Name: "a/b;c d?e", HasName: true}}, "ftp://h/a%2Fb%3Bc%20d?e"},
		{URL{Host: "h", Path: Path{Cwd: []string{"pub"}, Name: "doc", HasName: true, Typecode: "D", HasTypecode: true}}, "ftp://h/pub/doc;type=d"},
		{URL{Host: "h", Path: Path{Cwd: []string{"pub"}}}, "ftp://h/pub/"},
		{URL{Host: "h"}, "ftp://h"},
		{URL{Host: "h", Path: Path{Typecode: "i", HasTypecode: true}}, "ftp://h/;type=i"},
		{URL{Host: "h", Path: Path{Name: "README!A", HasName: true}}, "ftp://h/README%21A"},
		{URL{Host: "h", Path: Path{Name: "README!A", HasName: true, Typecode: "a", HasTypecode: true}}, "ftp://h/README!A;type=a"},
		{URL{Host: "::1", Port: "2121", User: "a@b:c", HasUser: true, Password: "p/w", HasPassword: true},
			"ftp://a%40b%3Ac:p%2Fw@[::1]:2121"},
		{URL{Host: "h", HasUser: true}, "ftp://@h"},
	}
	for _, tt := range tests {
		got, err := tt.r.Build()
		if err != nil {
			t.Errorf("Build(%+v): %v", tt.r, err)
			continue
		}
		if got != tt.want {
			t.Errorf("Build(%+v) = %q, want %q", tt.r, got, tt.want)
		}
	}
	for _, r := range []URL{
		{Host: ""},
		{Host: "a b"},
		{Host: "h", Port: "x"},
		{Host: "h", Port: "99999"},
		{Host: "h", Port: "0#"},
		{Host: "a/b"},
		{Host: "a@b"},
		{Host: "h", Path: Path{Name: "f", HasName: true, Typecode: "e", HasTypecode: true}},
		// §5's ftptype is one letter: "a#" would read back as "a" and a
		// fragment (a fuzz finding, testdata/fuzz/FuzzBuild).
		{Host: "h", Path: Path{Name: "f", HasName: true, Typecode: "A#", HasTypecode: true}},
		{Host: "h", Path: Path{Name: "f", HasName: true, Typecode: "ai", HasTypecode: true}},
	} {
		if s, err := r.Build(); err == nil {
			t.Errorf("Build(%+v) = %q, want an error", r, s)
		} else if _, ok := err.(*locator.BuildError); !ok {
			t.Errorf("Build(%+v) error %T, want *locator.BuildError", r, err)
		}
	}
}

// TestFrom: From reads every ftp URL, and refuses a URL of another scheme
// with a *locator.SchemeError of field "url"; Parse is locator.Parse then
// From.
func TestFrom(t *testing.T) {
	f, err := Parse("ftp://myname:pw@host.dom:2121/%2Fetc/motd;type=a")
	want := URL{User: "myname", HasUser: true, Password: "pw", HasPassword: true, Host: "host.dom", Port: "2121",
		Path: Path{Cwd: []string{"/etc"}, Name: "motd", HasName: true, Typecode: "a", HasTypecode: true}}
	if err != nil || !reflect.DeepEqual(*f, want) {
		t.Errorf("Parse = %+v %v, want %+v", f, err, want)
	}
	if f, err := Parse("ftp://h:99999/x"); err == nil {
		t.Errorf("Parse(ftp://h:99999/x) = %+v, want a *locator.ParseError", f)
	} else if _, ok := err.(*locator.ParseError); !ok {
		t.Errorf("Parse(ftp://h:99999/x) error %T, want *locator.ParseError", err)
	}
	for _, s := range []string{"http://host.dom/motd", "file:///etc/motd"} {
		f, err := From(loctest.MustParse(t, s))
		se, ok := err.(*locator.SchemeError)
		if f != nil || !ok || se.Scheme != "ftp" || se.Field != "url" {
			t.Errorf("From(%s) = %+v %v, want a *locator.SchemeError of field url", s, f, err)
		}
	}
}

// mustFrom returns From(u), failing the test when From fails.
func mustFrom(t *testing.T, u *locator.URL) *URL {
	t.Helper()
	f, err := From(u)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestCheckAllocs: Parse runs Check on every ftp URL; a conforming one
// costs no allocation.
func TestCheckAllocs(t *testing.T) {
	u := loctest.MustParse(t, "ftp://host/pub/www/doc;type=d")
	if n := testing.AllocsPerRun(100, func() { _ = (Rules{}).Check(u, locator.Report{}).Problems() }); n != 0 {
		t.Errorf("Check allocates %v times", n)
	}
}

func BenchmarkParseFTP(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		_, _ = locator.Parse("ftp://myname@host.dom/pub/www/doc/rfc1738.txt;type=a")
	}
}
