package nntp

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/internal/loctest"
	"github.com/rfc1738/locator/internal/newsreader"
)

func TestPartsAndCheck(t *testing.T) {
	tests := []struct {
		in, parts string
		probs     []string
	}{
		{"nntp://news.example.com/comp.infosystems.www/4711", `{"group":"comp.infosystems.www","article":4711}`, nil},
		{"nntp://news.example.com:1119/alt.a-b+c_d", `{"group":"alt.a-b+c_d"}`, nil},
		{"nntp://h/g/007", `{"group":"g","article":7}`, nil},
		{"nntp://h/g/0", `{"group":"g","article":0}`, nil},
		{"nntp://h/g/123456789012345678901234567890", `{"group":"g","article":123456789012345678901234567890}`, nil},
		{"nntp://h/", `{"group":""}`, []string{"9 nntpurl"}},
		{"nntp://h", `{"group":""}`, []string{"8 nntpurl"}},
		{"nntp://h/1group", `{"group":"1group"}`, []string{"9 group"}},
		{"nntp://h/comp%2Elang", `{"group":"comp.lang"}`, []string{"13 group"}},
		{"nntp://h/g/12x", `{"group":"g"}`, []string{"11 digits"}},
		{"nntp://h/g/", `{"group":"g"}`, []string{"11 digits"}},
		{"nntp://h/g/12/x", `{"group":"g","article":12}`, []string{"13 nntpurl"}},
		{"nntp://u:p@h/g", `{"group":"g"}`, []string{"7 nntpurl"}},
	}
	for _, tt := range tests {
		u := loctest.MustParse(t, tt.in)
		b, err := json.Marshal(Rules{}.Parts(u))
		if err != nil || string(b) != tt.parts {
			t.Errorf("Parts(%q) = %s %v, want %s", tt.in, b, err, tt.parts)
		}
		got := loctest.Where((Rules{}).Check(u, locator.Report{}).Problems())
		if !reflect.DeepEqual(got, tt.probs) {
			t.Errorf("Check(%q) = %q, want %q", tt.in, got, tt.probs)
		}
	}
}

func TestValidGroup(t *testing.T) {
	for name, want := range map[string]int{
		"comp.lang.go": -1, "a": -1, "a+b_c-d.e9": -1, "": 0, "9a": 0, ".a": 0, "a b": 1, "a*": 1, "a/b": 1, "aé": 1,
	} {
		if got := validGroup(name); got != want {
			t.Errorf("validGroup(%q) = %d, want %d", name, got, want)
		}
	}
}

// The methods Client.Method names are the ones the news-reading
// connection knows.
func TestMethods(t *testing.T) {
	if MethodOver != newsreader.MethodOver || MethodXover != newsreader.MethodXover || MethodHead != newsreader.MethodHead {
		t.Errorf("methods %q, %q, %q; the connection knows %q, %q, %q", MethodOver, MethodXover, MethodHead, newsreader.MethodOver, newsreader.MethodXover, newsreader.MethodHead)
	}
}

func TestPlan(t *testing.T) {
	tests := []struct{ in, want string }{
		{"nntp://news.example.com/comp.infosystems.www/4711", "GROUP comp.infosystems.www | ARTICLE 4711"},
		{"nntp://news.example.com/comp.infosystems.www", "GROUP comp.infosystems.www"},
	}
	for _, tt := range tests {
		p, err := NewPlan(loctest.MustParse(t, tt.in))
		if err != nil || p.String() != tt.want || p.Port != 119 || p.Host != "news.example.com" {
			t.Errorf("NewPlan(%q) = %v %v, want %s", tt.in, p, err, tt.want)
		}
	}
	for _, in := range []string{"nntp:no.perl", "nntp://h/", "nntp://h/g/x", "nntp://h/a%0D%0Ab", "news:x", "nntp:///g"} {
		_, err := NewPlan(loctest.MustParse(t, in))
		if _, ok := err.(*PlanError); !ok {
			t.Errorf("NewPlan(%q) error = %v, want *PlanError", in, err)
		}
	}
	if ex := (Rules{}).Explain(loctest.MustParse(t, "nntp://h/g/1")); !strings.Contains(ex, "ARTICLE 1") {
		t.Errorf("Explain: %s", ex)
	}
}

func TestBuild(t *testing.T) {
	tests := []struct {
		r    URL
		want string
	}{
		{URL{Host: "news.example.com", Article: Article{Group: "comp.lang.go", Number: "12", HasNumber: true}}, "nntp://news.example.com/comp.lang.go/12"},
		{URL{Host: "::1", Port: "1119", Article: Article{Group: "a"}}, "nntp://[::1]:1119/a"},
	}
	for _, tt := range tests {
		if got, err := tt.r.Build(); err != nil || got != tt.want {
			t.Errorf("Build(%+v) = %q %v, want %q", tt.r, got, err, tt.want)
		}
	}
	for _, r := range []URL{
		{Host: "h"}, {Host: "h", Article: Article{Group: "a b"}}, {Host: "h", Article: Article{Group: "a", Number: "", HasNumber: true}},
		{Host: "", Article: Article{Group: "a"}}, {Host: "h#", Article: Article{Group: "a"}},
	} {
		if _, err := r.Build(); err == nil {
			t.Errorf("Build(%+v) did not fail", r)
		} else if _, ok := err.(*locator.BuildError); !ok {
			t.Errorf("Build(%+v): %T, want *locator.BuildError", r, err)
		}
	}
}

// From reads what Parse reads, and fails, with a *locator.SchemeError of
// field "url", only for a URL of another scheme.
func TestFrom(t *testing.T) {
	r, err := Parse("nntp://news.example.com:1119/comp.lang.go/12")
	want := URL{Host: "news.example.com", Port: "1119", Article: Article{Group: "comp.lang.go", Number: "12", HasNumber: true}}
	if err != nil || *r != want {
		t.Errorf("Parse = %+v %v, want %+v", r, err, want)
	}
	if r, err := Parse("nntp:no.perl"); err != nil || *r != (URL{Article: Article{Group: "no.perl"}}) {
		t.Errorf("Parse(nntp:no.perl) = %+v %v: no host without \"//\"", r, err)
	}
	_, err = Parse("news:comp.lang.go")
	if se, ok := err.(*locator.SchemeError); !ok || se.Scheme != "nntp" || se.Field != "url" {
		t.Errorf("Parse(news URL): %v, want a *locator.SchemeError of field url", err)
	}
	if _, err := Parse("comp.lang.go/12"); err == nil {
		t.Error("Parse of no URL did not fail")
	} else if _, ok := err.(*locator.ParseError); !ok {
		t.Errorf("Parse of no URL: %T, want *locator.ParseError", err)
	}
}

// TestPerlURI checks the nntp rows of perl-uri/extracted/
// scheme_components_handwritten.tsv. URI reads "nntp:no.perl" without
// "//"; so does Split, and the missing "//" is the core's violation.
func TestPerlURI(t *testing.T) {
	n := 0
	for _, f := range loctest.ReadTSV(t, "perl-uri", "extracted", "scheme_components_handwritten.tsv") {
		if len(f) < 4 || !strings.HasPrefix(f[1], "nntp:") {
			continue
		}
		n++
		u := loctest.MustParse(t, f[1])
		got := split(u).Group + "|" + strconv.Itoa(u.EffectivePort())
		if got != f[3] {
			t.Errorf("%s: %s, want %s", f[1], got, f[3])
		}
		if u.Conforms() {
			t.Errorf("%s: conforms without \"//\"", f[1])
		}
	}
	if n != 1 {
		t.Errorf("%d nntp rows, want 1", n)
	}
}

// FuzzParse reads any text as a URL and, for nntp URLs, applies the
// package's functions: none may panic, problem offsets lie in the input,
// a plan holds no CR or LF. Then the URL's exported fields are
// overwritten with fuzzed values: Split, From, NewPlan and
// the rules must not panic, and must answer as on the URL its String
// reads back as.
func FuzzParse(f *testing.F) {
	f.Add("nntp://h/comp.lang/12", "", "", "", "", "", "", "", uint16(0))
	f.Add("nntp:g/x/y", "", "", "", "", "", "", "", uint16(0))
	f.Add("nntp://h/a/1", "u", "p", "h2", "119", "b.c/2", "q", "f", uint16(0x7fff))
	f.Add("nntp://h/a/1", "", "", "::1", "x", "a%0d/1", "", "", uint16(1<<2|1<<3|1<<4|1<<10))
	f.Fuzz(func(t *testing.T, s, user, pass, host, port, path, search, frag string, mask uint16) {
		u, err := locator.Parse(s)
		if err != nil || u.Scheme() != "nntp" {
			return
		}
		for _, p := range (Rules{}).Check(u, locator.Report{}).Problems() {
			if p.Offset < 0 || p.Offset > len(s) {
				t.Fatalf("offset %d outside %q", p.Offset, s)
			}
		}
		if _, err := json.Marshal(Rules{}.Parts(u)); err != nil {
			t.Fatal(err)
		}
		_ = Rules{}.Explain(u)
		if p, err := NewPlan(u); err == nil {
			if strings.ContainsAny(p.String(), "\r\n") {
				t.Fatalf("plan %q", p)
			}
		}
		m := loctest.Mutation{User: user, Password: pass, Host: host, Port: port, Path: path, Search: search, Fragment: frag, Mask: mask}
		loctest.CheckMutated(t, u, m, view)
	})
}

// view writes what the package's accessors answer for u (a plan error
// by its rule and message: its Input and offset left out).
func view(u *locator.URL) string {
	a := split(u)
	j, err := a.MarshalJSON()
	r, rerr := From(u)
	s := fmt.Sprintf("split %#v %s %v\nfrom %#v %v\nvalid %d\n", a, j, err, r, rerr, validGroup(a.Group))
	p, err := NewPlan(u)
	if err != nil {
		pe, ok := err.(*PlanError)
		if !ok {
			return s + fmt.Sprintf("plan error %T", err)
		}
		return s + fmt.Sprintf("plan error %v %s %s\n", pe.Problem.Severity, pe.Problem.Rule, pe.Problem.Message)
	}
	return s + fmt.Sprintf("plan %#v %s\n", *p, p.String())
}

// FuzzBuild builds a URL from components and parses it back: Build either
// fails or gives a URL with the same components that conforms to RFC
// 1738, but for an IPv6 host (RFC 2732's brackets, which RFC 1738
// predates: a violation of rule "host" and nothing else).
func FuzzBuild(f *testing.F) {
	f.Add("h", "", "comp.lang", "12", true)
	f.Fuzz(func(t *testing.T, host, port, group, num string, has bool) {
		r := URL{Host: host, Port: port, Article: Article{Group: group, Number: num, HasNumber: has}}
		if !has {
			r.Number = ""
		}
		s, err := r.Build()
		if err != nil {
			return
		}
		u, err := locator.Parse(s)
		if err != nil {
			t.Fatalf("Build(%+v) = %q: %v", r, s, err)
		}
		ipv6 := func(p locator.Problem) bool { return p.Rule == "host" && strings.Contains(host, ":") }
		if d := loctest.Departures(u, ipv6); len(d) > 0 {
			t.Fatalf("Build(%+v) = %q does not conform: %v", r, s, d)
		}
		if got, err := From(u); err != nil || *got != r {
			t.Fatalf("Build(%+v) = %q reads back as %+v %v", r, s, got, err)
		}
	})
}
