package main

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/rfc1738/locator/internal/peer"
)

// TestCrawlCSSSphinx: crawl reads the style sheets of Sphinx
// documentation as Debian installs it (python3-aiosmtpd's, served by
// nginx): the files that only a style sheet names, by url() (CSS Values
// 4 §4.5) in its @font-face rules and backgrounds, are fetched too, as
// wget and LinkChecker fetch them.
func TestCrawlCSSSphinx(t *testing.T) {
	docs := "/usr/share/doc/python3-aiosmtpd/html"
	if _, err := os.Stat(filepath.Join(docs, "_static/css/theme.css")); err != nil {
		t.Skip("no Sphinx documentation installed (python3-aiosmtpd's)")
	}
	ng := peer.Nginx(t, docs, peer.NginxConfig{Connections: 32,
		HTTP: "types { text/html html; text/css css; image/png png; application/javascript js; font/woff2 woff2; font/ttf ttf; }"})
	site := "http://" + ng.Addr
	code, out, errs := runCLI(t, "", "crawl", "--delay", "0", "--json", site+"/index.html")
	if code != exitOK && code != 1 {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	var fromCSS []string
	for _, u := range pagesFetched(t, out, nil) {
		if strings.Contains(u, "/_static/fonts/") {
			fromCSS = append(fromCSS, strings.TrimPrefix(u, site))
		}
	}
	sort.Strings(fromCSS)
	// Measured: the theme's web fonts, each @font-face's every format
	// (FontAwesome's "eot?#iefix" is its "eot?" without the fragment);
	// none is named by a page, only by theme.css.
	want := []string{
		"/_static/fonts/Lato-Bold.ttf", "/_static/fonts/Lato-Bold.woff2",
		"/_static/fonts/Lato-BoldItalic.ttf", "/_static/fonts/Lato-BoldItalic.woff2",
		"/_static/fonts/Lato-Italic.ttf", "/_static/fonts/Lato-Italic.woff2",
		"/_static/fonts/Lato-Regular.ttf", "/_static/fonts/Lato-Regular.woff2",
		"/_static/fonts/RobotoSlab-Bold.woff2", "/_static/fonts/RobotoSlab-Regular.woff2",
		"/_static/fonts/fontawesome-webfont.eot?", "/_static/fonts/fontawesome-webfont.eot?v=4.7.0",
		"/_static/fonts/fontawesome-webfont.svg?v=4.7.0", "/_static/fonts/fontawesome-webfont.ttf?v=4.7.0",
		"/_static/fonts/fontawesome-webfont.woff2?v=4.7.0", "/_static/fonts/fontawesome-webfont.woff?v=4.7.0",
	}
	if strings.Join(fromCSS, "\n") != strings.Join(want, "\n") {
		t.Errorf("%d files named by style sheets fetched, want %d:\n%s", len(fromCSS), len(want), strings.Join(fromCSS, "\n"))
	}
}
