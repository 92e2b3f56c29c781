package text_test

import (
	"fmt"
	"strings"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/text"
)

func ExampleScanner() {
	mail := `Yes, Jim, I found it under <URL:ftp://info.cern.ch/pub/www/doc;
      type=d> but you can probably pick it up from <URL:ftp://ds.in
      ternic.net/rfc>.  Note the warning in <URL:http://ds.internic.
      net/instructions/overview.html#WARNING>.`
	s := text.NewScanner(strings.NewReader(mail), nil)
	for s.Scan() {
		m := s.Match()
		fmt.Printf("%d:%d %s\n", m.Line, m.Column, m.URL)
	}
	if err := s.Err(); err != nil {
		fmt.Println(err)
	}
	// Output:
	// 1:28 ftp://info.cern.ch/pub/www/doc;type=d
	// 2:52 ftp://ds.internic.net/rfc
	// 3:45 http://ds.internic.net/instructions/overview.html#WARNING
}

func ExampleFindAll() {
	for _, m := range text.FindAll("See http://example.com/a_(b). Or news:comp.infosystems.www, at 10:30.") {
		fmt.Println(m.Offset, m.URL)
	}
	// Output:
	// 4 http://example.com/a_(b)
	// 33 news:comp.infosystems.www
}

func ExampleMatch_ambiguous() {
	// RFC 1738 Appendix: a line break right after a hyphen keeps the
	// hyphen, which "may or may not actually be part of the URL".
	m := text.FindAll("<URL:http://www.example.com/uri-\n      archive/>")[0]
	fmt.Println(m.URL, m.Ambiguous, m.Alternatives)
	// Output:
	// http://www.example.com/uri-archive/ true [http://www.example.com/uriarchive/]
}

func ExampleOptions_base() {
	base, _ := locator.Parse("http://a/b/c/d;p?q")
	s := text.NewScanner(strings.NewReader("up: <URL:../g>, here: <URL:#top>"), &text.Options{Base: base})
	for s.Scan() {
		fmt.Println(s.Match().Ref, "=>", s.Match().URL)
	}
	// Output:
	// ../g => http://a/b/g
	// #top => http://a/b/c/d;p?q#top
}

func ExampleOptions_partial() {
	// Without a base a partial form names no URL the Scanner can write;
	// it is reported rather than dropped.
	in := "> see <URL:../notes/\n> today.txt> and <URL:http://a.example/>"
	opts := &text.Options{Partial: func(p text.Partial) {
		fmt.Printf("partial %q at %d:%d\n", p.Ref, p.Line, p.Column)
	}}
	s := text.NewScanner(strings.NewReader(in), opts)
	for s.Scan() {
		fmt.Println(s.Match().URL)
	}
	// Output:
	// partial "../notes/today.txt" at 1:7
	// http://a.example/
}

func ExampleOptions_html() {
	page := `<a href="http://a.example/?q=1&amp;lang=en">a</a> &lt;URL:ftp://b.example/pub&gt;`
	s := text.NewScanner(strings.NewReader(page), &text.Options{HTML: true})
	for s.Scan() {
		fmt.Println(s.Match().Offset, s.Match().URL)
	}
	// Output:
	// 9 http://a.example/?q=1&lang=en
	// 50 ftp://b.example/pub
}
