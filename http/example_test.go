package http_test

import (
	"fmt"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/http"
)

func ExampleNewRequest() {
	u, _ := locator.Parse("<URL:http://ds.internic.net/instructions/overview.html#WARNING>")
	r, _ := http.NewRequest(u)
	fmt.Println(r.Addr)
	fmt.Println(r.Line())
	p, _ := http.NewProxyRequest(u)
	fmt.Println(p.Line())
	// Output:
	// ds.internic.net:80
	// GET /instructions/overview.html HTTP/1.0
	// GET http://ds.internic.net/instructions/overview.html HTTP/1.0
}

// An https URL through a proxy: CONNECT opens a tunnel (RFC 9110
// §9.3.6), and the origin-form request goes through it under TLS.
func ExampleNewProxyRequest() {
	u, _ := locator.Parse("https://BÜCHER.example/a?q")
	p, _ := http.NewProxyRequest(u)
	fmt.Println(p.Line())
	fmt.Println("Host:", p.Host)
	fmt.Println(p.Tunnel.Line())
	fmt.Println("Host:", p.Tunnel.Host)
	// Output:
	// CONNECT xn--bcher-kva.example:443 HTTP/1.1
	// Host: xn--bcher-kva.example:443
	// GET /a?q HTTP/1.0
	// Host: xn--bcher-kva.example
}

func ExampleURL_Build() {
	u := &http.URL{Host: "example.com", Segments: []string{"a b", "c/d"}, Search: "q=x y", HasSearch: true}
	s, _ := u.Build()
	fmt.Println(s)
	// Output: http://example.com/a%20b/c%2Fd?q=x%20y
}

func ExampleRules_Check() {
	u, _ := locator.Parse("http://user@host/p?a/b")
	for _, p := range u.Problems() {
		fmt.Println(p.Offset, p.Rule)
	}
	// Output:
	// 7 httpurl
	// 20 search
}
