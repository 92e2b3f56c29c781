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

func ExampleBuild() {
	s, _ := telnet.Build(telnet.Ref{Host: "library.example.edu", User: "guest", HasUser: true})
	fmt.Println(s)
	// Output: telnet://guest@library.example.edu/
}
