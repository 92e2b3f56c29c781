package crawl

import (
	"testing"

	"github.com/rfc1738/locator/internal/peer"
)

// TestCSSLinks: a crawl reads the links of style sheets (CSS Syntax
// Level 3 §4): a sheet's @import and url()s, read against the sheet's
// own URL, and those of <style> and style attributes; every one is
// fetched, and the one nginx has no file for is reported broken, in
// its place in the sheet.
func TestCSSLinks(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{
		"index.html": `<!doctype html><html><head><link rel="stylesheet" href="css/main.css">
<style>h1{background:url("/img/h1.png")}</style></head>
<body><div style="background-image:url(img/div.png)"><h1>site</h1></div></body></html>`,
		"css/main.css": `/* url(comment.png) is no link */
@import "more.css";
body{background:url(../img/bg.png) no-repeat}
p{content:"url(string.png)"; list-style:url( 'missing.png' )}`,
		"css/more.css": `@import url(/css/last.css);
em{background:image-set("../img/1x.png" 1x, url(../img/2x.png) 2x)}`,
		"css/last.css": `@font-face{font-family:x;src:url(/fonts/f.woff2) format("woff2")}`,
		"img/h1.png":   "png", "img/div.png": "png", "img/bg.png": "png",
		"img/1x.png": "png", "img/2x.png": "png", "fonts/f.woff2": "woff2",
	})
	n := peer.Nginx(t, root, peer.NginxConfig{HTTP: `types { text/html html; text/css css; image/png png; font/woff2 woff2; }`, Connections: 16})
	h := "http://" + n.Addr
	r, evs := run(t, &Crawler{Delay: NoDelay}, h+"/index.html")
	diff(t, "fetched", fetched(evs), []string{
		h + "/index.html", h + "/css/main.css", h + "/css/more.css", h + "/css/last.css",
		h + "/img/h1.png", h + "/img/div.png", h + "/img/bg.png", h + "/img/1x.png", h + "/img/2x.png",
		h + "/fonts/f.woff2", h + "/css/missing.png",
	})
	diff(t, "broken", broken(r), []string{h + "/css/main.css css url line 4 column 46 -> " + h + "/css/missing.png"})
}
