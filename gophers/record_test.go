package gophers_test

// Archiving over TLS: the record of a gophers exchange holds Gopher's
// octets above TLS, under the protocol "gophers", and reads back into
// what the live fetch gave.

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/gophers"
	"github.com/rfc1738/locator/internal/loctest"
	"github.com/rfc1738/locator/internal/peer"
)

func TestRecordGophers(t *testing.T) {
	peer.Require(t, "/usr/bin/stunnel4")
	root := tree(t)
	cert, key, roots := peer.SelfSigned(t, t.TempDir())
	tlsd := peer.GophernicusTLS(t, root, cert, key, false)
	m := &loctest.Archive{}
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
		live := loctest.GetOutcome(t, c, tt.url)
		if live.Err != nil || len(live.Entries) != tt.entries {
			t.Errorf("%s: %d entries, %v", tt.url, len(live.Entries), live.Err)
		}
		rec, ok := m.Latest(tt.url)
		if !ok {
			t.Fatalf("%s: no record", tt.url)
		}
		if rec.Record.Protocol != "gophers" || rec.Record.Kind != access.RecordExchange || rec.Record.Addr != "127.0.0.1" || string(rec.Request) != tt.req {
			t.Errorf("%s: record %+v, request %q, want %q", tt.url, rec.Record, rec.Request, tt.req)
		}
		if tt.resp != nil && !bytes.Equal(rec.Response, tt.resp) {
			t.Errorf("%s: response recorded %q, want %q", tt.url, rec.Response[:min(len(rec.Response), 40)], tt.resp[:min(len(tt.resp), 40)])
		}
		again := loctest.GetOutcome(t, replay, tt.url)
		if !reflect.DeepEqual(live.Entries, again.Entries) || !bytes.Equal(live.Body, again.Body) || live.MediaType != again.MediaType || again.Err != nil {
			t.Errorf("%s: replay gave %d entries, %d octets, %v; live %d entries, %d octets", tt.url, len(again.Entries), len(again.Body), again.Err, len(live.Entries), len(live.Body))
		}
	}
	if len(m.Records()) != 3 {
		t.Errorf("%d records, want 3", len(m.Records()))
	}
}
