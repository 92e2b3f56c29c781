package wais

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
		{"wais://quake.think.com/wais-discussion-archives?lynch", URL{Host: "quake.think.com", Database: "wais-discussion-archives", Search: "lynch", HasSearch: true}},
		{"wais://h:2100/db", URL{Host: "h", Port: "2100", Database: "db"}},
		{"wais://h/", URL{Host: "h"}},
		{"wais://h/db?", URL{Host: "h", Database: "db", HasSearch: true}},
		{"wais://h/db?a+b%20c", URL{Host: "h", Database: "db", Search: "a+b c", HasSearch: true}},
		{"wais://h/db/TEXT/0%2F1%3D2", URL{Host: "h", Database: "db", WType: "TEXT", WPath: "0/1=2", HasDoc: true}},
		{"wais://h/db/TEXT/a/b", URL{Host: "h", Database: "db", WType: "TEXT", WPath: "a/b", HasDoc: true}},
		{"wais://h/db/t", URL{Host: "h", Database: "db", WType: "t", HasDoc: true}},
	}
	for _, tt := range tests {
		w, err := Parse(tt.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.in, err)
			continue
		}
		if *w != tt.want {
			t.Errorf("Parse(%q) = %+v, want %+v", tt.in, *w, tt.want)
		}
	}
	if _, err := Parse("gopher://h/"); err == nil {
		t.Error("Parse(gopher URL) succeeded")
	} else if se, ok := err.(*locator.SchemeError); !ok || se.Scheme != "wais" || se.Field != "url" || se.Rule != "waisurl" {
		t.Errorf("Parse(gopher URL) error %T %v, want a *locator.SchemeError of wais field url", err, err)
	}
}

func TestCheck(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"wais://quake.think.com/wais-discussion-archives?lynch", nil},
		{"wais://h/db?a;b:c@d&e=f", nil},
		{"wais://h/db/TEXT/0%2F1", nil},
		{"wais://h/d;b", []string{"10 database"}},
		{"wais://h/db/t:x/p", []string{"13 wtype"}},
		{"wais://h/db/t/a/b", []string{"15 wpath"}},
		{"wais://h/db/t/a@b", []string{"15 wpath"}},
		{"wais://h/db/t", []string{"13 waisdoc"}},
		{"wais://h/db/t/p?x", []string{"15 waisurl"}},
		{"wais://h/db?a/b?c", []string{"13 search", "15 search"}},
		{"wais://u@h/db", []string{"7 waisurl"}},
		// Draft 03's wpath fields: one violation naming the draft form.
		{"wais://h/db/TEXT/1=abc;2=def;", []string{"17 wpath"}},
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
		{"wais://h/db", `{"database":"db"}`},
		{"wais://h/", `{"database":""}`},
		{"wais://h/db?", `{"database":"db","search":""}`},
		{"wais://h/db?x%20y", `{"database":"db","search":"x y"}`},
		{"wais://h/db/TEXT/a%2Fb", `{"database":"db","wtype":"TEXT","wpath":"a/b"}`},
	}
	for _, tt := range tests {
		u, err := locator.Parse(tt.in)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(locator.Lookup("wais").Parts(u))
		if string(b) != tt.want {
			t.Errorf("Parts(%q) = %s, want %s", tt.in, b, tt.want)
		}
	}
}

func TestDocFields(t *testing.T) {
	fs, err := docFields("0=a%20b;12=c;")
	if want := []docField{{0, "a b"}, {12, "c"}}; err != nil || !reflect.DeepEqual(fs, want) {
		t.Errorf("DocFields = %v, %v; want %v", fs, err, want)
	}
	for _, bad := range []string{"", "abc", "1=a", "=a;", "1a;", "99999999999999999999=a;"} {
		if fs, err := docFields(bad); err == nil {
			t.Errorf("DocFields(%q) = %v, want an error", bad, fs)
		} else if se, ok := err.(*locator.SchemeError); !ok || se.Scheme != "wais" || se.Field != "wpath" {
			t.Errorf("DocFields(%q) error %T %v, want a *locator.SchemeError of wais field wpath", bad, err, err)
		}
	}
}

func TestBuild(t *testing.T) {
	tests := []struct {
		w    URL
		want string
	}{
		{URL{Host: "quake.think.com", Database: "wais-discussion-archives", Search: "lynch", HasSearch: true}, "wais://quake.think.com/wais-discussion-archives?lynch"},
		{URL{Host: "h", Port: "2100", Database: "my db"}, "wais://h:2100/my%20db"},
		{URL{Host: "h", Database: "db", Search: "a/b?c;d", HasSearch: true}, "wais://h/db?a%2Fb%3Fc;d"},
		{URL{Host: "h", Database: "d/b", WType: "TEXT", WPath: "1=a;2=b;", HasDoc: true}, "wais://h/d%2Fb/TEXT/1%3Da%3B2%3Db%3B"},
	}
	for _, tt := range tests {
		s, err := tt.w.Build()
		if err != nil || s != tt.want {
			t.Errorf("Build(%+v) = %q, %v; want %q", tt.w, s, err, tt.want)
		}
	}
	for _, bad := range []struct {
		w     URL
		field string // of the *locator.SchemeError
	}{
		{URL{}, "host"},
		{URL{Host: "h", HasSearch: true, HasDoc: true}, "url"},
		{URL{Host: "a b"}, "host"},
		{URL{Host: "h", Port: "p"}, "port"},
	} {
		s, err := bad.w.Build()
		if err == nil {
			t.Errorf("Build(%+v) = %q, want an error", bad.w, s)
			continue
		}
		if se, ok := err.(*locator.SchemeError); !ok || se.Scheme != "wais" || se.Field != bad.field {
			t.Errorf("Build(%+v) error %T %v, want a *locator.SchemeError of wais field %s", bad.w, err, err, bad.field)
		}
	}
	// An IPv6 host is written in brackets, which RFC 1738's hostport
	// does not have: the read-back refuses it.
	if s, err := (&URL{Host: "::1", Database: "db"}).Build(); err == nil {
		t.Errorf("Build(IPv6 host) = %q, want an error", s)
	} else if be, ok := err.(*locator.BuildError); !ok || be.Scheme != "wais" {
		t.Errorf("Build(IPv6 host) error %T %v, want a *locator.BuildError", err, err)
	}
}

// TestInText reads the WAIS URL RFC 1630 and draft 03 quote.
func TestInText(t *testing.T) {
	n := 0
	for _, r := range loctest.ReadTSV(t, "rfc", "in-text-wrapped-urls.tsv") {
		if len(r) < 4 || !strings.HasPrefix(r[3], "wais:") {
			continue
		}
		w, err := Parse(r[3])
		if err != nil {
			t.Fatal(err)
		}
		if w.Database != "wais-discussion-archives" || w.Search != "lynch" || w.HasDoc {
			t.Errorf("%s: %+v", r[3], *w)
		}
		n++
	}
	if n != 2 {
		t.Errorf("%d WAIS URLs in the texts, want 2", n)
	}
}

// FuzzParse reads any text as a URL and, for wais URLs, applies the
// package's functions: none may panic, problem offsets lie in the input.
// Then the URL's exported fields are overwritten with fuzzed values:
// From and the rules must not panic, and must answer as on the URL its
// String reads back as.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"wais://h/db", "wais://h/db?x", "wais://h/db/t/p", "wais://h/db/t/1=a;", "wais://h/a/b/c/d?e"} {
		f.Add(s, "", "", "", "", "", "", "", uint16(0))
	}
	f.Add("wais://h/db", "u", "p", "h2", "210", "d/TEXT/1=a;", "q", "f", uint16(0x7fff))
	f.Add("wais://h/db/t/p", "", "", "::1", "x", "db", "x", "", uint16(1<<2|1<<3|1<<4|1<<5|1<<12))
	f.Fuzz(func(t *testing.T, s, user, pass, host, port, path, search, frag string, mask uint16) {
		u, err := locator.Parse(s)
		if err != nil || u.Scheme() != "wais" {
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
		_ = locator.Lookup("wais").(locator.Explainer).Explain(u)
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
// conforms to RFC 1738 (Build refuses what would not, an IPv6 host
// included).
func FuzzBuild(f *testing.F) {
	f.Add("h", "", "db", "q", true, "", "", false)
	f.Add("h", "210", "d/b", "", false, "TEXT", "1=a;", true)
	f.Fuzz(func(t *testing.T, host, port, db, search string, hasSearch bool, wtype, wpath string, hasDoc bool) {
		w := URL{Host: host, Port: port, Database: db, Search: search, HasSearch: hasSearch, WType: wtype, WPath: wpath, HasDoc: hasDoc}
		s, err := w.Build()
		if err != nil {
			return
		}
		back, err := Parse(s)
		if err != nil {
			t.Fatalf("Build(%+v) = %q: %v", w, s, err)
		}
		want := w
		if !hasSearch {
			want.Search = ""
		}
		if !hasDoc {
			want.WType, want.WPath = "", ""
		}
		if *back != want {
			t.Fatalf("Build(%+v) = %q, read back as %+v", w, s, *back)
		}
		if u, _ := locator.Parse(s); !u.Conforms() {
			t.Fatalf("Build(%+v) = %q does not conform: %v", w, s, u.Problems())
		}
	})
}

func ExampleParse() {
	w, err := Parse("wais://quake.think.com/wais-discussion-archives?lynch")
	if err != nil {
		panic(err)
	}
	fmt.Println(w.Database, w.Search)
	// Output: wais-discussion-archives lynch
}

func ExampleURL_Build() {
	s, _ := (&URL{Host: "h", Database: "db", WType: "TEXT", WPath: "0/1", HasDoc: true}).Build()
	fmt.Println(s)
	// Output: wais://h/db/TEXT/0%2F1
}
