package ftp

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/internal/loctest"
)

// FuzzParse reads any text as a URL and, for ftp URLs, applies every
// function of the package: none may panic; problem offsets must lie in
// the input; Normalize must keep the structure; a plan's commands must
// never hold a CR or LF. Then the URL's exported fields are overwritten
// with fuzzed values (so that no field is trusted to be what Parse made): Split, From, NewPlan and the rules
// must not panic, and must answer as on the URL its String reads back as.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"ftp://myname@host.dom/%2Fetc/motd", "ftp://host//etc/motd", "ftp://host/a;type=d",
		"ftp://host/a/b;TYPE=I", "ftp://host/x!A", "ftp://host/a;b;type=/c;type=x",
		"ftp://u:p@[::1]:21/%0d%0a", "ftp:x", "<URL:ftp://h/;type=a>", "ftp://h/!D",
	} {
		f.Add(s, "", "", "", "", "", "", "", uint16(0))
	}
	f.Add("ftp://h/a", "u", "p", "h2", "21", "x/y;type=d", "q", "f", uint16(0x7fff))
	f.Add("ftp://h/a", "", "", "", "", "%0d%0a/b", "", "", uint16(1<<4))
	f.Add("ftp://h/a;type=i", "", "", "::1", "x", "", "", "", uint16(1<<2|1<<3|1<<10))
	f.Fuzz(func(t *testing.T, s, user, pass, host, port, path, search, frag string, mask uint16) {
		u, err := locator.Parse(s)
		if err != nil || u.Scheme() != "ftp" {
			return
		}
		for _, p := range (Rules{}).Check(u, locator.Report{}).Problems() {
			if p.Offset < 0 || p.Offset > len(s) {
				t.Fatalf("problem offset %d outside %q", p.Offset, s)
			}
		}
		m := loctest.Mutation{User: user, Password: pass, Host: host, Port: port, Path: path, Search: search, Fragment: frag, Mask: mask}
		loctest.CheckMutated(t, u, m, view)
		sp := Split(u)
		if _, err := sp.MarshalJSON(); err != nil {
			t.Fatal(err)
		}
		_ = (Rules{}).Explain(u)
		if p, err := NewPlan(u, "me@example.org"); err == nil {
			for _, c := range p.Commands {
				if strings.ContainsAny(c.String(), "\r\n") {
					t.Fatalf("plan of %q has a CR or LF: %q", s, c)
				}
				// TYPE is the typecode's, else TYPE I (§3.2.3).
				if c.Verb == "TYPE" && (c.Guessed != !sp.HasTypecode || c.Guessed && c.Arg != "I" || !c.Guessed && c.Arg != strings.ToUpper(sp.Typecode)) {
					t.Fatalf("plan of %q: %q guessed %v, typecode %q %v", s, c, c.Guessed, sp.Typecode, sp.HasTypecode)
				}
			}
		} else if _, ok := err.(*PlanError); !ok {
			t.Fatalf("NewPlan error %T", err)
		}
		np := u.Parts()
		Rules{}.Normalize(&np)
		v, err := np.URL()
		if err != nil {
			t.Fatalf("normalized %q does not parse: %v", np.String(), err)
		}
		after := Split(v)
		if sp.HasTypecode && !validCode(sp.Typecode) {
			return // left as written
		}
		sp.Draft = false
		if !reflect.DeepEqual(sp, after) {
			t.Fatalf("Normalize(%q) = %q changed the structure:\n%+v\n%+v", s, u.String(), sp, after)
		}
	})
}

// view writes what the package's accessors answer for u, without the
// input text or offsets.
func view(u *locator.URL) string {
	var b strings.Builder
	sp := Split(u)
	j, err := sp.MarshalJSON()
	f, ferr := From(u)
	fmt.Fprintf(&b, "split %#v %s %v\nfrom %#v %v\n", sp, j, err, f, ferr)
	p, err := NewPlan(u, "me@example.org")
	if err != nil {
		pe, ok := err.(*PlanError)
		if !ok {
			return fmt.Sprintf("NewPlan error %T", err)
		}
		fmt.Fprintf(&b, "plan error %v %s %s\n", pe.Problem.Severity, pe.Problem.Rule, pe.Problem.Message)
	} else {
		for _, c := range p.Commands {
			if strings.ContainsAny(c.String(), "\r\n") {
				b.WriteString("CR or LF in a command! ")
			}
		}
		fmt.Fprintf(&b, "plan %#v\n", *p)
	}
	return b.String()
}

// FuzzBuild builds a URL from components and parses it back: Build either
// fails with a *locator.BuildError or gives a URL with the same components that
// conforms to RFC 1738 (Conforms), but for an IPv6 host: Build writes it
// in RFC 2732's brackets, which RFC 1738 predates, and Parse reports that
// as a violation of rule "host" and nothing else.
func FuzzBuild(f *testing.F) {
	f.Add("myname", "", "host.dom", "", "/etc", "motd", "", byte(3))
	f.Add("a@b", "p:w", "::1", "2121", "a/b\x00c", "x!A", "", byte(7))
	f.Add("", "", "h", "21", "", "README!I", "d", byte(4))
	f.Fuzz(func(t *testing.T, user, pass, host, port, cwd, name, typ string, flags byte) {
		r := URL{
			User: user, HasUser: flags&1 != 0,
			Password: pass, HasPassword: flags&2 != 0,
			Host: host, Port: port,
			Path: Path{Name: name, HasName: flags&4 != 0, Typecode: typ, HasTypecode: flags&8 != 0},
		}
		if r.HasPassword {
			r.HasUser = true
		}
		if cwd != "" || flags&16 != 0 {
			r.Cwd = strings.Split(cwd, "\x00")
		}
		s, err := r.Build()
		if err != nil {
			if _, ok := err.(*locator.BuildError); !ok {
				t.Fatalf("Build error %T", err)
			}
			return
		}
		u, err := locator.Parse(s)
		if err != nil {
			t.Fatalf("Build(%+v) = %q does not parse: %v", r, s, err)
		}
		ipv6 := func(p locator.Problem) bool { return p.Rule == "host" && strings.Contains(r.Host, ":") }
		if d := loctest.Departures(u, ipv6); len(d) > 0 {
			t.Fatalf("Build(%+v) = %q does not conform: %v", r, s, d)
		}
		got, err := From(u)
		if err != nil {
			t.Fatalf("Build(%+v) = %q: From: %v", r, s, err)
		}
		want := r
		if want.Cwd == nil {
			want.Cwd = []string{}
		}
		if len(want.Cwd) > 0 || want.HasTypecode {
			want.HasName = true
		}
		if !want.HasName {
			want.Name = ""
		}
		if !want.HasUser {
			want.User = ""
		}
		if !want.HasPassword {
			want.Password = ""
		}
		if want.HasTypecode {
			want.Typecode = strings.ToLower(want.Typecode)
		} else {
			want.Typecode = ""
		}
		if !reflect.DeepEqual(*got, want) {
			t.Fatalf("Build(%+v) = %q reads back as\n%+v", r, s, got)
		}
	})
}
