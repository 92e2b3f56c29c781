package http

import (
	"reflect"
	"strings"
	"testing"

	"github.com/rfc1738/locator"
)

// FuzzParse applies the package to any http URL: no panic, offsets in
// the input, and a request line with no space, CR or LF in its target.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"http://a/b/c/d;p?q#f", "https://u:p@[::1]:8/x?/?", "http://h?q", "http:x", "http://h/a b\r\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		u, err := locator.Parse(s)
		if err != nil || (u.Scheme() != "http" && u.Scheme() != "https") {
			return
		}
		got := (Rules{}).Check(u, locator.Report{}).Problems()
		for _, p := range got {
			if p.Offset < 0 || p.Offset > len(s) {
				t.Fatalf("offset %d outside %q", p.Offset, s)
			}
		}
		if want := checkPlain(u); !reflect.DeepEqual(got, want) {
			t.Fatalf("Check(%q) = %v, the rules read octet by octet give %v", s, got, want)
		}
		_ = (Rules{}).Parts(u)
		_ = (Rules{}).Explain(u)
		for _, mk := range []func(*locator.URL) (*Request, error){NewRequest, NewProxyRequest} {
			r, err := mk(u)
			if err != nil {
				continue
			}
			if strings.ContainsAny(r.Target, " \r\n\t#") {
				t.Fatalf("request target %q from %q", r.Target, s)
			}
		}
	})
}

// FuzzBuild: Build either fails with a *locator.BuildError or writes a URL that
// reads back as the same components.
func FuzzBuild(f *testing.F) {
	f.Add(false, "host", "", "a b\x00c/d", "q=1&r=/", true)
	f.Add(true, "::1", "8443", "", "", false)
	f.Fuzz(func(t *testing.T, https bool, host, port, path, search string, hasSearch bool) {
		r := URL{Scheme: "http", Host: host, Port: port, Search: search, HasSearch: hasSearch}
		if https {
			r.Scheme = "https"
		}
		if path != "" {
			r.Segments = strings.Split(path, "\x00")
		}
		s, err := r.Build()
		if err != nil {
			if _, ok := err.(*locator.BuildError); !ok {
				t.Fatalf("error %T", err)
			}
			return
		}
		u, err := locator.Parse(s)
		if err != nil {
			t.Fatalf("Build(%+v) = %q: %v", r, s, err)
		}
		want := r
		if want.Segments == nil && want.HasSearch {
			want.Segments = []string{""}
		}
		if !want.HasSearch {
			want.Search = ""
		}
		if got, err := From(u); err != nil || !reflect.DeepEqual(*got, want) {
			t.Fatalf("Build(%+v) = %q reads back as %+v", r, s, got)
		}
	})
}

// checkPlain is Check as the rules read, octet by octet, with none of
// Check's shortcuts: FuzzParse holds Check to it.
func checkPlain(u *locator.URL) []locator.Problem {
	var r locator.Report
	add := func(off int, rule, msg string) { r.Add(off, locator.Violation, rule, msg) }
	if u.HasUser() {
		add(u.Offset(locator.UserComponent), "httpurl", "no user name or password is allowed in an "+u.Scheme()+" URL (RFC 1738 §3.3)")
	}
	if u.HasSearch() {
		base := u.Offset(locator.SearchComponent)
		if u.HasAuthority() && !u.HasPath() {
			add(base-1, "httpurl", "the search part follows \"/\" and the path: write "+u.Scheme()+"://host/?search (RFC 1738 §5 httpurl)")
		}
		search := u.Search()
		for i := 0; i < len(search); i++ {
			switch search[i] {
			case '/':
				add(base+i, "search", "'/' is reserved within the search part and must be encoded as %2F (RFC 1738 §3.3, §5 search)")
			case '?':
				add(base+i, "search", "'?' is reserved within the search part and must be encoded as %3F (RFC 1738 §3.3, §5 search)")
			}
		}
	}
	return r.Problems()
}
