package locator_test

import (
	"fmt"
	"testing"

	"github.com/rfc1738/locator"
)

func TestRelative(t *testing.T) {
	for _, tc := range []struct {
		base, target string
		want         [3]string // rfc3986, rfc1808, draft1993
	}{
		{"http://a/b/c/d;p?q", "http://a/b/c/g", [3]string{"g", "g", "g"}},
		{"http://a/b/c/d;p?q", "http://a/b/c/d;p?y", [3]string{"?y", "?y", "d;p?y"}},
		{"http://a/b/c/d;p?q", "http://a/b/c/d;p?q#s", [3]string{"#s", "#s", "#s"}},
		{"http://a/b/c/d;p?q", "http://a/b/c/d;p?q", [3]string{"", "", ""}},
		{"http://a/b/c/d;p?q", "http://a/b/c/", [3]string{".", ".", "./"}},
		{"http://a/b/c/d;p?q", "http://a/b/", [3]string{"..", "..", "../"}},
		{"http://a/b/c/d;p?q", "http://a/x/y", [3]string{"/x/y", "/x/y", "/x/y"}},
		{"http://a/b/c/d;p?q", "http://g/x", [3]string{"//g/x", "//g/x", "//g/x"}},
		{"http://a/b/c/d;p?q", "ftp://a/b/c", [3]string{"ftp://a/b/c", "ftp://a/b/c", "ftp://a/b/c"}},
		{"http://a/b/c/d", "http://a/b/c/g:h", [3]string{"./g:h", "./g:h", "./g:h"}},
		{"http://a/b/c/d", "http://a/b/c", [3]string{"../c", "../c", "../c"}},
		// RFC 3986 removes dot segments even from a full form: no
		// reference reaches this target, and the full form is given.
		{"http://a/b/c/d", "http://a/./g", [3]string{"http://a/./g", "/./g", "/./g"}},
		{"news:comp.lang", "news:123@sn.no", [3]string{"123@sn.no", "123@sn.no", "123@sn.no"}},
		{"mailto:a@b", "http://a/", [3]string{"http://a/", "http://a/", "http://a/"}},
	} {
		base, err := locator.Parse(tc.base)
		if err != nil {
			t.Fatal(err)
		}
		target, err := locator.Parse(tc.target)
		if err != nil {
			t.Fatal(err)
		}
		for i, r := range allRules {
			if got := locator.Relative(base, target, r); got != tc.want[i] {
				t.Errorf("%v: Relative(%s, %s) = %q, want %q", r, tc.base, tc.target, got, tc.want[i])
			}
		}
	}
	if got := locator.Relative(nil, nil, locator.RFC3986); got != "" {
		t.Errorf("Relative(nil, nil) = %q", got)
	}
}

// reachable reports whether target's full form, seen from base, names
// it under r. It does not under RFC 3986 for a path with dot segments
// (§5.2.2 removes them), nor under the 1993 draft for a target of the
// base's scheme that no partial form reaches (its scheme is "omitted"
// and the rest read as a partial form: "file:foo" from "file:/etc/").
// Relative then returns the full form all the same.
func reachable(base, target *locator.URL, r locator.Resolution) bool {
	u, err := locator.Resolve(base, target.String(), r)
	return err == nil && u.SameComponents(target)
}

// TestRelativeRoundTrip: Resolve(base, Relative(base, t)) is t for pairs
// built from the URL corpora: URLs of the same host (the interesting
// case: relative paths), and URLs of different hosts and schemes.
func TestRelativeRoundTrip(t *testing.T) {
	urls := loadURLs(t, 23)
	byHost := map[string][]*locator.URL{}
	for _, u := range urls {
		k := u.Scheme() + "://" + u.Host()
		byHost[k] = append(byHost[k], u)
	}
	var pairs [][2]*locator.URL
	for _, group := range byHost {
		for i := 0; i+1 < len(group) && i < 40; i++ {
			pairs = append(pairs, [2]*locator.URL{group[i], group[i+1]}, [2]*locator.URL{group[i+1], group[i]})
		}
	}
	for i := 0; i+1 < len(urls); i += 5 {
		pairs = append(pairs, [2]*locator.URL{urls[i], urls[i+1]})
	}
	for _, r := range allRules {
		checked, partial, skipped := 0, 0, 0
		for _, p := range pairs {
			base, target := p[0], p[1]
			if !reachable(base, target, r) {
				skipped++
				continue
			}
			rel := locator.Relative(base, target, r)
			u, err := locator.Resolve(base, rel, r)
			if err != nil || !u.SameComponents(target) {
				t.Errorf("%v: Resolve(%s, Relative(...)=%q) = %v, %v; want %s", r, base, rel, u, err, target)
				continue
			}
			checked++
			if rel != target.String() {
				partial++
			}
		}
		t.Logf("%v: %d pairs round-trip (%d by a partial form); %d targets no reference reaches", r, checked, partial, skipped)
		// Pinned at the measured counts (the corpora, every 23rd URL).
		if checked != 2363 || partial != 2316 || skipped != 0 {
			t.Errorf("%v: %d pairs checked, %d partial, %d unreachable; measured 2363, 2316, 0", r, checked, partial, skipped)
		}
	}
}

// TestRelativePerl compares with libwww-perl's URI::URL->rel (old-base.t).
// Every row must round-trip; the agreement on the exact text is reported
// and held. Perl differs on principle where it gives a longer form
// ("./" for the base's own directory where "." is shorter) or a relative
// path for a target of another scheme ("mailto:aas" from an http base is
// itself: a full form).
func TestRelativePerl(t *testing.T) {
	rows := readTSV(t, "perl-uri/extracted/old-base_make_relative.tsv")
	agree, perlReaches := 0, 0
	for _, row := range rows {
		target, err := locator.Parse(row[0])
		if err != nil {
			t.Fatal(err)
		}
		base, err := locator.Parse(row[1])
		if err != nil {
			t.Fatal(err)
		}
		rel := locator.Relative(base, target, locator.RFC3986)
		u, err := locator.Resolve(base, rel, locator.RFC3986)
		if err != nil || !u.SameComponents(target) {
			t.Errorf("%s from %s: %q resolves to %v, %v", row[0], row[1], rel, u, err)
		}
		if rel == row[2] {
			agree++
		} else {
			t.Logf("differs: %s from %s: %q (perl %q)", row[0], row[1], rel, row[2])
			// Perl's answer, where it reaches the target too, is an
			// independent bound: ours is never longer.
			if p, err := locator.Resolve(base, row[2], locator.RFC3986); err == nil && p.SameComponents(target) {
				perlReaches++
				if len(rel) > len(row[2]) {
					t.Errorf("%s from %s: %q is longer than perl's %q", row[0], row[1], rel, row[2])
				}
			}
		}
	}
	if perlReaches != perlRelReachPin {
		t.Errorf("perl's differing answer reaches the target on %d rows; measured %d", perlReaches, perlRelReachPin)
	}
	t.Logf("old-base_make_relative: %d of %d agree with perl's rel", agree, len(rows))
	if agree != perlRelPin || len(rows) != 15 {
		t.Errorf("%d of %d rows agree with perl's rel; measured %d of 15", agree, len(rows), perlRelPin)
	}
}

func FuzzRelative(f *testing.F) {
	f.Add("http://a/b/c/d;p?q", "http://a/b/g?y#s", uint8(0))
	f.Add("http://a/b/c/d", "http://a/x:y/z", uint8(1))
	f.Add("file:/etc/", "file:foo", uint8(2))
	f.Add("news:a.b", "news:c@d", uint8(0))
	f.Fuzz(func(t *testing.T, bs, ts string, rules uint8) {
		base, err := locator.Parse(bs)
		if err != nil {
			return
		}
		target, err := locator.Parse(ts)
		if err != nil {
			return
		}
		r := locator.Resolution(rules % 3)
		rel := locator.Relative(base, target, r)
		if !reachable(base, target, r) {
			return
		}
		u, err := locator.Resolve(base, rel, r)
		if err != nil || !u.SameComponents(target) {
			t.Fatalf("%v: %q from %q: %q resolves to %v, %v", r, ts, bs, rel, u, err)
		}
	})
}

func ExampleRelative() {
	base, _ := locator.Parse("http://www.math.uio.no/doc/linux/")
	target, _ := locator.Parse("http://www.math.uio.no/doc/mail/top.html")
	fmt.Println(locator.Relative(base, target, locator.RFC3986))
	// Output: ../mail/top.html
}

// bruteTokens are the pieces brute-force references are made of: path
// segments, "/", dot segments, an empty and a non-empty query and
// fragment, and a network-path prefix.
var bruteTokens = []string{"b", "c", "/", ".", "..", "?", "?q", "#", "#f", "//a"}

// bruteShortest returns, for each URL (as String writes it) that some
// reference of at most n tokens reaches from base under r, the shortest
// such reference (ties: the first in enumeration order, shorter token
// sequences first).
func bruteShortest(base *locator.URL, r locator.Resolution, n int) map[string]string {
	best := map[string]string{}
	var walk func(prefix string, depth int)
	walk = func(prefix string, depth int) {
		if u, err := locator.Resolve(base, prefix, r); err == nil {
			k := u.String()
			if old, ok := best[k]; !ok || len(prefix) < len(old) {
				best[k] = prefix
			}
		}
		if depth == n {
			return
		}
		for _, tok := range bruteTokens {
			walk(prefix+tok, depth+1)
		}
	}
	walk("", 0)
	return best
}

// TestRelativeBruteForce checks Relative against an answer found without
// it: every reference of up to four tokens (bruteTokens) is resolved
// against each base, and for every target so reached Relative's answer
// must resolve to it and be no longer than the shortest reference found
// (it may be shorter: a form of more than four tokens is not
// enumerated). Targets are every http://a URL with a path of up to three
// segments of b and c, with or without "?q" and "#f"; under RFC 3986 the
// targets whose path holds dot segments are reached by no reference at
// all and are not among them. The counts are pinned.
//
// Where Relative is longer (measured; run with -v for the list), it is
// not the shortest form its doc promises, and relative.go would need a
// candidate more:
//   - rfc3986, target http://a// (an empty first segment): "//a//" where
//     "/.//" reaches it (§5.2.4 removes the "." and keeps "//");
//   - rfc1808, the same target: "//a//" where "////" does (§4 step 3: an
//     empty net_loc is inherited from the base);
//   - draft1993, 30 targets: a directory named without its trailing "/"
//     (http://a/b from http://a/b/c), with or without a fragment: "/b"
//     or "../b" where "." or ".." does, for the draft resolves "." and
//     ".." to the directory without its "/".
func TestRelativeBruteForce(t *testing.T) {
	bases := []string{"http://a/b/c", "http://a/b/", "http://a/", "http://a", "http://a/b/c?q", "http://a/c/b/c#f", "http://a/b//c", "http://a/b/c/"}
	var targets []string
	var paths func(p string, depth int)
	paths = func(p string, depth int) {
		for _, tail := range []string{"", "?q", "#f", "?q#f", "?", "#"} {
			targets = append(targets, "http://a"+p+tail)
		}
		if depth == 3 {
			return
		}
		for _, seg := range []string{"/b", "/c", "/"} {
			paths(p+seg, depth+1)
		}
	}
	paths("", 0)
	pins := map[locator.Resolution][4]int{ // compared, as short, shorter, longer than the shortest found
		locator.RFC3986:   {695, 692, 0, 3},
		locator.RFC1808:   {695, 691, 0, 4},
		locator.Draft1993: {695, 665, 0, 30},
	}
	for _, r := range allRules {
		var compared, same, shorter, longer int
		for _, bs := range bases {
			base := loctestParse(t, bs)
			best := bruteShortest(base, r, 4)
			for _, ts := range targets {
				target := loctestParse(t, ts)
				want, ok := best[target.String()]
				if !ok {
					continue
				}
				compared++
				rel := locator.Relative(base, target, r)
				u, err := locator.Resolve(base, rel, r)
				switch {
				case err != nil || !u.SameComponents(target):
					t.Errorf("%v: Relative(%s, %s) = %q resolves to %v, %v", r, bs, ts, rel, u, err)
				case len(rel) > len(want):
					longer++
					if testing.Verbose() {
						t.Logf("%v: Relative(%s, %s) = %q; %q is shorter", r, bs, ts, rel, want)
					}
				case len(rel) == len(want):
					same++
				default:
					shorter++
				}
			}
		}
		t.Logf("%v: %d targets reached by a reference of at most 4 tokens; Relative's answer as short as the shortest found for %d, shorter for %d, longer for %d", r, compared, same, shorter, longer)
		if got := [4]int{compared, same, shorter, longer}; got != pins[r] {
			t.Errorf("%v: compared, same length, shorter, longer = %v; measured %v", r, got, pins[r])
		}
	}
}

func loctestParse(t *testing.T, s string) *locator.URL {
	t.Helper()
	u, err := locator.Parse(s)
	if err != nil {
		t.Fatalf("Parse(%q): %v", s, err)
	}
	return u
}
