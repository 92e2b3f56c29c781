package telnet_test

import (
	"fmt"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/telnet"
)

func ExampleNewSession() {
	u, _ := locator.Parse("telnet://guest@library.example.edu/")
	s, _ := telnet.NewSession(u)
	fmt.Println(s.Host, s.Port, s.User, s.HasPassword)
	// Output: library.example.edu 23 guest false
}

func ExampleParse() {
	r, _ := telnet.Parse("telnet://guest@library.example.edu:2323/")
	fmt.Println(r.User, r.HasPassword, r.Host, r.Port)
	// Output: guest false library.example.edu 2323
}

func ExampleURL_Build() {
	s, _ := (&telnet.URL{Host: "library.example.edu", User: "guest", HasUser: true}).Build()
	fmt.Println(s)
	// Output: telnet://guest@library.example.edu/
}
