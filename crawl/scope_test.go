package crawl

import (
	"regexp"
	"testing"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	lhttp "github.com/rfc1738/locator/http"
)

// TestScope: which links each Scope follows, from the seed
// http://www.example.org/docs/index.html, and Include and Exclude.
func TestScope(t *testing.T) {
	seed := "http://www.example.org/docs/index.html"
	for _, tc := range []struct {
		scope Scope
		url   string
		want  string
	}{
		{ScopePrefix, "http://www.example.org/docs/a/b.html", ""},
		{ScopePrefix, "http://WWW.Example.ORG:8080/docs/x", ""}, // the host, any port
		{ScopePrefix, "ftp://www.example.org/docs/x", ""},       // any scheme
		{ScopePrefix, "gopher://www.example.org/0/docs/x", ""},  // the selector, after the type
		{ScopePrefix, "gopher://www.example.org/1/other", "scope"},
		{ScopePrefix, "http://www.example.org/doc", "scope"},
		{ScopePrefix, "http://example.org/docs/x", "scope"},
		{ScopeHost, "http://www.example.org/other", ""},
		{ScopeHost, "http://ftp.example.org/", "scope"},
		{ScopeDomain, "http://ftp.example.org/", ""},
		{ScopeDomain, "http://example.org/", ""},
		{ScopeDomain, "http://a.b.example.org/", ""},
		{ScopeDomain, "http://example.com/", "scope"},
		{ScopeDomain, "http://badexample.org/", "scope"},
		{ScopeAny, "http://example.com/", ""},
		{ScopeAny, "telnet://example.com/", "session"},
		{ScopeAny, "tn3270://example.com/", "session"},
	} {
		cr := &crawl{c: &Crawler{Scope: tc.scope}, seeds: []*locator.URL{parse(t, seed)}}
		u, err := Key(parse(t, tc.url))
		if err != nil {
			t.Fatal(err)
		}
		if got := cr.scope(u); got != tc.want {
			t.Errorf("%s %s: %q, want %q", tc.scope, tc.url, got, tc.want)
		}
	}
	cr := &crawl{c: &Crawler{Scope: ScopeAny, Include: []*regexp.Regexp{regexp.MustCompile(`\.html$`)},
		Exclude: []*regexp.Regexp{regexp.MustCompile(`/private/`)}}, seeds: []*locator.URL{parse(t, seed)}}
	for url, want := range map[string]string{
		"http://a.example/x.html":         "",
		"http://a.example/x.txt":          "include",
		"http://a.example/private/x.html": "exclude",
	} {
		if got := cr.scope(parse(t, url)); got != want {
			t.Errorf("%s: %q, want %q", url, got, want)
		}
	}
	// An address is its own domain.
	cr = &crawl{c: &Crawler{Scope: ScopeDomain}, seeds: []*locator.URL{parse(t, "http://127.0.0.1/")}}
	if got := cr.scope(parse(t, "http://10.0.0.1/")); got != "scope" {
		t.Errorf("address domain: %q", got)
	}
}

func TestParseScope(t *testing.T) {
	for i, n := range []string{"prefix", "HOST", "domain", "any"} {
		s, err := ParseScope(n)
		if err != nil || s != Scope(i) {
			t.Errorf("%s: %v %v", n, s, err)
		}
	}
	if _, err := ParseScope("site"); err == nil {
		t.Error("unknown scope accepted")
	}
	if Scope(9).String() != "Scope(9)" || ScopeDomain.String() != "domain" {
		t.Error("String")
	}
}

// TestKey: the key of a URL is its normal form without the fragment.
func TestKey(t *testing.T) {
	for in, want := range map[string]string{
		"HTTP://Example.ORG:80/a/./b#frag": "http://example.org/a/b",
		"gopher://h:70/1/x":                "gopher://h/1/x",
		"ftp://h/pub/":                     "ftp://h/pub/",
	} {
		k, err := Key(parse(t, in))
		if err != nil || k.String() != want {
			t.Errorf("%s: %v %v, want %s", in, k, err, want)
		}
	}
}

// TestUserAgent: a crawl's Client names the crawler in its http and
// https requests unless the Client given names an http client of its
// own, which is kept.
func TestUserAgent(t *testing.T) {
	for _, c := range []*access.Client{nil, {}, {Schemes: map[string]access.Fetcher{"ftp": nil}}} {
		n := withHTTP(c, "")
		for _, s := range []string{"http", "https"} {
			h, ok := n.Schemes[s].(*lhttp.Client)
			if !ok || h.Header.Get("User-Agent") != "locator (RFC 1738 crawler)" {
				t.Errorf("%v: %s client %+v", c, s, n.Schemes[s])
			}
		}
	}
	own := &lhttp.Client{}
	c := &access.Client{Schemes: map[string]access.Fetcher{"http": own}}
	n := withHTTP(c, "slowbot")
	if n.Schemes["http"] != own || n.Schemes["https"].(*lhttp.Client).Header.Get("User-Agent") != "slowbot (RFC 1738 crawler)" || c.Schemes["https"] != nil {
		t.Errorf("own http client: %+v; the Client given: %+v", n.Schemes, c.Schemes)
	}
}
