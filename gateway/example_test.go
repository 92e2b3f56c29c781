package gateway_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"

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
