package gateway_test

// The gateway follows gemini URLs (served by Debian's molly-brown): a
// text/gemini document is rendered as an HTML page whose links lead back
// through the gateway, another object is passed on as its octets, and a
// request for input (status 10, Gemini §3.2.1) is shown as a form whose
// answer is sent as the URL's search part.

import (
	"bytes"
	"crypto/rand"
	"io"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/gateway"
	"github.com/rfc1738/locator/gemini"
	"github.com/rfc1738/locator/internal/peer"
)

const gmiDoc = "# Index <1>\n" +
	"Some text & more\n" +
	"\n" +
	"=> hello.txt Hello\n" +
	"=> gemini://other.example/ Elsewhere\n" +
	"=> gopher://gopher.example/1/ A gopher menu\n" +
	"=> https://www.example/page?a=1 The web\n" +
	"=> data.bin\n" +
	"=> spartan://host/ No client\n" +
	"* one\n" +
	"* two\n" +
	"> a quote\n" +
	"```sh <alt>\n" +
	"=> pre.txt not a link\n" +
	"<script>alert(1)</script> & \"x\"\n" +
	"```\n" +
	"## Second\n"

func TestGeminiGateway(t *testing.T) {
	root := filepath.Join(t.TempDir(), "root")
	bin := make([]byte, 100<<10)
	rand.Read(bin)
	write(t, filepath.Join(root, "index.gmi"), gmiDoc, 0o644)
	write(t, filepath.Join(root, "hello.txt"), "hello, gemini\n", 0o644)
	write(t, filepath.Join(root, "data.bin"), string(bin), 0o644)
	write(t, filepath.Join(root, "cgi", "ask"), "#!/bin/sh\nif [ -z \"$QUERY_STRING\" ]; then printf '10 Your name?\\r\\n'; else printf '20 text/gemini\\r\\n# Hello %s\\n=> /hello.txt back\\n' \"$QUERY_STRING\"; fi\n", 0o755)
	m := peer.MollyBrown(t, root, peer.MollyConfig{Conf: `CGIPaths = ["` + filepath.Join(root, "cgi") + `"]`})
	gw, log := startGateway(t, gateway.Config{Policy: access.Policy{Allow: rules(t, m.Addr)}, Schemes: map[string]access.Fetcher{"gemini": &gemini.Client{KnownHosts: filepath.Join(t.TempDir(), "known_hosts")}}})
	base := "gemini://" + m.Addr + "/"

	res, page := get(t, gw.URL+"/"+base)
	if res.StatusCode != 200 || res.Header.Get("Content-Type") != "text/html; charset=utf-8" {
		t.Fatalf("document: %d %q\n%s\n%s", res.StatusCode, res.Header.Get("Content-Type"), page, log)
	}
	wantHrefs := []string{"/", "/" + base + "hello.txt", "/gemini://other.example/", "/gopher://gopher.example/1/", "https://www.example/page?a=1", "/" + base + "data.bin"}
	if got := hrefs(page); strings.Join(got, " ") != strings.Join(wantHrefs, " ") {
		t.Errorf("hrefs %q, want %q\n%s", got, wantHrefs, page)
	}
	for _, want := range []string{
		"<h1>Index &lt;1&gt;</h1>",
		"<p>Some text &amp; more</p>\n<p></p>\n",
		`<p class="lk"><a href="/` + base + `hello.txt">Hello</a></p>`,
		`<a href="/` + base + `data.bin">data.bin</a>`,
		"<ul>\n<li>one</li>\n<li>two</li>\n</ul>\n<blockquote>a quote</blockquote>",
		`<pre title="sh &lt;alt&gt;" aria-label="sh &lt;alt&gt;">=&gt; pre.txt not a link` + "\n" + `&lt;script&gt;alert(1)&lt;/script&gt; &amp; &#34;x&#34;` + "\n</pre>",
		"<h2>Second</h2>",
		`<p class="lk">No client <small>spartan://host/</small></p>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q\n%s", want, page)
		}
	}
	if strings.Contains(page, "<script>") {
		t.Errorf("the page holds the document's markup unescaped\n%s", page)
	}

	// Not text/gemini: the octets as they are, with their media type.
	res, body := get(t, gw.URL+"/"+base+"data.bin")
	if res.StatusCode != 200 || res.Header.Get("Content-Type") != "application/octet-stream" || !bytes.Equal([]byte(body), bin) {
		t.Errorf("data.bin: %d %q, %d octets, want the file's %d", res.StatusCode, res.Header.Get("Content-Type"), len(body), len(bin))
	}
	res, body = get(t, gw.URL+"/"+base+"hello.txt")
	if res.StatusCode != 200 || body != "hello, gemini\n" {
		t.Errorf("hello.txt: %d %q", res.StatusCode, body)
	}

	// 10: a form, then the answer as the search part; the page's links
	// are resolved against the URL answered.
	item := "/" + base + "cgi/ask"
	res, page = get(t, gw.URL+item)
	if res.StatusCode != 200 {
		t.Fatalf("input: %d\n%s", res.StatusCode, page)
	}
	for _, want := range []string{`<form action="` + item + `" method="post">`, `<label for="a1">Your name?</label>`, `<input type="text" id="a1" name="a1" value="">`} {
		if !strings.Contains(page, want) {
			t.Errorf("form lacks %s\n%s", want, page)
		}
	}
	post, err := http.PostForm(gw.URL+item, url.Values{"a1": {"Ada L"}})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(post.Body)
	post.Body.Close()
	if post.StatusCode != 200 || !strings.Contains(string(b), "<h1>Hello Ada%20L</h1>") || !contains(hrefs(string(b)), "/"+base+"hello.txt") {
		t.Errorf("submitted: %d\n%s", post.StatusCode, b)
	}
}
