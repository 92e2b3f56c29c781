package access_test

import (
	"context"
	"fmt"
	"io"
	"net/netip"
	"os"
	"path/filepath"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/file"
	_ "github.com/rfc1738/locator/schemes"
)

// A Client holds the rules every URL is followed under; a scheme's own
// settings go in that scheme's client. A file URL names a file of this
// machine (RFC 1738 §3.10), so it needs no server.
func ExampleClient() {
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	os.WriteFile(filepath.Join(dir, "motd"), []byte("welcome\n"), 0o644)
	s, _ := file.FromLocalPath(filepath.Join(dir, "motd"), file.Unix)

	deny, _ := access.ParseRules([]string{".example.com", "10.0.0.0/8"})
	c := &access.Client{
		MaxSize: 1 << 20,
		Policy:  access.Policy{Deny: deny},
	}
	u, _ := locator.Parse(s)
	res, err := c.Get(context.Background(), u)
	if err != nil {
		fmt.Println(access.Classify(err), err)
		return
	}
	defer res.Close()
	b, _ := io.ReadAll(res.Body)
	fmt.Printf("%q, %d octets\n", b, res.Size)

	u, _ = locator.Parse("ftp://ftp.example.com/pub/")
	_, err = c.Get(context.Background(), u)
	fmt.Println(access.Classify(err))
	// Output:
	// "welcome\n", 8 octets
	// forbidden
}

// Stat says what a server says of an object without its body; a
// missing object is a *ServerError.
func ExampleClient_Stat() {
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("12345"), 0o644)
	for _, name := range []string{"a.txt", "b.txt"} {
		s, _ := file.FromLocalPath(filepath.Join(dir, name), file.Unix)
		u, _ := locator.Parse(s)
		st, err := access.DefaultClient.Stat(context.Background(), u)
		fmt.Println(name, st.State, st.Size, access.Classify(err))
	}
	// Output:
	// a.txt ok 5 delivered
	// b.txt gone -1 absent
}

// Classify maps the error of a Get, or of reading a Body, to an Outcome;
// the locator command maps each Outcome to its exit status.
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
	// delivered <nil>
	// absent ftp://h/x: the server says 550 No such file
	// failed access: object larger than the size limit
	// forbidden http://h:25/: refused by local policy (RFC 1738 §6, at 0): port 25
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

// Rules allow a destination by address and port; the address checked
// is the one resolved, whatever name or spelling led there.
func ExamplePolicy_Check() {
	allow, _ := access.ParseRules([]string{"127.0.0.1:7070"})
	p := access.Policy{Allow: allow, Special: access.SpecialNever}
	fmt.Println(p.Check("localhost", netip.MustParseAddr("127.0.0.1"), 7070))
	fmt.Println(p.Check("localhost", netip.MustParseAddr("127.0.0.1"), 7071))
	fmt.Println(p.Check("", netip.MustParseAddr("::ffff:10.0.0.1"), 70))
	// Output:
	// <nil>
	// localhost (127.0.0.1:7071) is in a loopback network, which is reached only when an allow rule naming it allows it
	// 10.0.0.1:70 is in a private (RFC 1918) network, which is reached only when an allow rule naming it allows it
}
