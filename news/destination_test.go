package news_test

import (
	"testing"

	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/internal/loctest"
	"github.com/rfc1738/locator/news"
)

// TestDestination: a news URL that names no server is asked of the
// configured news server (RFC 1738 §3.6), which access.Client.Destination
// says (a link checker's per-server bound), its host in lower case; one
// that names its server (draft-gilman) is its own; with no server, or
// one that is not host[:port], there is none.
func TestDestination(t *testing.T) {
	for _, c := range []struct {
		server, url, want string
	}{
		{"News.Example.ORG:1119", "news:comp.lang.go", "news.example.org"},
		{"[::1]:119", "news:<a@b>", "::1"},
		{"news.example.org", "news://Other.example:119/comp.lang.go", "other.example"},
		{"", "news:comp.lang.go", ""},
		{"a b:119", "news:comp.lang.go", ""},
	} {
		ac := &access.Client{Schemes: map[string]access.Fetcher{"news": &news.Client{Server: c.server}}}
		if got := ac.Destination(loctest.MustParse(t, c.url)); got != c.want {
			t.Errorf("server %q, %s: %q, want %q", c.server, c.url, got, c.want)
		}
	}
}
