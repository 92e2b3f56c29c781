package prospero_test

import (
	"context"
	"fmt"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/prospero"
)

// An EXTERNAL link's access method, as dirsrv returns it, becomes the URL
// of that method (RFC 1738 §3.11): AFTP is anonymous FTP, ASCII its
// typecode a.
func ExampleParseAttribute() {
	a, err := prospero.ParseAttribute("ATTRIBUTE CACHED FIELD ACCESS-METHOD AFTP INTERNET-D ftp.example.org(2121) ASCII '/pub/README' ASCII")
	if err != nil {
		fmt.Println(err)
		return
	}
	m := prospero.AccessMethod{Method: a.Values[0], HostType: a.Values[1], Host: a.Values[2], HSONameType: a.Values[3], HSOName: a.Values[4], Args: a.Values[5:]}
	fmt.Println(m.URL())
	// Output: ftp://ftp.example.org:2121/pub/README;type=a <nil>
}

// The 12-octet header dirsrv puts on the last packet of a window: packet
// 16 of 19, please acknowledge (ARDP octet 11, bit 7).
func ExampleParseHeader() {
	h, data, err := prospero.ParseHeader([]byte{12, 0x04, 0xd2, 0, 16, 0, 19, 0, 1, 0, 0, 0x80, 'L', 'I', 'N', 'K'})
	fmt.Println(h.CID, h.Seq, h.Total, h.Flags&0x80 != 0, string(data), err)
	// Output: 1234 16 19 true LINK <nil>
}

// Following a Prospero URL: a directory is a listing; with Follow, a
// link's access method is fetched through its own scheme (here it would
// be an ftp URL).
func Example_get() {
	u, _ := locator.Parse("prospero://archie.example.org//pub;NAME-COMPONENT=README")
	c := &access.Client{Schemes: map[string]access.Fetcher{"prospero": &prospero.Client{Follow: true}}}
	res, err := c.Get(context.Background(), u)
	if err != nil {
		fmt.Println(access.Classify(err))
		return
	}
	defer res.Close()
}
