package archive

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/rfc1738/locator/access"
	"time"
)

// TestWriteIndexIsTheWritersIndex: the index WriteIndex makes of a file
// is, line for line, the FILE.cdxj the Writer kept beside it (pywb's
// CDXJ fields), a dedup revisit included.
func TestWriteIndexIsTheWritersIndex(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.warc.gz")
	recs := append(sampleRecords(t), exchange(t, "http://example.com/again", "http/1.1", "GET /again HTTP/1.1\r\n\r\n", httpResp))
	writeAll(t, path, Options{Dedup: true}, recs)
	want, err := os.ReadFile(path + ".cdxj")
	if err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	probs, err := WriteIndex(&got, path)
	if err != nil || len(probs) != 0 {
		t.Fatalf("WriteIndex: %v %v", err, probs)
	}
	if got.String() != string(want) {
		t.Errorf("WriteIndex:\n%s\nthe Writer's index:\n%s", got.String(), want)
	}
	if !bytes.Contains(want, []byte(`"mime":"warc/revisit"`)) {
		t.Errorf("no revisit in the index:\n%s", want)
	}
}

// TestLookupWithTime: under WithTime, Lookup returns the capture closest
// to the time asked for (RFC 7089 §4), not the latest.
func TestLookupWithTime(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.warc.gz")
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var recs []*access.Record
	for i, body := range []string{"one", "two", "three"} {
		r := exchange(t, "gopher://localhost/0/x", "gopher", "/x\r\n", body)
		r.Date = t0.AddDate(0, i, 0)
		recs = append(recs, r)
	}
	writeAll(t, path, Options{}, recs)
	rd, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	u := mustParse(t, "gopher://localhost/0/x")
	for _, c := range []struct {
		at   time.Time
		want string
	}{
		{t0.AddDate(-1, 0, 0), "one"},
		{t0.AddDate(0, 1, 1), "two"},
		{t0.AddDate(0, 1, 20), "three"},
		{t0.AddDate(5, 0, 0), "three"},
	} {
		rec, err := rd.Lookup(WithTime(context.Background(), c.at), u)
		if err != nil {
			t.Fatal(err)
		}
		if got := readAll(t, rec.Response); got != c.want {
			t.Errorf("at %v: %q, want %q", c.at, got, c.want)
		}
		rec.Close()
	}
	rec, err := rd.Lookup(context.Background(), u)
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Close()
	if got := readAll(t, rec.Response); got != "three" {
		t.Errorf("without a time: %q, want the latest", got)
	}
}
