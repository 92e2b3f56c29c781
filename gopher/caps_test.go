package gopher_test

import (
	"bufio"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/gopher"
	"github.com/rfc1738/locator/internal/loctest"
)

// TestCapabilities: what a crawl asks of a gopher client through
// access's interfaces: the selector as the object's path (RFC 1738
// §3.4), Gophernicus's one-line refusal of a text item, the "$" request
// of a menu's attributes (§3.4.6) and the "+view" URL of an item's view
// (§3.4.8).
func TestCapabilities(t *testing.T) {
	c := &gopher.Client{}
	for _, tc := range []struct {
		url, path string
		ok        bool
	}{
		{"gopher://h/1/dir/", "/dir/", true},
		{"gopher://h/0dir/file%09x", "dir/file", true},
		{"gopher://h/", "", true},
		{"gophers://h/1/dir/", "", false},
	} {
		if p, ok := c.ObjectPath(loctest.MustParse(t, tc.url)); p != tc.path || ok != tc.ok {
			t.Errorf("ObjectPath(%s) = %q %v, want %q %v", tc.url, p, ok, tc.path, tc.ok)
		}
	}

	for _, tc := range []struct {
		url, body string
		refused   bool
	}{
		{"gopher://h/0missing", "Error: File or directory not found!\r\n", true},
		{"gopher://h/0missing", "Error: File or directory not found!", true},
		{"gopher://h/0file", "Error: a first line\r\nand a second\r\n", false},
		{"gopher://h/0file", "Error: " + strings.Repeat("x", 600), false},
		{"gopher://h/0file", "Some text\r\n", false},
		{"gopher://h/9file", "Error: File or directory not found!\r\n", false},
	} {
		br := bufio.NewReaderSize(strings.NewReader(tc.body), 512)
		err := c.CheckBody(loctest.MustParse(t, tc.url), br)
		var se *access.ServerError
		if refused := errors.As(err, &se) && se.Code == "3"; refused != tc.refused || (err != nil && !refused) {
			t.Errorf("CheckBody(%s, %.20q) = %v", tc.url, tc.body, err)
		}
		if rest, _ := br.ReadString(0); rest != tc.body {
			t.Errorf("CheckBody(%s) read the body: %q left", tc.url, rest)
		}
	}

	for url, want := range map[string]string{
		"gopher://h:7070/1/dir":   "gopher://h:7070/1/dir%09%09$",
		"gopher://h/1/dir%09%09+": "",
		"gopher://h/0/file":       "",
		"gophers://h:7070/1/dir":  "",
	} {
		got := ""
		if au := c.ViewsURL(loctest.MustParse(t, url)); au != nil {
			got = au.String()
		}
		if got != want {
			t.Errorf("ViewsURL(%s) = %q, want %q", url, got, want)
		}
	}
	if v, err := c.ViewURL(loctest.MustParse(t, "gopher://h:7070/0/file"), "text/plain En_US"); err != nil || v != "gopher://h:7070/0/file%09%09+text/plain%20En_US" {
		t.Errorf("ViewURL = %q, %v", v, err)
	}
}

// FuzzCheckBody reads arbitrary replies to a text item (RFC 1436 §3.8):
// CheckBody never panics and reads nothing of the body, and refuses it
// exactly when the whole reply, shorter than the reader's buffer, is one
// line beginning "Error: " (Gophernicus's answer for a missing file).
func FuzzCheckBody(f *testing.F) {
	for _, s := range []string{"Error: File or directory not found!\r\n", "Error: x", "Error: a\nb", "Error:", "", "text\r\n.\r\n",
		"Error: \r\r\n", "Error: " + strings.Repeat("y", 505)} {
		f.Add(s)
	}
	u := loctest.MustParse(f, "gopher://h/0file")
	c := &gopher.Client{}
	f.Fuzz(func(t *testing.T, body string) {
		br := bufio.NewReaderSize(strings.NewReader(body), 512)
		err := c.CheckBody(u, br)
		line := strings.TrimRight(body, "\r\n")
		want := len(body) < 512 && strings.HasPrefix(line, "Error: ") && !strings.ContainsAny(line, "\r\n")
		var se *access.ServerError
		if (err != nil) != want || (err != nil && (!errors.As(err, &se) || se.Text != line)) {
			t.Fatalf("%q: %v, want refused %v", body, err, want)
		}
		if rest, _ := io.ReadAll(br); string(rest) != body {
			t.Fatalf("%q: the body read after the check is %q", body, rest)
		}
	})
}
