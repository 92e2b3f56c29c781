package wais

// Failure paths of the client, against small hostile listeners on
// loopback (the real server's behaviour is in peer_test.go): a server
// that stops answering, malformed and oversized replies. Each case says
// the outcome access gives it (access.Failed for a network or protocol
// failure, access.Absent for the server's "no").

import (
	"bytes"
	"context"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/internal/peer"
)

// hostile serves each connection with handle (peer.Hostile) until the
// test ends.
func hostile(t *testing.T, handle func(c net.Conn)) string {
	return peer.Hostile(t, handle)
}

// readRequest reads one message (header and APDU) from c.
func readRequest(c net.Conn) ([]byte, error) {
	var h [headerLen]byte
	if _, err := io.ReadFull(c, h[:]); err != nil {
		return nil, err
	}
	hd, err := parseHeader(h[:])
	if err != nil {
		return nil, err
	}
	b := make([]byte, hd.Length)
	_, err = io.ReadFull(c, b)
	return b, err
}

func message(apdu []byte) []byte { return append(appendHeader(nil, len(apdu)), apdu...) }

// initResponse is an Init-Response APDU as freeWAIS writes one (zprot.c
// writeInitResponseAPDU).
func initResponse(accept bool, recordSize int64) []byte {
	var e encoder
	e.fixed(pduInitResponse, 1)
	if accept {
		e.fixed(1, 1)
	} else {
		e.fixed(0, 1)
	}
	e.bytes(tagProtocolVersion, []byte{0x80})
	e.bytes(tagOptions, []byte{0x80})
	e.num(tagPreferredMessageSize, recordSize)
	e.num(tagMaximumRecordSize, recordSize)
	e.str(tagImplementationName, "hostile")
	return apdu(e.b, nil)
}

// searchResponse writes a Search-Response APDU with the WAIS user
// information elems (wprot.c writeSearchResponseInfo).
func searchResponse(records int64, elems []byte) []byte {
	var e encoder
	e.fixed(pduSearchResponse, 1)
	e.fixed(0, 1)
	e.fixed(0, 3)
	e.fixed(records, 3)
	e.fixed(0, 3)
	e.num(tagPresentStatus, 0)
	var u encoder
	u.bytes(tagUserInformationLength, elems)
	return apdu(e.b, u.b)
}

func textGroup(docID, text []byte) []byte {
	var g, e encoder
	g.bytes(tagDocumentID, docID)
	g.num(tagVersionNumber, 0)
	g.bytes(tagDocumentText, text)
	e.bytes(tagDocumentTextGroup, g.b)
	return e.b
}

func diagRecord(code, info string) []byte {
	var e encoder
	e.compressed(tagDiagnosticRecord)
	e.fixed(int64(3+len(info)), 2)
	e.b = append(e.b, code...)
	e.b = append(e.b, info...)
	e.b = append(e.b, 1, 0x1d)
	return e.b
}

// afterInit answers the Init and then runs rest.
func afterInit(recordSize int64, rest func(c net.Conn)) func(net.Conn) {
	return func(c net.Conn) {
		if _, err := readRequest(c); err != nil {
			return
		}
		c.Write(message(initResponse(true, recordSize)))
		rest(c)
	}
}

// fetch follows raw with idle as the idle timeout (0: 10 seconds).
func fetch(t *testing.T, raw string, idle time.Duration) (*access.Resource, error) {
	t.Helper()
	u, err := locator.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	if idle == 0 {
		idle = 10 * time.Second
	}
	res, err := (&access.Client{IdleTimeout: idle}).Get(context.Background(), u)
	return res, listingErr(res, err)
}

const doc = "demo/TEXT/%01%02id"

func TestFailurePaths(t *testing.T) {
	stall := func(c net.Conn) { io.Copy(io.Discard, c) }
	cases := []struct {
		name    string
		path    string
		handle  func(net.Conn)
		idle    time.Duration
		want    access.Outcome
		timeout bool
		msg     string // in the error's text
	}{
		{"silent before the Init-Response", "demo?x", stall, 200 * time.Millisecond, access.Failed, true, "header"},
		{"silent after the Init", "demo?x", afterInit(100000, stall), 200 * time.Millisecond, access.Failed, true, "Search"},
		{"silent in the middle of a chunk", doc, afterInit(100000, func(c net.Conn) {
			readRequest(c)
			m := message(searchResponse(1, textGroup([]byte("\x01\x02id"), []byte("abc"))))
			c.Write(m[:len(m)-2])
			io.Copy(io.Discard, c)
		}), 200 * time.Millisecond, access.Failed, true, "octets"},
		{"header length not digits", "demo?x", func(c net.Conn) {
			readRequest(c)
			c.Write([]byte("00000x0099z2wais        0"))
		}, 0, access.Failed, false, "offset 5"},
		{"header of an ACK", "demo?x", func(c net.Conn) {
			readRequest(c)
			c.Write([]byte("0000000000a2wais        0"))
		}, 0, access.Failed, false, "msg_type"},
		{"oversized reply", "demo?x", func(c net.Conn) {
			readRequest(c)
			c.Write([]byte("9999999999z2wais        0"))
			io.Copy(io.Discard, c)
		}, 0, access.Failed, false, "more than the 1048576"},
		{"closed in the middle of a reply", "demo?x", func(c net.Conn) {
			readRequest(c)
			c.Write([]byte("0000000100z2wais        0abc"))
		}, 0, access.Failed, false, "closed the connection"},
		{"wrong PDU type", "demo?x", func(c net.Conn) {
			readRequest(c)
			c.Write(message([]byte{0, 1, pduSearchResponse}))
		}, 0, access.Failed, false, "PDU-Type 23, expected 21"},
		{"Header-Length-Indicator past the end", "demo?x", func(c net.Conn) {
			readRequest(c)
			c.Write(message([]byte{0, 9, pduInitResponse, 1}))
		}, 0, access.Failed, false, "Header-Length-Indicator 9"},
		{"Init rejected", "demo?x", func(c net.Conn) {
			readRequest(c)
			c.Write(message(initResponse(false, 100000)))
		}, 0, access.Absent, false, "declined"},
		{"search answered by a diagnostic", "demo?x", afterInit(100000, func(c net.Conn) {
			readRequest(c)
			c.Write(message(searchResponse(1, diagRecord("S1", "The following database is not available: demo"))))
		}), 0, access.Absent, false, "S1"},
		{"element cut short in a search response", "demo?x", afterInit(100000, func(c net.Conn) {
			readRequest(c)
			c.Write(message(searchResponse(1, []byte{0x81, 0x16, 0x10, 0x74, 0x20, 'x'})))
		}), 0, access.Failed, false, "element 150 declares 16 octets, 3 are left"},
		{"more text than the chunk asked for", doc, afterInit(5000, func(c net.Conn) {
			readRequest(c)
			// A record size of 5000 makes the chunk 904 octets.
			c.Write(message(searchResponse(1, textGroup([]byte("\x01\x02id"), []byte(strings.Repeat("x", 905))))))
		}), 0, access.Failed, false, "905 octets of text for a chunk of 904"},
		{"text reply larger than a chunk's message", doc, afterInit(5000, func(c net.Conn) {
			readRequest(c)
			c.Write([]byte("0000100000z2wais        0"))
			io.Copy(io.Discard, c)
		}), 0, access.Failed, false, "more than the"},
		{"document absent", doc, afterInit(100000, func(c net.Conn) {
			readRequest(c)
			c.Write(message(searchResponse(1, diagRecord("SF", "Missing DocID in request"))))
		}), 0, access.Absent, false, "Missing DocID"},
		{"neither text nor diagnostic", doc, afterInit(100000, func(c net.Conn) {
			readRequest(c)
			c.Write(message(searchResponse(0, nil)))
		}), 0, access.Failed, false, "neither"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			addr := hostile(t, tc.handle)
			res, err := fetch(t, "wais://"+addr+"/"+tc.path, tc.idle)
			if err == nil && res.Body != nil {
				_, err = io.ReadAll(res.Body)
				res.Close()
			}
			if err == nil {
				t.Fatalf("no error; want outcome %d", tc.want)
			}
			if got := access.Classify(err); got != tc.want {
				t.Errorf("outcome %d, want %d: %v", got, tc.want, err)
			}
			if access.Timeout(err) != tc.timeout {
				t.Errorf("Timeout(%v) = %v, want %v", err, !tc.timeout, tc.timeout)
			}
			if !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("error %q does not say %q", err, tc.msg)
			}
		})
	}
}

// The docid of a document URL goes to the server octet for octet, and a
// document that ends exactly at a chunk's end ends with the server's
// out-of-range diagnostic (freeWAIS irretrvl.c getData).
func TestRetrievalEcho(t *testing.T) {
	id := []byte("\x01\x08vm:21210\x03\x220 75 /d/gopher.txt\x07\x01\x00")
	var got [][]byte
	addr := hostile(t, afterInit(5000, func(c net.Conn) {
		for k := 0; ; k++ {
			req, err := readRequest(c)
			if err != nil {
				return
			}
			got = append(got, req)
			if k == 0 {
				c.Write(message(searchResponse(1, textGroup(id, []byte(strings.Repeat("a", 904))))))
				continue
			}
			c.Write(message(searchResponse(1, diagRecord("SF", "Request out of range"))))
		}
	}))
	w := &URL{Host: "127.0.0.1", Port: addr[strings.LastIndexByte(addr, ':')+1:], Database: "demo", WType: "TEXT", WPath: string(id), HasDoc: true}
	raw, err := w.Build()
	if err != nil {
		t.Fatal(err)
	}
	res, err := fetch(t, raw, 0)
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(res.Body)
	res.Close()
	if err != nil || len(body) != 904 {
		t.Fatalf("%d octets, %v", len(body), err)
	}
	if len(got) != 2 {
		t.Fatalf("%d retrievals, want 2", len(got))
	}
	for i, req := range got {
		want := (&Search{Database: "demo", Retrieve: true, DocID: id, DocType: "TEXT", Start: int64(904 * i), End: int64(904 * (i + 1))}).Encode()
		if string(req) != string(want) {
			t.Errorf("retrieval %d:\n got %q\nwant %q", i, req, want)
		}
		if !bytes.Contains(req, append([]byte{tagTerm, byte(len(id))}, id...)) {
			t.Errorf("retrieval %d does not carry the docid verbatim: %q", i, req)
		}
	}
}

// An OffsetError names the offset, says the document ends before it, and
// quotes the server's diagnostic; the server's text is made printable.
func TestOffsetErrorMessage(t *testing.T) {
	for _, x := range []struct {
		e    *OffsetError
		want string
	}{
		{&OffsetError{URL: "wais://h/db/TEXT/d", Offset: 70599, Command: `retrieve "TEXT" bytes 70598-70599`, Code: "SF", Text: "Request out of range"},
			`wais://h/db/TEXT/d: cannot resume at octet 70599: the document ends before it: the server answers "retrieve \"TEXT\" bytes 70598-70599" with diagnostic SF "Request out of range"`},
		{&OffsetError{URL: "wais://h/db/TEXT/d", Offset: 9, Command: `retrieve "TEXT" bytes 8-9`},
			`wais://h/db/TEXT/d: cannot resume at octet 9: the document ends before it: the server sends no octet for "retrieve \"TEXT\" bytes 8-9"`},
		{&OffsetError{URL: "wais://h/db/TEXT/d", Offset: 2, Command: `retrieve "TEXT" bytes 1-2`, Code: "S\x1b", Text: "x"},
			`wais://h/db/TEXT/d: cannot resume at octet 2: the document ends before it: the server answers "retrieve \"TEXT\" bytes 1-2" with diagnostic S\x1b "x"`},
	} {
		if got := x.e.Error(); got != x.want {
			t.Errorf("got  %q\nwant %q", got, x.want)
		}
	}
}
