package main

import (
	"strings"
	"testing"

	"github.com/rfc1738/locator"
)

// TestRemoteName: -O's name, by scheme, and the names refused: never a
// path, never "." or "..".
func TestRemoteName(t *testing.T) {
	for _, tc := range []struct{ url, name, err string }{
		{"ftp://h/pub/a%20b.txt", "a b.txt", ""},
		{"ftp://h/pub/file;type=a", "file", ""},
		{"http://h/dir/x.html?q=1", "x.html", ""},
		{"https://h/%7Ejoe/index.html", "index.html", ""},
		{"gopher://h/0/docs/readme.txt", "readme.txt", ""},
		{"gopher://h/0readme", "readme", ""},
		{"file:///tmp/a.txt", "a.txt", ""},
		{"news:<a/b@c>", "a%2Fb@c", ""},
		{"news:comp.lang.go", "comp.lang.go", ""},
		{"nntp://h/comp.lang.go/12", "12", ""},
		{"prospero://h/pub/x", "x", ""},
		{"wais://h/db?words", "db", ""},

		{"http://h/", "", "names no file"},
		{"http://h", "", "names no file"},
		{"ftp://h/pub/", "", "names no file"},
		{"gopher://h/", "", "names no file"},
		{"http://h/a%2Fb", "", `"a/b", which holds a "/"`},
		{"http://h/a%2f..", "", `holds a "/"`},
		{"ftp://h/x%00y", "", "NUL"},
		{"http://h/%2E%2e", "", `the name ".." is a directory's`},
		{"http://h/.", "", `the name "." is a directory's`},
		{"wais://h/db/TEXT/docid", "", "no file name"},
		{"mailto:joe@example.org", "", "a mailto URL names no file"},
		{"http://h/%1B%5B31m", "\x1b[31m", ""},
	} {
		u, err := locator.Parse(tc.url)
		if err != nil {
			t.Fatal(err)
		}
		name, err := remoteName(u)
		switch {
		case tc.err == "" && (err != nil || name != tc.name):
			t.Errorf("%s: %q %v; want %q", tc.url, name, err, tc.name)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s: %q %v; want an error with %q", tc.url, name, err, tc.err)
		case err != nil && strings.ContainsAny(err.Error(), "\x00\x1b"):
			t.Errorf("%s: the message is not printable: %q", tc.url, err)
		}
	}
}
