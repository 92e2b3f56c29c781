package nntp_test

import (
	"fmt"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/nntp"
)

func ExampleNewPlan() {
	u, _ := locator.Parse("nntp://news.example.com/comp.infosystems.www/4711")
	p, _ := nntp.NewPlan(u)
	fmt.Println(p.Host, p.Port)
	fmt.Println(p)
	// Output:
	// news.example.com 119
	// GROUP comp.infosystems.www | ARTICLE 4711
}

func ExampleParse() {
	r, _ := nntp.Parse("nntp://news.example.com:1119/comp.lang.go/12")
	fmt.Println(r.Host, r.Port, r.Group, r.Number)
	// Output: news.example.com 1119 comp.lang.go 12
}

func ExampleURL_Build() {
	s, _ := (&nntp.URL{Host: "news.example.com", Article: nntp.Article{Group: "comp.lang.go", Number: "12", HasNumber: true}}).Build()
	fmt.Println(s)
	// Output: nntp://news.example.com/comp.lang.go/12
}
