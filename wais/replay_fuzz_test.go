package wais

import (
	"bytes"
	"context"
	"testing"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/internal/loctest"
)

// FuzzReplay: a recorded WAIS exchange, garbage or cut short, is read by
// the same steps as a live connection (Init, the search, the chunks of
// a document) and fails only as a live one does: a *ProtocolError for
// what is not a reply APDU, the server's diagnostic as a *ServerError,
// the limits' errors; never a panic.
//
//	go test -run '^$' -fuzz FuzzReplay -fuzztime 5m ./wais/
func FuzzReplay(f *testing.F) {
	doc, err := (&URL{Host: "h", Database: "demo", WType: "TEXT", WPath: "\x01\x02id", HasDoc: true}).Build()
	if err != nil {
		f.Fatal(err)
	}
	urls := []string{"wais://h/demo?protocol", doc, "wais://h/demo"}
	msg := func(apdus ...[]byte) []byte {
		var b []byte
		for _, a := range apdus {
			b = appendHeader(b, len(a))
			b = append(b, a...)
		}
		return b
	}
	var h encoder
	h.bytes(tagDocumentID, []byte("\x01\x02id"))
	h.num(tagScore, 99)
	var types encoder
	types.str(tagType, "WSRC")
	h.bytes(tagTypeBlock, types.b)
	h.str(tagHeadline, "demo source")
	var elems encoder
	elems.bytes(tagDocumentHeaderGroup, h.b)
	seeds := [][]byte{
		msg(initResponse(true, 100000), searchResponse(1, elems.b)),
		msg(initResponse(true, 100000), searchResponse(1, textGroup([]byte("\x01\x02id"), []byte("short text")))),
		msg(initResponse(true, 5000), searchResponse(1, diagRecord("SF", "Request out of range"))),
		msg(initResponse(true, 100000), searchResponse(1, elems.b), searchResponse(1, textGroup([]byte("\x01\x02id"), []byte("(:source)")))),
		msg(initResponse(false, 5000)),
		msg(initResponse(true, 100000))[:30], nil,
	}
	for i, s := range seeds {
		for k := range urls {
			f.Add(uint8(i*len(urls)+k), s)
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		u, err := locator.Parse(urls[int(which)%len(urls)])
		if err != nil {
			t.Fatal(err)
		}
		req := &access.Request{Client: &access.Client{MaxEntries: 64, MaxLine: 512, MaxSize: 1 << 16}, URL: u}
		res, err := new(Client).Replay(context.Background(), u, req, bytes.NewReader(data))
		loctest.ReadReplay(t, res, err, false)
	})
}
