package wais_test

import (
	"fmt"

	"github.com/rfc1738/locator/wais"
)

// A document URL names its docid in RFC 1738's opaque form (the octets
// percent-encoded) or in the older form CERN's libwww and Lynx wrote,
// wtype/length/fields; both give the octets the server gets back.
func ExampleParseDocPath() {
	for _, path := range []string{
		"demo/TEXT/%01%02vm%03%05a%20b%3Bc",
		"demo/TEXT/75/1=vm;3=a%20b%3Bc;",
	} {
		r, err := wais.ParseDocPath(path)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("%s %s %s %q\n", r.Database, r.Type, r.Form, r.DocID)
	}
	// Output:
	// demo TEXT rfc1738 "\x01\x02vm\x03\x05a b;c"
	// demo TEXT cern "\x01\x02vm\x03\x05a b;c"
}

// Build writes a search result's URL with the docid as the wpath.
func ExampleURL_Build_document() {
	w := &wais.URL{Host: "wais.example", Database: "demo", WType: "TEXT", WPath: "\x01\x02vm\x03\x05a b;c", HasDoc: true}
	s, _ := w.Build()
	fmt.Println(s)
	// Output:
	// wais://wais.example/demo/TEXT/%01%02vm%03%05a%20b%3Bc
}
