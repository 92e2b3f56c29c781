package gateway_test

// An FTP directory archived (access.Client.Recorder) and served from
// the archive (Config.Archive) against vsftpd, from memory and from a
// WARC file (package archive): the directory page the gateway renders
// from the record is the live one.

import (
	"context"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/archive"
	"github.com/rfc1738/locator/gateway"
	"github.com/rfc1738/locator/internal/loctest"
	"github.com/rfc1738/locator/internal/peer"
)

func TestReplayFTPDirectory(t *testing.T) {
	v := peer.Vsftpd(t, "", func(root string) {
		write(t, filepath.Join(root, "pub", "a.txt"), "alpha\n", 0o644)
		write(t, filepath.Join(root, "pub", "with space.txt"), "spaced\n", 0o644)
		write(t, filepath.Join(root, "pub", "sub", "deep.txt"), "deep\n", 0o644)
	})
	dir := "ftp://" + v.Addr + "/pub/"
	allow := access.Policy{Allow: rules(t, v.Addr)}
	live, _ := startGateway(t, gateway.Config{Policy: allow})
	res, livePage := get(t, live.URL+"/"+dir)
	// LIST described the entries: sub is a directory, its link ends in
	// "/".
	if res.StatusCode != http.StatusOK || !strings.Contains(livePage, "/pub/sub/") || !strings.Contains(livePage, "with space.txt") {
		t.Fatalf("live: %d\n%s", res.StatusCode, livePage)
	}

	arc := &loctest.Archive{}
	warc := filepath.Join(t.TempDir(), "ftp.warc.gz")
	w, err := archive.Create(warc, archive.Options{})
	if err != nil {
		t.Fatal(err)
	}
	c := &access.Client{Recorder: both{arc, w}}
	lres, err := c.Get(context.Background(), loctest.MustParse(t, dir))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lres.Listing.ReadAll(); err != nil {
		t.Fatal(err)
	}
	if err := lres.Close(); err != nil {
		t.Fatal(err)
	}
	c.CloseIdle()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if n := len(arc.Records()); n != 1 {
		t.Fatalf("%d records", n)
	}
	r, err := archive.Open(warc)
	if err != nil {
		t.Fatal(err)
	}
	for name, a := range map[string]access.Archive{"memory": arc, "WARC": r} {
		replay, _ := startGateway(t, gateway.Config{Policy: allow, Archive: a})
		res, replayPage := get(t, replay.URL+"/"+dir)
		if res.StatusCode != http.StatusOK || replayPage != livePage {
			t.Errorf("replayed from %s: %d\n%s\nlive:\n%s", name, res.StatusCode, replayPage, livePage)
		}
	}
}

// both records to two Recorders.
type both [2]access.Recorder

func (b both) Record(r *access.Record) error {
	if err := b[0].Record(r); err != nil {
		return err
	}
	return b[1].Record(r)
}
