package access_test

import (
	"fmt"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
)

// Classify maps the error of a Get, or of reading a Body, to the exit
// status of "locator get".
func ExampleClassify() {
	for _, err := range []error{
		nil,
		&access.ServerError{URL: "ftp://h/x", Code: "550", Text: "No such file"},
		access.ErrTooLarge,
		&access.PolicyError{URL: "http://h:25/", Rule: "RFC 1738 §6", Reason: "port 25"},
	} {
		fmt.Println(access.Classify(err), err)
	}
	// Output:
	// 0 <nil>
	// 1 ftp://h/x: the server says 550 No such file
	// 3 access: object larger than the size limit
	// 4 http://h:25/: refused by local policy (RFC 1738 §6, at 0): port 25
}

// Masked is how every message and log line writes a URL.
func ExampleMasked() {
	u, _ := locator.Parse("<URL:ftp://joe:s3cret@host.dom/etc/motd>")
	fmt.Println(access.Masked(u))
	// Output: ftp://joe:****@host.dom/etc/motd
}

// DelimiterAt finds what RFC 1738 §6 warns of: an encoded CR, LF or NUL
// that a client would decode into a protocol's command line.
func ExampleDelimiterAt() {
	fmt.Println(access.DelimiterAt("dir/file%0D%0ADELE%20x"))
	// Output: 8
}
