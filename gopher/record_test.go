package gopher_test

// Archiving against the real servers: what a recording Client keeps of a
// gopher exchange is the request line as sent and the reply's octets as
// received, and a Client that follows the archive instead of the network
// reads them back into what the live fetch gave.

import (
	"bytes"
	"context"
	"errors"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/gopher"
	"github.com/rfc1738/locator/internal/loctest"
	"github.com/rfc1738/locator/internal/peer"
)

// recordReplay follows s live, with the request's own values o (nil:
// none), and a recorder, checks the record
// (one, of protocol "gopher" from 127.0.0.1, its request wantReq, its
// response wantResp unless that is nil), then follows s from the record
// and checks that the replay gives what the live fetch gave. It returns
// the live outcome and the recorded response.
func recordReplay(t *testing.T, s string, o *access.Options, wantReq string, wantResp []byte) (loctest.Outcome, []byte) {
	t.Helper()
	g := &gopher.Client{}
	m := &loctest.Archive{}
	var log bytes.Buffer
	live := loctest.DoOutcome(t, &access.Client{Recorder: m, Dialogue: &log, IdleTimeout: 20 * time.Second, Schemes: map[string]access.Fetcher{"gopher": g}}, s, o)
	rec, ok := m.Latest(s)
	if !ok || len(m.Records()) != 1 {
		t.Fatalf("%s: %d records, none of the URL (live: %v)\n%s", s, len(m.Records()), live.Err, log.String())
	}
	if rec.Record.Kind != access.RecordExchange || rec.Record.Protocol != "gopher" || rec.Record.Addr != "127.0.0.1" || rec.Record.Date.IsZero() {
		t.Errorf("%s: record %+v", s, rec.Record)
	}
	if string(rec.Request) != wantReq {
		t.Errorf("%s: request recorded %q, sent %q", s, rec.Request, wantReq)
	}
	if wantResp != nil && !bytes.Equal(rec.Response, wantResp) {
		t.Errorf("%s: response recorded %q, want %q", s, rec.Response, wantResp)
	}
	var replayLog bytes.Buffer
	ac := &access.Client{Archive: m, Dialogue: &replayLog, Schemes: map[string]access.Fetcher{"gopher": g},
		Dial: func(ctx context.Context, network, addr string) (net.Conn, error) {
			t.Errorf("%s: the replay dialled %s", s, addr)
			return nil, errors.New("no connection in a replay")
		}}
	again := loctest.DoOutcome(t, ac, s, o)
	loctest.SameOutcome(t, s, live, again)
	return live, rec.Response
}

func TestRecordPygopherd(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, "hello.txt"), "Hello from gopher\n", 0o644)
	write(t, filepath.Join(root, "hello.txt.abstract"), "This is an abstract for hello\n", 0o644)
	write(t, filepath.Join(root, "docs", "inner.txt"), "inner\n", 0o644)
	write(t, filepath.Join(root, "docs", "dots.txt"), "inner\n.\n..dots\n", 0o644)
	s := peer.Pygopherd(t, root)
	base := "gopher://" + s.Addr + "/"

	o, _ := recordReplay(t, base, nil, "\r\n", nil)
	if len(o.Entries) != 3 || o.Err != nil {
		t.Errorf("menu: %d entries, %v", len(o.Entries), o.Err)
	}
	recordReplay(t, base+"1%09%09+", nil, "\t+\r\n", nil)
	// pygopherd sends a file as it is on disk, Gopher0 and Gopher+ ("+18").
	o, _ = recordReplay(t, base+"0/hello.txt", nil, "/hello.txt\r\n", []byte("Hello from gopher\n"))
	if string(o.Body) != "Hello from gopher\n" {
		t.Errorf("text %q", o.Body)
	}
	recordReplay(t, base+"0/hello.txt%09%09+", nil, "/hello.txt\t+\r\n", []byte("+18\r\nHello from gopher\n"))
	o, _ = recordReplay(t, base+"0/hello.txt%09%09!", nil, "/hello.txt\t!\r\n", nil)
	if len(o.Entries) != 1 || o.Entries[0].Parts["abstract"] != "This is an abstract for hello" {
		t.Errorf("! attributes %+v", o.Entries)
	}
	o, _ = recordReplay(t, base+"1/docs%09%09$", nil, "/docs\t$\r\n", nil)
	if len(o.Entries) != 2 {
		t.Errorf("$: %d entries", len(o.Entries))
	}
	var se *access.ServerError
	if o, _ = recordReplay(t, base+"0/nonexist", nil, "/nonexist\r\n", nil); !errors.As(o.Err, &se) || se.Code != "3" {
		t.Errorf("type 3 reply: %v", o.Err)
	}
	if o, _ = recordReplay(t, base+"0/nonexist%09%09+", nil, "/nonexist\t+\r\n", nil); !errors.As(o.Err, &se) || se.Code != "1" {
		t.Errorf("--2 reply: %v", o.Err)
	}
	// The lone "." pygopherd does not stuff is text, live and replayed.
	if o, _ = recordReplay(t, base+"0/docs/dots.txt", nil, "/docs/dots.txt\r\n", []byte("inner\n.\n..dots\n")); string(o.Body) != "inner\n.\n..dots\n" || o.Err != nil {
		t.Errorf("unstuffed lone dot: %q, %v", o.Body, o.Err)
	}
}

func TestRecordGophernicus(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, "hello.txt"), "Hello\nworld\n", 0o644)
	blob := make([]byte, 100000)
	for i := range blob {
		blob[i] = byte(i*13 + i/253)
	}
	write(t, filepath.Join(root, "blob.bin"), string(blob), 0o644)
	write(t, filepath.Join(root, "sub", "a.txt"), "a\n", 0o644)
	write(t, filepath.Join(root, "cgi-bin", "find"), "#!/bin/sh\nprintf '0Result for %s\\t/r\\th\\t70\\r\\n' \"$SEARCHREQUEST\"\n", 0o755)
	s := peer.Gophernicus(t, root)
	base := "gopher://" + s.Addr + "/"

	o, menu := recordReplay(t, base, nil, "\r\n", nil)
	if len(o.Entries) != 4 || !bytes.HasSuffix(menu, []byte("\r\n.\r\n")) {
		t.Errorf("menu: %d entries, %v; recorded %q", len(o.Entries), o.Err, menu)
	}
	o, _ = recordReplay(t, base+"1/sub/", nil, "/sub/\r\n", nil)
	if len(o.Entries) != 2 || o.Entries[1].URL != base+"0/sub/a.txt" {
		t.Errorf("sub (the parent and a.txt): %+v", o.Entries)
	}
	// Text with its line ends as gophernicus writes them; a binary item
	// exactly the file's octets.
	if o, _ = recordReplay(t, base+"0/hello.txt", nil, "/hello.txt\r\n", []byte("Hello\r\nworld\r\n")); string(o.Body) != "Hello\r\nworld\r\n" {
		t.Errorf("text %q", o.Body)
	}
	if o, _ = recordReplay(t, base+"9/blob.bin", nil, "/blob.bin\r\n", blob); !bytes.Equal(o.Body, blob) {
		t.Errorf("binary: %d octets", len(o.Body))
	}
	// A search: selector TAB words.
	if o, _ = recordReplay(t, base+"7/cgi-bin/find%09hello%20world", nil, "/cgi-bin/find\thello world\r\n", nil); len(o.Entries) != 1 || o.Entries[0].Name != "Result for hello world" {
		t.Errorf("search: %+v %v", o.Entries, o.Err)
	}
	// gophernicus's error is a text, delivered as it was live.
	if o, _ = recordReplay(t, base+"0/nonexistent.txt", nil, "/nonexistent.txt\r\n", nil); !strings.HasPrefix(string(o.Body), "Error: File or directory not found!") {
		t.Errorf("missing file %q", o.Body)
	}
	// It speaks no Gopher+: an attribute request's reply is refused, live and replayed.
	if o, _ = recordReplay(t, base+"0/hello.txt%09%09!", nil, "/hello.txt\t!\r\n", nil); o.Err == nil {
		t.Errorf("! to a Gopher0 server: no error")
	}
}

func TestRecordUMNGopherd(t *testing.T) {
	s, blob := startUMN(t)
	base := "gopher://" + s.Addr + "/"
	const hello = "Hello from UMN gopherd.\nSecond line.\n"

	o, _ := recordReplay(t, base, nil, "\r\n", nil)
	if len(o.Entries) != 6 {
		t.Errorf("menu: %d entries", len(o.Entries))
	}
	// Gopher+ items: the reply's "+N" header line is kept in the record.
	o, resp := recordReplay(t, base+"00/hello.txt%09%09+", nil, "0/hello.txt\t+\r\n", nil)
	if string(o.Body) != hello || !strings.HasPrefix(string(resp), "+37\r\n"+hello) {
		t.Errorf("Gopher+ text %q, recorded %q", o.Body, resp)
	}
	o, resp = recordReplay(t, base+"99/blob.dat%09%09+", nil, "9/blob.dat\t+\r\n", nil)
	if !bytes.Equal(o.Body, blob) || !bytes.HasPrefix(resp, append([]byte("+256\r\n"), blob...)) {
		t.Errorf("Gopher+ binary: %d octets, recorded %q", len(o.Body), resp[:min(len(resp), 8)])
	}
	// Cut short, the Gopher+ reply is shorter than its "+256" says: a
	// protocol error, as it is live.
	cut := &loctest.Archive{}
	cut.Add(loctest.Kept{Record: access.Record{Kind: access.RecordExchange, URL: loctest.MustParse(t, base+"99/blob.dat%09%09+"), Protocol: "gopher"}, Response: resp[:len(resp)/2]})
	var pe *access.ProtocolError
	if o = loctest.GetOutcome(t, &access.Client{Archive: cut}, base+"99/blob.dat%09%09+"); !errors.As(o.Err, &pe) {
		t.Errorf("Gopher+ binary cut short: %d octets, %T %v", len(o.Body), o.Err, o.Err)
	}
	// Gopher0 text: UMN's "." line is in the record, not in the body.
	if o, resp = recordReplay(t, base+"00/hello.txt", nil, "0/hello.txt\r\n", nil); string(o.Body) != hello || !strings.HasSuffix(string(resp), ".\r\n") {
		t.Errorf("Gopher0 text %q, recorded %q", o.Body, resp)
	}
	recordReplay(t, base+"99/gen.dat%09%09+", nil, "9/gen.dat\t+\r\n", nil)
	if o, _ = recordReplay(t, base+"1%09%09$", nil, "\t$\r\n", nil); len(o.Entries) != 6 {
		t.Errorf("$: %d entries", len(o.Entries))
	}
	if o, _ = recordReplay(t, base+"00/hello.txt%09%09!", nil, "0/hello.txt\t!\r\n", nil); len(o.Entries) != 1 {
		t.Errorf("!: %d entries", len(o.Entries))
	}
	recordReplay(t, base+"11/subdir", &access.Options{View: "application/gopher+-menu"}, "1/subdir\t+application/gopher+-menu\r\n", nil)
	var se *access.ServerError
	if o, _ = recordReplay(t, base+"00/nonexistent", nil, "0/nonexistent\r\n", nil); !errors.As(o.Err, &se) || se.Code != "3" {
		t.Errorf("Gopher0 missing item: %v", o.Err)
	}
	if o, _ = recordReplay(t, base+"00/nonexistent%09%09+", nil, "0/nonexistent\t+\r\n", nil); !errors.As(o.Err, &se) || se.Code != "1" {
		t.Errorf("Gopher+ missing item: %v", o.Err)
	}
	// An ASK form: the record is the filled form's exchange, the
	// password's line masked as in the dialogue.
	answers := map[string]string{"Your name": "Alice", "Secret word": "sesame", "Subscribe?": "yes", "Colour": "green", "Comments": "one\ntwo"}
	o, resp = recordReplay(t, base+"00/form%09%09?", &access.Options{Answers: answers},
		"0/form\t+\t1\r\n+-1\r\nAlice\r\n****\r\n1\r\ngreen\r\n2\r\none\r\ntwo\r\n.\r\n", nil)
	if !strings.Contains(string(o.Body), "line 2: [sesame]") || !strings.Contains(string(resp), "line 2: [sesame]") {
		t.Errorf("form's reply %q", o.Body)
	}
}
