package gophers_test

import (
	"fmt"

	"github.com/rfc1738/locator/gopher"
	"github.com/rfc1738/locator/gophers"
)

func ExampleParse() {
	g, err := gophers.Parse("gophers://example.org/7a_gopher_selector%09foobar")
	if err != nil {
		panic(err)
	}
	p, _ := g.Plan()
	fmt.Printf("type %s selector %q search %q\n%s:%d over TLS to %s: %q\n", g.Type, g.Selector, g.Search, p.Host, p.Port, p.ServerName, p.Request)
	// Output:
	// type 7 selector "a_gopher_selector" search "foobar"
	// example.org:70 over TLS to example.org: "a_gopher_selector\tfoobar\r\n"
}

func ExampleURL_Build() {
	s, _ := (&gophers.URL{gopher.URL{Host: "example.org", Type: "0", Selector: "/Information About Gopher"}}).Build()
	fmt.Println(s)
	// Output: gophers://example.org/0/Information%20About%20Gopher
}

func ExampleSameServer() {
	// Items of a menu read from gophers://example.org/1: the same
	// server's stay on TLS, another server's are as the line says.
	for _, s := range []string{"gopher://example.org/0/a.txt", "gopher://example.org:7070/0/a.txt", "gopher://other.example/1/"} {
		fmt.Println(gophers.SameServer(s, "example.org", 70))
	}
	// Output:
	// gophers://example.org/0/a.txt
	// gopher://example.org:7070/0/a.txt
	// gopher://other.example/1/
}
