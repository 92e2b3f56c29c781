package ftp_test

import (
	"fmt"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/ftp"
)

func ExampleNewPlan() {
	u, _ := locator.Parse("ftp://myname@host.dom/%2Fetc/motd")
	p, _ := ftp.NewPlan(u, "")
	for _, c := range p.Commands {
		fmt.Printf("%q\n", c.String())
	}
	u, _ = locator.Parse("ftp://host.dom//etc/motd;type=a")
	p, _ = ftp.NewPlan(u, "me@example.org")
	fmt.Println(p)
	// Output:
	// "USER myname"
	// "PASS "
	// "CWD /etc"
	// "TYPE I"
	// "RETR motd"
	// USER anonymous | PASS me@example.org | CWD  | CWD etc | TYPE A | RETR motd
}

func ExampleSplit() {
	u, _ := locator.Parse("ftp://info.cern.ch/pub/www/doc;type=d")
	p := ftp.Split(u)
	fmt.Printf("%q %q %q\n", p.Cwd, p.Name, p.Typecode)
	// Output: ["pub" "www"] "doc" "d"
}

func ExampleURL_Build() {
	u := &ftp.URL{
		User: "myname", HasUser: true, Host: "host.dom",
		Path: ftp.Path{Cwd: []string{"/etc"}, Name: "motd", HasName: true},
	}
	s, _ := u.Build()
	fmt.Println(s)
	// Output: ftp://myname@host.dom/%2Fetc/motd
}

func ExampleParse() {
	u, _ := ftp.Parse("ftp://myname@host.dom/%2Fetc/motd;type=a")
	fmt.Printf("%s %q %q %s\n", u.User, u.Cwd, u.Name, u.Typecode)
	// Output: myname ["/etc"] "motd" a
}

func ExampleRules_Explain() {
	u, _ := locator.Parse("ftp://host.dom/pub/;type=d")
	fmt.Print(locator.Lookup("ftp").(locator.Explainer).Explain(u))
	// Output:
	// FTP (RFC 1738 §3.2, RFC 959): connect to host.dom port 21, then send
	//   USER anonymous              ; no user in the URL: anonymous FTP (§3.2.1)
	//   PASS <your e-mail address>  ; if the server asks; anonymous FTP convention (§3.2.1)
	//   CWD pub
	//   NLST                        ; ;type=d: a directory listing (§3.2.2)
}
