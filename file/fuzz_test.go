package file

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/internal/loctest"
)

// FuzzParse applies the package to any file URL: no panic, offsets in
// the input, and a local path holds no NUL and, for Unix, a name per
// segment of the url-path. Then the URL's exported fields are
// overwritten with fuzzed values (so that no field is trusted to be what
// Parse made): From, IsLocal, LocalPath
// and the rules must not panic, and must answer as on the URL its String
// reads back as.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"file:///etc/motd", "file://c:/x", "file://h/a%2Fb;c", "file:x", "file:///C|/a%5C"} {
		f.Add(s, "", "", "", "", "", "", "", uint16(0))
	}
	f.Add("file:///x", "u", "p", "LocalHost", "1", "a/b", "q", "f", uint16(0x7fff))
	f.Add("file://localhost/x", "", "", "c:", "", "%00", "", "", uint16(1<<2|1<<4))
	f.Add("file:/x", "", "", "", "", "/etc", "", "", uint16(1<<4|1<<7))
	f.Fuzz(func(t *testing.T, s, user, pass, host, port, path, search, frag string, mask uint16) {
		u, err := locator.Parse(s)
		if err != nil || u.Scheme() != "file" {
			return
		}
		m := loctest.Mutation{User: user, Password: pass, Host: host, Port: port, Path: path, Search: search, Fragment: frag, Mask: mask}
		loctest.CheckMutated(t, u, m, view)
		got := (Rules{}).Check(u, locator.Report{}).Problems()
		for _, p := range got {
			if p.Offset < 0 || p.Offset > len(s) {
				t.Fatalf("offset %d outside %q", p.Offset, s)
			}
		}
		if want := checkPlain(u); !reflect.DeepEqual(got, want) {
			t.Fatalf("Check(%q) = %v, the rules read octet by octet give %v", s, got, want)
		}
		_ = Rules{}.Parts(u)
		_ = Rules{}.Explain(u)
		for _, st := range []Style{Unix, Windows} {
			p, err := LocalPath(u, st)
			if err != nil {
				if pe, ok := err.(*PathError); !ok || pe.Problem.Offset < 0 || pe.Problem.Offset > len(s) {
					t.Fatalf("LocalPath(%q) error %v", s, err)
				}
				continue
			}
			if strings.IndexByte(p, 0) >= 0 {
				t.Fatalf("LocalPath(%q) = %q holds NUL", s, p)
			}
			if st == Unix {
				// The path converts back to a URL naming the same path.
				back, err := FromLocalPath(p, Unix)
				if err != nil {
					t.Fatalf("FromLocalPath(%q): %v", p, err)
				}
				v, err := locator.Parse(back)
				if err != nil {
					t.Fatalf("FromLocalPath(%q) = %q: %v", p, back, err)
				}
				if q, err := LocalPath(v, Unix); err != nil || q != p {
					t.Fatalf("%q -> %q -> %q -> %q %v", s, p, back, q, err)
				}
			}
		}
	})
}

// view writes what the package's accessors answer for u (a path error by
// its rule and message: its Input and offset left out).
func view(u *locator.URL) string {
	f, ferr := From(u)
	s := fmt.Sprintf("from %#v %v local %v\n", f, ferr, IsLocal(u))
	for _, st := range []Style{Unix, Windows} {
		p, err := LocalPath(u, st)
		if err != nil {
			pe, ok := err.(*PathError)
			if !ok {
				return s + fmt.Sprintf("LocalPath error %T", err)
			}
			s += fmt.Sprintf("%v: error %v %s %s\n", st, pe.Problem.Severity, pe.Problem.Rule, pe.Problem.Message)
			continue
		}
		s += fmt.Sprintf("%v: %q\n", st, p)
	}
	return s
}

// FuzzFromLocalPath: a path converts to a URL (or relative reference)
// that converts back to the same path, for both styles; a URL it writes
// conforms to RFC 1738 (§3.10 fileurl).
func FuzzFromLocalPath(f *testing.F) {
	for _, s := range []string{"/etc/motd", `C:\x y`, `\\srv\share\a;b`, "a:b/c", "../x", "/a#b%c"} {
		f.Add(s, false)
	}
	f.Fuzz(func(t *testing.T, p string, windows bool) {
		st := Unix
		if windows {
			st = Windows
		}
		s, err := FromLocalPath(p, st)
		if err != nil {
			return
		}
		var back string
		if strings.HasPrefix(s, "file:") {
			u, err := locator.Parse(s)
			if err != nil {
				t.Fatalf("FromLocalPath(%q) = %q: %v", p, s, err)
			}
			back, err = LocalPath(u, st)
			if err != nil {
				t.Fatalf("FromLocalPath(%q) = %q: %v", p, s, err)
			}
			if !u.Conforms() {
				t.Fatalf("FromLocalPath(%q) = %q does not conform: %v", p, s, u.Problems())
			}
		} else {
			back, err = RelativePath(s, st)
			if err != nil {
				t.Fatalf("FromLocalPath(%q) = %q: %v", p, s, err)
			}
		}
		want := p
		if st == Windows {
			want = strings.ReplaceAll(p, "/", `\`)
			if isDrive(want[:min(2, len(want))]) {
				want = strings.ToUpper(want[:1]) + ":" + want[2:]
			}
		}
		if back != want {
			t.Fatalf("%q -> %q -> %q", p, s, back)
		}
	})
}

// FuzzBuild: Build either fails with a *locator.BuildError or writes a conforming URL that decodes
// to the same host and path.
func FuzzBuild(f *testing.F) {
	f.Add("vms.host.edu", "/disk$user/my;notes/n 1.txt")
	f.Fuzz(func(t *testing.T, host, path string) {
		r := URL{Host: host, Path: path}
		s, err := r.Build()
		if err != nil {
			if _, ok := err.(*locator.BuildError); !ok {
				t.Fatalf("Build(%+v) error %T", r, err)
			}
			return
		}
		u, err := locator.Parse(s)
		if err != nil || !u.Conforms() {
			t.Fatalf("Build(%+v) = %q: %v", r, s, err)
		}
		if got, err := From(u); err != nil || *got != r {
			t.Fatalf("Build(%+v) = %q reads back as %+v", r, s, got)
		}
	})
}

// checkPlain is Check as the rules read, octet by octet and every flag
// tested, with none of Check's shortcuts: FuzzParse holds Check to it.
func checkPlain(u *locator.URL) []locator.Problem {
	var r locator.Report
	add := func(off int, rule, msg string) { r.Add(off, locator.Violation, rule, msg) }
	if u.HasAuthority() {
		if u.HasUser() {
			add(u.Offset(locator.UserComponent), "fileurl", "a file URL has no user name or password: file://<host>/<path> (RFC 1738 §3.10, §5)")
		}
		if u.HasPort() {
			add(u.Offset(locator.PortComponent)-1, "fileurl", "a file URL has no port: file://<host>/<path> (RFC 1738 §3.10, §5)")
		}
		if !u.HasPath() {
			add(u.Offset(locator.PathComponent), "fileurl", "a \"/\" and the path follow the host: file://<host>/<path> (RFC 1738 §5 fileurl)")
		}
	}
	base, path := u.Offset(locator.PathComponent), u.Path()
	for i := 0; i < len(path); i++ {
		if path[i] == ';' {
			add(base+i, "fsegment", "';' is reserved in a file path segment and must be encoded as %3B (RFC 1738 §5 fsegment)")
		}
	}
	return r.Problems()
}
