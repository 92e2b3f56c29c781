package htmllinks

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/rfc1738/locator"
)

func mustParse(t testing.TB, s string) *locator.URL {
	t.Helper()
	u, err := locator.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// show writes a link as "element attr line:col ref -> url".
func show(l Link) string {
	u := "<nil>"
	if l.URL != nil {
		u = l.URL.String()
	}
	return fmt.Sprintf("%s %s %d:%d %s -> %s", l.Element, l.Attr, l.Line, l.Column, l.Ref, u)
}

func TestLinks(t *testing.T) {
	doc := `<!DOCTYPE html>
<html><head><title>t</title>
<link rel=stylesheet href="style.css">
<script src='/js/a.js'></script>
</head><body>
<a href="a.txt">a</a> <A HREF = "../up.html">up</A>
<a href="#top">self</a><a href="">empty</a><a name=x>no href</a>
<img src="i.png" srcset="i1.png 1x, /i2.png 2x">
<iframe src="http://other.example/f"></iframe><frame src=fr.html>
<area href="map.html"><form action="/cgi/q"><object data="o.bin"></object>
<embed src="e.swf"><source src="s.mp4" srcset="s1.webp 100w">
<a href="  gopher://g.example/1/  ">g</a> <a href="a&amp;b.html">amp</a>
<p>http://text.example/ is text, not a link here</p>
</body></html>`
	links, err := Links(strings.NewReader(doc), mustParse(t, "http://h.example/d/p.html"))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"link href 3:28 style.css -> http://h.example/d/style.css",
		"script src 4:14 /js/a.js -> http://h.example/js/a.js",
		"a href 6:10 a.txt -> http://h.example/d/a.txt",
		"a href 6:34 ../up.html -> http://h.example/up.html",
		"img src 8:11 i.png -> http://h.example/d/i.png",
		"img srcset 8:26 i1.png -> http://h.example/d/i1.png",
		"img srcset 8:26 /i2.png -> http://h.example/i2.png",
		"iframe src 9:14 http://other.example/f -> http://other.example/f",
		"frame src 9:58 fr.html -> http://h.example/d/fr.html",
		"area href 10:13 map.html -> http://h.example/d/map.html",
		"form action 10:37 /cgi/q -> http://h.example/cgi/q",
		"object data 10:59 o.bin -> http://h.example/d/o.bin",
		"embed src 11:13 e.swf -> http://h.example/d/e.swf",
		"source src 11:33 s.mp4 -> http://h.example/d/s.mp4",
		"source src 11:33 s1.webp -> http://h.example/d/s1.webp",
		"a href 12:10 gopher://g.example/1/ -> gopher://g.example/1/",
		"a href 12:52 a&b.html -> http://h.example/d/a&b.html",
	}
	// The second source link is its srcset's: fix its column.
	want[14] = "source srcset 11:48 s1.webp -> http://h.example/d/s1.webp"
	var got []string
	for _, l := range links {
		got = append(got, show(l))
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("links:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestBase: the first <base href> is the base of every link, those
// before it too; a relative base is resolved against the document's URL;
// without any base a partial form keeps URL nil and a full form is
// parsed.
func TestBase(t *testing.T) {
	doc := `<a href="x">x</a><base href="/b/c/"><base href="http://ignored.example/"><a href="y">y</a><a href="ftp://f.example/z">z</a>`
	for _, tc := range []struct {
		base string
		want []string
	}{
		{"http://h.example/d/", []string{"http://h.example/b/c/x", "http://h.example/b/c/y", "ftp://f.example/z"}},
		{"", []string{"<nil>", "<nil>", "ftp://f.example/z"}},
	} {
		var b *locator.URL
		if tc.base != "" {
			b = mustParse(t, tc.base)
		}
		links, err := Links(strings.NewReader(doc), b)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, l := range links {
			if l.URL == nil {
				got = append(got, "<nil>")
				if l.Err != nil {
					t.Errorf("%s: Err %v for a partial form without base", l.Ref, l.Err)
				}
			} else {
				got = append(got, l.URL.String())
			}
		}
		if strings.Join(got, " ") != strings.Join(tc.want, " ") {
			t.Errorf("base %q: %q, want %q", tc.base, got, tc.want)
		}
	}
	// An absolute <base> with no document URL.
	links, _ := Links(strings.NewReader(`<base href="http://b.example/x/"><a href=y>`), nil)
	if len(links) != 1 || links[0].URL == nil || links[0].URL.String() != "http://b.example/x/y" {
		t.Errorf("absolute base without document URL: %v", links)
	}
}

func TestReadError(t *testing.T) {
	boom := errors.New("boom")
	r := io.MultiReader(strings.NewReader(`<a href="http://a.example/">`), iotest.ErrReader(boom))
	links, err := Links(r, nil)
	if !errors.Is(err, boom) || len(links) != 1 {
		t.Errorf("links %v, err %v", links, err)
	}
}

func TestTooMany(t *testing.T) {
	doc := strings.Repeat(`<a href="http://a.example/">`, MaxLinks+3)
	links, err := Links(strings.NewReader(doc), nil)
	if err != ErrTooManyLinks || len(links) != MaxLinks {
		t.Errorf("%d links, err %v", len(links), err)
	}
}

// FuzzLinks: any input is read without panic; every link's place lies
// within the input and its value is found there.
func FuzzLinks(f *testing.F) {
	for _, s := range []string{
		`<a href="a.txt">`, `<base href="/x/"><img srcset=", ,a 1x,b">`, `<a href='#'>`,
		`<A HREF=x HREF=y>`, "<a\nhref\n=\n'q'>", `<a href="&amp;&lt;">`, `<form action=>`, `<a hrefx=1 href=2>`,
		"<style>@import \"a.css\";\nb{c:url(d.png)}</style><p style=\"background:url('e')\">", `<style>/* url(x) */`,
	} {
		f.Add(s)
	}
	base := mustParse(f, "http://h.example/d/p")
	f.Fuzz(func(t *testing.T, doc string) {
		links, err := Links(strings.NewReader(doc), base)
		if err != nil && err != ErrTooManyLinks {
			t.Fatal(err)
		}
		for _, l := range links {
			if l.Offset < 0 || l.Offset > int64(len(doc)) || l.Line < 1 || l.Column < 1 {
				t.Fatalf("%q: place %d %d:%d", doc, l.Offset, l.Line, l.Column)
			}
			if l.Ref == "" || l.Ref[0] == '#' {
				t.Fatalf("%q: ref %q returned", doc, l.Ref)
			}
			if l.URL == nil && l.Err == nil {
				t.Fatalf("%q: %q unresolved with a base", doc, l.Ref)
			}
		}
	})
}

// TestEmptyAttrName: a tag whose attribute has no name (the tokenizer
// gives "" for "<a =x>") is read without hanging.
func TestEmptyAttrName(t *testing.T) {
	links, err := Links(strings.NewReader(`<a =x href=y>`), mustParse(t, "http://h.example/"))
	if err != nil || len(links) != 1 || links[0].URL.String() != "http://h.example/y" {
		t.Errorf("%v %v", links, err)
	}
}

// TestStyleLinks: a <style> element's sheet and a style attribute's
// declarations hold links too (CSS Syntax Level 3 §4, package
// csslinks), placed in the document.
func TestStyleLinks(t *testing.T) {
	doc := `<html><head><style>
@import "print.css";
body{background:url(/bg.png)}</style></head>
<body><div style="background:url('d.png')">x</div><p title="url(no.png)">y</p>
<style>/* url(no) */</style></body></html>`
	links, err := Links(strings.NewReader(doc), mustParse(t, "http://h.example/d/p.html"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, l := range links {
		got = append(got, show(l))
	}
	want := []string{
		"style @import 2:9 print.css -> http://h.example/d/print.css",
		"style url 3:17 /bg.png -> http://h.example/bg.png",
		"div style 4:34 d.png -> http://h.example/d/d.png",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
