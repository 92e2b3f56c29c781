package wais

// Fuzz targets for every reader of the client: the message header, the
// initRequest-Response and Search-Response APDUs (with the WAIS user
// information: document headers, texts, diagnostic records), the docid,
// and the document path (wpath) codec. None may panic; each checks what
// it can of its result.
//
//	go test -run '^$' -fuzz FuzzParseSearchResponse -fuzztime 5m -parallel 1 ./wais/

import (
	"bytes"
	"strings"
	"testing"
)

func FuzzParseHeader(f *testing.F) {
	f.Add([]byte("0000000148z2wais        0"))
	f.Add([]byte("       148Z2DowQuest    x"))
	f.Add([]byte("9999999999z2wais      u 0"))
	f.Fuzz(func(t *testing.T, b []byte) {
		h, err := parseHeader(b)
		if err != nil {
			return
		}
		if h.Length < 0 || h.Length > 9999999999 || h.Type != msgZ3950 {
			t.Fatalf("%q: %+v", b, h)
		}
		back, err := parseHeader(appendHeader(nil, int(h.Length)))
		if err != nil || back.Length != h.Length {
			t.Fatalf("%q: length %d does not round-trip: %+v %v", b, h.Length, back, err)
		}
	})
}

func FuzzParseInitResponse(f *testing.F) {
	f.Add(initResponse(true, 100000))
	f.Add(initResponse(false, 5000))
	f.Add([]byte{0, 1, pduInitResponse})
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := parseInitResponse(b)
		if err == nil && (r.MaximumRecordSize < -1 || r.PreferredMessageSize < -1) {
			t.Fatalf("%q: %+v", b, r)
		}
	})
}

func FuzzParseSearchResponse(f *testing.F) {
	var h encoder
	h.bytes(tagDocumentID, []byte("\x01\x02id"))
	h.num(tagScore, 99)
	var types encoder
	types.str(tagType, "TEXT")
	h.bytes(tagTypeBlock, types.b)
	h.str(tagHeadline, "\x1b(x\x1b) y")
	var elems encoder
	elems.bytes(tagDocumentHeaderGroup, h.b)
	f.Add(searchResponse(1, elems.b))
	f.Add(searchResponse(1, textGroup([]byte("id"), []byte("text"))))
	f.Add(searchResponse(1, diagRecord("SF", "Request out of range")))
	f.Add(searchResponse(0, nil))
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := parseSearchResponse(b)
		if err != nil {
			return
		}
		n := 0
		for _, h := range r.Headers {
			n += len(h.DocID) + len(h.Headline)
			if h.Score < -1 || h.DocumentLength < -1 {
				t.Fatalf("%q: header %+v", b, h)
			}
			headline(h.Headline)
		}
		for _, x := range r.Texts {
			n += len(x.Text)
		}
		if n > len(b) {
			t.Fatalf("%q: %d octets read out of %d", b, n, len(b))
		}
		for _, d := range r.Diagnostics {
			if len(d.Code) != 2 {
				t.Fatalf("%q: diagnostic %+v", b, d)
			}
		}
	})
}

func FuzzParseDocID(f *testing.F) {
	f.Add([]byte("\x01\x08vm:21210\x03\x05a b;c\x07\x01\x00"))
	f.Add([]byte("\x81"))
	f.Fuzz(func(t *testing.T, b []byte) {
		es, err := parseDocID(b)
		if err != nil {
			return
		}
		// The elements written again are the docid.
		var e encoder
		for _, x := range es {
			e.bytes(x.Tag, x.Value)
		}
		if len(e.b) > len(b) {
			t.Fatalf("%q: %d elements rewrite to %d octets", b, len(es), len(e.b))
		}
	})
}

func FuzzParseDocPath(f *testing.F) {
	f.Add("demo/TEXT/%01%02vm%03%05a%20b%3Bc")
	f.Add("demo/TEXT/75/1=vm;3=a%20b%3Bc;")
	f.Add("demo/TEXT/1=vm;")
	f.Add("demo//x")
	f.Add("d/T/%zz")
	f.Fuzz(func(t *testing.T, path string) {
		r, err := ParseDocPath(path)
		if err != nil {
			return
		}
		if r.Type == "" || r.Form == "" {
			t.Fatalf("%q: %+v", path, r)
		}
		// Build writes the docid in RFC 1738's opaque form, which reads
		// back as the same octets.
		s, err := (&URL{Host: "h", Database: r.Database, WType: r.Type, WPath: string(r.DocID), HasDoc: true}).Build()
		if err != nil {
			return
		}
		back, err := ParseDocPath(strings.SplitN(s, "/", 4)[3])
		if err != nil || !bytes.Equal(back.DocID, r.DocID) || back.Form != FormOpaque || back.Database != r.Database || back.Type != r.Type {
			t.Fatalf("%q → %s → %+v %v", path, s, back, err)
		}
	})
}
