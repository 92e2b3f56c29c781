package gopher_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/gopher"
	"github.com/rfc1738/locator/internal/loctest"
)

// replayURLs are the requests FuzzReplay reads a recorded reply to: a
// menu, a text, a binary item, Gopher+ data, attributes, a view and an
// ASK form's reply.
var replayURLs = []string{
	"gopher://h/1/", "gopher://h/0/a", "gopher://h/9/a", "gopher://h/7/s%09w",
	"gopher://h/1/%09%09+", "gopher://h/0/a%09%09+", "gopher://h/0/a%09%09!", "gopher://h/1/%09%09$",
	"gopher://h/0/a%09%09?", "gopher://h/1/%09%09+application/gopher%2B-menu",
}

// FuzzReplay: Replay reads any octets, garbage or cut short, as Fetch
// reads a live reply, and fails only with the errors Fetch's reading
// returns (a *ProtocolError for what breaks the protocol; the server's
// own error as a *ServerError or *Redirect; the limits'), never a panic.
func FuzzReplay(f *testing.F) {
	for i, s := range []string{
		"iHello\t\terror.host\t1\r\n0a\t/a\th\t70\r\n1dir\t/d\th\t70\t+\r\n.\r\n",
		"+5\r\nhello", "+-1\r\nx\r\n..y\r\n.\r\n", "+-2\r\nrest", "--1\r\n1 Admin <a@b>\r\nmissing\r\n.\r\n",
		"--2\r\n3 1moved\t/n\th\t70\r\n", "3oops\t\terror.host\t1\r\n.\r\n",
		"+-1\r\n+INFO: 0a\t/a\th\t70\t+\r\n+ADMIN:\r\n Admin: x <y>\r\n Mod-Date: <20260101000000>\r\n+VIEWS:\r\n text/plain: <1k>\r\n.\r\n",
		"+10\r\nshort", "0bad line without tabs\r\n", "",
	} {
		f.Add(uint8(i), []byte(s))
	}
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		u, err := locator.Parse(replayURLs[int(which)%len(replayURLs)])
		if err != nil {
			t.Fatal(err)
		}
		req := &access.Request{Client: &access.Client{MaxEntries: 64, MaxLine: 512, MaxSize: 1 << 16}, URL: u}
		res, err := new(gopher.Client).Replay(context.Background(), u, req, bytes.NewReader(data))
		loctest.ReadReplay(t, res, err, true)
	})
}
