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
	"testing"

	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/internal/loctest"
)

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
	m := &loctest.Archive{}
	live := &access.Client{Recorder: m}
	for name, want := range map[string][]byte{"data.bin": content, "page.html": []byte("<p>hi</p>\n")} {
		u := "file://" + filepath.ToSlash(filepath.Join(dir, name))
		o := loctest.GetOutcome(t, live, u)
		if o.Err != nil || !bytes.Equal(o.Body, want) {
			t.Fatalf("%s: %d octets, %v", u, len(o.Body), o.Err)
		}
		rec, ok := m.Latest(u)
		if !ok {
			t.Fatalf("%s: no record", u)
		}
		if rec.Record.Kind != access.RecordResource || rec.Record.Protocol != "file" || rec.Record.Addr != "" || rec.Request != nil || rec.Record.Truncated != "" || !bytes.Equal(rec.Response, want) {
			t.Errorf("%s: record %+v with %d octets", u, rec.Record, len(rec.Response))
		}
		// Replayed: the file's octets, even once the file is gone.
		if err := os.Rename(filepath.Join(dir, name), filepath.Join(dir, name+".gone")); err != nil {
			t.Fatal(err)
		}
		again := loctest.GetOutcome(t, &access.Client{Archive: m}, u)
		if again.Err != nil || !bytes.Equal(again.Body, want) {
			t.Errorf("%s: replayed %d octets, %v", u, len(again.Body), again.Err)
		}
	}
	// A directory, an absent file and a resumed read make no record.
	o := loctest.GetOutcome(t, live, "file://"+filepath.ToSlash(dir)+"/")
	if o.Err != nil || len(o.Entries) != 2 {
		t.Errorf("directory: %+v %v", o.Entries, o.Err)
	}
	loctest.GetOutcome(t, live, "file://"+filepath.ToSlash(dir)+"/absent")
	if err := os.WriteFile(p, content, 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := live.GetFrom(context.Background(), loctest.MustParse(t, "file://"+filepath.ToSlash(p)), 10)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, res.Body)
	res.Close()
	if len(m.Records()) != 2 {
		t.Errorf("%d records, want 2", len(m.Records()))
	}
}
