package news

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

func TestFrom(t *testing.T) {
	tests := []struct {
		in   string
		want URL
	}{
		{"news:*", URL{Scheme: "news", All: true}},
		{"news:comp.infosystems.www.misc", URL{Scheme: "news", Group: "comp.infosystems.www.misc"}},
		{"news:alt.adoptive.parenting", URL{Scheme: "news", Group: "alt.adoptive.parenting"}},
		{"news:EFGJG4.7A@deshaw.com", URL{Scheme: "news", Article: "EFGJG4.7A@deshaw.com"}},
		{"news:a%40b@c.d", URL{Scheme: "news", Article: "a@b@c.d"}},
		{"news:x?y@c.d", URL{Scheme: "news", Article: "x?y@c.d"}},
		{"news:<1234@a.sn.no>", URL{Scheme: "news", Article: "1234@a.sn.no"}},
		// draft-gilman's forms.
		{"news://binky.capnet.state.tx.us/5rb1or$67v@news.jumpnet.com", URL{Scheme: "news", Host: "binky.capnet.state.tx.us", HasHost: true, Article: "5rb1or$67v@news.jumpnet.com"}},
		{"news://adenine.c.dna.affrc.go.jp/misc.transport.air-industry.cargo", URL{Scheme: "news", Host: "adenine.c.dna.affrc.go.jp", HasHost: true, Group: "misc.transport.air-industry.cargo"}},
		{"news://news.online.no:1119/no.perl/1-10", URL{Scheme: "news", Host: "news.online.no", Port: "1119", HasHost: true, Group: "no.perl", Range: "1-10"}},
		{"news://h/", URL{Scheme: "news", Host: "h", HasHost: true}},
		{"snews://h/x.y", URL{Scheme: "snews", Host: "h", HasHost: true, Group: "x.y"}},
	}
	for _, tt := range tests {
		n, err := Parse(tt.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.in, err)
			continue
		}
		if *n != tt.want {
			t.Errorf("Parse(%q) = %+v, want %+v", tt.in, *n, tt.want)
		}
	}
	_, err := Parse("nntp://h/g")
	if se, ok := err.(*locator.SchemeError); !ok || se.Scheme != "news" || se.Field != "url" || se.Rule != "newsurl" {
		t.Errorf("Parse(nntp URL): %v, want a *locator.SchemeError of field url", err)
	}
}

func TestCheck(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"news:*", nil},
		{"news:comp.lang.c++", nil},
		{"news:alt.binaries.x_y-z", nil},
		{"news:perl-faq/module-list-1-794455075@ig.co.uk", nil},
		{"news:a;b/c?d:e&f=g@host.dom", nil},
		{"news:a%40b@c.d", nil},
		{"news:1234@10.0.0.1", nil},
		{"news:3dfx.x", []string{"5 group"}},
		{"news:comp.*", []string{"10 group"}},
		{"news:comp.%41", []string{"10 group"}},
		{"news:", []string{"5 grouppart"}},
		{"news:@host.dom", []string{"5 article"}},
		{"news:a@b@c", []string{"6 article"}},
		{"news:a@b_c", []string{"8 host"}},
		{"news:a@3com", []string{"7 host"}},
		{"news:a@", []string{"7 host"}},
		{"news:a%0D@b.c", []string{"6 article"}},
		{"news:<1@b.c>", []string{"5 urlpath", "5 article", "11 urlpath"}},
		{"news://h/x.y", []string{"5 newsurl"}},
		{"news://h/x.y/12", []string{"5 newsurl", "12 newsurl"}},
		{"news://h/x.y/1-a", []string{"5 newsurl", "12 newsurl", "15 refbygroup"}},
		{"news://h/", []string{"5 newsurl"}},
		{"snews://h/x.y", []string{"0 scheme", "6 newsurl"}},
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
		{"news:*", `{"all":true}`},
		{"news:comp.lang.perl", `{"group":"comp.lang.perl"}`},
		{"news:a%20b@c.d", `{"article":"a b@c.d"}`},
		{"news://h/", `{}`},
	}
	for _, tt := range tests {
		u, err := locator.Parse(tt.in)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(locator.Lookup("news").Parts(u))
		if string(b) != tt.want {
			t.Errorf("Parts(%q) = %s, want %s", tt.in, b, tt.want)
		}
	}
}

func TestPlan(t *testing.T) {
	tests := []struct {
		in   string
		want Plan
	}{
		{"news:*", Plan{Port: 119, Commands: []string{"LIST"}}},
		{"news:comp.lang.perl", Plan{Port: 119, Commands: []string{"GROUP comp.lang.perl"}}},
		{"news:EFGJG4.7A@deshaw.com", Plan{Port: 119, Commands: []string{"ARTICLE <EFGJG4.7A@deshaw.com>"}}},
		{"news://binky.capnet.state.tx.us/5rb1or$67v@news.jumpnet.com", Plan{Host: "binky.capnet.state.tx.us", Port: 119, Commands: []string{"ARTICLE <5rb1or$67v@news.jumpnet.com>"}}},
		{"news://h:1119/x.y/42", Plan{Host: "h", Port: 1119, Commands: []string{"GROUP x.y", "ARTICLE 42"}}},
		{"news://h/", Plan{Host: "h", Port: 119, Commands: []string{"LIST"}}},
		{"snews://h/x.y", Plan{Host: "h", Port: 563, TLS: true, Commands: []string{"GROUP x.y"}}},
	}
	for _, tt := range tests {
		n, err := Parse(tt.in)
		if err != nil {
			t.Fatal(err)
		}
		p, err := n.Plan()
		if err != nil {
			t.Errorf("Plan(%q): %v", tt.in, err)
			continue
		}
		if !reflect.DeepEqual(*p, tt.want) {
			t.Errorf("Plan(%q) = %+v, want %+v", tt.in, *p, tt.want)
		}
	}
	for _, bad := range []string{"news:a%0D%0AQUIT@b.c", "news:a%20b@c.d", "news:3com", "news://h/x.y/1-10"} {
		n, err := Parse(bad)
		if err != nil {
			t.Fatal(err)
		}
		if p, err := n.Plan(); err == nil {
			t.Errorf("Plan(%q) = %+v, want an error", bad, *p)
		} else if _, ok := err.(*locator.SchemeError); !ok {
			t.Errorf("Plan(%q): %T, want *locator.SchemeError", bad, err)
		}
	}
}

func TestBuild(t *testing.T) {
	tests := []struct {
		n    URL
		want string
	}{
		{URL{All: true}, "news:*"},
		{URL{Group: "comp.lang.perl.misc"}, "news:comp.lang.perl.misc"},
		{URL{Article: "<1234@a.sn.no>"}, "news:1234@a.sn.no"},
		{URL{Article: "a b@c@d.e"}, "news:a%20b%40c@d.e"},
		{URL{Host: "news.online.no", Group: "comp.lang.perl.misc"}, "news://news.online.no/comp.lang.perl.misc"},
		{URL{Host: "h", Port: "1119", Group: "x.y", Range: "1-10"}, "news://h:1119/x.y/1-10"},
		{URL{Scheme: "snews", Host: "h"}, "snews://h/"},
	}
	for _, tt := range tests {
		s, err := tt.n.Build()
		if err != nil || s != tt.want {
			t.Errorf("Build(%+v) = %q, %v; want %q", tt.n, s, err, tt.want)
		}
	}
	for _, bad := range []URL{{}, {Group: "3com"}, {Group: "a", All: true}, {Article: "nohost"}, {Article: "a@b_c"}, {Host: "bad host", All: true}, {Group: "a", Range: "x"}, {Scheme: "nntp", All: true}, {Article: "\x00@A"}, {Article: "a\r\nQUIT@b"}} {
		if s, err := bad.Build(); err == nil {
			t.Errorf("Build(%+v) = %q, want an error", bad, s)
		} else if _, ok := err.(*locator.SchemeError); !ok {
			t.Errorf("Build(%+v): %T, want *locator.SchemeError", bad, err)
		}
	}
}

// TestNormativeExamples: RFC 1738 §3.6, news:* is all available groups.
func TestNormativeExamples(t *testing.T) {
	n := 0
	for _, r := range loctest.ReadTSV(t, "rfc", "rfc1738-normative-examples.tsv") {
		if len(r) < 4 || !strings.HasPrefix(r[1], "news:") {
			continue
		}
		u, err := Parse(r[1])
		if err != nil {
			t.Fatal(err)
		}
		if r[3] != "all available news groups" || !u.All {
			t.Errorf("%s: %+v, want %s", r[1], *u, r[3])
		}
		n++
	}
	if n != 1 {
		t.Errorf("%d news rows, want 1", n)
	}
}

// TestPerlURI checks the news rows of libwww-perl URI's news.t and
// old-base.t. Principled differences, counted and listed in docs:
//   - Perl's group of news://host/no.perl/1-10 is the list (no.perl, 1,
//     10); ours is group "no.perl" with Range "1-10" (draft-gilman, beyond
//     RFC 1738);
//   - Perl reads group "*" for news:*; ours is All (grouppart "*" is no
//     group name);
//   - nntp (the other engineer's package), and nntps (in no text) rows
//     are not ours.
func TestPerlURI(t *testing.T) {
	n := 0
	for _, r := range loctest.ReadTSV(t, "perl-uri", "extracted", "scheme_components_handwritten.tsv") {
		if len(r) < 4 || !strings.HasPrefix(r[1], "news:") && !strings.HasPrefix(r[1], "snews:") {
			continue
		}
		in, acc, want := r[1], r[2], r[3]
		var got []string
		switch {
		case strings.Contains(in, " + host("):
			// news:comp.lang.perl.misc + host("news.online.no") -> as_string, port
			s, err := (&URL{Host: "news.online.no", Group: "comp.lang.perl.misc"}).Build()
			if err != nil {
				t.Fatal(err)
			}
			got = []string{s, strconv.Itoa(planPort(t, s))}
		case strings.Contains(in, " + article("):
			s, err := (&URL{Article: "<1234@a.sn.no>"}).Build()
			if err != nil {
				t.Fatal(err)
			}
			got = []string{s}
		case strings.HasPrefix(acc, "crack"):
			v, err := locator.Parse(in)
			if err != nil {
				t.Fatal(err)
			}
			opt := func(s string, has bool) string {
				if !has {
					return "UNDEF"
				}
				return s
			}
			got = []string{strings.Join([]string{v.Scheme(), opt(v.User(), v.HasUser()), opt(v.Password(), v.HasPassword()),
				opt(v.Host(), v.HasAuthority()), strconv.Itoa(planPort(t, in)), v.Path(), "UNDEF",
				opt(v.Search(), v.HasSearch()), opt(v.Fragment(), v.HasFragment())}, "*")}
		default:
			u, err := Parse(in)
			if err != nil {
				t.Fatal(err)
			}
			for _, a := range strings.Split(strings.TrimSuffix(acc, " (list)"), ",") {
				switch a {
				case "group":
					if u.Range != "" {
						got = append(got, u.Group+","+strings.ReplaceAll(u.Range, "-", ","))
					} else {
						got = append(got, undef(u.Group))
					}
				case "message":
					got = append(got, undef(u.Article))
				case "port":
					got = append(got, strconv.Itoa(planPort(t, in)))
				case "host":
					got = append(got, u.Host)
				case "as_string":
					v, _ := locator.Parse(in)
					got = append(got, v.String())
				default:
					t.Fatalf("accessor %q", a)
				}
			}
		}
		if strings.Join(got, "|") != want {
			t.Errorf("%s %s = %q, want %q", in, acc, strings.Join(got, "|"), want)
		}
		n++
	}
	for _, r := range loctest.ReadTSV(t, "perl-uri", "extracted", "old-base_scheme_parse.tsv") {
		if len(r) < 3 || !strings.HasPrefix(r[0], "news:") {
			continue
		}
		u, err := Parse(r[0])
		if err != nil {
			t.Fatal(err)
		}
		var got string
		switch r[1] {
		case "groupart", "group":
			got = u.Group
			if u.All {
				got = "*" // Perl's group "*" is our All
			}
		case "article":
			got = u.Article
		case "as_string":
			v, _ := locator.Parse(r[0])
			got = v.String()
		}
		if got != r[2] {
			t.Errorf("%s %s = %q, want %q", r[0], r[1], got, r[2])
		}
		n++
	}
	if n != 12 {
		t.Errorf("%d Perl URI news rows checked, want 12", n)
	}
}

func undef(s string) string {
	if s == "" {
		return "<undef>"
	}
	return s
}

func planPort(t *testing.T, s string) int {
	u, err := Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	p, err := u.Plan()
	if err != nil {
		t.Fatal(err)
	}
	return p.Port
}

// FuzzParse reads any text as a URL and, for news URLs, applies the
// package's functions: none may panic, problem offsets lie in the input,
// a plan's commands hold no CR, LF or NUL. Then the URL's exported fields
// are overwritten with fuzzed values: From, Plan and the
// rules must not panic, and must answer as on the URL its String reads
// back as.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"news:*", "news:comp.lang.c++", "news:a%40b@c.d", "news://h:1/x/1-2", "news:<a@b>", "news:%3Ca@b%3E", "snews:x", "news:@"} {
		f.Add(s, "", "", "", "", "", "", "", uint16(0))
	}
	f.Add("news:a.b", "u", "p", "h", "119", "x@y", "q", "f", uint16(0x7fff))
	f.Add("news://h/a.b/1-2", "", "", "", "", "c.d", "", "", uint16(1<<4|1<<7))
	f.Fuzz(func(t *testing.T, s, user, pass, host, port, path, search, frag string, mask uint16) {
		u, err := locator.Parse(s)
		if err != nil || (u.Scheme() != "news" && u.Scheme() != "snews") {
			return
		}
		for _, p := range u.Problems() {
			if p.Offset < 0 || p.Offset > len(s) {
				t.Fatalf("%q: offset %d out of range: %v", s, p.Offset, p)
			}
		}
		n, err := From(u)
		if err != nil {
			t.Fatal(err)
		}
		if p, err := n.Plan(); err == nil {
			for _, c := range p.Commands {
				if strings.ContainsAny(c, "\r\n\x00") {
					t.Fatalf("%q: command %q", s, c)
				}
			}
		}
		m := loctest.Mutation{User: user, Password: pass, Host: host, Port: port, Path: path, Search: search, Fragment: frag, Mask: mask}
		loctest.CheckMutated(t, u, m, view)
	})
}

// view writes what the package's accessors answer for u.
func view(u *locator.URL) string {
	n, err := From(u)
	if err != nil {
		return "from: " + err.Error()
	}
	s := fmt.Sprintf("from %#v\n", *n)
	if n.Group != "" {
		s += fmt.Sprintf("group %v\n", checkGroup(n.Group))
	}
	if p, err := n.Plan(); err != nil {
		s += "plan: " + err.Error() + "\n"
	} else {
		s += fmt.Sprintf("plan %#v\n", *p)
	}
	return s
}

// FuzzBuild: build then parse returns the same components, and the URL
// conforms to RFC 1738 unless it has a host or a range: those are
// draft-gilman's news://host/ and group/range forms, which Parse reports
// as beyond RFC 1738 (§3.6 has neither).
func FuzzBuild(f *testing.F) {
	f.Add("", "", "comp.lang.perl", "", false, "")
	f.Add("h", "119", "", "a b@c.d", false, "")
	f.Add("", "", "", "", true, "")
	f.Add("h", "", "x.y", "", false, "1-2")
	f.Fuzz(func(t *testing.T, host, port, group, article string, all bool, rng string) {
		n := URL{Host: host, Port: port, Group: group, Article: article, All: all, Range: rng}
		s, err := n.Build()
		if err != nil {
			return
		}
		back, err := Parse(s)
		if err != nil {
			t.Fatalf("Build(%+v) = %q: %v", n, s, err)
		}
		want := n
		want.Scheme = "news"
		want.HasHost = host != ""
		if len(article) >= 2 && article[0] == '<' && article[len(article)-1] == '>' {
			want.Article = article[1 : len(article)-1]
		}
		if *back != want {
			t.Fatalf("Build(%+v) = %q, read back as %+v", n, s, *back)
		}
		if host == "" && rng == "" {
			if u, _ := locator.Parse(s); !u.Conforms() {
				t.Fatalf("Build(%+v) = %q, which does not conform: %v", n, s, u.Problems())
			}
		}
	})
}

func ExampleParse() {
	n, err := Parse("news:perl-faq/module-list-1-794455075@ig.co.uk")
	if err != nil {
		panic(err)
	}
	p, _ := n.Plan()
	fmt.Println(n.Article)
	fmt.Println(p.Commands)
	// Output:
	// perl-faq/module-list-1-794455075@ig.co.uk
	// [ARTICLE <perl-faq/module-list-1-794455075@ig.co.uk>]
}

func ExampleURL_Build() {
	s, _ := (&URL{Article: "<1234@a.sn.no>"}).Build()
	fmt.Println(s)
	// Output: news:1234@a.sn.no
}
