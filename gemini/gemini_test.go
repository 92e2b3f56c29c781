package gemini_test

import (
	"errors"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/gemini"
	"github.com/rfc1738/locator/internal/loctest"
)

func TestRegistered(t *testing.T) {
	if info, ok := access.Lookup("gemini"); !ok || info.DefaultPort != 1965 || info.Resume {
		t.Errorf("access.Lookup(gemini) = %+v %v", info, ok)
	}
	if syn, ok := locator.SchemeSyntax("gemini"); !ok || syn.DefaultPort != 1965 || !syn.Internet || !syn.Search || !syn.Hierarchical {
		t.Errorf("syntax %+v %v", syn, ok)
	}
	if locator.Lookup("gemini") == nil {
		t.Error("no rules")
	}
}

func TestParseBuild(t *testing.T) {
	for _, c := range []struct {
		in   string
		want gemini.URL
		out  string
	}{
		{"gemini://example.org", gemini.URL{Host: "example.org"}, "gemini://example.org"},
		{"gemini://example.org/", gemini.URL{Host: "example.org", Segments: []string{""}}, "gemini://example.org/"},
		{"gemini://h:1966/a%2Fb/c%20d?x%20y#frag", gemini.URL{Host: "h", Port: "1966", Segments: []string{"a/b", "c d"}, Search: "x y", HasSearch: true}, "gemini://h:1966/a%2Fb/c%20d?x%20y"},
		{"GEMINI://h?q", gemini.URL{Host: "h", Search: "q", HasSearch: true}, "gemini://h/?q"},
	} {
		g, err := gemini.Parse(c.in)
		if err != nil {
			t.Fatalf("%s: %v", c.in, err)
		}
		if !reflect.DeepEqual(*g, c.want) {
			t.Errorf("%s: %+v, want %+v", c.in, *g, c.want)
		}
		s, err := g.Build()
		if err != nil || s != c.out {
			t.Errorf("%s: Build %q %v, want %q", c.in, s, err, c.out)
		}
	}
	if _, err := gemini.Parse("gopher://h/"); err == nil {
		t.Error("gopher URL read as gemini")
	}
	var se *locator.SchemeError
	if _, err := (&gemini.URL{}).Build(); !errors.As(err, &se) || se.Field != "host" {
		t.Errorf("no host: %v", err)
	}
	long := &gemini.URL{Host: "h", Segments: []string{strings.Repeat("x", 1100)}}
	if _, err := long.Build(); !errors.As(err, &se) || se.Rule != "request" || se.Offset != 1024 {
		t.Errorf("long: %v", err)
	}
}

func TestRules(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"gemini://h/a?b", nil},
		{"gemini://user:pw@h/", []string{"9 violation geminiurl"}},
		{"gemini:///a", []string{"9 violation host"}},
		{"gemini://h/" + strings.Repeat("a", 1020), []string{"1024 violation request"}},
	} {
		u, err := locator.Parse(c.in)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, p := range u.Problems() {
			if p.Severity >= locator.Violation {
				got = append(got, strings.Join([]string{itoa(p.Offset), p.Severity.String(), p.Rule}, " "))
			}
		}
		if strings.Join(got, ",") != strings.Join(c.want, ",") {
			t.Errorf("%s: %q, want %q (%v)", c.in, got, c.want, u.Problems())
		}
	}
	u := loctest.MustParse(t, "gemini://h/a?b#c")
	e := locator.Lookup("gemini").(locator.Explainer).Explain(u)
	for _, s := range []string{`"gemini://h/a?b\r\n"`, "port 1965", "fragment is not sent", "first use"} {
		if !strings.Contains(e, s) {
			t.Errorf("Explain lacks %q: %s", s, e)
		}
	}
	if p := locator.Lookup("gemini").Parts(u).(gemini.Parts); *p.Path != "a" || *p.Search != "b" {
		t.Errorf("parts %+v", p)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

func TestCheckRefuses(t *testing.T) {
	g := &gemini.Client{Insecure: true}
	for _, c := range []struct{ in, rule string }{
		{"gemini://user:pw@h/", "Gemini §1.2"},
		{"gemini:/nohost", "geminiurl"},
		{"gemini:///nohost", "geminiurl"},
	} {
		err := g.Check(loctest.MustParse(t, c.in), nil)
		var pe *access.PolicyError
		if !errors.As(err, &pe) || pe.Rule != c.rule {
			t.Errorf("%s: %v, want rule %q", c.in, err, c.rule)
		}
	}
}

func TestLinks(t *testing.T) {
	doc := "# T\r\n=> a.gmi  A  doc \r\n=>\t/b\n=>\n```\n=> c\n```alt\n=> gemini://x/ \n=> %zz:bad\n=> ../d" +
		"\n=> " + strings.Repeat("e", gemini.MaxLine) + "\n=> f"
	base := loctest.MustParse(t, "gemini://h/dir/index.gmi")
	var got []string
	err := gemini.Links(strings.NewReader(doc), base, func(l gemini.Link) error {
		s := itoa(l.Line) + " " + l.Ref[:min(len(l.Ref), 8)] + " [" + l.Name + "] "
		if l.Err != nil {
			s += "error"
		} else {
			s += l.URL.String()
		}
		got = append(got, s)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"2 a.gmi [A  doc] gemini://h/dir/a.gmi",
		"3 /b [] gemini://h/b",
		"8 gemini:/ [] gemini://x/",
		"9 %zz:bad [] gemini://h/dir/%zz:bad",
		"10 ../d [] gemini://h/d",
		"11 eeeeeeee [] error",
		"12 f [] gemini://h/dir/f",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("links:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Without a base, a relative link names no URL.
	n := 0
	if err := gemini.Links(strings.NewReader("=> rel\n=> gemini://h/abs\n"), nil, func(l gemini.Link) error {
		if (l.Line == 1) != (l.Err != nil) {
			t.Errorf("no base: %+v", l)
		}
		n++
		return nil
	}); err != nil || n != 2 {
		t.Errorf("no base: %d links, %v", n, err)
	}
	stop := errors.New("stop")
	if err := gemini.Links(strings.NewReader(doc), base, func(gemini.Link) error { return stop }); err != stop {
		t.Errorf("emit's error: %v", err)
	}
}

func TestLines(t *testing.T) {
	doc := "# One\n## Two\n#### Four\n* item\n*not\n> quote\n=>\n=> x y\n```alt\n# pre\n=> pre\n```\nend"
	var got []string
	err := gemini.Lines(strings.NewReader(doc), loctest.MustParse(t, "gemini://h/"), func(l gemini.Line) error {
		got = append(got, strconv.Itoa(l.Number)+" "+strconv.Itoa(int(l.Type))+" "+strconv.Itoa(l.Level)+" "+l.Text)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"1 4 1 One", "2 4 2 Two", "3 4 3 # Four", "4 5 0 item", "5 0 0 *not", "6 6 0 quote", "7 0 0 =>", "8 1 0 y",
		"9 2 0 alt", "10 3 0 # pre", "11 3 0 => pre", "12 2 0 ", "13 0 0 end"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("lines:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	var cut gemini.Line
	gemini.Lines(strings.NewReader(strings.Repeat("t", gemini.MaxLine+10)+"\nnext"), nil, func(l gemini.Line) error {
		if l.Number == 1 {
			cut = l
		}
		return nil
	})
	if !cut.Cut || len(cut.Text) != gemini.MaxLine {
		t.Errorf("a long line: cut %v, %d octets", cut.Cut, len(cut.Text))
	}
}
