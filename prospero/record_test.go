package prospero_test

// Archiving against dirsrv: a Prospero Get is kept as its exchange of
// Prospero messages (above ARDP), and read back into what the live
// fetch gave.

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
	"github.com/rfc1738/locator/internal/loctest"
	"github.com/rfc1738/locator/prospero"
)

func TestRecordDirsrv(t *testing.T) {
	r := fixture(t, readmeLink)
	s := startDirsrv(t, r)
	tree := filepath.Join(r, "info-tree")
	noDial := func(ctx context.Context, network, addr string) (net.Conn, error) {
		t.Errorf("the replay dialled %s", addr)
		return nil, errors.New("no connection in a replay")
	}
	// check follows u live and from its records, and returns the live
	// outcome and u's record; the request recorded is the lines the
	// dialogue says were sent, each ending in LF, and holds each of
	// want.
	check := func(u string, follow bool, records int, want ...string) (loctest.Outcome, loctest.Kept) {
		t.Helper()
		m := &loctest.Archive{}
		var dlg bytes.Buffer
		schemes := map[string]access.Fetcher{"prospero": &prospero.Client{Follow: follow}}
		live := loctest.GetOutcome(t, &access.Client{Recorder: m, Dialogue: &dlg, IdleTimeout: 20 * time.Second, Schemes: schemes}, u)
		rec, ok := m.Latest(u)
		if !ok || len(m.Records()) != records {
			t.Fatalf("%s: %d records, want %d, of the URL %v (%v)", u, len(m.Records()), records, ok, live.Err)
		}
		if rec.Record.Kind != access.RecordExchange || rec.Record.Protocol != "prospero" || rec.Record.Addr != "127.0.0.1" {
			t.Errorf("%s: record %+v", u, rec.Record)
		}
		var sent strings.Builder
		for _, l := range strings.SplitAfter(dlg.String(), "\n") {
			if x, ok := strings.CutPrefix(l, "> "); ok && records == 1 {
				sent.WriteString(x)
			}
		}
		if records == 1 && string(rec.Request) != sent.String() {
			t.Errorf("%s: request recorded %q, the dialogue says %q", u, rec.Request, sent.String())
		}
		for _, w := range want {
			if !strings.Contains(string(rec.Request), w) {
				t.Errorf("%s: request recorded %q does not hold %q", u, rec.Request, w)
			}
		}
		again := loctest.GetOutcome(t, &access.Client{Archive: m, Dial: noDial, Schemes: schemes}, u)
		loctest.SameOutcome(t, u, live, again)
		return live, rec
	}
	o, rec := check(s.url(tree), false, 1, "VERSION\nVERSION 5\nAUTHENTICATE '' UNAUTHENTICATED ", "\nDIRECTORY ASCII '"+tree+"'\nLIST ATTRIBUTES+LEXPAND COMPONENTS\n")
	if len(o.Entries) != 3 || !bytes.Contains(rec.Response, []byte("\nLINK  L EXTERNAL README-ftp INTERNET-D ftp.example.org ASCII '/pub/README' 0\n")) || !bytes.HasPrefix(rec.Response, []byte("VERSION 5 ")) {
		t.Errorf("directory: %d entries, reply recorded %q", len(o.Entries), rec.Response)
	}
	// A file: LIST's FAILURE NOT-A-DIRECTORY, then GET-OBJECT-INFO, both
	// in one record, and both replies read back in turn.
	o, rec = check(s.url(tree+"/readme.txt"), false, 1, "\nLIST ATTRIBUTES+LEXPAND COMPONENTS\n", "\nGET-OBJECT-INFO #ALL ASCII '"+tree+"/readme.txt' 0\n")
	if len(o.Entries) != 2 || !bytes.Contains(rec.Response, []byte("NOT-A-DIRECTORY")) {
		t.Errorf("file: %d entries, reply recorded %q", len(o.Entries), rec.Response)
	}
	if o, _ = check(s.url(tree+"/readme.txt"), true, 1); o.Err == nil {
		t.Errorf("follow LOCAL: no error")
	}
	var se *access.ServerError
	if o, _ = check(s.url(tree+"/nothing-here"), false, 1); !errors.As(o.Err, &se) || se.Code != "NOT-FOUND" {
		t.Errorf("missing directory: %v", o.Err)
	}
	// A link to a Prospero object redirects: two records, the link's
	// and the object's, replayed as followed.
	if o, _ = check(s.url(tree, "NAME-COMPONENT=docs"), false, 2); o.Err != nil || len(o.Entries) != 1 {
		t.Errorf("docs: %+v %v", o.Entries, o.Err)
	}
}
