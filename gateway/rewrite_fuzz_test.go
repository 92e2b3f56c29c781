package gateway

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	xhtml "golang.org/x/net/html"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
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

// emptyArchive holds no capture.
type emptyArchive struct{}

func (emptyArchive) Lookup(ctx context.Context, u *locator.URL) (*access.Record, error) {
	return nil, &access.NotArchivedError{URL: access.Masked(u)}
}

// FuzzReplayReferred: whatever the request target and its Referer, a
// gateway replaying an archive answers with a status, and a redirection
// it makes by the Referer (replayReferred) leads to the gateway itself:
// a Location of one "/" then a URL or "-/get", never "//host" or "/\host",
// which a browser would take to another site.
func FuzzReplayReferred(f *testing.F) {
	for _, s := range [][2]string{
		{"/license.html", "http://127.0.0.1:8080/http://site.example/d/page.html"},
		{"/a?b=c", "http://127.0.0.1:8080/-/get?url=http%3A%2F%2Fsite.example%2F"},
		{"//evil.example/x", "http://127.0.0.1:8080/http://site.example/"},
		{"/x", "http://127.0.0.1:8080/gopher://h/1/"},
		{"/x", "http://127.0.0.1:8080/-/get?url=%zz"},
	} {
		f.Add(s[0], s[1])
	}
	s := New(Config{Archive: emptyArchive{}, Resolver: loopbackResolver{}, Timeout: 2e9, MaxTarget: 4096})
	s.dial = func(ctx context.Context, network, addr string) (net.Conn, error) {
		return nil, errors.New("the fuzz target never connects")
	}
	f.Fuzz(func(t *testing.T, target, referer string) {
		if !strings.HasPrefix(target, "/") {
			return
		}
		r := &http.Request{Method: "GET", RequestURI: target, URL: &url.URL{Path: "/"}, Host: "127.0.0.1:8080",
			Header: http.Header{"Referer": {referer}}, RemoteAddr: "127.0.0.1:40000", Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1}
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, r.WithContext(context.Background()))
		if rec.Code < 200 || rec.Code > 599 {
			t.Fatalf("%q: status %d", target, rec.Code)
		}
		if rec.Code == http.StatusTemporaryRedirect {
			loc := rec.Header().Get("Location")
			if len(loc) < 2 || loc[0] != '/' || loc[1] == '/' || loc[1] == '\\' || strings.ContainsAny(loc, "\r\n") {
				t.Fatalf("%q, Referer %q: Location %q", target, referer, loc)
			}
		}
	})
}
