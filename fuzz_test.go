package locator

import (
	"reflect"
	"strings"
	"testing"
)

// FuzzParse: Parse never panics; a rejection carries an Error problem with
// an offset inside the input; an accepted URL's String reparses to the
// same components and is stable; every problem offset lies in the input;
// each component stands at its Offset; an accepted URL holds at most
// MaxProblems problems from the core and as many from its scheme's rules,
// each list with one summary (the test binary registers x-flood, whose
// rules report one problem per "v", "w" or "E", and resolvetest).
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"ftp://@host.com/", "ftp://foo:@host.com/", "ftp://myname@host.dom/%2Fetc/motd;type=a",
		"http://www.w3.org/a/b?c#d", "http://[::1]:80/", "http://[v1.x]/", "gopher://h/1a%09b%09+",
		"mailto:a@b?subject=x", "news:*", "<URL:http://h/>", "URL:x", "file:///C|/x", "HTTP://H:0/",
		"a:", "a://", "a://@:/?#", "http://h:99999/", "http://a..b./", "http://1.2.3.4/", "x:%zz%",
		"prospero://h//p;a=b", "telnet://u:p@h:23/", " <URL: ftp://x/ > ",
		"x-flood:" + strings.Repeat("v~w", 120), "x-flood:" + strings.Repeat("w", 100) + "vEv",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		u, err := Parse(s)
		// A Parser that parsed a URL with problems and an upper-case
		// scheme before, and ParseBatch, give exactly Parse's result.
		var ps Parser
		var pv URL
		if ps.Parse(&pv, "HTTP://h:1/a b%zz#\x80") != nil {
			t.Fatal("the Parser's first URL does not parse")
		}
		perr := ps.Parse(&pv, s)
		batch, berrs := ParseBatch([]string{"X-Y://a b/", s, "ftp://h/%"})
		var berr error
		if berrs != nil {
			berr = berrs[1]
		}
		if !reflect.DeepEqual(err, perr) || !reflect.DeepEqual(err, berr) {
			t.Fatalf("%q: Parse: %v; Parser: %v; batch: %v", s, err, perr, berr)
		}
		if err == nil && (!reflect.DeepEqual(*u, pv) || !reflect.DeepEqual(*u, batch[1])) {
			t.Fatalf("%q: Parse %+v; Parser %+v; batch %+v", s, *u, pv, batch[1])
		}
		// Without the one-pass reading of a plain authority, the result
		// is the same.
		fullAuthority = true
		full, ferr := Parse(s)
		fullAuthority = false
		if !reflect.DeepEqual(err, ferr) || (err == nil && !reflect.DeepEqual(*u, *full)) {
			t.Fatalf("%q: the one-pass authority reads %+v, %v; the full reading %+v, %v", s, u, err, full, ferr)
		}
		if err != nil {
			pe, ok := err.(*ParseError)
			if !ok || pe.Problem.Severity != Error {
				t.Fatalf("Parse(%q): %v", s, err)
			}
			for _, p := range pe.Problems {
				if p.Offset < 0 || p.Offset > len(s) {
					t.Fatalf("Parse(%q): offset %d outside the input", s, p.Offset)
				}
			}
			return
		}
		for _, p := range u.Problems() {
			if p.Offset < 0 || p.Offset > len(s) || p.Severity == Error {
				t.Fatalf("Parse(%q): bad problem %v", s, p)
			}
		}
		if n := len(u.Problems()); n > 2*(MaxProblems+1) {
			t.Fatalf("Parse(%q): %d problems", s, n)
		}
		// Each component stands in the input at its offset, and the
		// offsets never go back.
		cs := []string{u.Scheme(), u.User(), u.Password(), u.Host(), u.Port(), u.Path(), u.Search(), u.Fragment()}
		last := 0
		for c := SchemeComponent; c < numComponents; c++ {
			o := u.Offset(c)
			if o < last || o > len(s) || (c == SchemeComponent && !hasPrefixFold(s, o, cs[c])) ||
				(c != SchemeComponent && s[o:min(len(s), o+len(cs[c]))] != cs[c]) {
				t.Fatalf("Parse(%q): Offset(%d) = %d does not hold %q", s, c, o, cs[c])
			}
			last = o
		}
		out := u.String()
		v, err := Parse(out)
		if err != nil {
			t.Fatalf("Parse(%q).String() = %q: %v", s, out, err)
		}
		if !u.SameComponents(v) {
			t.Fatalf("Parse(%q).String() = %q reparses differently:\n%s\n%s", s, out, comps(u), comps(v))
		}
		if v.String() != out {
			t.Fatalf("String is not stable for %q: %q, then %q", s, out, v.String())
		}
	})
}

// FuzzEscape: Decode inverts Escape for every encoding, and MakeSafe is
// idempotent and leaves no unsafe octet.
func FuzzEscape(f *testing.F) {
	for _, s := range []string{"a b", "%", "%zz", "/etc", "é", "\x00\r\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for e := Encoding(0); e < numEncodings; e++ {
			if d := Decode(Escape(s, e)); d != s {
				t.Fatalf("Decode(Escape(%q, %d)) = %q", s, e, d)
			}
		}
		m := MakeSafe(s)
		if MakeSafe(m) != m {
			t.Fatalf("MakeSafe not idempotent on %q", s)
		}
		for i := 0; i < len(m); i++ {
			c := m[i]
			if c == '%' {
				if i+2 >= len(m) || !IsHex(m[i+1]) || !IsHex(m[i+2]) {
					t.Fatalf("MakeSafe(%q) = %q has a bare %%", s, m)
				}
				continue
			}
			if IsUnsafe(c) {
				t.Fatalf("MakeSafe(%q) = %q keeps unsafe %q", s, m, c)
			}
		}
	})
}

// plainHostnameByOctet is plainHostname written octet by octet, the
// reference for its eight-at-a-time form.
func plainHostnameByOctet(h string) bool {
	if len(h) > maxHostname {
		return false
	}
	start := 0
	for k := 0; k <= len(h); k++ {
		if k < len(h) && h[k] != '.' {
			continue
		}
		if k == start || h[start] == '-' || h[k-1] == '-' || k-start > maxLabel {
			return false
		}
		if k == len(h) {
			return isAlpha(h[start])
		}
		start = k + 1
	}
	return false
}

// FuzzPlainHostname: the eight-at-a-time plainHostname answers as the
// octet-by-octet reference on every string of hostname octets.
func FuzzPlainHostname(f *testing.F) {
	for _, s := range []string{"", "a", "a.b", "www.example.com", "a..b", "-a.b", "a-.b", "1.2.3.4", "abcdefgh.ijklmnop.q1",
		"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.b", "a.b.", "xn--bcher-kva.example"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		b := []byte(s)
		for i, c := range b {
			if hostOK.t[c] == 0 {
				b[i] = "ab9.-"[c%5]
			}
		}
		h := string(b)
		want := plainHostnameByOctet(h)
		if got := plainHostname(h); got != want {
			t.Fatalf("plainHostname(%q) = %v, the octet-by-octet reading %v", h, got, want)
		}
		// plainAuthority accepts the same hosts (followed by a path, or
		// by a port); FuzzParse compares its reading with the full one.
		for _, in := range []string{"http://" + h + "/x", "http://" + h + ":81", "http://" + h} {
			var p parser
			p.s, p.syn = in, &genericSyntax
			_, ok := p.plainAuthority(7, len(in))
			if ok != want {
				t.Fatalf("plainAuthority(%q) = %v, plainHostname %v", in, ok, want)
			}
		}
	})
}

// FuzzResolveScans: dotSegmentAt finds what an octet-by-octet reading
// finds, and the octets removeDotSegments reports as unchanged (which
// Resolve does not judge again) are the input's.
func FuzzResolveScans(f *testing.F) {
	for _, s := range []string{"", ".", "/.", "a/./b", "../a", "abcdefg/.hij", "abcdefgh/..", "/a/b/c/./../../g", "mid/content=5/../6", "a%20b%0Dc", "abcdefgh%41%4", "x?y#z"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		b := []byte(s)
		for i, c := range b {
			if c >= 0x80 {
				b[i] = "/.a"[c%3] // make the interesting octets common
			}
		}
		s = string(b)
		// next[k]: the first "." at or after k that begins a segment.
		next := make([]int, len(b)+1)
		next[len(b)] = -1
		for k := len(b) - 1; k >= 0; k-- {
			next[k] = next[k+1]
			if b[k] == '.' && (k == 0 || b[k-1] == '/') {
				next[k] = k
			}
		}
		for from, want := range next {
			if got := dotSegmentAt(b, from); got != want {
				t.Fatalf("dotSegmentAt(%q, %d) = %d, want %d", s, from, got, want)
			}
		}
		p := []byte(s)
		n, same := removeDotSegments(p)
		if same > n || s[:same] != string(p[:same]) {
			t.Fatalf("removeDotSegments(%q) = %q, reports %d octets unchanged", s, p[:n], same)
		}
		// cleanPrefix, which lets Resolve pass over what it judged in a
		// reference, stops where an octet-by-octet reading does, and
		// the prefix it passes reads in a path without a problem.
		for _, ok := range []*octetSet{&xcharOK, &xcharNoSearch} {
			want := 0
			for want < len(s) {
				if ok.t[s[want]] != 0 {
					want++
					continue
				}
				if want+2 < len(s) && s[want] == '%' && IsHex(s[want+1]) && IsHex(s[want+2]) {
					if v := Decode(s[want : want+3])[0]; v != 0 && v != '\r' && v != '\n' && v != '\t' {
						want += 3
						continue
					}
				}
				break
			}
			if got := cleanPrefix(s, ok); got != want {
				t.Fatalf("cleanPrefix(%q) = %d, want %d", s, got, want)
			}
		}
		// allowedPrefix, in vectors where the processor has them, stops
		// at the first octet the set does not allow, at every offset.
		for _, ok := range allOctetSets {
			for from := 0; from <= len(s) && from <= 17; from++ {
				want := from
				for want < len(s) && ok.t[s[want]] != 0 {
					want++
				}
				if got := from + allowedPrefix(s[from:], ok); got != want {
					t.Fatalf("allowedPrefix(%q) = %d, want %d", s[from:], got-from, want-from)
				}
				if got := from + allowedPrefixWords(s[from:], ok); got != want {
					t.Fatalf("allowedPrefixWords(%q) = %d, want %d", s[from:], got-from, want-from)
				}
			}
		}
		if k := cleanPrefix(s, &xcharNoSearch); k > 0 {
			u, err := Parse("http://h/" + s[:k])
			if err != nil || len(u.Problems()) != 0 || u.Path() != s[:k] {
				t.Fatalf("the clean prefix %q reads as %v, %v", s[:k], u, err)
			}
		}
	})
}
