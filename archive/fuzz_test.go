package archive

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
)

// FuzzReader: whatever a WARC file holds, Open and Lookup neither panic
// nor read past it, and every problem names an offset within the file.
func FuzzReader(f *testing.F) {
	dir := f.TempDir()
	path := filepath.Join(dir, "seed.warc.gz")
	writeAll(f, path, Options{Dedup: true}, append(sampleRecords(f), exchange(f, "gopher://localhost/1/again", "gopher", "/again\r\n", gopherMenu)))
	seed, err := os.ReadFile(path)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed)
	f.Add(seed[:len(seed)/2])
	f.Add([]byte("WARC/1.1\r\nWARC-Type: resource\r\nWARC-Target-URI: file:///x\r\nContent-Length: 3\r\n\r\nabc\r\n\r\n"))
	f.Add([]byte("WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: <http://h/>\r\nContent-Type: application/http;msgtype=response\r\nWARC-Payload-Digest: sha1:AAAA\r\nContent-Length: 21\r\n\r\nHTTP/1.1 200 OK\r\n\r\nx\r\n\r\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		// An input that takes this long is a failure of its own (a loop).
		slow := time.AfterFunc(20*time.Second, func() { panic("archive: an input read for 20 s") })
		defer slow.Stop()
		p := filepath.Join(dir, "f.warc.gz") // one at a time in a worker
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		r, err := Open(p)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		for key, caps := range r.byKey {
			for _, c := range caps {
				if c.off < 0 || c.off+c.length > int64(len(data)) {
					t.Fatalf("%s: a capture at %d+%d in a file of %d", key, c.off, c.length, len(data))
				}
				u, err := locator.Parse(c.url)
				if err != nil {
					t.Fatalf("an indexed URL that does not parse: %q", c.url)
				}
				if rec, err := r.Lookup(context.Background(), u); err == nil {
					if rec.Response == nil {
						t.Fatal("a record without its octets")
					}
					rec.Close()
				}
			}
		}
		// With a bound (Reader.MaxSize), what is read back is within it:
		// the object, after a response's protocol header.
		r.MaxSize = int64(len(data)%64) + 1
		for _, caps := range r.byKey {
			for _, c := range caps {
				u, _ := locator.Parse(c.url)
				rec, err := r.Lookup(context.Background(), u)
				if err != nil {
					var se *SizeError
					if errors.As(err, &se) && (se.Size <= r.MaxSize || !errors.Is(err, access.ErrTooLarge)) {
						t.Fatalf("a SizeError of an object within the bound: %v", err)
					}
					continue
				}
				if n := rec.Response.Size(); rec.Kind == access.RecordResource && n > r.MaxSize || n > r.MaxSize+maxHeader {
					t.Fatalf("%s: %d octets read back, the bound is %d", c.url, n, r.MaxSize)
				}
				rec.Close()
			}
		}
		for _, p := range r.Problems() {
			var fe *FormatError
			var re *RevisitError
			if errors.As(p, &fe) && (fe.Offset < 0 || fe.Offset > int64(len(data))) {
				t.Fatalf("a problem outside the file: %v", p)
			}
			if !errors.As(p, &fe) && !errors.As(p, &re) {
				t.Fatalf("a problem of type %T: %v", p, p)
			}
		}
	})
}

// FuzzCDXJ: a line parseLine accepts is written back by line as one
// that reads the same, octet for octet as encoding/json writes it.
func FuzzCDXJ(f *testing.F) {
	f.Add(`com,example)/ 20260101000000 {"url":"http://example.com/","mime":"text/html","status":"200","digest":"sha1:AAAA","length":"10","offset":"0","filename":"a.warc.gz"}`)
	f.Add(`gopher://h/1/ 2026 {"url":"gopher://h/1/","length":10,"offset":5,"filename":"a.warc.gz","date":"2026-01-01T00:00:00.5Z"}`)
	f.Add(`!meta 0 {}`)
	f.Add(`a 2026 {"url":"http://x/<a>&\u2028é\"q\u0001","mime":"t","status":"\ud800","filename":"f\\g"}`)
	f.Fuzz(func(t *testing.T, line string) {
		e, err := parseLine(line)
		if err != nil {
			return
		}
		b := e.line()
		if len(b) == 0 || b[len(b)-1] != '\n' {
			t.Fatalf("line %q", b)
		}
		if want := marshalLine(&e); !bytes.Equal(b, want) {
			t.Fatalf("line %q, encoding/json's %q", b, want)
		}
		e2, err := parseLine(string(b[:len(b)-1]))
		if err != nil {
			t.Fatalf("%q written as %q, which does not read: %v", line, b, err)
		}
		if e2 != e {
			t.Fatalf("%q read back as %+v, not %+v", b, e2, e)
		}
		_ = e.time()
	})
}

// marshalLine is a CDXJ line as json.Marshal makes its JSON, which
// entry.line writes without reflection.
func marshalLine(e *entry) []byte {
	j, err := json.Marshal(&e.entryJSON)
	if err != nil {
		panic(err)
	}
	return []byte(e.key + " " + e.ts + " " + string(j) + "\n")
}
