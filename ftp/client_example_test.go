package ftp_test

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	_ "github.com/rfc1738/locator/ftp" // registers ftp.Client
)

// Following an ftp URL: access.Get dispatches it to ftp.Client, which
// logs in (anonymous, with the user's address as the password), changes
// directory once per segment and retrieves the file in ASCII mode.
func ExampleClient() {
	u, _ := locator.Parse("ftp://ftp.example.com/pub/README;type=a")
	res, err := access.Get(context.Background(), u, access.Options{
		UserAddress: "me@example.org", // the anonymous password, RFC 1738 §3.2.1
		Dialogue:    os.Stderr,        // "> CWD pub", "< 250 ...", passwords masked
	})
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
	_, err := access.Get(context.Background(), u, access.Options{})
	fmt.Println(err)
	fmt.Println(access.Classify(err) == access.Refused)
	// Output:
	// ftp://ftp.example.com/pub%0D%0ADELE%20x/f: refused by local policy (RFC 1738 §6, at 25): a decoded CR, LF or NUL here would end the FTP command early and begin another
	// true
}
