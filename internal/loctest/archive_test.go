package loctest_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/rfc1738/locator/access"
	_ "github.com/rfc1738/locator/file" // the file scheme, a Fetcher that needs no server
	"github.com/rfc1738/locator/internal/loctest"
)

// TestArchive records files through an access.Client and follows them
// back: the records in order, the latest of a URL given by Lookup with
// fresh Spools, and a URL never recorded not archived.
func TestArchive(t *testing.T) {
	dir := t.TempDir()
	big := bytes.Repeat([]byte("0123456789\x00\xff\r\n"), access.SpoolMemory/8) // kept in a temporary file by the Spool
	p := filepath.Join(dir, "a.bin")
	for _, name := range []string{"a.bin", "b.txt"} {
		if err := os.WriteFile(filepath.Join(dir, name), big, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ua, ub := "file://"+filepath.ToSlash(p), "file://"+filepath.ToSlash(filepath.Join(dir, "b.txt"))
	arc := &loctest.Archive{}
	live := &access.Client{Recorder: arc}
	for _, u := range []string{ua, ub} {
		if o := loctest.GetOutcome(t, live, u); o.Err != nil || !bytes.Equal(o.Body, big) {
			t.Fatalf("%s: %d octets, %v", u, len(o.Body), o.Err)
		}
	}
	// a.bin again, shorter: the later record is the one Lookup gives.
	if err := os.WriteFile(p, []byte("second"), 0o644); err != nil {
		t.Fatal(err)
	}
	second := loctest.GetOutcome(t, live, ua)
	recs := arc.Records()
	if len(recs) != 3 || recs[0].Record.URL.String() != ua || recs[1].Record.URL.String() != ub || recs[2].Record.URL.String() != ua {
		t.Fatalf("%d records, not a.bin, b.txt, a.bin in order", len(recs))
	}
	k := recs[0]
	if k.Record.Kind != access.RecordResource || k.Record.Protocol != "file" || k.Record.Request != nil || k.Record.Response != nil || k.Request != nil || !bytes.Equal(k.Response, big) {
		t.Errorf("first record %+v, request %v, %d octets", k.Record, k.Request != nil, len(k.Response))
	}
	if of := arc.Of(ua); len(of) != 2 || !bytes.Equal(of[0].Response, big) || string(of[1].Response) != "second" {
		t.Errorf("Of(a.bin): %d records", len(of))
	}
	if l, ok := arc.Latest(ua); !ok || string(l.Response) != "second" {
		t.Errorf("Latest(a.bin): %v, %d octets", ok, len(l.Response))
	}
	if _, ok := arc.Latest(ua + "x"); ok {
		t.Errorf("Latest of a URL never recorded")
	}

	// Each Lookup is a new Record: closing one leaves the next whole.
	u := loctest.MustParse(t, ub)
	for i := 0; i < 2; i++ {
		r, err := arc.Lookup(context.Background(), u)
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(r.Response.Reader())
		if err != nil || !bytes.Equal(b, big) || r.Request != nil || r.URL.String() != ub {
			t.Errorf("lookup %d: %d octets, %v, request %v", i, len(b), err, r.Request != nil)
		}
		r.Close()
	}
	// Replayed through a Client, the files gone: the latest octets.
	os.Remove(p)
	replay := &access.Client{Archive: arc}
	loctest.SameOutcome(t, ua, second, loctest.GetOutcome(t, replay, ua))
	var na *access.NotArchivedError
	if o := loctest.GetOutcome(t, replay, "file://"+filepath.ToSlash(filepath.Join(dir, "c"))); !errors.As(o.Err, &na) {
		t.Errorf("never recorded: %T %v", o.Err, o.Err)
	}
}

// TestArchiveAdd keeps a record a test makes: an exchange gets a
// Request Spool, and the octets are the Archive's own copy.
func TestArchiveAdd(t *testing.T) {
	arc := &loctest.Archive{}
	u := loctest.MustParse(t, "gopher://h/0/a")
	resp := []byte("cut sho")
	arc.Add(loctest.Kept{Record: access.Record{Kind: access.RecordExchange, URL: u, Protocol: "gopher"}, Response: resp})
	resp[0] = 'X'
	r, err := arc.Lookup(context.Background(), u)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	b, _ := io.ReadAll(r.Response.Reader())
	if r.Kind != access.RecordExchange || r.Protocol != "gopher" || r.Request == nil || r.Request.Size() != 0 || string(b) != "cut sho" {
		t.Errorf("record %+v, response %q", r, b)
	}
}

// TestArchiveConcurrent records from many goroutines at once (run with
// -race): every record is kept.
func TestArchiveConcurrent(t *testing.T) {
	arc := &loctest.Archive{}
	u := loctest.MustParse(t, "file:///x")
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 50; j++ {
				s := access.NewSpool()
				s.Write([]byte{byte(i), byte(j)})
				r := &access.Record{Kind: access.RecordResource, URL: u, Response: s}
				if err := arc.Record(r); err != nil {
					t.Error(err)
				}
				r.Close()
				arc.Latest("file:///x")
			}
		}()
	}
	wg.Wait()
	if n := len(arc.Of("file:///x")); n != 400 {
		t.Errorf("%d records, want 400", n)
	}
}
