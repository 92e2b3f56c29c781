package locator_test

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/rfc1738/locator"
)

// The 1993 draft's "Partial form" rules, case by case. Its text:
//
//	A partial form can be distinguished from a full form in that a full
//	form must have a colon and that colon must occur before any slash
//	characters. [...] If the scheme parts are different, the whole
//	absolute locator must be given. Otherwise, the scheme is omitted [...]
//	If the host and/or port parts are the different, the host, port name
//	and all the rest of the locator must be given. [...] If a leading
//	slash is present, the path is absolute. Otherwise, a relative path is
//	interpreted as follows: The last part of the path of the context
//	locator (anything following the rightmost slash) is removed, and the
//	given partial URL appended in its place. Within the result, all
//	occurrences of "/xxx/.." or "/." are recursively removed, where xxx,
//	".." and "." are complete path elements.
func TestResolveDraft1993(t *testing.T) {
	const base = "http://a/b/c/d;p?q"
	for _, tc := range []struct{ ref, want, why string }{
		{"g:h", "g:h", "a colon before any slash: a full form"},
		{"ftp://f/x", "ftp://f/x", "a different scheme: the whole absolute locator"},
		{"http:g", "http://a/b/c/g", "the same scheme is omitted: the rest is a partial form"},
		{"g/h:i", "http://a/b/c/g/h:i", "the colon follows a slash: a partial form"},
		{"//g/x", "http://g/x", "host and all the rest given"},
		{"/g/./x", "http://a/g/./x", "a leading slash: the path is absolute, taken as given"},
		{"g", "http://a/b/c/g", "the last part is replaced"},
		{"?y", "http://a/b/c/?y", "the search is part of the partial URL appended"},
		{";x", "http://a/b/c/;x", ""},
		{".", "http://a/b/c", "\"/.\" removed, with its slash"},
		{"./", "http://a/b/c/", ""},
		{"..", "http://a/b", "\"/c/..\" removed"},
		{"../..", "http://a", ""},
		{"../../../g", "http://a/../g", "no xxx left before the last \"..\""},
		{"./../g", "http://a/b/g", "recursively: \"/.\" then \"/c/..\""},
		{"g/../../h", "http://a/b/h", ""},
		{"g?y/./x", "http://a/b/c/g?y/x", "within the result: the search too"},
		{"g?y/../x", "http://a/b/c/x", ""},
		{"g#s/../x", "http://a/b/c/g#s/../x", "the fragment is set aside"},
		{"#s", "http://a/b/c/d;p?q#s", "a fragment alone: the context locator itself"},
		{"", "http://a/b/c/d;p?q", ""},
	} {
		got, err := resolveString(base, tc.ref, locator.Draft1993)
		if err != nil || got != tc.want {
			t.Errorf("draft1993: %q: got %q, %v; want %q (%s)", tc.ref, got, err, tc.want, tc.why)
		}
	}
	// With no path after the host, the "/" after the host is understood.
	if got, _ := resolveString("http://a", "g", locator.Draft1993); got != "http://a/g" {
		t.Errorf("draft1993: http://a + g = %q, want http://a/g", got)
	}
}

// TestResolveOpaque: bases without hierarchy (news, mailto, an opaque
// part). The rules are scheme-independent: a relative path replaces the
// whole part (there is no "/" to keep), and an empty reference or a
// fragment alone names the base.
func TestResolveOpaque(t *testing.T) {
	for _, tc := range []struct {
		base, ref string
		want      [3]string // rfc3986, rfc1808, draft1993
	}{
		{"news:comp.lang.perl.misc", "123@sn.no", [3]string{"news:123@sn.no", "news:123@sn.no", "news:123@sn.no"}},
		{"news:comp.lang.perl.misc", "#x", [3]string{"news:comp.lang.perl.misc#x", "news:comp.lang.perl.misc#x", "news:comp.lang.perl.misc#x"}},
		{"news:a.b", "mailto:x@y", [3]string{"mailto:x@y", "mailto:x@y", "mailto:x@y"}},
		{"mailto:a@b.c", "d@e.f", [3]string{"mailto:d@e.f", "mailto:d@e.f", "mailto:d@e.f"}},
		{"mailto:a@b.c", "?subject=hi", [3]string{"mailto:a@b.c?subject=hi", "mailto:a@b.c?subject=hi", "mailto:?subject=hi"}},
		{"news:a.b", "../c", [3]string{"news:c", "news:../c", "news:../c"}},
		{"urn:x:y", "z", [3]string{"urn:z", "urn:z", "urn:z"}},
		{"news:a.b", "/c", [3]string{"news:/c", "news:/c", "news:/c"}},
		{"gopher://h/1/a/b", "c", [3]string{"gopher://h/1/a/c", "gopher://h/1/a/c", "gopher://h/1/a/c"}},
		{"gopher://h/1/a/b", "../c", [3]string{"gopher://h/1/c", "gopher://h/1/c", "gopher://h/1/c"}},
		{"telnet://h", "x", [3]string{"telnet://h/x", "telnet://h/x", "telnet://h/x"}},
	} {
		for i, r := range allRules {
			got, err := resolveString(tc.base, tc.ref, r)
			if err != nil || got != tc.want[i] {
				t.Errorf("%v: %s + %q = %q, %v; want %q", r, tc.base, tc.ref, got, err, tc.want[i])
			}
		}
	}
}

// TestResolveGenericQuery: for ftp and file "?" is path data to RFC 1738,
// but the resolution rules split at it as the generic syntax does (RFC
// 1808 §2.3 notes "?" in ftp paths "is not true in practice").
func TestResolveGenericQuery(t *testing.T) {
	for _, tc := range []struct{ base, ref, want string }{
		{"ftp://h/d?x/y", "g", "ftp://h/g"},
		{"ftp://h/a/b?q", "?r", "ftp://h/a/b?r"},
		{"ftp://h/a/b?q", "", "ftp://h/a/b?q"},
		{"file:/test?aas", "abc", "file:/abc"},
		{"http://a/b?q", "c", "http://a/c"},
	} {
		got, err := resolveString(tc.base, tc.ref, locator.RFC3986)
		if err != nil || got != tc.want {
			t.Errorf("%s + %q = %q, %v; want %q", tc.base, tc.ref, got, err, tc.want)
		}
	}
}

func TestResolveEdges(t *testing.T) {
	for _, tc := range []struct {
		base, ref string
		r         locator.Resolution
		want      string
	}{
		{"http://a/b/c", "<URL:g>", locator.RFC3986, "http://a/b/g"},
		{"http://a/b/c", "  <g?x>  ", locator.RFC3986, "http://a/b/g?x"},
		{"http://a/b/c", "URL:http://x/", locator.RFC3986, "http://x/"},
		// No authority and a path that would begin "//": "/." keeps it a path.
		{"fred:/a/b", "..//g", locator.RFC3986, "fred:/.//g"},
		{"http://a", "g", locator.RFC1808, "http://a/g"},
		{"HTTP://A/b/c", "d", locator.RFC3986, "http://A/b/d"},
		{"http://a/b/c", "g h", locator.RFC3986, "http://a/b/g h"},
		{"http://a/b/c/d;p?q#f", "", locator.RFC1808, "http://a/b/c/d;p?q#f"},
		{"http://a/b/c/d;p?q#f", "", locator.RFC3986, "http://a/b/c/d;p?q"},
		{"http://u:p@a:8080/b/c", "d", locator.Draft1993, "http://u:p@a:8080/b/d"},
		{"http://[::1]:8/b/c", "/d", locator.RFC1808, "http://[::1]:8/d"},
	} {
		got, err := resolveString(tc.base, tc.ref, tc.r)
		if err != nil || got != tc.want {
			t.Errorf("%v: %s + %q = %q, %v; want %q", tc.r, tc.base, tc.ref, got, err, tc.want)
		}
	}
}

func TestResolveErrors(t *testing.T) {
	base, _ := locator.Parse("http://a/b")
	for _, ref := range []string{"//a b/", "//[::1/x", "//h:99999/", "g h:/x"} {
		for _, r := range allRules {
			u, err := locator.Resolve(base, ref, r)
			if ref == "g h:/x" && r != locator.Draft1993 {
				// A relative path for the RFCs (no valid scheme).
				if err != nil {
					t.Errorf("%v %q: %v", r, ref, err)
				}
				continue
			}
			var re *locator.ResolveError
			if !errors.As(err, &re) || u != nil {
				t.Errorf("%v %q: got %v, %v; want a *ResolveError", r, ref, u, err)
				continue
			}
			var pe *locator.ParseError
			if !errors.As(err, &pe) || !strings.Contains(err.Error(), pe.Problem.Rule) {
				t.Errorf("%v %q: error %q does not carry the parse problem", r, ref, err)
			}
		}
	}
	if _, err := locator.Resolve(nil, "g", locator.RFC3986); err == nil {
		t.Error("Resolve with a nil base: no error")
	}
}

func TestParseResolution(t *testing.T) {
	for _, r := range allRules {
		got, err := locator.ParseResolution(strings.ToUpper(r.String()))
		if err != nil || got != r {
			t.Errorf("ParseResolution(%q) = %v, %v", r.String(), got, err)
		}
	}
	if _, err := locator.ParseResolution("rfc2396"); err == nil {
		t.Error("ParseResolution(rfc2396): no error")
	}
}

// loadURLs reads the URL corpora (one URL a line), keeping every step-th
// line that parses.
func loadURLs(tb testing.TB, step int) []*locator.URL {
	tb.Helper()
	var out []*locator.URL
	for _, name := range []string{"isaacs_files.txt", "kasztp.txt", "node_files.txt", "userbait.txt"} {
		f, err := os.Open(filepath.Join(relShared, "data", "urls", name))
		if err != nil {
			if os.IsNotExist(err) {
				tb.Skipf("URL corpora absent: %v", err)
			}
			tb.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		n := 0
		for sc.Scan() {
			n++
			if n%step != 0 {
				continue
			}
			line := strings.TrimPrefix(sc.Text(), "\ufeff")
			if u, err := locator.Parse(line); err == nil {
				out = append(out, u)
			}
		}
		f.Close()
	}
	if len(out) == 0 {
		tb.Fatal("no URLs read from the corpora")
	}
	return out
}

// refsFrom makes references of every kind from a URL's text.
func refsFrom(u *locator.URL) []string {
	s := u.String()
	refs := []string{"", "#f", "?q", ".", "..", "../x", "./y;p", "g/../../h", "//h2/p"}
	if i := strings.Index(s, "//"); i >= 0 {
		refs = append(refs, s[i:])
		rest := s[i+2:]
		if j := strings.IndexByte(rest, '/'); j >= 0 {
			refs = append(refs, rest[j:])
			if k := strings.LastIndexByte(rest, '/'); k >= 0 {
				refs = append(refs, rest[k+1:], "../"+rest[k+1:])
			}
		}
	}
	return append(refs, s)
}

// TestResolveCorpusParses: for bases and references drawn from the URL
// corpora, under every rule set, Resolve never fails on a usable
// result, and what it returns reads back through Parse to the same
// components.
func TestResolveCorpusParses(t *testing.T) {
	urls := loadURLs(t, 37)
	n := 0
	for i, base := range urls {
		other := urls[(i*7+3)%len(urls)]
		for _, ref := range refsFrom(other) {
			for _, r := range allRules {
				u, err := locator.Resolve(base, ref, r)
				if err != nil {
					var re *locator.ResolveError
					if !errors.As(err, &re) {
						t.Fatalf("%v: %s + %q: error of type %T", r, base, ref, err)
					}
					continue
				}
				v, err := locator.Parse(u.String())
				if err != nil || !v.SameComponents(u) {
					t.Fatalf("%v: %s + %q = %s does not read back: %v", r, base, ref, u, err)
				}
				n++
			}
		}
	}
	t.Logf("%d resolutions from %d corpus URLs read back", n, len(urls))
}

func FuzzResolve(f *testing.F) {
	for _, s := range []string{"g", "../g", "//g", "/./g", "?y", "#s", "http:g", "g;x=1/../y", "<URL:x>", "..//g", ":", "//[::1]:8/x", "", "a%20b?c%2F/d#e%0D", "/a%41?q#f#g", "//h/p%zz?q"} {
		f.Add("http://a/b/c/d;p?q", s, uint8(0))
	}
	f.Add("news:a.b", "c@d", uint8(1))
	f.Add("fred:///s//a/b/c", "../../../g", uint8(2))
	f.Fuzz(func(t *testing.T, base, ref string, rules uint8) {
		b, err := locator.Parse(base)
		if err != nil {
			return
		}
		r := locator.Resolution(rules % 3)
		u, err := locator.Resolve(b, ref, r)
		if err != nil {
			return
		}
		v, err := locator.Parse(u.String())
		if err != nil {
			t.Fatalf("%v: %q + %q = %q does not parse: %v", r, base, ref, u.String(), err)
		}
		if !v.SameComponents(u) {
			t.Fatalf("%v: %q + %q = %q reads back differently", r, base, ref, u.String())
		}
		// Resolve's result is Parse's reading of the text it composed,
		// offsets and problems included.
		if w, err := locator.Parse(u.Input()); err != nil || !reflect.DeepEqual(u, w) {
			t.Fatalf("%v: %q + %q = %q is not what Parse reads: %+v, %v", r, base, ref, u.Input(), w, err)
		}
	})
}

func ExampleResolve() {
	base, _ := locator.Parse("http://a/b/c/d;p?q")
	for _, r := range []locator.Resolution{locator.RFC3986, locator.RFC1808, locator.Draft1993} {
		u, _ := locator.Resolve(base, "?y", r)
		v, _ := locator.Resolve(base, "..", r)
		fmt.Println(r, u, v)
	}
	// Output:
	// rfc3986 http://a/b/c/d;p?y http://a/b/
	// rfc1808 http://a/b/c/d;p?y http://a/b/
	// draft1993 http://a/b/c/?y http://a/b
}
