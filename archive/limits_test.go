package archive

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/internal/loctest"
)

// writeZeros writes a WARC file of the records, each a gzip member
// (WARC 1.1 Annex D) that inflates to its zeros.
func writeZeros(t *testing.T, path string, recs ...loctest.ZeroRecord) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if err := loctest.WriteZeroRecord(f, r); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

const okHead = "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\n\r\n"

// longHead is a header longer than the 16 KiB read first.
var longHead = "HTTP/1.1 200 OK\r\nX-Pad: " + strings.Repeat("a", 40<<10) + "\r\n\r\n"

// TestReaderMaxSize: a capture whose object is over Reader.MaxSize is
// a *SizeError (access.ErrTooLarge) found from its record's header, the
// block not decompressed: 256 MiB of zeros in a gzip member of 260 KiB
// (a gzip bomb, WARC 1.1 Annex D's one member per record), as a
// resource record (§6.5) and as an HTTP response (§6.4), whose limit is
// on the payload after the protocol's header (RFC 9112 §2.1), however
// long the header (maxHeader at most). An object
// of MaxSize octets exactly is read whole; the latest capture too large
// does not give an older one instead.
func TestReaderMaxSize(t *testing.T) {
	dir := t.TempDir()
	const limit = 1 << 20
	path := filepath.Join(dir, "bomb.warc.gz")
	writeZeros(t, path,
		loctest.ZeroRecord{Type: "resource", URI: "file:///zeros", Zeros: 256 << 20},
		loctest.ZeroRecord{Type: "response", URI: "http://h/zeros", Head: okHead, Zeros: 256 << 20},
		loctest.ZeroRecord{Type: "response", URI: "http://h/exact", Head: okHead, Zeros: limit},
		loctest.ZeroRecord{Type: "response", URI: "http://h/over", Head: okHead, Zeros: limit + 1},
		loctest.ZeroRecord{Type: "response", URI: "http://h/long-head", Head: longHead, Zeros: limit},
		loctest.ZeroRecord{Type: "response", URI: "http://h/long-head-over", Head: longHead, Zeros: limit + 1},
		loctest.ZeroRecord{Type: "resource", URI: "ftp://h/exact", Zeros: limit},
		loctest.ZeroRecord{Type: "resource", URI: "ftp://h/over", Zeros: limit + 1},
	)
	r, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if p := r.Problems(); len(p) > 0 {
		t.Fatalf("problems: %v", p)
	}
	r.MaxSize = limit
	for _, c := range []struct {
		url  string
		size int64 // the object's octets the SizeError names; 0: read whole
	}{
		{"file:///zeros", 256 << 20},
		{"http://h/zeros", 256 << 20},
		{"http://h/exact", 0},
		{"http://h/over", limit + 1},
		{"http://h/long-head", 0},
		{"http://h/long-head-over", limit + 1},
		{"ftp://h/exact", 0},
		{"ftp://h/over", limit + 1},
	} {
		rec, err := r.Lookup(context.Background(), mustParse(t, c.url))
		if c.size == 0 {
			if err != nil {
				t.Errorf("%s: %v", c.url, err)
				continue
			}
			want := int64(limit)
			if c.url == "http://h/long-head" {
				want += int64(len(longHead))
			} else if rec.Kind == access.RecordExchange {
				want += int64(len(okHead))
			}
			if rec.Response.Size() != want {
				t.Errorf("%s: %d octets, want %d", c.url, rec.Response.Size(), want)
			}
			rec.Close()
			continue
		}
		var se *SizeError
		if !errors.As(err, &se) || !errors.Is(err, access.ErrTooLarge) {
			t.Errorf("%s: %v, want a SizeError", c.url, err)
			continue
		}
		if se.Size != c.size || se.Max != limit || se.URL != c.url || se.File != path || !strings.Contains(err.Error(), "over the limit of 1048576") {
			t.Errorf("%s: %+v %q", c.url, se, err)
		}
	}
	if p := r.Problems(); len(p) > 0 {
		t.Errorf("a capture too large is a problem of the file: %v", p)
	}

	// An older capture of the same URL that fits is not given in place
	// of the latest, too large.
	two := filepath.Join(dir, "two.warc.gz")
	small := loctest.ZeroRecord{Type: "resource", URI: "file:///zeros", Zeros: 10}
	writeZeros(t, two, small, loctest.ZeroRecord{Type: "resource", URI: "file:///zeros", Zeros: 2 * limit})
	r2, err := Open(two)
	if err != nil {
		t.Fatal(err)
	}
	defer r2.Close()
	// Both records say the same WARC-Date: the later in the file is the
	// latest (a stable sort).
	r2.MaxSize = limit
	if rec, err := r2.Lookup(context.Background(), mustParse(t, "file:///zeros")); !errors.Is(err, access.ErrTooLarge) {
		if rec != nil {
			t.Errorf("an older capture of %d octets given instead", rec.Response.Size())
			rec.Close()
		}
		t.Errorf("%v, want ErrTooLarge", err)
	}
}
