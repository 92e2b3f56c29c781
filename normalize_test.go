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
		{"http://BÜCHER.example/", "http://xn--bcher-kva.example/", "a U-label becomes its A-label (ASCIIHost)"},
		{"http://XN--BCHER-KVA.example/", "http://xn--bcher-kva.example/", "an A-label in lower case"},
		{"http://%50%41th.Example/", "http://path.example/", "escapes in the host decoded, then lowered"},
		{"0://%50", "0://p", "decoded before lowered, so a fixed point"},
		{"http://A_B.example/", "http://a_b.example/", "a host IDNA refuses is lowered"},
		{"http://A%3Ab%2f/", "http://a%3Ab%2F/", "a reserved escape in a host stays, its hex in upper case"},
		{"http://[FE80::A%25Eth0]/", "http://[fe80::a%25Eth0]/", "IPv6 in lower case, its zone as written"},
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
		if n.Input() != n.String() {
			t.Errorf("Normalize(%q): Input %q is not the normal form", tc.in, n.Input())
		}
	}
	if locator.Normalize(nil) != nil {
		t.Error("Normalize(nil) != nil")
	}
}

// normRules is a scheme's rules with a normal form of its own, to show
// Normalize calls it after the generic steps.
type normRules struct{}

func (normRules) Check(_ *locator.URL, r locator.Report) locator.Report { return r }
func (normRules) Parts(*locator.URL) any                                { return nil }
func (normRules) Normalize(p *locator.Parts) {
	// Sees the generic normal form: lower-case host, decoded %61.
	p.Path = strings.ToUpper(p.Path) + ";" + p.Host
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
// point (Normalize is idempotent), it reads back through Parse to the same
// components, and the properties of checkNormalForm hold.
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
		checkNormalForm(t, u)
	}
	t.Logf("%d corpus URLs normalized, %d changed", len(urls), changed)
}

// checkNormalForm: properties of Normalize and Equal that can fail
// (Equal(u, Normalize(u)) cannot: Equal compares normal forms). The
// normal form is a fixed point; its text reads back to the same
// components; it keeps the scheme in lower case and its host has no
// upper-case ASCII letter outside an escape or an IPv6 zone; Equal is
// symmetric and implies the same scheme; a URL is Equal to the URL its
// normal form's text reads as.
func checkNormalForm(t *testing.T, u *locator.URL) {
	t.Helper()
	n := locator.Normalize(u)
	again := locator.Normalize(n)
	if !again.SameComponents(n) || again.String() != n.String() {
		t.Fatalf("not idempotent: %q → %q → %q", u, n, again)
	}
	v, err := locator.Parse(n.String())
	if err != nil {
		return // a normal form Parse refuses (a scheme's rules); nothing to compare
	}
	if !v.SameComponents(n) {
		t.Fatalf("normal form %q of %q reads back otherwise: %+v", n, u, v)
	}
	if !locator.Normalize(v).SameComponents(n) {
		t.Fatalf("normal form %q of %q: its reading normalizes to %q", n, u, locator.Normalize(v))
	}
	if n.Scheme() != strings.ToLower(u.Scheme()) {
		t.Fatalf("Normalize(%q): scheme %q", u, n.Scheme())
	}
	h := n.Host()
	if z := strings.Index(h, "%25"); z >= 0 && strings.IndexByte(h, ':') >= 0 {
		h = h[:z]
	}
	for i := 0; i < len(h); i++ {
		if h[i] == '%' {
			i += 2
			continue
		}
		if 'A' <= h[i] && h[i] <= 'Z' {
			t.Fatalf("Normalize(%q): host %q has upper case", u, n.Host())
		}
	}
	if !locator.Equal(u, v) || !locator.Equal(v, u) {
		t.Fatalf("%q is not Equal to the reading %q of its normal form", u, v)
	}
}

// checkEqualPair: Equal is symmetric, implies the same scheme and the same
// normal form text, and agrees with comparing normal forms' texts.
func checkEqualPair(t *testing.T, a, b *locator.URL) {
	t.Helper()
	e := locator.Equal(a, b)
	if e != locator.Equal(b, a) {
		t.Fatalf("Equal(%q, %q) is not symmetric", a, b)
	}
	if e != (locator.Normalize(a).String() == locator.Normalize(b).String()) {
		t.Fatalf("Equal(%q, %q) = %v, normal forms %q and %q", a, b, e, locator.Normalize(a), locator.Normalize(b))
	}
	if e && !strings.EqualFold(a.Scheme(), b.Scheme()) {
		t.Fatalf("Equal(%q, %q) with schemes %q and %q", a, b, a.Scheme(), b.Scheme())
	}
}

func TestEqualIDNA(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"http://bücher.example/", "http://xn--bcher-kva.example/", true},
		{"http://BÜCHER.example/", "http://XN--BCHER-KVA.EXAMPLE:80/", true},
		{"http://bücher.example/", "http://bucher.example/", false},
		{"http://%50/", "http://p/", true},
		{"ftp://bücher.example/", "http://xn--bcher-kva.example/", false},
	} {
		a, err1 := locator.Parse(tc.a)
		b, err2 := locator.Parse(tc.b)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if got := locator.Equal(a, b); got != tc.want {
			t.Errorf("Equal(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
		checkEqualPair(t, a, b)
	}
}

// FuzzNormalize: the properties of checkNormalForm for every input Parse
// reads, and of checkEqualPair for it and the input's other reading (the
// second argument).
func FuzzNormalize(f *testing.F) {
	for _, s := range []string{"HTTP://H:80/%7e/./a/../b?%2b#%41", "ftp://h/a;type=I", "gopher://h/1/../x", "file:/a/..", "http://h/%", "news:a@b", "http://[::1]:0080/",
		"0://%50", "http://BÜCHER.example/", "http://[fe80::1%25eth0]/"} {
		f.Add(s, "http://h/")
	}
	f.Fuzz(func(t *testing.T, s, s2 string) {
		u, err := locator.Parse(s)
		if err != nil {
			return
		}
		checkNormalForm(t, u)
		if v, err := locator.Parse(s2); err == nil {
			checkEqualPair(t, u, v)
		}
	})
}

func ExampleNormalize() {
	u, _ := locator.Parse("HTTP://www.Example.COM:80/~smith/./a/../b%2fc%41")
	fmt.Println(locator.Normalize(u))
	// Output: http://www.example.com/%7Esmith/b%2FcA
}
