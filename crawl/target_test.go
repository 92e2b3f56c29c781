package crawl

import (
	"fmt"
	"strings"
	"testing"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
)

// targetEvents: 40 pages each linking twice to one missing page and
// once to a page of their own; a file URL on page 0 (refused by
// policy); a URL of another host never checked (not judged); a URL local
// policy refused (a port of another service).
func targetEvents(t *testing.T) []Event {
	t.Helper()
	u := func(s string) *locator.URL {
		v, err := locator.Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	evs := []Event{&Page{URL: u("http://h/missing"), From: u("http://h/p0"), Err: &access.ServerError{Code: "404", Text: "Not Found"}},
		&Page{URL: u("http://h:25/x"), From: u("http://h/p0"), Err: &access.PolicyError{Rule: "port", Reason: "25 is SMTP's"}}}
	for i := 0; i < 40; i++ {
		p := u(fmt.Sprintf("http://h/p%02d", i))
		evs = append(evs, &Page{URL: p})
		for line := 1; line <= 2; line++ {
			evs = append(evs, &Link{From: p, URL: u("http://h/missing"), Ref: "/missing", Follow: true, Place: Place{Element: "a", Attr: "href", Line: line, Column: 3}})
		}
		evs = append(evs, &Link{From: p, URL: u(fmt.Sprintf("http://h/own%d", i)), Ref: "own", Follow: true, Place: Place{Element: "a", Attr: "href", Line: 3, Column: 3}},
			&Page{URL: u(fmt.Sprintf("http://h/own%d", i)), From: p})
	}
	p0 := u("http://h/p00")
	evs = append(evs,
		&Link{From: p0, URL: u("file:///etc/passwd"), Ref: "file:///etc/passwd", Reason: "scope", Place: Place{Element: "a", Attr: "href", Line: 4, Column: 3}},
		&Link{From: p0, URL: u("http://other/x"), Ref: "http://other/x", Reason: "scope", Place: Place{Element: "a", Attr: "href", Line: 5, Column: 3}},
		&Link{From: p0, URL: u("http://h:25/x"), Ref: "http://h:25/x", Follow: true, Place: Place{Element: "a", Attr: "href", Line: 6, Column: 3}})
	return evs
}

// TestEachTarget (issue 46 item 8): a page linked 80 times is one
// target, its count and the first places; the targets policy refused
// are given apart, a file URL on a web page among them; the links not
// judged are counted; the same whether the report is in memory or in
// its file.
func TestEachTarget(t *testing.T) {
	for _, limit := range []int{0, 1, 2000} {
		r := &Report{Dir: t.TempDir(), MaxMemory: limit}
		for _, ev := range targetEvents(t) {
			if err := r.Add(ev); err != nil {
				t.Fatal(err)
			}
		}
		var got []string
		each := func(tg *Target) error {
			var places []string
			for _, l := range tg.Places {
				places = append(places, l.From.String()+" "+l.Place.String())
			}
			got = append(got, fmt.Sprintf("%s %s %d [%s]", tg.URL, tg.Failure.State, tg.Links, strings.Join(places, "; ")))
			return nil
		}
		if err := r.EachTarget(3, false, each); err != nil {
			t.Fatal(err)
		}
		if err := r.EachTarget(1, true, each); err != nil {
			t.Fatal(err)
		}
		want := []string{
			"http://h/missing gone 80 [http://h/p00 <a href> line 1 column 3; http://h/p00 <a href> line 2 column 3; http://h/p01 <a href> line 1 column 3]",
			"file:///etc/passwd policy 1 [http://h/p00 <a href> line 4 column 3]",
			"http://h:25/x policy 1 [http://h/p00 <a href> line 6 column 3]",
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("MaxMemory %d:\n%s\nwant:\n%s", limit, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		if b, p, err := r.Count(); b != 80 || p != 40 || err != nil {
			t.Errorf("MaxMemory %d: %d broken on %d pages, %v", limit, b, p, err)
		}
		if links, urls, err := r.Unjudged(); links != 1 || urls != 1 || err != nil {
			t.Errorf("MaxMemory %d: %d links to %d URLs not judged, %v", limit, links, urls, err)
		}
		r.Close()
	}
}

// TestFileSyntax: a file URL found on a web page is judged by its
// syntax alone (RFC 1738 §3.10, §5 fileurl).
func TestFileSyntax(t *testing.T) {
	for in, want := range map[string]string{
		"file:///etc/passwd":    "its syntax is valid",
		"file://host/a;b":       "its syntax: offset 13: violation: fsegment: ';' is reserved in a file path segment and must be encoded as %3B (RFC 1738 §5 fsegment)",
		"file://user@host/x":    "its syntax: offset 7: violation: fileurl: a file URL has no user name or password: file://<host>/<path> (RFC 1738 §3.10, §5)",
		"file://localhost/dir/": "its syntax is valid",
	} {
		u, err := locator.Parse(in)
		if err != nil {
			t.Fatal(err)
		}
		if got := fileSyntax(u); got != want {
			t.Errorf("%s: %q, want %q", in, got, want)
		}
	}
}
