package ftp_test

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/ftp"
)

// Following an ftp URL: an access.Client dispatches it to its
// ftp.Client, which logs in (anonymous, with the user's address as the
// password), changes directory once per segment and retrieves the file
// in ASCII mode.
func ExampleClient() {
	c := &access.Client{
		Dialogue: os.Stderr, // "> CWD pub", "< 250 ...", passwords masked
		Schemes: map[string]access.Fetcher{
			"ftp": &ftp.Client{UserAddress: "me@example.org"}, // the anonymous password, RFC 1738 §3.2.1
		},
	}
	u, _ := locator.Parse("ftp://ftp.example.com/pub/README;type=a")
	res, err := c.Get(context.Background(), u)
	if err != nil {
		fmt.Println(err, access.Classify(err))
		return
	}
	defer res.Close()
	io.Copy(os.Stdout, res.Body)
}

// A decoded CR or LF would end an FTP command early and begin another
// (RFC 1738 §6): the URL is refused before any connection, with the
// offset of the part refused.
func ExampleClient_Check() {
	u, _ := locator.Parse("ftp://ftp.example.com/pub%0D%0ADELE%20x/f")
	_, err := access.DefaultClient.Get(context.Background(), u)
	fmt.Println(err)
	fmt.Println(access.Classify(err) == access.Forbidden)
	// Output:
	// ftp://ftp.example.com/pub%0D%0ADELE%20x/f: refused by local policy (RFC 1738 §6, at 25): a decoded CR, LF or NUL here would end the FTP command early and begin another
	// true
}
