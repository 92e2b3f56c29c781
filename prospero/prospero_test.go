package prospero

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/internal/loctest"
)

func TestFrom(t *testing.T) {
	tests := []struct {
		in   string
		want URL
	}{
		{"prospero://host.dom//pros/name", URL{Host: "host.dom", HSOName: "/pros/name"}},
		{"prospero://h:1526/a/b;OBJECT-VERSION=3", URL{Host: "h", Port: "1526", HSOName: "a/b", Fields: []Field{{"OBJECT-VERSION", "3"}}}},
		{"prospero://h/a%3Bb;x=%3D;y=", URL{Host: "h", HSOName: "a;b", Fields: []Field{{"x", "="}, {"y", ""}}}},
		{"prospero://h/", URL{Host: "h"}},
		{"prospero://h/x?y=z", URL{Host: "h", HSOName: "x?y=z"}},
		// The 1993 draft's %00 form.
		{"prospero://h/name%003", URL{Host: "h", HSOName: "name", Version: "3", HasVersion: true}},
		{"prospero://h/name%00%00attr1%00attr2", URL{Host: "h", HSOName: "name", HasVersion: true, Attributes: []string{"attr1", "attr2"}}},
	}
	for _, tt := range tests {
		pr, err := Parse(tt.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.in, err)
			continue
		}
		if !reflect.DeepEqual(*pr, tt.want) {
			t.Errorf("Parse(%q) = %+v, want %+v", tt.in, *pr, tt.want)
		}
	}
	if _, err := Parse("ftp://h/x"); err == nil {
		t.Error("Parse(ftp URL) succeeded")
	} else if se, ok := err.(*locator.SchemeError); !ok || se.Scheme != "prospero" || se.Field != "url" || se.Rule != "prosperourl" {
		t.Errorf("Parse(ftp URL) error %T %v, want a *locator.SchemeError of prospero field url", err, err)
	}
}

func TestCheck(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"prospero://host.dom//pros/name", nil},
		{"prospero://h/a/b;OBJECT-VERSION=3;x=a?b:c@d&e", nil},
		{"prospero://h/a?b:c@d&e=f", nil},
		{"prospero://u@h/x", []string{"11 prosperourl"}},
		{"prospero://u:p@h/x", []string{"11 prosperourl"}},
		{"prospero://h", []string{"12 prosperourl"}},
		{"prospero://h/x;a", []string{"15 fieldspec"}},
		{"prospero://h/x;a=b=c", []string{"18 fieldvalue"}},
		{"prospero://h/x;a/b=c", []string{"16 fieldname"}},
		{"prospero://h/x;a=b/c", []string{"18 fieldvalue"}},
		{"prospero://h/name%003", []string{"17 prosperourl"}},
		{"prospero://h/name%00v1", []string{"17 prosperourl", "20 version"}},
		{"prospero://h/name%00%00at-tr", []string{"17 prosperourl", "25 attribute"}},
		{"prospero://h/name%001%00", []string{"17 prosperourl", "24 attribute"}},
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

func TestParts(t *testing.T) {
	tests := []struct{ in, want string }{
		{"prospero://host.dom//pros/name", `{"hsoname":"/pros/name"}`},
		{"prospero://h/", `{"hsoname":""}`},
		{"prospero://h/a;OBJECT-VERSION=3;x=%20;OBJECT-VERSION=4", `{"hsoname":"a","fields":{"OBJECT-VERSION":"3","x":" "}}`},
		{"prospero://h/n%003%00a", `{"hsoname":"n","version":"3","attributes":["a"]}`},
	}
	for _, tt := range tests {
		u, err := locator.Parse(tt.in)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(locator.Lookup("prospero").Parts(u))
		if string(b) != tt.want {
			t.Errorf("Parts(%q) = %s, want %s", tt.in, b, tt.want)
		}
	}
}

func TestBuild(t *testing.T) {
	tests := []struct {
		pr   URL
		want string
	}{
		{URL{Host: "host.dom", HSOName: "/pros/name"}, "prospero://host.dom//pros/name"},
		{URL{Host: "h", Port: "1526", HSOName: "a;b c/d", Fields: []Field{{"OBJECT-VERSION", "3"}, {"x", "a=b;c/d?"}}},
			"prospero://h:1526/a%3Bb%20c/d;OBJECT-VERSION=3;x=a%3Db%3Bc%2Fd?"},
		{URL{Host: "h", HSOName: "n", Version: "3", HasVersion: true, Attributes: []string{"a1"}}, "prospero://h/n%003%00a1"},
	}
	for _, tt := range tests {
		s, err := tt.pr.Build()
		if err != nil || s != tt.want {
			t.Errorf("Build(%+v) = %q, %v; want %q", tt.pr, s, err, tt.want)
		}
	}
	for _, bad := range []struct {
		pr    URL
		field string // of the *locator.SchemeError
	}{
		{URL{}, "host"},
		{URL{Host: "h", Version: "x"}, "version"},
		{URL{Host: "h", HasVersion: true, Attributes: []string{"a-b"}}, "attribute"},
		{URL{Host: "h", HasVersion: true, Fields: []Field{{"a", "b"}}}, "url"},
		{URL{Host: "a b"}, "host"},
		{URL{Host: "h", HSOName: "a\x00b"}, "hsoname"},
	} {
		s, err := bad.pr.Build()
		if err == nil {
			t.Errorf("Build(%+v) = %q, want an error", bad.pr, s)
			continue
		}
		if se, ok := err.(*locator.SchemeError); !ok || se.Scheme != "prospero" || se.Field != bad.field {
			t.Errorf("Build(%+v) error %T %v, want a *locator.SchemeError of prospero field %s", bad.pr, err, err, bad.field)
		}
	}
	// An IPv6 host is written in brackets, which RFC 1738's hostport
	// does not have: the read-back refuses it.
	if s, err := (&URL{Host: "::1", HSOName: "n"}).Build(); err == nil {
		t.Errorf("Build(IPv6 host) = %q, want an error", s)
	} else if be, ok := err.(*locator.BuildError); !ok || be.Scheme != "prospero" {
		t.Errorf("Build(IPv6 host) error %T %v, want a *locator.BuildError", err, err)
	}
}

// TestNormativeExamples: RFC 1738 §3.11, prospero://host.dom//pros/name
// designates the hsoname "/pros/name"; the same URL in its <URL:...>
// wrapper reads the same.
func TestNormativeExamples(t *testing.T) {
	n := 0
	for _, r := range loctest.ReadTSV(t, "rfc", "rfc1738-normative-examples.tsv") {
		if len(r) < 4 || !strings.HasPrefix(r[1], "prospero:") {
			continue
		}
		pr, err := Parse(r[1])
		if err != nil {
			t.Fatal(err)
		}
		if r[2] != "hsoname" || pr.HSOName != r[3] {
			t.Errorf("%s %s = %q, want %q", r[1], r[2], pr.HSOName, r[3])
		}
		n++
	}
	for _, r := range loctest.ReadTSV(t, "rfc", "in-text-wrapped-urls.tsv") {
		if len(r) < 4 || !strings.HasPrefix(r[3], "prospero:") {
			continue
		}
		pr, err := Parse(r[2])
		if err != nil {
			t.Fatal(err)
		}
		u, _ := locator.Parse(r[2])
		if pr.HSOName != "/pros/name" || !u.Conforms() {
			t.Errorf("%s: %+v %v", r[2], *pr, u.Problems())
		}
		n++
	}
	if n != 2 {
		t.Errorf("%d prospero examples, want 2", n)
	}
}

// FuzzParse reads any text as a URL and, for prospero URLs, applies the
// package's functions: none may panic, problem offsets lie in the input.
// Then the URL's exported fields are overwritten with fuzzed values:
// From and the rules must not panic, and must answer as on the URL its
// String reads back as.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"prospero://host.dom//pros/name", "prospero://h/a;b=c;d", "prospero://h/n%00%001%00a", "prospero://h/%00;x=%00"} {
		f.Add(s, "", "", "", "", "", "", "", uint16(0))
	}
	f.Add("prospero://h/a", "u", "p", "h2", "1525", "x;a=b", "q", "f", uint16(0x7fff))
	f.Add("prospero://h/n%00%001%00a", "", "", "", "", "n%00x", "", "", uint16(1<<4|1<<7))
	f.Fuzz(func(t *testing.T, s, user, pass, host, port, path, search, frag string, mask uint16) {
		u, err := locator.Parse(s)
		if err != nil || u.Scheme() != "prospero" {
			return
		}
		for _, p := range u.Problems() {
			if p.Offset < 0 || p.Offset > len(s) {
				t.Fatalf("%q: offset %d: %v", s, p.Offset, p)
			}
		}
		if _, err := From(u); err != nil {
			t.Fatal(err)
		}
		_ = locator.Lookup("prospero").Parts(u)
		m := loctest.Mutation{User: user, Password: pass, Host: host, Port: port, Path: path, Search: search, Fragment: frag, Mask: mask}
		loctest.CheckMutated(t, u, m, view)
	})
}

// view writes what the package's accessors answer for u.
func view(u *locator.URL) string {
	w, err := From(u)
	if err != nil {
		return "from: " + err.Error()
	}
	return fmt.Sprintf("from %#v\n", *w)
}

// FuzzBuild: build then parse returns the same components, and the URL
// conforms to RFC 1738 unless it has a version or attributes: those are
// the October 1993 draft's %00 form, which Parse reads and reports as
// such (rule "prosperourl"; RFC 1738 §3.11 writes ;field=value).
func FuzzBuild(f *testing.F) {
	f.Add("h", "", "/pros/name", "OBJECT-VERSION", "3", "", false, "")
	f.Add("h", "1526", "a;b", "", "", "1", true, "a1")
	f.Fuzz(func(t *testing.T, host, port, hso, fname, fvalue, version string, hasVersion bool, attr string) {
		pr := URL{Host: host, Port: port, HSOName: hso, Version: version, HasVersion: hasVersion}
		if fname != "" || fvalue != "" {
			pr.Fields = []Field{{fname, fvalue}}
		}
		if attr != "" {
			pr.Attributes = []string{attr}
		}
		s, err := pr.Build()
		if err != nil {
			return
		}
		back, err := Parse(s)
		if err != nil {
			t.Fatalf("Build(%+v) = %q: %v", pr, s, err)
		}
		want := pr
		if version != "" || attr != "" {
			want.HasVersion = true
		}
		if !reflect.DeepEqual(*back, want) {
			t.Fatalf("Build(%+v) = %q, read back as %+v", pr, s, *back)
		}
		draft := func(p locator.Problem) bool { return want.HasVersion && p.Rule == "prosperourl" }
		if d := loctest.Departures(loctest.MustParse(t, s), draft); len(d) > 0 {
			t.Fatalf("Build(%+v) = %q does not conform: %v", pr, s, d)
		}
	})
}

func ExampleParse() {
	pr, err := Parse("prospero://host.dom//pros/name;OBJECT-VERSION=3")
	if err != nil {
		panic(err)
	}
	fmt.Println(pr.HSOName, pr.Fields)
	// Output: /pros/name [{OBJECT-VERSION 3}]
}

func ExampleURL_Build() {
	s, _ := (&URL{Host: "host.dom", HSOName: "/pros/name", Fields: []Field{{"OBJECT-VERSION", "3"}}}).Build()
	fmt.Println(s)
	// Output: prospero://host.dom//pros/name;OBJECT-VERSION=3
}
