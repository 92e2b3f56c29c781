package gateway_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/netip"

	"github.com/rfc1738/locator/gateway"
)

// A gateway with the default policy: loopback is not a destination
// unless a rule allows it, so a URL naming it is refused before any
// connection.
func ExampleNew() {
	srv := httptest.NewServer(gateway.New(gateway.Config{}))
	defer srv.Close()
	res, err := http.Get(srv.URL + "/gopher://127.0.0.1:7070/1/")
	if err != nil {
		fmt.Println(err)
		return
	}
	res.Body.Close()
	fmt.Println(res.Status)
	// Output: 403 Forbidden
}

// Rules allow a destination by address and port; the address checked
// is the one resolved.
func ExamplePolicy_Check() {
	r, _ := gateway.ParseRule("127.0.0.1:7070")
	p := gateway.Policy{Allow: []gateway.Rule{r}}
	fmt.Println(p.Check("localhost", netip.MustParseAddr("127.0.0.1"), 7070))
	fmt.Println(p.Check("localhost", netip.MustParseAddr("127.0.0.1"), 7071))
	fmt.Println(p.Check("", netip.MustParseAddr("::ffff:10.0.0.1"), 70))
	// Output:
	// <nil>
	// localhost (127.0.0.1:7071) is in a loopback network, which the gateway does not reach unless a rule naming it allows it
	// 10.0.0.1:70 is in a private (RFC 1918) network, which the gateway does not reach unless a rule naming it allows it
}
