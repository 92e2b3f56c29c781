package main

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// expand returns every URL g stands for, with the texts of its patterns.
func expand(g *glob) (urls []string, texts [][]string) {
	g.each(func(u string, t []string) bool {
		urls = append(urls, u)
		texts = append(texts, t)
		return true
	})
	return urls, texts
}

// TestGlob: curl's patterns, each expansion checked against what curl
// 7.88 makes of the same URL (curl -w '%{url_effective}\n').
func TestGlob(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"http://h/a", []string{"http://h/a"}},
		{"http://h/{a,b}[1-2]", []string{"http://h/a1", "http://h/a2", "http://h/b1", "http://h/b2"}},
		{"http://h/[08-11]", []string{"http://h/08", "http://h/09", "http://h/10", "http://h/11"}},
		{"http://h/[001-003].txt", []string{"http://h/001.txt", "http://h/002.txt", "http://h/003.txt"}},
		{"http://h/[1-10:4]x", []string{"http://h/1x", "http://h/5x", "http://h/9x"}},
		{"http://h/[a-e:2]", []string{"http://h/a", "http://h/c", "http://h/e"}},
		{"http://h/[A-C]", []string{"http://h/A", "http://h/B", "http://h/C"}},
		{"http://h/[3-3]y", []string{"http://h/3y"}},
		{"http://h/{,x,}y", []string{"http://h/y", "http://h/xy", "http://h/y"}},
		{"http://h/{one}", []string{"http://h/one"}},
		{`http://h/\{a\}\[1\]`, []string{"http://h/{a}[1]"}},
		{`http://h/{a\,b,c}`, []string{"http://h/a,b", "http://h/c"}},
		{"http://[::1]:8080/{a,b}", []string{"http://[::1]:8080/a", "http://[::1]:8080/b"}},
		{"http://[fe80::1%25eth0]/", []string{"http://[fe80::1%25eth0]/"}},
		{"ftp://h/a,b", []string{"ftp://h/a,b"}},
	} {
		g, err := parseGlob(tc.in)
		if err != nil {
			t.Errorf("%s: %v", tc.in, err)
			continue
		}
		got, _ := expand(g)
		if n, ok := g.count(1 << 20); !ok || n != uint64(len(tc.want)) || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: count %d %v, expands to %q; want %q", tc.in, n, ok, got, tc.want)
		}
	}
}

// TestGlobErrors: a malformed pattern names its offset in the URL (from
// 0), where curl's message names the same place.
func TestGlobErrors(t *testing.T) {
	for _, tc := range []struct {
		in     string
		offset int
		msg    string
	}{
		{"http://h/[1-", 9, `unmatched "["`},
		{"http://h/{a,b", 9, `unmatched "{"`},
		{"http://h/a]b", 10, `unmatched ']'`},
		{"http://h/a}b", 10, `unmatched '}'`},
		{"http://h/{a,{b}}", 12, "patterns do not nest"},
		{"http://h/{a,[1-2]}", 12, "patterns do not nest"},
		{"http://h/{}", 9, "an empty set"},
		{"http://h/[5-1]", 9, "the first is after the last"},
		{"http://h/[1-5:9]", 9, "the step is larger than the range"},
		{"http://h/[1-5:0]", 9, "the step"},
		{"http://h/[1-2:]", 9, "the step"},
		{"http://h/[a-Z]", 9, "one case"},
		{"http://h/[a-9]", 9, "two numbers, or two letters"},
		{"http://h/[a-zz]", 9, "two numbers, or two letters"},
		{"http://h/[-1-2]", 9, "two numbers, or two letters"},
		{"http://h/[1]", 9, "want LOW-HIGH"},
		{"http://h/[]", 9, "want LOW-HIGH"},
		{"http://h/[1-99999999999999999999]", 9, "too large"},
	} {
		_, err := parseGlob(tc.in)
		var ge *globError
		if !errors.As(err, &ge) || ge.offset != tc.offset || !strings.Contains(err.Error(), tc.msg) || !strings.Contains(err.Error(), "offset ") {
			t.Errorf("%s: %v; want offset %d, %q", tc.in, err, tc.offset, tc.msg)
		}
	}
}

// TestGlobCount: the count is known before anything is expanded, and a
// product past 64 bits is "too many", not a wrapped small number.
func TestGlobCount(t *testing.T) {
	g, err := parseGlob("http://h/[0-999][0-99]")
	if err != nil {
		t.Fatal(err)
	}
	if n, ok := g.count(10000); ok || n != 100000 {
		t.Errorf("count %d %v", n, ok)
	}
	g, _ = parseGlob("http://h/[0-99999999999][0-99999999999]")
	if n, ok := g.count(^uint64(0)); ok || n != 0 {
		t.Errorf("overflow: count %d %v", n, ok)
	}
	g, _ = parseGlob("http://h/{a,b,c}[1-100]")
	if n, ok := g.count(300); !ok || n != 300 {
		t.Errorf("300: %d %v", n, ok)
	}
	if n, ok := g.count(299); ok || n != 300 {
		t.Errorf("299: %d %v", n, ok)
	}
}

// TestGlobName: #N in -o's FILE is the N-th pattern's current text;
// a "#" that names none stays.
func TestGlobName(t *testing.T) {
	texts := []string{"a", "07"}
	for in, want := range map[string]string{
		"out":            "out",
		"#1_#2.txt":      "a_07.txt",
		"#2#1":           "07a",
		"#0#3#":          "#0#3#",
		"x#12":           "x#12",
		"#1#99999999999": "a#99999999999",
		"#x#1":           "#xa",
	} {
		if got := globName(in, texts); got != want {
			t.Errorf("globName(%q) = %q, want %q", in, got, want)
		}
	}
}

// FuzzGlob: parseGlob never panics, an error's offset is in the URL, a
// URL without pattern characters is itself, and the expansion has as many
// URLs as count says, each with one text per pattern, each made of the
// URL's fixed text and those texts.
func FuzzGlob(f *testing.F) {
	for _, s := range []string{
		"http://h/{a,b}[1-2]", "http://h/[001-100]", "http://h/[a-z:3]", `\{x\}`, "http://[::1]/[1-3]",
		"{,}", "[1-1]", "{a,{b}}", "[9-1]", "a]", "{", "[", "[0-0:1]{a,b,c}{d}",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		g, err := parseGlob(s)
		if err != nil {
			var ge *globError
			if !errors.As(err, &ge) || ge.offset < 0 || ge.offset >= len(s) {
				t.Fatalf("%q: %v", s, err)
			}
			return
		}
		if !strings.ContainsAny(s, `{}[]\`) {
			urls, _ := expand(g)
			if len(urls) != 1 || urls[0] != s {
				t.Fatalf("%q expands to %q", s, urls)
			}
		}
		n, ok := g.count(1000)
		if !ok {
			return
		}
		var fixed strings.Builder
		for _, p := range g.parts {
			if p.kind == globFixed {
				fixed.WriteString(p.text)
			}
		}
		urls, texts := expand(g)
		if uint64(len(urls)) != n {
			t.Fatalf("%q: count %d, expanded %d", s, n, len(urls))
		}
		for i, u := range urls {
			if len(texts[i]) != g.n {
				t.Fatalf("%q: %d texts for %d patterns", s, len(texts[i]), g.n)
			}
			l := fixed.Len()
			for _, x := range texts[i] {
				l += len(x)
			}
			if len(u) != l {
				t.Fatalf("%q: %q is not its fixed text and %q", s, u, texts[i])
			}
		}
	})
}
