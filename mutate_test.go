package locator

import (
	"testing"
)

// A URL's fields are exported and callers change them. Every public
// function must then answer as it answers for Parse(u.String()), never
// trusting the offsets, Input or Problems Parse left behind, and never
// panic (issue 8.2).

// mutate sets field f of u to v (f modulo 9: the eight components, then
// Input) and flips the presence flags named by the bits of flags.
func mutate(u *URL, f uint8, v string, flags uint8) {
	switch f % 9 {
	case 0:
		u.Scheme = v
	case 1:
		u.User = v
	case 2:
		u.Password = v
	case 3:
		u.Host = v
	case 4:
		u.Port = v
	case 5:
		u.Path = v
	case 6:
		u.Search = v
	case 7:
		u.Fragment = v
	case 8:
		u.Input = v
	}
	flip := func(b *bool, bit uint8) {
		if flags&(1<<bit) != 0 {
			*b = !*b
		}
	}
	flip(&u.Authority, 0)
	flip(&u.HasUser, 1)
	flip(&u.HasPassword, 2)
	flip(&u.HasPort, 3)
	flip(&u.HasPath, 4)
	flip(&u.HasSearch, 5)
	flip(&u.HasFragment, 6)
}

// checkMutated calls every public function on the changed URL u and
// compares each answer with the one for c = Parse(u.String()) (when that
// parses).
func checkMutated(t *testing.T, u *URL, ref string) {
	t.Helper()
	s := u.String()
	for comp := SchemeComponent; comp < numComponents; comp++ {
		if o := u.Offset(comp); o < 0 || o > len(u.Input) {
			t.Fatalf("%+v: Offset(%d) = %d outside Input", u, comp, o)
		}
	}
	u.EffectivePort()
	u.Conforms()
	n := Normalize(u)
	Equal(u, u)
	c, err := Parse(s)
	var rs [numResolutions]*URL
	for r := Resolution(0); r < numResolutions; r++ {
		rs[r], _ = Resolve(u, ref, r)
		if rs[r] != nil {
			Relative(u, rs[r], r)
			Relative(rs[r], u, r)
		}
	}
	if err != nil {
		return
	}
	if !n.SameComponents(Normalize(c)) {
		t.Fatalf("%+v (%q): Normalize %q, of its text %q", u, s, n, Normalize(c))
	}
	if !Equal(u, c) || !Equal(c, u) {
		t.Fatalf("%+v (%q) is not Equal to Parse of its text", u, s)
	}
	if u.EffectivePort() != c.EffectivePort() || u.Conforms() != c.Conforms() {
		t.Fatalf("%+v (%q): EffectivePort %d, Conforms %v; of its text %d, %v", u, s,
			u.EffectivePort(), u.Conforms(), c.EffectivePort(), c.Conforms())
	}
	for r := Resolution(0); r < numResolutions; r++ {
		w, err := Resolve(c, ref, r)
		if (err == nil) != (rs[r] != nil) || (w != nil && (!w.SameComponents(rs[r]) || w.String() != rs[r].String())) {
			t.Fatalf("%v: %+v (%q) + %q: Resolve %v, of its text %v (%v)", r, u, s, ref, rs[r], w, err)
		}
		if w != nil {
			if a, b := Relative(u, w, r), Relative(c, w, r); a != b {
				t.Fatalf("%v: Relative(%q, %q) = %q, from its text %q", r, s, w, a, b)
			}
			if a, b := Relative(w, u, r), Relative(w, c, r); a != b {
				t.Fatalf("%v: Relative(%q, %q) = %q, to its text %q", r, w, s, a, b)
			}
		}
	}
}

// TestMutatedFields: the changes that made Resolve panic (slice bounds in
// copyAuthority) or return a host Parse would not read, and others.
func TestMutatedFields(t *testing.T) {
	for _, tc := range []struct {
		in    string
		field uint8
		val   string
		flags uint8
		ref   string
	}{
		{"http://h/x", 3, "ho", 0, "g"},                // host cut short: the text says "h"... "ho"
		{"http://good/x/y", 3, "go", 0, "g"},           // a prefix of the host, still in Input
		{"http://u@h/x", 1, "u@h/x", 0, "g"},           // user reaching past the authority
		{"http://h:8/x", 4, "8/x", 0, "g"},             // port reaching past the authority
		{"http://u@h:8/x", 1, "", 2, "#f"},             // user dropped
		{"http://u:p@h/x", 2, "p@h/", 0, "../g"},       // password reaching into the path
		{"<URL:http://a@b:1/c>", 4, "1/c>", 0, ""},     // to the wrapper's end
		{"http://h/x", 0, "HTTP", 0, "g"},              // scheme in upper case
		{"http://h/x", 0, "url", 0, "g"},               // the prefix's name
		{"http://h/x", 8, "", 0, "g"},                  // Input emptied
		{"http://h/x", 8, "ftp://x", 0, "g"},           // Input of another URL
		{"http://h/x#f", 7, "f", 64, ""},               // fragment's flag dropped
		{"http://[::1]:80/x", 3, "::1]:80/x", 0, "g"},  // IPv6 literal
		{"ftp://u@h/a", 5, "a?b", 0, "?c"},             // a "?" in a path
		{"http://h", 5, "x", 0, ""},                    // a path without its "/"
		{"http://h/x?q", 6, "q#r", 0, ""},              // a "#" in a search
		{"news:a.b", 3, "h", 1, "c"},                   // an authority added
		{"http://h:80/x", 4, "99999999999999", 0, "g"}, // a port out of range
		{"http://h/x", 3, "BÜCHER.example", 0, "g"},
	} {
		u, err := Parse(tc.in)
		if err != nil {
			t.Fatal(err)
		}
		mutate(u, tc.field, tc.val, tc.flags)
		checkMutated(t, u, tc.ref)
	}
	// A URL built by hand.
	checkMutated(t, &URL{Scheme: "http", Authority: true, Host: "h", HasPort: true, Port: "81", HasPath: true, Path: "a/b"}, "../c")
	checkMutated(t, &URL{}, "g")
}

// FuzzMutate: parse, overwrite one exported field with a fuzzed string and
// flip presence flags, then call every public function: no panic, and the
// answers are those for Parse(u.String()) when that parses.
func FuzzMutate(f *testing.F) {
	for _, s := range []string{"http://u:p@h:8/a/b?q#f", "ftp://h/a;type=a", "<URL:http://a@b:1/c>", "news:a@b", "http://[::1]:80/x"} {
		for fld := uint8(0); fld < 9; fld++ {
			f.Add(s, fld, "x", uint8(0), "../g")
		}
	}
	f.Add("http://h/x", uint8(3), "ho", uint8(0), "g")
	f.Add("http://u@h/x", uint8(1), "u@h/x", uint8(2), "#f")
	f.Fuzz(func(t *testing.T, s string, fld uint8, v string, flags uint8, ref string) {
		u, err := Parse(s)
		if err != nil {
			return
		}
		mutate(u, fld, v, flags)
		checkMutated(t, u, ref)
	})
}
