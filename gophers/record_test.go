package gophers_test

// Archiving over TLS: the record of a gophers exchange holds Gopher's
// octets above TLS, under the protocol "gophers", and reads back into
// what the live fetch gave.

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"testing"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/gophers"
	"github.com/rfc1738/locator/internal/loctest"
	"github.com/rfc1738/locator/internal/peer"
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

func TestRecordGophers(t *testing.T) {
	peer.Require(t, "/usr/bin/stunnel4")
	root := tree(t)
	cert, key, roots := peer.SelfSigned(t, t.TempDir())
	tlsd := peer.GophernicusTLS(t, root, cert, key, false)
	m := &memArchive{}
	c := &access.Client{Recorder: m, Schemes: map[string]access.Fetcher{
		"gophers": &gophers.Client{TLSConfig: &tls.Config{RootCAs: roots}},
	}}
	replay := &access.Client{Archive: m, Schemes: c.Schemes, Dial: func(ctx context.Context, network, addr string) (net.Conn, error) {
		t.Errorf("the replay dialled %s", addr)
		return nil, errors.New("no connection in a replay")
	}}
	s := "gophers://" + tlsd.Addr
	data, err := os.ReadFile(filepath.Join(root, "data.bin"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		url, req string
		resp     []byte // nil: not compared
		entries  int
	}{
		{s + "/", "\r\n", nil, 4},
		{s + "/9/data.bin", "/data.bin\r\n", data, 0},
		{s + "/0/hello.txt", "/hello.txt\r\n", []byte("Hello over TLS.\r\n.. a dot line\r\nlast line\r\n"), 0},
	} {
		live := fetchOutcome(t, c, tt.url)
		if live.err != nil || len(live.entries) != tt.entries {
			t.Errorf("%s: %d entries, %v", tt.url, len(live.entries), live.err)
		}
		rec, ok := m.recs[tt.url]
		if !ok {
			t.Fatalf("%s: no record", tt.url)
		}
		if rec.rec.Protocol != "gophers" || rec.rec.Kind != access.RecordExchange || rec.rec.Addr != "127.0.0.1" || string(rec.req) != tt.req {
			t.Errorf("%s: record %+v, request %q, want %q", tt.url, rec.rec, rec.req, tt.req)
		}
		if tt.resp != nil && !bytes.Equal(rec.resp, tt.resp) {
			t.Errorf("%s: response recorded %q, want %q", tt.url, rec.resp[:min(len(rec.resp), 40)], tt.resp[:min(len(tt.resp), 40)])
		}
		again := fetchOutcome(t, replay, tt.url)
		if !reflect.DeepEqual(live.entries, again.entries) || !bytes.Equal(live.body, again.body) || live.media != again.media || again.err != nil {
			t.Errorf("%s: replay gave %d entries, %d octets, %v; live %d entries, %d octets", tt.url, len(again.entries), len(again.body), again.err, len(live.entries), len(live.body))
		}
	}
	if m.n != 3 {
		t.Errorf("%d records, want 3", m.n)
	}
}
