package locator

import (
	"errors"
	"math"
	"strings"
	"testing"
	"unsafe"
)

// TestInputLimit: offsets are int32 (a URL value of 48 bytes, pinned
// here, holds them in 16 bits up to maxShort and longer ones in its
// extra block), so Parse refuses an input longer than MaxInput with a
// *ParseError naming the rule and the limit, and Resolve a result that
// long.
func TestInputLimit(t *testing.T) {
	if n := unsafe.Sizeof(URL{}); n != 48 {
		t.Errorf("a URL value is %d bytes, want 48", n)
	}
	if MaxInput != math.MaxInt32 {
		t.Fatalf("MaxInput = %d, want %d (the largest int32 offset)", MaxInput, math.MaxInt32)
	}
	defer func(n int) { inputLimit = n }(inputLimit)
	inputLimit = 64
	ok := "http://h/" + strings.Repeat("a", 64-9)
	if _, err := Parse(ok); err != nil {
		t.Fatalf("Parse of %d bytes: %v", len(ok), err)
	}
	_, err := Parse(ok + "b")
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Problem.Rule != "url" || pe.Problem.Offset != 64 || pe.Problem.Severity != Error ||
		!strings.Contains(pe.Problem.Message, "65 bytes") || !strings.Contains(pe.Problem.Message, "64 bytes") {
		t.Fatalf("Parse of 65 bytes: %v", err)
	}
	base, _ := Parse("http://h/a/b")
	_, err = Resolve(base, strings.Repeat("c", 60), RFC3986)
	var re *ResolveError
	if !errors.As(err, &re) || !errors.As(re.Err, &pe) || pe.Problem.Rule != "url" {
		t.Fatalf("Resolve to 71 bytes: %v", err)
	}
}

// TestLongOffsets: a URL that ends past maxShort keeps its offsets in its
// extra block (fLong); every path that makes one reads the same
// components and offsets, a Parser's next Parse leaves them alone, and
// Resolve reads a long base.
func TestLongOffsets(t *testing.T) {
	user := strings.Repeat("u", maxShort) // the host begins past maxShort
	path := strings.Repeat("p", 1000)
	s := "<URL:HTTP://" + user + ":pw@host.example:8080/" + path + "?q=1#frag>"
	want := Parts{Scheme: "http", User: user, Password: "pw", Host: "host.example", Port: "8080", Path: path,
		Search: "q=1", Fragment: "frag", HasAuthority: true, HasUser: true, HasPassword: true, HasPort: true,
		HasPath: true, HasSearch: true, HasFragment: true}
	check := func(how string, u *URL, probs bool) {
		t.Helper()
		if u.f&fLong == 0 {
			t.Errorf("%s: not marked long", how)
		}
		if got := u.Parts(); got != want {
			t.Errorf("%s: parts differ", how)
		}
		if u.Input() != s || u.String() != "http"+s[9:len(s)-1] {
			t.Errorf("%s: input or string differ", how)
		}
		host := len("<URL:HTTP://") + len(user) + len(":pw@")
		offs := []int{5, 12, 12 + len(user) + 1, host, host + len("host.example:"), host + len("host.example:8080/"),
			len(s) - len("q=1#frag>"), len(s) - len("frag>")}
		for c := SchemeComponent; c < numComponents; c++ {
			if got := u.Offset(c); got != offs[c] {
				t.Errorf("%s: Offset(%d) = %d, want %d", how, c, got, offs[c])
			}
		}
		if ps := u.Problems(); probs && (len(ps) != 3 || ps[0].Rule != "scheme" || ps[1].Offset != offs[PasswordComponent]) {
			t.Errorf("%s: problems %v", how, ps)
		}
	}
	u, err := Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	check("Parse", u, true)
	var p Parser
	var v URL
	if err := p.Parse(&v, s); err != nil {
		t.Fatal(err)
	}
	check("Parser", &v, true)
	var w URL
	if err := p.Parse(&w, "http://"+strings.Repeat("h", maxShort)+"/"); err != nil {
		t.Fatal(err)
	}
	check("Parser, after another Parse", &v, false)
	urls, errs := ParseBatch([]string{"http://a/", s})
	if errs != nil {
		t.Fatal(errs)
	}
	check("ParseBatch", &urls[1], true)
	if !u.SameComponents(&v) || !u.SameComponents(&urls[1]) {
		t.Error("SameComponents: the three differ")
	}
	// The same components after white space that makes the text long.
	padded, err := Parse(strings.Repeat(" ", maxShort) + "http://h/p?q#f")
	short, _ := Parse("http://h/p?q#f")
	if err != nil || padded.f&fLong == 0 || !padded.SameComponents(short) || !short.SameComponents(padded) ||
		padded.Path() != "p" || padded.Fragment() != "f" {
		t.Errorf("a long text with a short URL: %v", err)
	}
	r, err := Resolve(u, "other?x", RFC3986)
	if err != nil {
		t.Fatal(err)
	}
	if r.f&fLong == 0 || r.Path() != "other" || r.Search() != "x" || r.User() != user || r.Port() != "8080" ||
		r.Offset(PathComponent) != len("http://"+user+":pw@host.example:8080/") {
		t.Errorf("Resolve: %q %q %d", r.Path(), r.Search(), r.Offset(PathComponent))
	}
	// A long base with nothing to report, whose results Resolve reads
	// without a parser where it can: what Parse makes of their text.
	plain, err := Parse("http://host.example/" + strings.Repeat("p/", maxShort/2) + "x")
	if err != nil || plain.f&fLong == 0 {
		t.Fatalf("a long plain base: %v", err)
	}
	for _, ref := range []string{"y", "//other.example/z", "//other.example", "?q", "#f", "/a", "", "../b?c#d"} {
		if !checkDirect(t, plain, ref) {
			t.Errorf("%q: not resolved directly", ref)
		}
	}
}
