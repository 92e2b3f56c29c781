package urlbeam_test

import (
	"context"
	"fmt"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"
	"github.com/rfc1738/locator/bulk/urlbeam"
)

func init() {
	register.Function1x0(printLine)
	register.Function1x0(printGroup)
}

func printLine(line string)      { fmt.Println(line) }
func printGroup(g urlbeam.Group) { fmt.Println(g.Normal, g.Count, g.Forms) }

// A Beam program of its own uses the transforms on any PCollection of
// URLs: here the records of three URLs and their groups of equivalent
// URLs, on prism in-process (a cluster runner needs only other flags).
func Example() {
	p, s := beam.NewPipelineWithRoot()
	urls := beam.Create(s, "ftp://myname@host.dom/%2Fetc/motd;type=a", "HTTP://Example.COM:80/a", "http://example.com/a")
	beam.ParDo0(s, printLine, urlbeam.JSON(s, urlbeam.Parse(s, urls)))
	groups, _ := urlbeam.Groups(s, urls)
	beam.ParDo0(s, printGroup, groups)
	if _, err := prism.Execute(context.Background(), p); err != nil {
		fmt.Println(err)
	}
	// Unordered output:
	// {"input":"ftp://myname@host.dom/%2Fetc/motd;type=a","ok":true,"conforms":true,"scheme":"ftp","user":"myname","host":"host.dom","effective_port":21,"path":"%2Fetc/motd;type=a","parts":{"cwd":["/etc"],"name":"motd","typecode":"a"},"problems":[]}
	// {"input":"HTTP://Example.COM:80/a","ok":true,"conforms":false,"scheme":"http","host":"Example.COM","port":"80","effective_port":80,"path":"a","parts":{"path":"a"},"problems":[{"offset":0,"severity":"violation","rule":"scheme","message":"scheme names are written in lower case (RFC 1738 §2.1); read case-insensitively"}]}
	// {"input":"http://example.com/a","ok":true,"conforms":true,"scheme":"http","host":"example.com","effective_port":80,"path":"a","parts":{"path":"a"},"problems":[]}
	// ftp://myname@host.dom/%2Fetc/motd;type=a 1 [ftp://myname@host.dom/%2Fetc/motd;type=a]
	// http://example.com/a 2 [HTTP://Example.COM:80/a http://example.com/a]
}
