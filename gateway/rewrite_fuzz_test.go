package gateway

import (
	"bufio"
	"bytes"
	"strings"
	"testing"

	xhtml "golang.org/x/net/html"

	"github.com/rfc1738/locator"
)

// FuzzReplayRewrite: any page is rewritten without a panic (HTML 5
// §13.2.5: the tokenizer never fails); a page with no tag is copied
// exactly; every tag of the page is a tag of the result (the
// rewriting changes attribute values, never the document's structure),
// and every URL attribute of the result that names an http URL names it
// through the gateway (the browser stays in the archive).
func FuzzReplayRewrite(f *testing.F) {
	for _, s := range []string{
		`<a href="/x">x</a><img srcset="a.png 1x, data:image/png;base64,AA==, b.png 2x">`,
		`<meta http-equiv=refresh content="0; URL='http://live.example/'">`,
		`<style>@import "x.css"; p{background:url(y.png)}</style><p style="background:url('z')">`,
		`<base href="http://other.example/d/"><link rel=stylesheet href=s.css integrity=sha>`,
		`<a href=http://live.example/ x=1 "=2>`,
		"plain text, no tag",
	} {
		f.Add([]byte(s))
	}
	base, _ := locator.Parse("http://site.example/dir/page.html")
	x := &exchange{}
	f.Fuzz(func(t *testing.T, in []byte) {
		var out bytes.Buffer
		w := bufio.NewWriter(&out)
		if err := x.rewriteHTML(w, bytes.NewReader(in), base); err != nil {
			t.Fatal(err)
		}
		w.Flush()
		if !bytes.Contains(in, []byte("<")) && !bytes.Equal(in, out.Bytes()) {
			t.Fatalf("a page with no tag changed:\n%q\n%q", in, out.Bytes())
		}
		tags := func(b []byte) (names []string, live []string) {
			z := xhtml.NewTokenizer(bytes.NewReader(b))
			for {
				tt := z.Next()
				if tt == xhtml.ErrorToken {
					return
				}
				if tt != xhtml.StartTagToken && tt != xhtml.SelfClosingTagToken {
					continue
				}
				tok := z.Token()
				names = append(names, tok.Data)
				for _, a := range tok.Attr {
					if contains(urlAttrs[tok.Data], a.Key) && strings.HasPrefix(strings.ToLower(strings.Trim(a.Val, asciiSpace)), "http:") {
						live = append(live, tok.Data+" "+a.Key+"="+a.Val)
					}
				}
			}
		}
		a, _ := tags(in)
		b, live := tags(out.Bytes())
		if strings.Join(a, " ") != strings.Join(b, " ") {
			t.Fatalf("tags %q became %q:\n%q\n%q", a, b, in, out.Bytes())
		}
		if len(live) > 0 {
			t.Fatalf("a live URL left: %q\n%q\n%q", live, in, out.Bytes())
		}
	})
}

// TestRewriteLongToken: a page with a token longer than maxHTMLToken is
// passed on whole from there, its octets neither lost nor repeated.
func TestRewriteLongToken(t *testing.T) {
	base, _ := locator.Parse("http://site.example/page.html")
	long := strings.Repeat("x", maxHTMLToken+100)
	in := `<a href="/a">a</a>` + long + `<a href="/b">b</a>`
	var out bytes.Buffer
	w := bufio.NewWriter(&out)
	if err := (&exchange{}).rewriteHTML(w, strings.NewReader(in), base); err != nil {
		t.Fatal(err)
	}
	w.Flush()
	if want := `<a href="/http://site.example/a">a</a>` + long + `<a href="/b">b</a>`; out.String() != want {
		t.Errorf("%d octets out, want %d; begins %.60q", out.Len(), len(want), out.String())
	}
}
