package nntp_test

import (
	"fmt"

	"locator"
	"locator/nntp"
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
