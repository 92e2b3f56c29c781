package locator_test

import (
	"reflect"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/rfc1738/locator"
)

// resolvetestRules are the rules of a scheme registered only by this test,
// so that the part of Resolve that judges a result without reading it
// again through Parse is compared with Parse where a scheme's Check adds
// problems (and, for "ERR", an error) at offsets of its own.
type resolvetestRules struct{}

func (resolvetestRules) Check(u *locator.URL, r locator.Report) locator.Report {
	off := u.Offset(locator.PathComponent)
	for i := 0; i < len(u.Path()); i++ {
		if u.Path()[i] == 'x' {
			r.Add(off+i, locator.Violation, "xsegment", "an x")
		}
	}
	if strings.Contains(u.Path(), "ERR") {
		r.Add(off, locator.Error, "errsegment", "unreadable")
	}
	if u.HasUser() {
		r.Add(u.Offset(locator.UserComponent), locator.Warning, "user", "a user")
	}
	return r
}

func (resolvetestRules) Parts(u *locator.URL) any { return nil }

// screenRules are the rules of the scheme resolvescreen, registered
// only by this test: a Screener that reads the user and the search (as
// http's rules do), with an "x" in the search a problem, and a count of
// the calls of Check.
type screenRules struct{}

var screenChecks atomic.Int64

func (screenRules) Check(u *locator.URL, r locator.Report) locator.Report {
	screenChecks.Add(1)
	if u.HasUser() {
		r.Add(u.Offset(locator.UserComponent), locator.Warning, "user", "a user")
	}
	off := u.Offset(locator.SearchComponent)
	for i := 0; i < len(u.Search()); i++ {
		if u.Search()[i] == 'x' {
			r.Add(off+i, locator.Violation, "xsearch", "an x")
		}
	}
	return r
}

func (screenRules) Parts(u *locator.URL) any { return nil }

func (screenRules) Screen() []locator.Component {
	return []locator.Component{locator.UserComponent, locator.SearchComponent}
}

func init() {
	locator.RegisterSyntax("resolvetest", locator.Syntax{Internet: true, Search: true, Hierarchical: true})
	locator.Register("resolvetest", resolvetestRules{})
	locator.RegisterSyntax("resolvescreen", locator.Syntax{Internet: true, Search: true, Hierarchical: true})
	locator.Register("resolvescreen", screenRules{})
}

// TestScreener: Parse, a Parser, ParseBatch and Resolve call a
// Screener's Check exactly for the URLs that have a component it names,
// and its problems are reported there.
func TestScreener(t *testing.T) {
	base, err := locator.Parse("resolvescreen://h/a/b")
	if err != nil {
		t.Fatal(err)
	}
	var p locator.Parser
	var v locator.URL
	for _, c := range []struct {
		in, ref string
		calls   int64
		probs   int
	}{
		{"resolvescreen://h/a/b", "b", 0, 0},
		{"resolvescreen://h/a/b#x", "b#x", 0, 0},
		{"resolvescreen://h", "//h", 0, 0},
		{"resolvescreen://h/a?q", "/a?q", 1, 0},
		{"resolvescreen://h/a?xx", "/a?xx", 1, 2},
		{"resolvescreen://u@h/a", "//u@h/a", 1, 1},
	} {
		before := screenChecks.Load()
		u, err := locator.Parse(c.in)
		if err != nil {
			t.Fatal(err)
		}
		if err := p.Parse(&v, c.in); err != nil {
			t.Fatal(err)
		}
		us, _ := locator.ParseBatch([]string{c.in})
		r, err := locator.Resolve(base, c.ref, locator.RFC3986)
		if err != nil {
			t.Fatal(err)
		}
		if r.Input() != c.in {
			t.Fatalf("Resolve(%s, %q) = %q, want %q", base, c.ref, r.Input(), c.in)
		}
		if n := screenChecks.Load() - before; n != 4*c.calls {
			t.Errorf("%q: %d calls of Check, want %d", c.in, n, 4*c.calls)
		}
		for _, w := range []*locator.URL{u, &v, &us[0], r} {
			if len(w.Problems()) != c.probs {
				t.Errorf("%q: problems %v, want %d", c.in, w.Problems(), c.probs)
			}
		}
	}
}

// checkReadsAsParse fails unless Resolve(base, ref, r) is, field for
// field (Input, offsets and Problems included), what Parse makes of the
// text it composed, and that text is what String writes; or, when Resolve
// fails, Parse fails on that text too. It returns whether Resolve
// succeeded.
func checkReadsAsParse(t *testing.T, base *locator.URL, ref string, r locator.Resolution) bool {
	t.Helper()
	u, err := locator.Resolve(base, ref, r)
	if err != nil {
		re, ok := err.(*locator.ResolveError)
		if !ok {
			t.Fatalf("%v: %s + %q: error of type %T", r, base, ref, err)
		}
		if _, perr := locator.Parse(re.Result); perr == nil {
			t.Fatalf("%v: %s + %q: Resolve fails (%v) but Parse(%q) does not", r, base, ref, err, re.Result)
		}
		return false
	}
	v, err := locator.Parse(u.Input())
	if err != nil {
		t.Fatalf("%v: %s + %q = %q: Parse fails: %v", r, base, ref, u.Input(), err)
	}
	if !reflect.DeepEqual(u, v) {
		t.Fatalf("%v: %s + %q = %q:\nResolve %+v\nParse   %+v", r, base, ref, u.Input(), u, v)
	}
	if s := u.String(); s != u.Input() && !strings.EqualFold(s, u.Input()) {
		t.Fatalf("%v: %s + %q: String %q, Input %q", r, base, ref, s, u.Input())
	}
	return true
}

// TestResolveReadsAsParse: over the benchmark's corpus pairs, the
// references of TestResolveCorpusParses, every conformance vector and
// bases with problems in and out of their authority, under every rule set,
// the URL Resolve returns is exactly Parse's reading of its text. (Resolve
// reads a result that keeps the base's authority without judging that
// authority again; this is the test that doing so changes nothing.)
func TestResolveReadsAsParse(t *testing.T) {
	type pair struct{ base, ref string }
	var pairs []pair
	bs, refs := benchPairs(t)
	for i := range bs {
		pairs = append(pairs, pair{bs[i], refs[i]})
	}
	urls := loadURLs(t, 101)
	for i, base := range urls {
		for _, ref := range refsFrom(urls[(i*7+3)%len(urls)]) {
			pairs = append(pairs, pair{base.Input(), ref})
		}
	}
	for _, v := range []struct {
		file            string
		baseCol, refCol int
		unescape        bool
	}{
		{"rfc/rfc3986-5.4-resolution.tsv", 1, 2, false},
		{"rfc/rfc1808-5-resolution.tsv", 1, 2, false},
		{"rfc/rfc2396-appC-resolution.tsv", 1, 2, false},
		{"python/urljoin.tsv", 2, 3, true},
		{"perl-uri/extracted/old-base_resolve.tsv", 2, 1, true},
		{"perl-uri/extracted/roytest-resolution.tsv", 2, 3, true},
	} {
		for _, row := range readTSV(t, v.file) {
			b, r := row[v.baseCol], row[v.refCol]
			if v.unescape {
				b, r = unescapeTSV(b), unescapeTSV(r)
			}
			pairs = append(pairs, pair{b, r})
		}
	}
	// Bases with problems inside the authority (its offsets are then
	// judged again), around it, and schemes with rules of their own.
	odd := []string{
		"http://a/b/c/d;p?q", "HTTP://a/b/c", " http://a/b ", "<URL:http://a/b/c>", "http://a",
		"http://a:8080/b/c", "http://a:/b", "http://u:pw@a/b/c", "http://u@a/b", "http://[::1]:80/b/c",
		"http://a_b/c/d", "http://300.1.1.1/x", "http://a./b", "http://-a/b", "http:///b/c", "http://a%41/b",
		"ftp://h/d?x/y", "ftp://u:p@h/a;type=d", "gopher://h/1a b", "file:///etc/x", "telnet://h",
		"news:comp.lang.misc", "mailto:a@b.c", "fred:///s//a/b/c", "x-y://h/a?b#c",
		"resolvetest://u@h/a/b", "resolvetest://h/a/b?q", "resolvetest://h", "Resolvetest://h/x/",
		"resolvescreen://h/a/b", "resolvescreen://u@h/a/b?x", "resolvescreen://h/x?q",
		// More problems than are listed, the path's among those left out
		// (found by FuzzResolve): its path is not to be taken as clean.
		"0://" + strings.Repeat("!", 100) + "/ a/", "http://" + strings.Repeat("!", 100) + "/a b/c?d e",
	}
	oddRefs := []string{"", "g", "x", "ERR", "../x", "?q x", "#f g", "?y", "//h2/p", "//u@h/x", "/\x01", "a b", "g?y#s",
		"..//g", ";x", ".", "..", "../../../x", "/./g", "http:g", "resolvetest:x", "<URL:g>", " g ", "//", "///w"}
	for _, b := range odd {
		for _, r := range oddRefs {
			pairs = append(pairs, pair{b, r})
		}
	}
	var n, failed int
	for _, p := range pairs {
		base, err := locator.Parse(p.base)
		if err != nil {
			continue
		}
		for _, r := range allRules {
			if checkReadsAsParse(t, base, p.ref, r) {
				n++
			} else {
				failed++
			}
		}
	}
	t.Logf("%d resolutions read as Parse reads them (%d pairs; %d results Parse rejects, as Resolve does)", n, len(pairs), failed)
}

// TestResolveOddBase: bases whose authority the fast path must not copy
// (a host with a space, an empty host, another port, a user, an upper-case
// scheme, an IPv6 literal) give the URL Parse makes of the composed text.
func TestResolveOddBase(t *testing.T) {
	var changed []*locator.URL
	for _, p := range []locator.Parts{
		{Scheme: "http", HasAuthority: true, Host: "a%20b", HasPath: true, Path: "x/y"},
		{Scheme: "http", HasAuthority: true, Host: "", HasPath: true, Path: "x/y"},
		{Scheme: "http", HasAuthority: true, Host: "h"},
		{Scheme: "HTTP", HasAuthority: true, Host: "h", HasPath: true, Path: "x"},
		{Scheme: "http", HasAuthority: true, Host: "good", HasPort: true, Port: "81", HasPath: true, Path: "x/y"},
		{Scheme: "http", HasAuthority: true, Host: "good", HasPort: true, Port: "", HasPath: true, Path: "x/y"},
		{Scheme: "ftp", HasAuthority: true, Host: "good", HasPath: true, Path: "x/y"},
		{Scheme: "http", HasAuthority: true, HasUser: true, User: "u", Host: "good", HasPath: true, Path: "x/y"},
		{Scheme: "http", HasAuthority: true, HasUser: true, User: "u", HasPassword: true, Password: "p&q", Host: "good", HasPath: true, Path: "x/y"},
		{Scheme: "http", HasAuthority: true, Host: "::1", HasPath: true, Path: "x/y"},
	} {
		u, err := p.URL()
		if err != nil {
			t.Fatalf("%s: %v", p.String(), err)
		}
		changed = append(changed, u)
	}
	for _, base := range changed {
		for _, ref := range []string{"", "g", "?q", "#f", "../z", "/a b"} {
			for _, r := range allRules {
				checkReadsAsParse(t, base, ref, r)
			}
		}
	}
}
