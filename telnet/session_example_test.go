package telnet_test

import (
	"context"
	"fmt"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	_ "github.com/rfc1738/locator/telnet"
)

// A telnet URL designates an interactive service, not an object (RFC
// 1738 §3.8): access.Client's Get refuses it, before any connection, and
// says how to open it; its Interact runs the session on a terminal (or
// relays streams), as `locator telnet URL` does:
//
//	c := &access.Client{Dialogue: os.Stderr}
//	err := c.Interact(ctx, u, access.Terminal{In: os.Stdin, Out: os.Stdout, Msg: os.Stderr})
func ExampleClient() {
	u, _ := locator.Parse("telnet://guest@library.example.edu/")
	_, err := access.DefaultClient.Get(context.Background(), u)
	fmt.Println(access.IsSession("telnet"), access.Classify(err) == access.Forbidden)
	fmt.Println(err)
	// Output:
	// true true
	// telnet://guest@library.example.edu/: refused by local policy (RFC 1738 §3.8, at 0): a telnet URL designates an interactive service, not a data object: it is opened as a session on a terminal (locator telnet URL), not retrieved
}
