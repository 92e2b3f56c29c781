package gopher

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/internal/loctest"
)

// FuzzParse reads arbitrary gopher URLs: nothing panics, a URL whose
// Check found no violation has a plan, and a plan's request line never
// carries a CR or LF the URL did not place in an ASK block. Then the
// URL's exported fields are overwritten with fuzzed values: From, Plan,
// ParsePlus and the rules must not panic, and must answer as on the URL
// its String reads back as.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"gopher://host", "gopher://h/7foo%09bar%20baz", "gopher://h/1sel%0d%0aINJECT",
		"gopher://h/0s%09%09+%091%0D%0A+-1%0D%0Aa%0D%0A.%0D%0A", "gopher://h/0s%09%09!+A%20+B",
		"gopher://h/0s%09%09+v%20l", "gopher://h/%09%09%09", "gopher://h/0s%09%09+%091%0D%0A+-1%0D",
	} {
		f.Add(s, "", "", "", "", "", "", "", uint16(0))
	}
	f.Add("gopher://h/1x", "u", "p", "h2", "70", "7a%09b%09+", "q", "f", uint16(0x7fff))
	f.Add("gopher://h/1x", "", "", "", "", "0s%09%09+%091%0D%0A+-1%0D%0Aa%0D%0A.%0D%0A", "", "", uint16(1<<4))
	f.Add("gopher://h/", "", "", "::1", "x", "", "", "", uint16(1<<2|1<<3|1<<10))
	f.Fuzz(func(t *testing.T, s, user, pass, host, port, path, search, frag string, mask uint16) {
		u, err := locator.Parse(s)
		if err != nil || u.Scheme() != "gopher" {
			return
		}
		m := loctest.Mutation{User: user, Password: pass, Host: host, Port: port, Path: path, Search: search, Fragment: frag, Mask: mask}
		loctest.CheckMutated(t, u, m, view)
		g, err := From(u)
		if err != nil {
			t.Fatal(err)
		}
		violation := false
		for _, p := range u.Problems() {
			if p.Offset < 0 || p.Offset > len(s) {
				t.Fatalf("problem offset %d outside %q", p.Offset, s)
			}
			if p.Severity >= locator.Violation && (p.Rule == "selector" || p.Rule == "search" || p.Rule == "gopher+_string") {
				violation = true
			}
		}
		p, err := g.Plan()
		if err != nil {
			if !violation && g.Port == "" {
				t.Fatalf("%q: no violation, but Plan: %v", s, err)
			}
			return
		}
		first := p.Request
		if i := bytes.Index(first, []byte("\r\n")); i >= 0 {
			first = first[:i]
		}
		if bytes.ContainsAny(first, "\r\n") {
			t.Fatalf("%q: request line %q holds a bare CR or LF", s, p.Request)
		}
		if g.HasPlus {
			pl, _ := ParsePlus(g.Plus)
			if !pl.HasForm && bytes.Count(p.Request, []byte("\r\n")) != 1 {
				t.Fatalf("%q: request %q has more than one line", s, p.Request)
			}
		} else if bytes.Count(p.Request, []byte("\r\n")) != 1 {
			t.Fatalf("%q: request %q has more than one line", s, p.Request)
		}
	})
}

// view writes what the package's accessors answer for u (errors by rule
// and message: their offsets may refer to the input).
func view(u *locator.URL) string {
	var b strings.Builder
	g, err := From(u)
	if err != nil {
		return "from: " + errView(err)
	}
	fmt.Fprintf(&b, "from %#v\n", *g)
	if g.HasPlus {
		if pl, err := ParsePlus(g.Plus); err != nil {
			b.WriteString("plus: " + errView(err) + "\n")
		} else {
			fmt.Fprintf(&b, "plus %#v %s\n", *pl, pl.String())
		}
	}
	if p, err := g.Plan(); err != nil {
		b.WriteString("plan: " + errView(err) + "\n")
	} else {
		fmt.Fprintf(&b, "plan %#v\n", *p)
	}
	return b.String()
}

func errView(err error) string {
	if e, ok := err.(*locator.SchemeError); ok {
		return fmt.Sprintf("%s %s %d %s %s", e.Scheme, e.Field, e.Offset, e.Rule, e.Message)
	}
	return fmt.Sprintf("%T %v", err, err)
}

// FuzzBuild builds a URL from components and reads it back: the
// components are the same, and the URL conforms to RFC 1738 (Build
// refuses what would not, an IPv6 host included).
func FuzzBuild(f *testing.F) {
	f.Add("h", "", "0", "sel", "", false, "", false)
	f.Add("h", "7070", "7", "a b", "q%", true, "", false)
	f.Add("h", "", "1", "s?#", "", true, "+\t1\r\n+-1\r\nx\r\n.\r\n", true)
	f.Add("h", "", "", "", "", false, "!+A +B", true)
	f.Fuzz(func(t *testing.T, host, port, typ, sel, search string, hasSearch bool, plus string, hasPlus bool) {
		g := URL{Host: host, Port: port, Type: typ, Selector: sel, Search: search, HasSearch: hasSearch, Plus: plus, HasPlus: hasPlus}
		s, err := g.Build()
		if err != nil {
			return
		}
		h, err := Parse(s)
		if err != nil {
			t.Fatalf("Build(%+v) = %q, which does not parse: %v", g, s, err)
		}
		want := g
		if want.Type == "" {
			want.Type = "1"
		}
		if want.HasPlus {
			want.HasSearch = true
		}
		if !want.HasSearch {
			want.Search = ""
		}
		if !want.HasPlus {
			want.Plus = ""
		}
		if *h != want {
			t.Fatalf("Build(%+v) = %q, read back as %+v", g, s, *h)
		}
		u, _ := locator.Parse(s)
		if !u.Conforms() {
			t.Fatalf("Build(%+v) = %q, which does not conform: %v", g, s, u.Problems())
		}
	})
}
