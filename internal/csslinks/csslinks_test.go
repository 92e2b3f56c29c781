package csslinks

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
	"testing/iotest"
)

func links(t testing.TB, css string) []Link {
	t.Helper()
	var got []Link
	if err := Links(strings.NewReader(css), func(l Link) error {
		got = append(got, l)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return got
}

func show(ls []Link) string {
	var b strings.Builder
	for _, l := range ls {
		imp := ""
		if l.Import {
			imp = " import"
		}
		fmt.Fprintf(&b, "%d:%d %q%s;", l.Line, l.Column, l.Ref, imp)
	}
	return b.String()
}

// TestLinks: what CSS Syntax Level 3 §4 tokenizes as a url token, the
// string of url("..."), of @import "..." and of image-set(), and nothing
// else.
func TestLinks(t *testing.T) {
	for _, c := range []struct{ css, want string }{
		{`a{background:url(x.png)}`, `1:14 "x.png";`},
		{`a{background:URL( "x y.png" )}`, `1:19 "x y.png";`},
		{`a{background:url('x.png')}`, `1:18 "x.png";`},
		{`@import "a.css";`, `1:9 "a.css" import;`},
		{`@import url(b.css) screen;`, `1:9 "b.css" import;`},
		{`@import url("c.css");`, `1:13 "c.css" import;`},
		{`@IMPORT/*c*/'d.css';`, `1:13 "d.css" import;`},
		{"@import\n  \"e.css\";\nb{}", `2:3 "e.css" import;`},
		// §4.3.7 escapes: in the name of url( and in the value.
		{`a{b:u\72 l(x\29 y.png)}`, `1:5 "x)y.png";`},
		{`a{b:url("q\"uote\
d.png")}`, `1:9 "q\"uoted.png";`},
		{`a{b:url(\1F600.png)}`, `1:5 "😀.png";`},
		{`a{b:url(\0)}`, "1:5 \"\ufffd\";"},
		// Not links: a comment, a string, another function, a name
		// that only ends in url, a hash, a dimension, a fragment.
		{`/* url(no.png) */ a{content:"url(no.png)"}`, ``},
		{`a{b:-url(no.png); c:#url(no.png); d:1url(no.png)}`, ``},
		{`a{b:attr(url(yes.png))}`, `1:10 "yes.png";`},
		{`a{filter:url(#f); b:url()}`, ``},
		{`@namespace svg url(http://www.w3.org/2000/svg);a{b:url(y)}`, `1:52 "y";`},
		// §4.3.6 bad url: a quote, a parenthesis, a space inside.
		{`a{b:url(x"y); c:url(a b); d:url(a(b)}e{f:url(ok)}`, `1:42 "ok";`},
		// §4.3.5 a newline ends a string as a bad string.
		{"@import \"a\nb\";", ``},
		// image-set's strings, at its own depth only.
		{`a{b:image-set("1x.png" 1x, url(2x.png) 2x, f("no") 3x)}`, `1:15 "1x.png";1:28 "2x.png";`},
		{`a{b:-webkit-image-set('w.png' 1x)} c{d:"no"}`, `1:23 "w.png";`},
		// An unterminated url or string at the end is still a token.
		{`a{b:url(end.png`, `1:5 "end.png";`},
		{`@import "end.css`, `1:9 "end.css" import;`},
		// CDO and CDC: "<!--url(x)" is CDO then a url.
		{`<!--url(x)-->`, `1:5 "x";`},
		{"a{b:url(x)}\r\nc{d:url(y)}", `1:5 "x";2:5 "y";`},
	} {
		if got := show(links(t, c.css)); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.css, got, c.want)
		}
	}
}

// TestRewrite: each link's token replaced, every other octet kept; the
// replacement quoted so that it stays one token (§4.3.5).
func TestRewrite(t *testing.T) {
	css := `@import 'a.css'; /* url(c) */ p{background:url( b.png ) no-repeat; x:image-set("i.png" 1x)} q{y:url("keep")}`
	var out bytes.Buffer
	err := Rewrite(&out, strings.NewReader(css), func(l Link) (string, bool) {
		if l.Ref == "keep" {
			return "", false
		}
		return "/gw/" + l.Ref + `")x\`, true
	})
	if err != nil {
		t.Fatal(err)
	}
	want := `@import "/gw/a.css\22 )x\5c "; /* url(c) */ p{background:url("/gw/b.png\22 )x\5c ") no-repeat; x:image-set("/gw/i.png\22 )x\5c " 1x)} q{y:url("keep")}`
	if out.String() != want {
		t.Errorf("got\n%s\nwant\n%s", out.String(), want)
	}
	if got := show(links(t, out.String())); got != `1:9 "/gw/a.css\")x\\" import;1:62 "/gw/b.png\")x\\";1:108 "/gw/i.png\")x\\";1:143 "keep";` {
		t.Errorf("the rewritten sheet's links: %s", got)
	}
}

// TestBounds: a url longer than MaxToken is passed over, and copied
// whole; one octet at a time from the reader gives what one read gives.
func TestBounds(t *testing.T) {
	long := "a{b:url(" + strings.Repeat("x", MaxToken+1) + ")} c{d:url(y)}"
	if got := show(links(t, long)); got != fmt.Sprintf(`1:%d "y";`, MaxToken+17) {
		t.Errorf("a long url: %s", got)
	}
	spaces := "a{b:url(" + strings.Repeat(" ", MaxToken+100) + "z)}"
	if got := show(links(t, spaces)); got != `` {
		t.Errorf("a url token longer than MaxToken in white space: %s", got)
	}
	for _, in := range []string{long, spaces} {
		var out bytes.Buffer
		if err := Rewrite(&out, strings.NewReader(in), func(Link) (string, bool) { return "R", true }); err != nil {
			t.Fatal(err)
		}
		if want := strings.Replace(in, "url(y)", `url("R")`, 1); out.String() != want {
			t.Errorf("rewriting a long token: %d octets, want %d", out.Len(), len(want))
		}
	}
	css := `@import "a"; b{c:url(d) image-set("e" 2x)}`
	var got []Link
	if err := Links(iotest.OneByteReader(strings.NewReader(css)), func(l Link) error { got = append(got, l); return nil }); err != nil {
		t.Fatal(err)
	}
	if show(got) != show(links(t, css)) {
		t.Errorf("one octet at a time: %s", show(got))
	}
}

// TestErrors: a read error is returned; fn's error stops the reading.
func TestErrors(t *testing.T) {
	boom := errors.New("boom")
	if err := Links(iotest.ErrReader(boom), func(Link) error { return nil }); !errors.Is(err, boom) {
		t.Errorf("read error: %v", err)
	}
	n := 0
	stop := errors.New("stop")
	if err := Links(strings.NewReader("a{b:url(1);c:url(2)}"), func(Link) error { n++; return stop }); !errors.Is(err, stop) || n != 1 {
		t.Errorf("fn's error: %v after %d", err, n)
	}
}
