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

// Following an http URL through package access: the client registered
// by this package sends the request NewRequest plans and returns the
// object, its media type and size.
func Example_get() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprintf(w, "you asked for %s\n", r.RequestURI)
	}))
	defer srv.Close()

	u, _ := locator.Parse(srv.URL + "/a%2Fb?x#fragment")
	res, err := access.Get(context.Background(), u, access.Options{MaxSize: 1 << 20})
	if err != nil {
		fmt.Println("exit", access.Classify(err), err)
		return
	}
	defer res.Close()
	body, _ := io.ReadAll(res.Body)
	fmt.Print(string(body))
	fmt.Println(res.MediaType, res.Size)

	// RFC 1738 §6: a port of another service is refused before connecting.
	u, _ = locator.Parse("http://127.0.0.1:25/")
	_, err = access.Get(context.Background(), u, access.Options{})
	fmt.Println("exit", access.Classify(err))
	// Output:
	// you asked for /a%2Fb?x
	// text/plain 23
	// exit 4
}
