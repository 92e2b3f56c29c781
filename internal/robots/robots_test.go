package robots

import (
	"regexp"
	"strings"
	"testing"
	"time"
)

// The file of RFC 9309 §5.1.
const simple = `User-Agent: *
Disallow: *.gif$
Disallow: /example/
Allow: /publications/

User-Agent: foobot
Disallow:/
Allow:/example/page.html
Allow:/example/allowed.gif

User-Agent: barbot
User-Agent: bazbot
Disallow: /example/page.html

User-Agent: quxbot


EOF
`

func TestRFCExamples(t *testing.T) {
	r := Parse([]byte(simple))
	for _, tc := range []struct {
		agent, path string
		want        bool
	}{
		// "*": /publications/ allowed, /example/ and every .gif not.
		{"otherbot", "/publications/x.html", true},
		{"otherbot", "/example/a.html", false},
		{"otherbot", "/a/b.gif", false},
		{"otherbot", "/a/b.gif?x", true}, // "$": the pattern ends the path
		{"otherbot", "/other", true},
		// foobot: only the two paths.
		{"foobot", "/example/page.html", true},
		{"FooBot", "/example/allowed.gif", true},
		{"foobot", "/example/other.html", false},
		{"foobot", "/", false},
		// barbot and bazbot: all but /example/page.html.
		{"barbot", "/example/page.html", false},
		{"bazbot", "/example/page.html", false},
		{"bazbot", "/example/page.htm", true},
		{"bazbot", "/publications/x.gif", true},
		// quxbot: an empty group, no rules.
		{"quxbot", "/example/page.html", true},
		{"quxbot", "/a.gif", true},
		// /robots.txt is always allowed.
		{"foobot", "/robots.txt", true},
	} {
		if got := r.For(tc.agent).Allowed(tc.path); got != tc.want {
			t.Errorf("%s %s: %v, want %v", tc.agent, tc.path, got, tc.want)
		}
	}
	// §5.2: the longest match wins.
	r = Parse([]byte("User-Agent: foobot\nAllow: /example/page/\nDisallow: /example/page/disallowed.gif\n"))
	if r.For("foobot").Allowed("/example/page/disallowed.gif") {
		t.Error("§5.2: the longer disallow rule does not win")
	}
	if !r.For("foobot").Allowed("/example/page/x.gif") {
		t.Error("§5.2: the allow rule does not apply")
	}
}

func TestMerge(t *testing.T) {
	// §2.2.1 Figure 2: two groups for one token are combined; Figure 3:
	// "*" applies only when no group names the token.
	r := Parse([]byte("user-agent: ExampleBot\ndisallow: /foo\ndisallow: /bar\n\nuser-agent: ExampleBot\ndisallow: /baz\n" +
		"user-agent: *\ndisallow: /star\n"))
	ex := r.For("examplebot")
	for p, want := range map[string]bool{"/foo": false, "/bar/x": false, "/baz": false, "/star": true, "/q": true} {
		if ex.Allowed(p) != want {
			t.Errorf("examplebot %s: %v", p, !want)
		}
	}
	if r.For("other").Allowed("/star") || !r.For("other").Allowed("/foo") {
		t.Error("other bot does not get the * group")
	}
}

func TestSyntax(t *testing.T) {
	for _, tc := range []struct {
		name, file, path string
		want             bool
	}{
		{"rules before any user-agent are ignored", "Disallow: /\nUser-agent: *\nAllow: /x\n", "/a", true},
		{"empty disallow matches nothing", "User-agent: *\nDisallow:\n", "/a", true},
		{"comment", "User-agent: * # all\nDisallow: /a # not a\n", "/a", false},
		{"CR line ends", "User-agent: *\rDisallow: /a\r", "/ab", false},
		{"keys in any case, spaces", "  USER-AGENT :  *  \n\tDISALLOW\t:\t/a\n", "/a", false},
		{"token with version", "User-agent: Locator/1.0\nDisallow: /\n", "/x", false},
		{"equal length: allow wins", "User-agent: *\nDisallow: /a\nAllow: /a\n", "/a", true},
		{"star in the middle", "User-agent: *\nDisallow: /a/*/c\n", "/a/b/x/c/d", false},
		{"star does not match a shorter path", "User-agent: *\nDisallow: /a/*/c\n", "/a/c", true},
		{"dollar anchors", "User-agent: *\nDisallow: /a$\n", "/a/", true},
		{"dollar matches exactly", "User-agent: *\nDisallow: /a$\n", "/a", false},
		{"query is matched", "User-agent: *\nDisallow: /*?\n", "/cal?y=1", false},
		{"case sensitive", "User-agent: *\nDisallow: /A\n", "/a", true},
		{"escape of unreserved decoded", "User-agent: *\nDisallow: /foo/bar/baz\n", "/foo/bar/%62%61%7A", false},
		{"non-ASCII encoded", "User-agent: *\nDisallow: /foo/bar/ツ\n", "/foo/bar/%E3%83%84", false},
		{"escaped star is literal", "User-agent: *\nDisallow: /file-%2A.html\n", "/file-%2a.html", false},
		{"sitemap does not end a group", "User-agent: a\nSitemap: http://x/s.xml\nUser-agent: b\nDisallow: /\n", "/x", true},
		{"other record after rules ends nothing", "User-agent: locator\nDisallow: /x\nFoo: bar\nDisallow: /y\n", "/y", false},
		{"BOM", "\xef\xbb\xbfUser-agent: *\nDisallow: /\n", "/a", false},
	} {
		got := Parse([]byte(tc.file)).For("locator").Allowed(tc.path)
		if got != tc.want {
			t.Errorf("%s: %s: %v, want %v", tc.name, tc.path, got, tc.want)
		}
	}
	// "Sitemap" between two user-agent lines leaves them one group.
	r := Parse([]byte("User-agent: a\nSitemap: http://x/s.xml\nUser-agent: locator\nDisallow: /\n"))
	if r.For("a").Allowed("/x") {
		t.Error("user-agent lines around a Sitemap are not one group")
	}
	if len(r.Sitemaps) != 1 || r.Sitemaps[0] != "http://x/s.xml" {
		t.Errorf("sitemaps %q", r.Sitemaps)
	}
}

func TestCrawlDelay(t *testing.T) {
	r := Parse([]byte("User-agent: *\nCrawl-delay: 2.5\nDisallow: /x\nUser-agent: other\nCrawl-delay: 9\n"))
	rs := r.For("locator")
	if !rs.HasDelay || rs.CrawlDelay != 2500*time.Millisecond || rs.Allowed("/x") {
		t.Errorf("delay %v %v, /x %v", rs.HasDelay, rs.CrawlDelay, rs.Allowed("/x"))
	}
	if rs := Parse([]byte("User-agent: *\nCrawl-delay: soon\n")).For("l"); rs.HasDelay {
		t.Error("unreadable crawl-delay taken")
	}
}

func TestLimit(t *testing.T) {
	// A rule past MaxSize is not read.
	pad := "# " + strings.Repeat("x", MaxSize) + "\n"
	r := Parse([]byte("User-agent: *\nDisallow: /a\n" + pad + "Disallow: /b\n"))
	if r.For("l").Allowed("/a") || !r.For("l").Allowed("/b") {
		t.Error("the parse limit is not MaxSize")
	}
	if DisallowAllRules.Allowed("/a") || !DisallowAllRules.Allowed("/robots.txt") || !AllowAll.Allowed("/a") {
		t.Error("AllowAll / DisallowAllRules")
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(simple), "/example/page.html")
	f.Add([]byte("User-agent: *\nDisallow: /a/*/*/*$\nAllow: /%zz%4\n"), "/a/b/c%")
	f.Fuzz(func(t *testing.T, file []byte, path string) {
		rs := Parse(file).For("locator")
		a := rs.Allowed(path)
		// A file without a disallow rule allows every path.
		if !strings.Contains(strings.ToLower(string(file)), "disallow") && !a {
			t.Fatalf("%q disallowed without a disallow rule", path)
		}
		// A rule that is the path itself, written without special
		// characters, disallows it (the parser must not lose it).
		if strings.HasPrefix(path, "/") && !strings.ContainsAny(path, "*$#\r\n \t") && path != "/robots.txt" {
			if Parse([]byte("User-agent: *\nDisallow: " + path + "\n")).For("locator").Allowed(path) {
				t.Fatalf("Disallow: %s does not disallow it", path)
			}
		}
	})
}

// TestMatchLinear: RFC 9309 §2.5 and §3 have a crawler protect itself
// from the robots.txt it reads. 504 rules like "/*aaa…b" against a path
// of 8,000 "a": a backtracking matcher compares some 10^9 octets (3.4 s
// of CPU, issue 42); each rule here compares at most twice the path and
// its pattern.
func TestMatchLinear(t *testing.T) {
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	for i := 1; i <= 504; i++ {
		b.WriteString("Disallow: /*" + strings.Repeat("a", i) + "b\n")
		b.WriteString("Disallow: /*" + strings.Repeat("a", i) + "*b$\n")
	}
	rs := Parse([]byte(b.String())).For("locator")
	p := "/" + strings.Repeat("a", 8000)
	total := 0
	for _, ru := range rs.rules {
		ok, n := ru.m.matchSteps(p)
		if ok {
			t.Errorf("%s matches %d a's", ru.pattern, len(p)-1)
		}
		if bound := 2 * (len(p) + len(ru.pattern)); n > bound {
			t.Errorf("%s: %d octets compared, more than %d", ru.pattern, n, bound)
		}
		total += n
	}
	if !rs.Allowed(p) {
		t.Error("disallowed")
	}
	if len(rs.rules) != 1008 {
		t.Errorf("%d rules", len(rs.rules))
	}
	t.Logf("%d rules, %d octets compared in all", len(rs.rules), total)
}

// TestDedup: §2.2.2 "Duplicate rules in a group MAY be deduplicated":
// the same rule in two merged groups is tried once; an allow and a
// disallow of one pattern are two rules, the allow winning.
func TestDedup(t *testing.T) {
	rs := Parse([]byte("User-agent: l\nDisallow: /a\nDisallow: /a\nUser-agent: l\nDisallow: /a\nAllow: /a\n")).For("l")
	if len(rs.rules) != 2 || !rs.rules[0].allow || !rs.Allowed("/a") {
		t.Errorf("rules %+v", rs.rules)
	}
}

// TestStars: "*" and "$" in every place (§2.2.3).
func TestStars(t *testing.T) {
	for _, tc := range []struct {
		pattern, path string
		want          bool
	}{
		{"*", "/", true},
		{"*$", "/x", true},
		{"**", "/x", true},
		{"/a*$", "/abc", true},
		{"/a*$", "/b", false},
		{"/a*c$", "/abc", true},
		{"/a*c$", "/ac", true},
		{"/a*c$", "/abcd", false},
		{"/ab*bc$", "/abc", false}, // the pieces may not overlap
		{"/ab*bc$", "/abbc", true},
		{"/*a*b*c", "/xaybzc", true},
		{"/*a*b*c", "/xaybz", false},
		{"/*aab", "/aaaab", true}, // a failure table's way back
		{"/*abab", "/abaabab", true},
		{"/a$b", "/a$b", true}, // "$" only ends a pattern at its end
		{"/a$", "/a", true},
		{"$", "/", false},
	} {
		if got := compile(tc.pattern).match(tc.path); got != tc.want {
			t.Errorf("%q against %q: %v, want %v", tc.pattern, tc.path, got, tc.want)
		}
		if got := oracle(tc.pattern, tc.path); got != tc.want {
			t.Errorf("oracle: %q against %q: %v, want %v", tc.pattern, tc.path, got, tc.want)
		}
	}
}

// oracle is the reference matcher FuzzMatch holds the matcher to: the
// pattern made a regular expression (RE2, linear itself), "*" as ".*".
func oracle(pattern, p string) bool {
	anchored := strings.HasSuffix(pattern, "$")
	pattern = strings.TrimSuffix(pattern, "$")
	pieces := strings.Split(pattern, "*")
	for i := range pieces {
		pieces[i] = regexp.QuoteMeta(pieces[i])
	}
	re := "(?s)^" + strings.Join(pieces, ".*")
	if anchored {
		re += "$"
	}
	return regexp.MustCompile(re).MatchString(p)
}

// FuzzMatch holds Allowed to the simple reading of §2.2.2 and §2.2.3:
// every rule matched by the oracle, the longest pattern deciding, an
// allow winning a tie.
func FuzzMatch(f *testing.F) {
	f.Add([]byte("User-agent: *\nDisallow: /*a*b$\nAllow: /a\n"), "/aab")
	f.Add([]byte("User-agent: *\nDisallow: /*aaab\nAllow: /*$\nDisallow: /%41\n"), "/aaaaab?x")
	f.Add([]byte(simple), "/example/a.gif")
	f.Fuzz(func(t *testing.T, file []byte, path string) {
		if len(file) > 4096 || len(path) > 1024 {
			return // the oracle's regular expressions grow with them
		}
		rs := Parse(file).For("locator")
		got := rs.Allowed(path)
		p := path
		if p == "" {
			p = "/"
		}
		if p == "/robots.txt" {
			if !got {
				t.Fatal("/robots.txt disallowed")
			}
			return
		}
		p = norm(p)
		best, want := -1, true
		for _, ru := range rs.rules {
			ok, steps := ru.m.matchSteps(p)
			if ok != oracle(ru.pattern, p) {
				t.Fatalf("%q against %q: %v, the oracle says %v", ru.pattern, p, ok, !ok)
			}
			if bound := 2 * (len(p) + len(ru.pattern)); steps > bound {
				t.Fatalf("%q against %q: %d octets compared, more than %d", ru.pattern, p, steps, bound)
			}
			if n := len(ru.pattern); ok && (n > best || n == best && ru.allow) {
				best, want = n, ru.allow
			}
		}
		if got != want {
			t.Fatalf("%q: Allowed %v, the longest match says %v", path, got, want)
		}
	})
}
