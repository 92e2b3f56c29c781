package file

// Archiving a file: its record is a resource, the file's octets, and
// a Client that follows the archive gives them back without opening
// the file.

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/internal/loctest"
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

func TestRecordFile(t *testing.T) {
	dir := t.TempDir()
	content := bytes.Repeat([]byte("octets\x00\r\n\xff"), 40000) // past access.SpoolMemory
	p := filepath.Join(dir, "data.bin")
	if err := os.WriteFile(p, content, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "page.html"), []byte("<p>hi</p>\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	m := &memArchive{}
	live := &access.Client{Recorder: m}
	for name, want := range map[string][]byte{"data.bin": content, "page.html": []byte("<p>hi</p>\n")} {
		u := "file://" + filepath.ToSlash(filepath.Join(dir, name))
		o := fetchOutcome(t, live, u)
		if o.err != nil || !bytes.Equal(o.body, want) {
			t.Fatalf("%s: %d octets, %v", u, len(o.body), o.err)
		}
		rec, ok := m.recs[u]
		if !ok {
			t.Fatalf("%s: no record", u)
		}
		if rec.rec.Kind != access.RecordResource || rec.rec.Protocol != "file" || rec.rec.Addr != "" || rec.rec.Request != nil || rec.rec.Truncated != "" || !bytes.Equal(rec.resp, want) {
			t.Errorf("%s: record %+v with %d octets", u, rec.rec, len(rec.resp))
		}
		// Replayed: the file's octets, even once the file is gone.
		if err := os.Rename(filepath.Join(dir, name), filepath.Join(dir, name+".gone")); err != nil {
			t.Fatal(err)
		}
		again := fetchOutcome(t, &access.Client{Archive: m}, u)
		if again.err != nil || !bytes.Equal(again.body, want) {
			t.Errorf("%s: replayed %d octets, %v", u, len(again.body), again.err)
		}
	}
	// A directory, an absent file and a resumed read make no record.
	o := fetchOutcome(t, live, "file://"+filepath.ToSlash(dir)+"/")
	if o.err != nil || len(o.entries) != 2 {
		t.Errorf("directory: %+v %v", o.entries, o.err)
	}
	fetchOutcome(t, live, "file://"+filepath.ToSlash(dir)+"/absent")
	if err := os.WriteFile(p, content, 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := live.GetFrom(context.Background(), loctest.MustParse(t, "file://"+filepath.ToSlash(p)), 10)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, res.Body)
	res.Close()
	if m.n != 2 {
		t.Errorf("%d records, want 2", m.n)
	}
}
