package peer

import (
	"crypto/sha1"
	"encoding/base32"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestWarcio: warcio reads a WARC file written here by hand, and the
// archive package's check script finds a right digest right and a wrong
// one wrong.
func TestWarcio(t *testing.T) {
	record := func(uri, body, digest string) string {
		return fmt.Sprintf("WARC/1.1\r\nWARC-Type: resource\r\nWARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-%012d>\r\n"+
			"WARC-Date: 2026-01-01T00:00:00Z\r\nWARC-Target-URI: %s\r\nContent-Type: text/plain\r\n"+
			"WARC-Block-Digest: %s\r\nContent-Length: %d\r\n\r\n%s\r\n\r\n", len(uri), uri, digest, len(body), body)
	}
	sum := sha1.Sum([]byte("right\n"))
	good := "sha1:" + base32.StdEncoding.EncodeToString(sum[:])
	path := filepath.Join(t.TempDir(), "t.warc")
	if err := os.WriteFile(path, []byte(record("file:///a", "right\n", good)+record("file:///bb", "wrong\n", good)), 0o644); err != nil {
		t.Fatal(err)
	}
	recs := Warcio(t, "../../archive/testdata/warccheck.cjs", path)
	if len(recs) != 2 {
		t.Fatalf("warcio read %d records, want 2: %+v", len(recs), recs)
	}
	if recs[0].URI != "file:///a" || recs[0].Offset != 0 || recs[0].BlockOK == nil || !*recs[0].BlockOK {
		t.Errorf("first record %+v, want file:///a at 0 with its digest right", recs[0])
	}
	if recs[1].URI != "file:///bb" || recs[1].Offset == 0 || recs[1].BlockOK == nil || *recs[1].BlockOK {
		t.Errorf("second record %+v, want file:///bb with its digest wrong", recs[1])
	}
}
