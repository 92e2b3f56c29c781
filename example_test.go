package locator_test

import (
	"fmt"

	"github.com/rfc1738/locator"
)

func ExampleParse() {
	u, err := locator.Parse("<URL:ftp://myname@host.dom/%2Fetc/motd>")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(u.Scheme(), u.User(), u.Host(), u.Path())
	fmt.Println(u.String())
	fmt.Println(u.EffectivePort(), u.Conforms())
	// Output:
	// ftp myname host.dom %2Fetc/motd
	// ftp://myname@host.dom/%2Fetc/motd
	// 21 true
}

func ExampleParse_problems() {
	u, _ := locator.Parse("http://www.example.com:8080/~joe/a b")
	for _, p := range u.Problems() {
		fmt.Println(p.Offset, p.Severity, p.Rule)
	}
	fmt.Println(u.Conforms())
	// Output:
	// 23 warning RFC 1738 §6
	// 28 violation urlpath
	// 34 violation urlpath
	// false
}

func ExampleParse_error() {
	_, err := locator.Parse("http://exa mple.com/")
	fmt.Println(err)
	// Output:
	// locator: parse "http://exa mple.com/": offset 10: error: host: character ' ' cannot appear in a host name
}

func ExampleEscape() {
	// RFC 1738 §3.2.2: a "/" inside an ftp path segment is encoded.
	fmt.Println(locator.Escape("/etc", locator.EncodeFSegment))
	fmt.Println(locator.Escape("a b&c", locator.EncodeUchar))
	// Output:
	// %2Fetc
	// a%20b%26c
}

func ExampleMakeSafe() {
	fmt.Println(locator.MakeSafe("http://host/~joe/a b%20c/100%"))
	// Output:
	// http://host/%7Ejoe/a%20b%20c/100%25
}

// A Parser fills a URL the caller owns and reuses its own storage for the
// problems, so a loop over many URLs allocates nothing.
func ExampleParser() {
	var p locator.Parser
	var u locator.URL
	for _, line := range []string{"http://a.example/x", "HTTP://B.example:8080/a b", "no scheme"} {
		if err := p.Parse(&u, line); err != nil {
			fmt.Println("refused:", err.(*locator.ParseError).Problem.Rule)
			continue
		}
		fmt.Println(u.Scheme(), u.Host(), u.Port(), len(u.Problems()))
	}
	// Output:
	// http a.example  0
	// http B.example 8080 3
	// refused: genericurl
}

func ExampleParseBatch() {
	urls, errs := locator.ParseBatch([]string{"gopher://h/1sel", "x", "news:comp.infosystems"})
	for i := range urls {
		if errs != nil && errs[i] != nil {
			fmt.Println(i, "refused")
			continue
		}
		fmt.Println(i, urls[i].String())
	}
	// Output:
	// 0 gopher://h/1sel
	// 1 refused
	// 2 news:comp.infosystems
}

// A URL cannot be changed; its Parts can, and parse to a new one.
func ExampleURL_Parts() {
	u, _ := locator.Parse("ftp://user:secret@h.example/pub/x;type=i")
	p := u.Parts()
	p.HasPassword, p.Password = false, ""
	p.Host = "mirror.example"
	v, err := p.URL()
	fmt.Println(v, err)
	fmt.Println(u)
	// Output:
	// ftp://user@mirror.example/pub/x;type=i <nil>
	// ftp://user:secret@h.example/pub/x;type=i
}
