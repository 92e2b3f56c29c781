package gateway

import (
	"testing"
)

func TestLynxSearch(t *testing.T) {
	for in, want := range map[string]string{
		"gopher://h:70/7/find?foo%20bar":     "gopher://h:70/7/find%09foo%20bar",
		"GOPHER://h/7?x":                     "GOPHER://h/7%09x",
		"gopher://h/7/find%09a?b":            "gopher://h/7/find%09a?b",
		"gopher://h/0/what?":                 "gopher://h/0/what?",
		"gopher://h/1/dir?x":                 "gopher://h/1/dir?x",
		"ftp://h/7/x?y":                      "ftp://h/7/x?y",
		"gopher://h":                         "gopher://h",
		"gopher://user@h/7/find?words?again": "gopher://user@h/7/find%09words?again",
	} {
		if got := lynxSearch(in); got != want {
			t.Errorf("lynxSearch(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestPathSafe(t *testing.T) {
	for s, want := range map[string]bool{
		"gopher://h/1/":               true,
		"gopher://h/0/a%09b":          true,
		"ftp://h/a/../b":              false,
		"ftp://h/a/%2e%2E/b":          false,
		"ftp://h/a/.":                 false,
		"gopher://h/0/a\\b":           false,
		"gopher://h/0/a#b":            false,
		"gopher://h/0/%zz":            false,
		"gopher://h/0/a b":            false,
		"wais://h/db?x/../y":          true,
		"gopher://h/0/...":            true,
		"gopher://h/0/a%2Fb":          true,
		"gopher://h/0/caf\xc3\xa9":    false,
		"news:<a@b>":                  true,
		"gopher://h/0/x?/./y":         true,
		"gopher://h/0/x%2e/y":         true,
		"gopher://h/0/%2E%2E%2Fx":     true,
		"gopher://h/0/x/%2E%2E?query": false,
	} {
		if got := pathSafe(s); got != want {
			t.Errorf("pathSafe(%q) = %v, want %v", s, got, want)
		}
	}
}

// TestMaskURLs: the access log masks the password of every URL a line
// carries, whatever its form: a URL that does not parse, one inside
// another (a Gopher h item's URL: selector), one escaped in the start
// page's query, once or twice.
func TestMaskURLs(t *testing.T) {
	for in, want := range map[string]string{
		"ftp://u:secret@h/x":                             "ftp://u:****@h/x",
		"ftp://u@h/x":                                    "ftp://u@h/x",
		"ftp://h/x@y":                                    "ftp://h/x@y",
		"ftp://u:p:q@h/":                                 "ftp://u:****@h/",
		"/favicon.ico":                                   "/favicon.ico",
		"gopher://a:b@c?d@e/":                            "gopher://a:****@e/",
		"gopher://x/hURL:ftp://u:pw@h/":                  "gopher://x/hURL:ftp://u:****@h/",
		"gopher://x/hURL:ftp%3A%2F%2Fu%3Apw%40h%2F":      "gopher://x/hURL:ftp%3A%2F%2Fu%3A****%40h%2F",
		"/-/get?url=ftp%3A%2F%2Fu%3Asekrit%40h%2F%zz":    "/-/get?url=ftp%3A%2F%2Fu%3A****%40h%2F%zz",
		"/-/get?url=ftp%253A%252F%252Fu%253Apw%2540h":    "/-/get?url=ftp%253A%252F%252Fu%253A****%2540h",
		"/-/get?url=ftp://u:p%40w@h%20more":              "/-/get?url=ftp://u:****@h%20more",
		"redirect to ftp://a:1@b/ and telnet://c:2@d":    "redirect to ftp://a:****@b/ and telnet://c:****@d",
		"ftp://u:pw@h":                                   "ftp://u:****@h",
		"://:@":                                          "://:****@",
		"%":                                              "%",
		"gopher://h:70/1/":                               "gopher://h:70/1/",
		"gopher://x/hURL:telnet://user:hunter2@[::1]:23": "gopher://x/hURL:telnet://user:****@[::1]:23",
		"ftp://a%2Fb:pw@h/":                              "ftp://a%2Fb:****@h/",
		"url=ftp%3A%2F%2Fa%252Fb%3Apw%40h%2Fx":           "url=ftp%3A%2F%2Fa%252Fb%3A****%40h%2Fx",
		"parse \"ftp://a b:pw@h\": offset 7":             "parse \"ftp://a b:****@h\": offset 7",
		"gopher://x/hURL:ftp%3A//u:pw@h/":                "gopher://x/hURL:ftp%3A//u:****@h/",
	} {
		if got := maskURLs(in); got != want {
			t.Errorf("maskURLs(%q) = %q, want %q", in, got, want)
		}
	}
}
