package newsreader_test

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/rfc1738/locator/internal/newsreader"
)

// A data block as the server sends it (RFC 3977 §3.1.1): the stuffed
// dot is removed and the "." line ends the article.
func ExampleNewDotReader() {
	wire := "Subject: dots\r\n\r\n..leading dot\r\n.\r\n205 bye\r\n"
	br := bufio.NewReader(strings.NewReader(wire))
	article, err := io.ReadAll(newsreader.NewDotReader(br, 1000))
	fmt.Printf("%q %v\n", article, err)
	next, _ := br.ReadString('\n')
	fmt.Printf("%q\n", next)
	// Output:
	// "Subject: dots\r\n\r\n.leading dot\r\n" <nil>
	// "205 bye\r\n"
}

func ExampleParseOverview() {
	o, _ := newsreader.ParseOverview("1\thello nntp\tFeas <f@example.test>\tMon, 23 Nov 2026 04:05:53 -0000 (UTC)\t<a@b.test>\t\t534\t2\tXref: feas.test local.test:1")
	fmt.Println(o.Number, o.Subject, o.MessageID, o.Bytes, o.Lines)
	// Output: 1 hello nntp <a@b.test> 534 2
}

func ExampleParseReply() {
	r, _ := newsreader.ParseReply("211 3 1 3 local.test")
	g, _ := newsreader.ParseGroup(r.Text)
	fmt.Println(r.Code, g.Name, g.Count, g.Low, g.High)
	// Output: 211 local.test 3 1 3
}
