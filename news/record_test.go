package news_test

// Archiving against INN: a news or nntp Get is kept as the session's
// exchange, the commands as sent (AUTHINFO PASS masked) and the replies
// from the greeting on, and read back into what the live fetch gave.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/internal/loctest"
	"github.com/rfc1738/locator/internal/peer"
	"github.com/rfc1738/locator/news"
	"github.com/rfc1738/locator/nntp"
)

// memArchive is an access.Recorder and an access.Archive in memory:
// each record's octets are copied, the last record of a URL kept.
type memArchive struct {
	mu   sync.Mutex
	recs map[string]stored
	n    int // records made
}

type stored struct {
	rec       access.Record // without its Spools
	req, resp []byte
}

func (m *memArchive) Record(r *access.Record) error {
	s := stored{rec: *r}
	s.rec.Request, s.rec.Response = nil, nil
	if r.Request != nil {
		s.req, _ = io.ReadAll(r.Request.Reader())
	}
	s.resp, _ = io.ReadAll(r.Response.Reader())
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.recs == nil {
		m.recs = map[string]stored{}
	}
	m.recs[r.URL.String()] = s
	m.n++
	return nil
}

func (m *memArchive) Lookup(ctx context.Context, u *locator.URL) (*access.Record, error) {
	m.mu.Lock()
	s, ok := m.recs[u.String()]
	m.mu.Unlock()
	if !ok {
		return nil, &access.NotArchivedError{URL: access.Masked(u)}
	}
	r := s.rec
	if s.rec.Kind == access.RecordExchange {
		r.Request = access.NewSpool()
		r.Request.Write(s.req)
	}
	r.Response = access.NewSpool()
	r.Response.Write(s.resp)
	return &r, nil
}

// an outcome is what a Get gave: the listing's entries or the body, or
// the error.
type outcome struct {
	entries []access.Entry
	body    []byte
	media   string
	err     error
}

func fetchOutcome(t *testing.T, ac *access.Client, s string) outcome {
	t.Helper()
	res, err := ac.Get(context.Background(), loctest.MustParse(t, s))
	if err != nil {
		return outcome{err: err}
	}
	var o outcome
	o.media = res.MediaType
	if res.Listing != nil {
		o.entries, o.err = res.Listing.ReadAll()
	} else {
		o.body, o.err = io.ReadAll(res.Body)
	}
	if cerr := res.Close(); o.err == nil {
		o.err = cerr
	}
	return o
}

func sameOutcome(t *testing.T, s string, live, again outcome) {
	t.Helper()
	if !reflect.DeepEqual(live.entries, again.entries) || !bytes.Equal(live.body, again.body) || live.media != again.media {
		t.Errorf("%s: replay gave %d entries, body %q (%s); live %d entries, body %q (%s)", s,
			len(again.entries), again.body, again.media, len(live.entries), live.body, live.media)
	}
	if (live.err == nil) != (again.err == nil) || live.err != nil && (reflect.TypeOf(live.err) != reflect.TypeOf(again.err) || live.err.Error() != again.err.Error()) {
		t.Errorf("%s: replay's error %T %v, live %T %v", s, again.err, again.err, live.err, live.err)
	}
}

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
	check := func(u string, a nntp.Auth, server, wantReq string, hold ...[]byte) (outcome, stored) {
		t.Helper()
		m := &memArchive{}
		live := fetchOutcome(t, &access.Client{Recorder: m, IdleTimeout: 30 * time.Second, Schemes: schemes(a, server)}, u)
		rec, ok := m.recs[u]
		if !ok || m.n != 1 {
			t.Fatalf("%s: %d records, none of the URL (%v)", u, m.n, live.err)
		}
		if rec.rec.Kind != access.RecordExchange || rec.rec.Protocol != "nntp" || rec.rec.Addr != "127.0.0.1" {
			t.Errorf("%s: record %+v", u, rec.rec)
		}
		if string(rec.req) != wantReq {
			t.Errorf("%s: request recorded %q, want %q", u, rec.req, wantReq)
		}
		if !bytes.HasPrefix(rec.resp, []byte("200 ")) && !bytes.HasPrefix(rec.resp, []byte("201 ")) {
			t.Errorf("%s: response does not begin with the greeting: %q", u, rec.resp[:min(len(rec.resp), 40)])
		}
		for _, h := range hold {
			if !bytes.Contains(rec.resp, h) {
				t.Errorf("%s: response %q does not hold %q", u, rec.resp, h)
			}
		}
		// Check asks a news URL for a configured server, replayed too.
		again := fetchOutcome(t, &access.Client{Archive: m, Dial: noDial, Schemes: schemes(nntp.Auth{}, server)}, u)
		sameOutcome(t, u, live, again)
		// The record cut short is a protocol error, as a reply cut
		// short is live.
		cut := &memArchive{recs: map[string]stored{u: rec}}
		r := cut.recs[u]
		r.resp = r.resp[:len(r.resp)/2]
		cut.recs[u] = r
		var pe *access.ProtocolError
		if o := fetchOutcome(t, &access.Client{Archive: cut, Dial: noDial, Schemes: schemes(nntp.Auth{}, server)}, u); !errors.As(o.err, &pe) {
			t.Errorf("%s: the record cut short gave %d entries, %d octets, %T %v", u, len(o.entries), len(o.body), o.err, o.err)
		}
		return live, rec
	}

	o, _ := check("news:"+bareA, nntp.Auth{}, in.Addr, "MODE READER\r\nARTICLE "+idA+"\r\nQUIT\r\n",
		[]byte("\r\n220 0 "+idA+" article\r\n"), in.wire(t, 1), []byte("\r\n205 "))
	if !bytes.Equal(o.body, in.stored(t, 1)) {
		t.Errorf("article by message-id: %q", o.body)
	}
	group := "nntp://" + in.Addr + "/" + in.Group
	o, _ = check(group+"/3", nntp.Auth{}, "", "MODE READER\r\nGROUP "+in.Group+"\r\nARTICLE 3\r\nQUIT\r\n",
		[]byte("\r\n211 3 1 3 "+in.Group), in.wire(t, 3))
	if !bytes.Equal(o.body, in.stored(t, 3)) {
		t.Errorf("nntp article: %q", o.body)
	}
	o, _ = check(group, nntp.Auth{}, "", "MODE READER\r\nGROUP "+in.Group+"\r\nOVER 1-3\r\nQUIT\r\n", []byte("\r\n224 "))
	if len(o.entries) != 3 || o.err != nil {
		t.Errorf("overview: %d entries, %v", len(o.entries), o.err)
	}
	o, _ = check("news:"+in.Group, nntp.Auth{}, in.Addr, "MODE READER\r\nGROUP "+in.Group+"\r\nOVER 1-3\r\nQUIT\r\n")
	if len(o.entries) != 3 || o.entries[2].URL != "news:"+strings.Trim(idC, "<>") {
		t.Errorf("news overview: %+v", o.entries)
	}
	var se *access.ServerError
	if o, _ = check("news:missing-"+in.Tag+"@feas.test", nntp.Auth{}, in.Addr, "MODE READER\r\nARTICLE <missing-"+in.Tag+"@feas.test>\r\n"); !errors.As(o.err, &se) || se.Code != "430" {
		t.Errorf("missing article: %v", o.err)
	}

	// A server that asks for credentials: the record holds AUTHINFO
	// USER as sent and AUTHINFO PASS masked, never the password; the
	// replay, without credentials, reads the 480, 381 and 281 as the
	// live session did.
	addr, pw := in.authReader(t)
	_, rec := check("news:"+bareA, nntp.Auth{User: "tester", Password: pw}, addr,
		"MODE READER\r\nARTICLE "+idA+"\r\nAUTHINFO USER tester\r\nAUTHINFO PASS ****\r\nARTICLE "+idA+"\r\nQUIT\r\n",
		[]byte("\r\n480 "), []byte("\r\n381 "), []byte("\r\n281 "), in.wire(t, 1))
	if bytes.Contains(rec.req, []byte(pw)) || bytes.Contains(rec.rec.Dialogue, []byte(pw)) {
		t.Errorf("the password is in the record")
	}
}
