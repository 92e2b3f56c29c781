package http_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	_ "github.com/rfc1738/locator/http" // registers the http and https clients
)

// Following an http URL through package access: an access.Client hands
// it to the client this package registers, which sends the request
// NewRequest plans and returns the object, its media type and size.
func Example_get() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprintf(w, "you asked for %s\n", r.RequestURI)
	}))
	defer srv.Close()

	c := &access.Client{MaxSize: 1 << 20}
	u, _ := locator.Parse(srv.URL + "/a%2Fb?x#fragment")
	res, err := c.Get(context.Background(), u)
	if err != nil {
		fmt.Println(access.Classify(err), err)
		return
	}
	defer res.Close()
	body, _ := io.ReadAll(res.Body)
	fmt.Print(string(body))
	fmt.Println(res.MediaType, res.Size)

	// RFC 1738 §6: a port of another service is refused before connecting.
	u, _ = locator.Parse("http://127.0.0.1:25/")
	_, err = c.Get(context.Background(), u)
	fmt.Println(access.Classify(err))
	// Output:
	// you asked for /a%2Fb?x
	// text/plain 23
	// forbidden
}
