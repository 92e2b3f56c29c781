package nntp_test

import (
	"context"
	"testing"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/internal/loctest"
	"github.com/rfc1738/locator/news"
	"github.com/rfc1738/locator/nntp"
)

// replayCases are the requests FuzzReplay reads a recorded session of:
// an article and a group's overview by each method, by nntp and news
// URLs.
var replayCases = []struct {
	url    string
	method string
}{
	{"nntp://h/g/1", ""}, {"nntp://h/g", ""}, {"nntp://h/g", nntp.MethodXover}, {"nntp://h/g", nntp.MethodHead},
	{"news:a@b", ""}, {"news:g", ""}, {"news:g/2-5", ""}, {"news:*", ""}, {"news:g/3", ""},
}

// FuzzReplay: a recorded NNTP session, garbage or cut short, is read by
// the same steps as a live one and fails only as a live one does: a
// *ProtocolError for what is not NNTP, the server's refusal as a
// *ServerError, the limits' errors; never a panic.
func FuzzReplay(f *testing.F) {
	for i, s := range []string{
		"200 hi\r\n200 reader\r\n211 3 1 3 g\r\n220 1 <a@b> article\r\nSubject: x\r\n\r\n..dot\r\n.\r\n205 bye\r\n",
		"200 hi\r\n200 reader\r\n211 2 1 2 g\r\n224 overview\r\n1\tsubj\tfrom\tdate\t<a@b>\t\t12\t3\r\n2\ts\tf\td\t<c@d>\t\t1\t1\r\n.\r\n",
		"200 hi\r\n200 reader\r\n211 2 1 2 g\r\n500 what\r\n224 ok\r\n1\ts\tf\td\t<a@b>\t\t1\t1\r\n.\r\n",
		"200 hi\r\n200 reader\r\n211 2 1 2 g\r\n221 1 <a@b> head\r\nSubject: s\r\n.\r\n223 2 <c@d>\r\n221 2 <c@d>\r\nFrom: x\r\n.\r\n421 no next\r\n",
		"201 hi\r\n200 reader\r\n480 auth\r\n381 pass\r\n281 ok\r\n220 0 <a@b> article\r\nbody\r\n.\r\n",
		"200 hi\r\n200 reader\r\n215 list\r\ng 3 1 y\r\nh 0 1 n\r\n.\r\n",
		"200 hi\r\n200 reader\r\n430 no such article\r\n", "400 go away\r\n", "200 hi\r\n20", "",
	} {
		f.Add(uint8(i), []byte(s))
	}
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		c := replayCases[int(which)%len(replayCases)]
		u, err := locator.Parse(c.url)
		if err != nil {
			t.Fatal(err)
		}
		var r access.Fetcher = &nntp.Client{Method: c.method}
		if u.Scheme() == "news" {
			r = &news.Client{Method: c.method, Server: "h"}
		}
		// Through a Client, whose Request knows the scheme's methods.
		// The archive holds data as u's exchange.
		arc := &loctest.Archive{}
		arc.Add(loctest.Kept{Record: access.Record{Kind: access.RecordExchange, URL: u, Protocol: "nntp"}, Response: data})
		ac := &access.Client{MaxEntries: 64, MaxLine: 512, MaxSize: 1 << 16, Archive: arc, Schemes: map[string]access.Fetcher{u.Scheme(): r}}
		res, err := ac.Get(context.Background(), u)
		loctest.ReadReplay(t, res, err, false)
	})
}
