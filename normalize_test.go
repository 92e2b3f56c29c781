package locator_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/rfc1738/locator"
)

func TestNormalize(t *testing.T) {
	for _, tc := range []struct{ in, want, why string }{
		{"HTTP://WWW.Example.COM/a", "http://www.example.com/a", "scheme and host in lower case"},
		{"http://h:80/a", "http://h/a", "default port removed"},
		{"http://h:/a", "http://h/a", "empty port removed"},
		{"http://h:0080/a", "http://h/a", "the port is a number"},
		{"http://h:8080/a", "http://h:8080/a", "another port kept"},
		{"ftp://h:21/a", "ftp://h/a", ""},
		{"gopher://h:70/1x", "gopher://h/1x", ""},
		{"http://h/%7esmith/%2fx/~", "http://h/%7Esmith/%2Fx/%7E", "upper-case hex; ~ is national, unsafe (RFC 1738 §2.2), so encoded"},
		{"http://h/%41%62%2D%2e%5F%21%2A%27%28%29%2C%24", "http://h/Ab-._!*'(),$", "alpha digit safe extra decoded"},
		{"http://h/%3b%2f%3F%3a%40%26%3d", "http://h/%3B%2F%3F%3A%40%26%3D", "reserved stay encoded"},
		{"http://h/a b<c>\"{}|\\^~[]`", "http://h/a%20b%3Cc%3E%22%7B%7D%7C%5C%5E%7E%5B%5D%60", "unsafe encoded"},
		{"http://h/caf\xc3\xa9", "http://h/caf%C3%A9", "non-ASCII encoded"},
		{"http://h/100%", "http://h/100%25", "a lone % encoded"},
		{"http://h/a?x=%2B%2b+y%41", "http://h/a?x=%2B%2B+yA", "in a search %2B stays"},
		{"http://h/a%2Bb", "http://h/a+b", "in a path %2B is +"},
		{"http://h/a/./b/../c", "http://h/a/c", "dot segments removed"},
		{"http://h/a/%2E%2E/c", "http://h/c", "%2E is ."},
		{"http://h/..", "http://h/", ""},
		{"ftp://h/a/../b;type=A", "ftp://h/b;type=A", "ftp is hierarchical"},
		{"file:/a/./b", "file:/a/b", "a rooted file path"},
		{"file:a/../b", "file:a/../b", "a rootless path is left alone"},
		{"gopher://h/1/a/../b", "gopher://h/1/a/../b", "never inside a gopher selector"},
		{"news:a/../b", "news:a/../b", "never inside an opaque part"},
		{"http://h?q", "http://h/?q", "the empty http path is /"},
		{"https://h", "https://h/", ""},
		{"ftp://h", "ftp://h", "not for ftp"},
		{"http://h/a#F%6f%2f", "http://h/a#Fo%2F", "the fragment too"},
		{"http://U%73er:p%41ss@h/", "http://User:pAss@h/", "user and password too"},
		{"http://h/a?b/../c", "http://h/a?b/../c", "not in a search"},
	} {
		u, err := locator.Parse(tc.in)
		if err != nil {
			t.Fatalf("%q: %v", tc.in, err)
		}
		before := u.String()
		n := locator.Normalize(u)
		if got := n.String(); got != tc.want {
			t.Errorf("Normalize(%q) = %q, want %q (%s)", tc.in, got, tc.want, tc.why)
		}
		if u.String() != before {
			t.Errorf("Normalize(%q) changed its argument to %q", tc.in, u.String())
		}
		if n.Input != n.String() {
			t.Errorf("Normalize(%q): Input %q is not the normal form", tc.in, n.Input)
		}
	}
	if locator.Normalize(nil) != nil {
		t.Error("Normalize(nil) != nil")
	}
}

// normRules is a scheme's rules with a normal form of its own, to show
// Normalize calls it after the generic steps.
type normRules struct{}

func (normRules) Check(*locator.URL) []locator.Problem { return nil }
func (normRules) Parts(*locator.URL) any               { return nil }
func (normRules) Normalize(u *locator.URL) {
	// Sees the generic normal form: lower-case host, decoded %61.
	u.Path = strings.ToUpper(u.Path) + ";" + u.Host
}

func init() { locator.Register("x-normtest", normRules{}) }

func TestNormalizeSchemeHook(t *testing.T) {
	u, err := locator.Parse("x-normtest://H.X/%61a")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := locator.Normalize(u).String(), "x-normtest://h.x/AA;h.x"; got != want {
		t.Errorf("Normalize = %q, want %q", got, want)
	}
}

// TestNormalizeCorpus: over the URL corpora, the normal form is a fixed
// point (Normalize is idempotent), it reads back through Parse, it is
// Equal to the original, and Normalize never panics.
func TestNormalizeCorpus(t *testing.T) {
	urls := loadURLs(t, 7)
	changed := 0
	for _, u := range urls {
		n := locator.Normalize(u)
		s := n.String()
		if s != u.String() {
			changed++
		}
		if again := locator.Normalize(n).String(); again != s {
			t.Fatalf("Normalize is not idempotent on %q: %q then %q", u.String(), s, again)
		}
		v, err := locator.Parse(s)
		if err != nil || !v.SameComponents(n) {
			t.Fatalf("normal form %q of %q does not read back: %v", s, u.String(), err)
		}
		if !locator.Equal(u, n) {
			t.Fatalf("%q is not Equal to its normal form %q", u.String(), s)
		}
	}
	t.Logf("%d corpus URLs normalized, %d changed", len(urls), changed)
}

func FuzzNormalize(f *testing.F) {
	for _, s := range []string{"HTTP://H:80/%7e/./a/../b?%2b#%41", "ftp://h/a;type=I", "gopher://h/1/../x", "file:/a/..", "http://h/%", "news:a@b", "http://[::1]:0080/"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		u, err := locator.Parse(s)
		if err != nil {
			return
		}
		n := locator.Normalize(u)
		if again := locator.Normalize(n); !again.SameComponents(n) {
			t.Fatalf("not idempotent: %q → %q → %q", s, n.String(), again.String())
		}
		if !locator.Equal(u, n) {
			t.Fatalf("%q not Equal to its normal form %q", s, n.String())
		}
	})
}

func ExampleNormalize() {
	u, _ := locator.Parse("HTTP://www.Example.COM:80/~smith/./a/../b%2fc%41")
	fmt.Println(locator.Normalize(u))
	// Output: http://www.example.com/%7Esmith/b%2FcA
}
