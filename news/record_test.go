package news_test

// Archiving against INN: a news or nntp Get is kept as the session's
// exchange, the commands as sent (AUTHINFO PASS masked) and the replies
// from the greeting on, and read back into what the live fetch gave.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/internal/loctest"
	"github.com/rfc1738/locator/internal/peer"
	"github.com/rfc1738/locator/news"
	"github.com/rfc1738/locator/nntp"
)

// wire returns article n as INN stores it: the ARTICLE reply's data
// block, dot-stuffed, with its "." line.
func (in *inn) wire(t *testing.T, n int) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(peer.INNSpool, strings.ReplaceAll(in.Group, ".", "/"), fmt.Sprint(n)))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestRecordINN(t *testing.T) {
	in := startINN(t)
	a, b, c, idA, _, idC, _ := articles(in)
	for _, art := range []string{a, b, c} {
		in.Post(t, art)
	}
	bareA := strings.Trim(idA, "<>")
	schemes := func(a nntp.Auth, server string) map[string]access.Fetcher {
		return map[string]access.Fetcher{"news": &news.Client{Server: server, Auth: a}, "nntp": &nntp.Client{Auth: a}}
	}
	noDial := func(ctx context.Context, network, addr string) (net.Conn, error) {
		t.Errorf("the replay dialled %s", addr)
		return nil, errors.New("no connection in a replay")
	}
	// check follows u live and from its record; the record's request is
	// wantReq, its response begins with the greeting and holds each of
	// hold.
	check := func(u string, a nntp.Auth, server, wantReq string, hold ...[]byte) (loctest.Outcome, loctest.Kept) {
		t.Helper()
		m := &loctest.Archive{}
		live := loctest.GetOutcome(t, &access.Client{Recorder: m, IdleTimeout: 30 * time.Second, Schemes: schemes(a, server)}, u)
		rec, ok := m.Latest(u)
		if !ok || len(m.Records()) != 1 {
			t.Fatalf("%s: %d records, none of the URL (%v)", u, len(m.Records()), live.Err)
		}
		if rec.Record.Kind != access.RecordExchange || rec.Record.Protocol != "nntp" || rec.Record.Addr != "127.0.0.1" {
			t.Errorf("%s: record %+v", u, rec.Record)
		}
		if string(rec.Request) != wantReq {
			t.Errorf("%s: request recorded %q, want %q", u, rec.Request, wantReq)
		}
		if !bytes.HasPrefix(rec.Response, []byte("200 ")) && !bytes.HasPrefix(rec.Response, []byte("201 ")) {
			t.Errorf("%s: response does not begin with the greeting: %q", u, rec.Response[:min(len(rec.Response), 40)])
		}
		for _, h := range hold {
			if !bytes.Contains(rec.Response, h) {
				t.Errorf("%s: response %q does not hold %q", u, rec.Response, h)
			}
		}
		// A replay asks no server: a news URL's capture is followed
		// with none configured.
		again := loctest.GetOutcome(t, &access.Client{Archive: m, Dial: noDial, Schemes: schemes(nntp.Auth{}, "")}, u)
		loctest.SameOutcome(t, u, live, again)
		// The record cut short is a protocol error, as a reply cut
		// short is live.
		cut := &loctest.Archive{}
		r := rec
		r.Response = r.Response[:len(r.Response)/2]
		cut.Add(r)
		var pe *access.ProtocolError
		if o := loctest.GetOutcome(t, &access.Client{Archive: cut, Dial: noDial, Schemes: schemes(nntp.Auth{}, "")}, u); !errors.As(o.Err, &pe) {
			t.Errorf("%s: the record cut short gave %d entries, %d octets, %T %v", u, len(o.Entries), len(o.Body), o.Err, o.Err)
		}
		return live, rec
	}

	o, _ := check("news:"+bareA, nntp.Auth{}, in.Addr, "MODE READER\r\nARTICLE "+idA+"\r\nQUIT\r\n",
		[]byte("\r\n220 0 "+idA+" article\r\n"), in.wire(t, 1), []byte("\r\n205 "))
	if !bytes.Equal(o.Body, in.stored(t, 1)) {
		t.Errorf("article by message-id: %q", o.Body)
	}
	group := "nntp://" + in.Addr + "/" + in.Group
	o, _ = check(group+"/3", nntp.Auth{}, "", "MODE READER\r\nGROUP "+in.Group+"\r\nARTICLE 3\r\nQUIT\r\n",
		[]byte("\r\n211 3 1 3 "+in.Group), in.wire(t, 3))
	if !bytes.Equal(o.Body, in.stored(t, 3)) {
		t.Errorf("nntp article: %q", o.Body)
	}
	o, _ = check(group, nntp.Auth{}, "", "MODE READER\r\nGROUP "+in.Group+"\r\nOVER 1-3\r\nQUIT\r\n", []byte("\r\n224 "))
	if len(o.Entries) != 3 || o.Err != nil {
		t.Errorf("overview: %d entries, %v", len(o.Entries), o.Err)
	}
	o, _ = check("news:"+in.Group, nntp.Auth{}, in.Addr, "MODE READER\r\nGROUP "+in.Group+"\r\nOVER 1-3\r\nQUIT\r\n")
	if len(o.Entries) != 3 || o.Entries[2].URL != "news:"+strings.Trim(idC, "<>") {
		t.Errorf("news overview: %+v", o.Entries)
	}
	var se *access.ServerError
	if o, _ = check("news:missing-"+in.Tag+"@feas.test", nntp.Auth{}, in.Addr, "MODE READER\r\nARTICLE <missing-"+in.Tag+"@feas.test>\r\n"); !errors.As(o.Err, &se) || se.Code != "430" {
		t.Errorf("missing article: %v", o.Err)
	}

	// A server that asks for credentials: the record holds AUTHINFO
	// USER as sent and AUTHINFO PASS masked, never the password; the
	// replay, without credentials, reads the 480, 381 and 281 as the
	// live session did.
	addr, pw := in.authReader(t)
	_, rec := check("news:"+bareA, nntp.Auth{User: "tester", Password: pw}, addr,
		"MODE READER\r\nARTICLE "+idA+"\r\nAUTHINFO USER tester\r\nAUTHINFO PASS ****\r\nARTICLE "+idA+"\r\nQUIT\r\n",
		[]byte("\r\n480 "), []byte("\r\n381 "), []byte("\r\n281 "), in.wire(t, 1))
	if bytes.Contains(rec.Request, []byte(pw)) || bytes.Contains(rec.Record.Dialogue, []byte(pw)) {
		t.Errorf("the password is in the record")
	}
}
