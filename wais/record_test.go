package wais_test

// Archiving against freeWAIS-sf: a WAIS Get is kept as the connection's
// exchange, every APDU behind its header as sent and received, and read
// back into what the live fetch gave.

import (
	"bytes"
	"context"
	"errors"
	"net"
	"strings"
	"testing"

	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/internal/loctest"
	"github.com/rfc1738/locator/wais"
)

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
	check := func(u string) (loctest.Outcome, [][]byte, [][]byte) {
		t.Helper()
		m := &loctest.Archive{}
		live := loctest.GetOutcome(t, &access.Client{Recorder: m}, u)
		rec, ok := m.Latest(u)
		if !ok || len(m.Records()) != 1 {
			t.Fatalf("%s: %d records, none of the URL (%v)", u, len(m.Records()), live.Err)
		}
		if rec.Record.Kind != access.RecordExchange || rec.Record.Protocol != "wais" || rec.Record.Addr != "127.0.0.1" || rec.Record.Truncated != "" {
			t.Errorf("%s: record %+v", u, rec.Record)
		}
		again := loctest.GetOutcome(t, &access.Client{Archive: m, Dial: noDial}, u)
		loctest.SameOutcome(t, u, live, again)
		// The record cut short is a protocol error, as a reply cut
		// short is live.
		cut := &loctest.Archive{}
		r := rec
		r.Response = r.Response[:len(r.Response)/2]
		cut.Add(r)
		var pe *access.ProtocolError
		if o := loctest.GetOutcome(t, &access.Client{Archive: cut, Dial: noDial}, u); !errors.As(o.Err, &pe) {
			t.Errorf("%s: the record cut short gave %d entries, %d octets, %T %v", u, len(o.Entries), len(o.Body), o.Err, o.Err)
		}
		return live, apdus(t, rec.Request), apdus(t, rec.Response)
	}
	initAPDU := (&wais.Init{MessageSize: wais.MaxMessage, ImplementationName: wais.Implementation, ImplementationVersion: "1"}).Encode()

	// A search: Init and the Search, as sent, octet for octet.
	o, sent, got := check(f.url("demo?protocol"))
	search := (&wais.Search{Database: "demo", SeedWords: "protocol", MaxDocs: wais.MaxDocuments}).Encode()
	if len(o.Entries) != 4 || len(sent) != 2 || !bytes.Equal(sent[0], initAPDU) || !bytes.Equal(sent[1], search) || len(got) != 2 {
		t.Errorf("search: %d entries, %d APDUs sent (Init %v, Search %v), %d received", len(o.Entries), len(sent),
			len(sent) > 0 && bytes.Equal(sent[0], initAPDU), len(sent) > 1 && bytes.Equal(sent[1], search), len(got))
	}
	// A document of three chunks: each chunk's octets are in a reply.
	var big string
	for _, e := range o.Entries {
		if strings.HasPrefix(e.Name, "big.txt ") {
			big = e.URL
		}
	}
	o, sent, got = check(big)
	doc := f.docs["big.txt"]
	if !bytes.Equal(o.Body, doc) || len(sent) != 4 || len(got) != 4 {
		t.Errorf("big.txt: %d octets of %d, %d APDUs sent, %d received", len(o.Body), len(doc), len(sent), len(got))
	}
	for i := 0; i < len(doc); i += wais.ChunkSize {
		if c := doc[i:min(i+wais.ChunkSize, len(doc))]; len(got) == 4 && !bytes.Contains(got[1+i/wais.ChunkSize], c) {
			t.Errorf("big.txt: the reply of chunk %d does not hold its octets", i/wais.ChunkSize)
		}
	}
	// The source description: a search, then its WSRC document.
	if o, _, _ = check(f.url("demo")); !strings.Contains(string(o.Body), "(:source") {
		t.Errorf("source description %q", o.Body)
	}
}
