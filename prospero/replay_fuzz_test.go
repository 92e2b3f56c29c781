package prospero_test

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/prospero"
)

// FuzzReplay: a recorded Prospero exchange, garbage or cut short, is read
// by the same steps as the server's replies (LIST, then GET-OBJECT-INFO
// after NOT-A-DIRECTORY) and fails only as they do: a *ProtocolError for
// what is not a Prospero reply, a FAILURE as a *ServerError, a link or
// FORWARDED as a *Redirect; never a panic.
func FuzzReplay(f *testing.F) {
	urls := []string{"prospero://h/dir", "prospero://h/dir;NAME-COMPONENT=x", "prospero://h/file"}
	for i, s := range []string{
		"VERSION 5 P53\nLINK  L EXTERNAL x INTERNET-D ftp.example.org ASCII '/pub/README' 0\nATTRIBUTE CACHED FIELD ACCESS-METHOD AFTP '' '' '' '' ASCII\n" +
			"LINK  L DIRECTORY docs INTERNET-D LOCALHOST(1525) ASCII '/d/docs' 0\nATTRIBUTE OBJECT INTRINSIC SIZE SEQUENCE 4096' bytes'\n",
		"VERSION 5 P53\nFAILURE NOT-A-DIRECTORY\nVERSION 5 P53\nATTRIBUTE OBJECT INTRINSIC ACCESS-METHOD SEQUENCE LOCAL '' '' '' ''\nATTRIBUTE OBJECT INTRINSIC ACCESS-METHOD SEQUENCE AFTP h '' '' /f BINARY\n",
		"VERSION 5 P53\nFAILURE NOT-FOUND\n", "FORWARDED INTERNET-D h2(1525) ASCII /x 0\n", "VERSION 5\nNONE-FOUND\n", "ERROR bad\n", "LINK 'unterminated\n", "",
	} {
		for k := range urls {
			f.Add(uint8(i*len(urls)+k), []byte(s))
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		u, err := locator.Parse(urls[int(which)%len(urls)])
		if err != nil {
			t.Fatal(err)
		}
		req := &access.Request{Client: &access.Client{MaxEntries: 64, MaxLine: 512, MaxSize: 1 << 16}, URL: u}
		res, err := (&prospero.Client{Follow: which&0x80 != 0}).Replay(context.Background(), u, req, bytes.NewReader(data))
		if err != nil {
			var pe *access.ProtocolError
			var se *access.ServerError
			var rd *access.Redirect
			if !errors.As(err, &pe) && !errors.As(err, &se) && !errors.As(err, &rd) && !errors.Is(err, access.ErrTooLarge) {
				t.Fatalf("%T %v", err, err)
			}
			return
		}
		if res.Listing == nil {
			t.Fatal("neither a listing nor an error")
		}
		if _, err := res.Listing.ReadAll(); err != nil {
			var te *access.TruncatedError
			if !errors.As(err, &te) {
				t.Fatalf("listing: %T %v", err, err)
			}
		}
		res.Close()
	})
}
