package gopher_test

import (
	"fmt"

	"github.com/rfc1738/locator/gopher"
)

func ExampleParse() {
	g, err := gopher.Parse("gopher://host/7a_gopher_selector%09foobar")
	if err != nil {
		panic(err)
	}
	fmt.Printf("type %s selector %q search %q\n", g.Type, g.Selector, g.Search)
	// Output: type 7 selector "a_gopher_selector" search "foobar"
}

func ExampleURL_Plan() {
	g, _ := gopher.Parse("gopher://host/0sel%09%09+%091%0D%0A+-1%0D%0ANew%20York%0D%0AUSA%0D%0A.%0D%0A")
	p, err := g.Plan()
	if err != nil {
		panic(err)
	}
	fmt.Printf("%s:%d %q\n", p.Host, p.Port, p.Request)
	// Output: host:70 "sel\t+\t1\r\n+-1\r\nNew York\r\nUSA\r\n.\r\n"
}

func ExampleParsePlus() {
	p, _ := gopher.ParsePlus("!+ABSTRACT +SMELL")
	fmt.Printf("%c %q\n", p.Command, p.Attributes)
	// Output: ! ["+ABSTRACT" "+SMELL"]
}

func ExampleURL_Build() {
	s, _ := (&gopher.URL{Host: "gopher.micro.umn.edu", Type: "0", Selector: "0/Information About Gopher"}).Build()
	fmt.Println(s)
	// Output: gopher://gopher.micro.umn.edu/00/Information%20About%20Gopher
}
