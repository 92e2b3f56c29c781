package robots

import (
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
