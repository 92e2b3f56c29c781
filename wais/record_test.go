package wais_test

// Archiving against freeWAIS-sf: a WAIS Get is kept as the connection's
// exchange, every APDU behind its header as sent and received, and read
// back into what the live fetch gave.

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/internal/loctest"
	"github.com/rfc1738/locator/wais"
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

// apdus splits octets into their APDUs, each behind its header.
func apdus(t *testing.T, b []byte) [][]byte {
	t.Helper()
	var out [][]byte
	for len(b) > 0 {
		if len(b) < wais.HeaderLen {
			t.Fatalf("%d octets left, less than a header", len(b))
		}
		h, err := wais.ParseHeader(b[:wais.HeaderLen])
		if err != nil || int64(len(b)-wais.HeaderLen) < h.Length {
			t.Fatalf("header %+v %v with %d octets left", h, err, len(b)-wais.HeaderLen)
		}
		out = append(out, b[wais.HeaderLen:wais.HeaderLen+int(h.Length)])
		b = b[wais.HeaderLen+int(h.Length):]
	}
	return out
}

func TestRecordPeer(t *testing.T) {
	f := serve(t)
	noDial := func(ctx context.Context, network, addr string) (net.Conn, error) {
		t.Errorf("the replay dialled %s", addr)
		return nil, errors.New("no connection in a replay")
	}
	// check follows u live and from its record, and returns the live
	// outcome and the APDUs sent and received.
	check := func(u string) (outcome, [][]byte, [][]byte) {
		t.Helper()
		m := &memArchive{}
		live := fetchOutcome(t, &access.Client{Recorder: m}, u)
		rec, ok := m.recs[u]
		if !ok || m.n != 1 {
			t.Fatalf("%s: %d records, none of the URL (%v)", u, m.n, live.err)
		}
		if rec.rec.Kind != access.RecordExchange || rec.rec.Protocol != "wais" || rec.rec.Addr != "127.0.0.1" || rec.rec.Truncated != "" {
			t.Errorf("%s: record %+v", u, rec.rec)
		}
		again := fetchOutcome(t, &access.Client{Archive: m, Dial: noDial}, u)
		sameOutcome(t, u, live, again)
		// The record cut short is a protocol error, as a reply cut
		// short is live.
		cut := &memArchive{recs: map[string]stored{u: rec}}
		r := cut.recs[u]
		r.resp = r.resp[:len(r.resp)/2]
		cut.recs[u] = r
		var pe *access.ProtocolError
		if o := fetchOutcome(t, &access.Client{Archive: cut, Dial: noDial}, u); !errors.As(o.err, &pe) {
			t.Errorf("%s: the record cut short gave %d entries, %d octets, %T %v", u, len(o.entries), len(o.body), o.err, o.err)
		}
		return live, apdus(t, rec.req), apdus(t, rec.resp)
	}
	initAPDU := (&wais.Init{MessageSize: wais.MaxMessage, ImplementationName: wais.Implementation, ImplementationVersion: "1"}).Encode()

	// A search: Init and the Search, as sent, octet for octet.
	o, sent, got := check(f.url("demo?protocol"))
	search := (&wais.Search{Database: "demo", SeedWords: "protocol", MaxDocs: wais.MaxDocuments}).Encode()
	if len(o.entries) != 4 || len(sent) != 2 || !bytes.Equal(sent[0], initAPDU) || !bytes.Equal(sent[1], search) || len(got) != 2 {
		t.Errorf("search: %d entries, %d APDUs sent (Init %v, Search %v), %d received", len(o.entries), len(sent),
			len(sent) > 0 && bytes.Equal(sent[0], initAPDU), len(sent) > 1 && bytes.Equal(sent[1], search), len(got))
	}
	// A document of three chunks: each chunk's octets are in a reply.
	var big string
	for _, e := range o.entries {
		if strings.HasPrefix(e.Name, "big.txt ") {
			big = e.URL
		}
	}
	o, sent, got = check(big)
	doc := f.docs["big.txt"]
	if !bytes.Equal(o.body, doc) || len(sent) != 4 || len(got) != 4 {
		t.Errorf("big.txt: %d octets of %d, %d APDUs sent, %d received", len(o.body), len(doc), len(sent), len(got))
	}
	for i := 0; i < len(doc); i += wais.ChunkSize {
		if c := doc[i:min(i+wais.ChunkSize, len(doc))]; len(got) == 4 && !bytes.Contains(got[1+i/wais.ChunkSize], c) {
			t.Errorf("big.txt: the reply of chunk %d does not hold its octets", i/wais.ChunkSize)
		}
	}
	// The source description: a search, then its WSRC document.
	if o, _, _ = check(f.url("demo")); !strings.Contains(string(o.body), "(:source") {
		t.Errorf("source description %q", o.body)
	}
}
