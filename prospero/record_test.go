package prospero_test

// Archiving against dirsrv: a Prospero Get is kept as its exchange of
// Prospero messages (above ARDP), and read back into what the live
// fetch gave.

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/internal/loctest"
	"github.com/rfc1738/locator/prospero"
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
	check := func(u string, follow bool, records int, want ...string) (outcome, stored) {
		t.Helper()
		m := &memArchive{}
		var dlg bytes.Buffer
		schemes := map[string]access.Fetcher{"prospero": &prospero.Client{Follow: follow}}
		live := fetchOutcome(t, &access.Client{Recorder: m, Dialogue: &dlg, IdleTimeout: 20 * time.Second, Schemes: schemes}, u)
		rec, ok := m.recs[u]
		if !ok || m.n != records {
			t.Fatalf("%s: %d records, want %d, of the URL %v (%v)", u, m.n, records, ok, live.err)
		}
		if rec.rec.Kind != access.RecordExchange || rec.rec.Protocol != "prospero" || rec.rec.Addr != "127.0.0.1" {
			t.Errorf("%s: record %+v", u, rec.rec)
		}
		var sent strings.Builder
		for _, l := range strings.SplitAfter(dlg.String(), "\n") {
			if x, ok := strings.CutPrefix(l, "> "); ok && records == 1 {
				sent.WriteString(x)
			}
		}
		if records == 1 && string(rec.req) != sent.String() {
			t.Errorf("%s: request recorded %q, the dialogue says %q", u, rec.req, sent.String())
		}
		for _, w := range want {
			if !strings.Contains(string(rec.req), w) {
				t.Errorf("%s: request recorded %q does not hold %q", u, rec.req, w)
			}
		}
		again := fetchOutcome(t, &access.Client{Archive: m, Dial: noDial, Schemes: schemes}, u)
		sameOutcome(t, u, live, again)
		return live, rec
	}
	o, rec := check(s.url(tree), false, 1, "VERSION\nVERSION 5\nAUTHENTICATE '' UNAUTHENTICATED ", "\nDIRECTORY ASCII '"+tree+"'\nLIST ATTRIBUTES+LEXPAND COMPONENTS\n")
	if len(o.entries) != 3 || !bytes.Contains(rec.resp, []byte("\nLINK  L EXTERNAL README-ftp INTERNET-D ftp.example.org ASCII '/pub/README' 0\n")) || !bytes.HasPrefix(rec.resp, []byte("VERSION 5 ")) {
		t.Errorf("directory: %d entries, reply recorded %q", len(o.entries), rec.resp)
	}
	// A file: LIST's FAILURE NOT-A-DIRECTORY, then GET-OBJECT-INFO, both
	// in one record, and both replies read back in turn.
	o, rec = check(s.url(tree+"/readme.txt"), false, 1, "\nLIST ATTRIBUTES+LEXPAND COMPONENTS\n", "\nGET-OBJECT-INFO #ALL ASCII '"+tree+"/readme.txt' 0\n")
	if len(o.entries) != 2 || !bytes.Contains(rec.resp, []byte("NOT-A-DIRECTORY")) {
		t.Errorf("file: %d entries, reply recorded %q", len(o.entries), rec.resp)
	}
	if o, _ = check(s.url(tree+"/readme.txt"), true, 1); o.err == nil {
		t.Errorf("follow LOCAL: no error")
	}
	var se *access.ServerError
	if o, _ = check(s.url(tree+"/nothing-here"), false, 1); !errors.As(o.err, &se) || se.Code != "NOT-FOUND" {
		t.Errorf("missing directory: %v", o.err)
	}
	// A link to a Prospero object redirects: two records, the link's
	// and the object's, replayed as followed.
	if o, _ = check(s.url(tree, "NAME-COMPONENT=docs"), false, 2); o.err != nil || len(o.entries) != 1 {
		t.Errorf("docs: %+v %v", o.entries, o.err)
	}
}
