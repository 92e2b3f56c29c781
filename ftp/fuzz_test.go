package ftp

import (
	"reflect"
	"strings"
	"testing"

	"github.com/rfc1738/locator"
)

// FuzzParse reads any text as a URL and, for ftp URLs, applies every
// function of the package: none may panic; problem offsets must lie in
// the input; Normalize must keep the structure; a plan's commands must
// never hold a CR or LF.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"ftp://myname@host.dom/%2Fetc/motd", "ftp://host//etc/motd", "ftp://host/a;type=d",
		"ftp://host/a/b;TYPE=I", "ftp://host/x!A", "ftp://host/a;b;type=/c;type=x",
		"ftp://u:p@[::1]:21/%0d%0a", "ftp:x", "<URL:ftp://h/;type=a>", "ftp://h/!D",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		u, err := locator.Parse(s)
		if err != nil || u.Scheme != "ftp" {
			return
		}
		for _, p := range (Rules{}).Check(u) {
			if p.Offset < 0 || p.Offset > len(s) {
				t.Fatalf("problem offset %d outside %q", p.Offset, s)
			}
		}
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
			}
		} else if _, ok := err.(*PlanError); !ok {
			t.Fatalf("NewPlan error %T", err)
		}
		Rules{}.Normalize(u)
		v, err := locator.Parse(u.String())
		if err != nil {
			t.Fatalf("normalized %q does not parse: %v", u.String(), err)
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

// FuzzBuild builds a URL from components and parses it back: Build either
// fails with a *BuildError or gives a conforming URL with the same
// components.
func FuzzBuild(f *testing.F) {
	f.Add("myname", "", "host.dom", "", "/etc", "motd", "", byte(3))
	f.Add("a@b", "p:w", "::1", "2121", "a/b\x00c", "x!A", "", byte(7))
	f.Add("", "", "h", "21", "", "README!I", "d", byte(4))
	f.Fuzz(func(t *testing.T, user, pass, host, port, cwd, name, typ string, flags byte) {
		r := Ref{
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
		s, err := Build(r)
		if err != nil {
			if _, ok := err.(*BuildError); !ok {
				t.Fatalf("Build error %T", err)
			}
			return
		}
		u, err := locator.Parse(s)
		if err != nil {
			t.Fatalf("Build(%+v) = %q does not parse: %v", r, s, err)
		}
		got := Decode(u)
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
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("Build(%+v) = %q reads back as\n%+v", r, s, got)
		}
	})
}
