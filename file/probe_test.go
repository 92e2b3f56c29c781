package file_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/rfc1738/locator/access"
	_ "github.com/rfc1738/locator/file"
	"github.com/rfc1738/locator/internal/loctest"
)

// TestProbe: a stat of the local path (RFC 1738 §3.10), its answers.
func TestProbe(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("hello"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "closed.txt"), []byte("x"), 0); err != nil {
		t.Fatal(err)
	}
	os.Symlink("nowhere", filepath.Join(dir, "dangling"))
	cases := []struct {
		url, state, code string
		size             int64
		listing          bool
	}{
		{"file://" + dir + "/a.txt", "ok", "", 5, false},
		{"file://localhost" + dir + "/", "ok", "", -1, true},
		{"file://" + dir + "/none", "gone", "ENOENT", -1, false},
		{"file://" + dir + "/a.txt/x", "gone", "ENOTDIR", -1, false},
		{"file://" + dir + "/dangling", "gone", "ENOENT", -1, false},
		{"file://elsewhere.example/etc/motd", "policy", "", -1, false},
	}
	if os.Geteuid() != 0 {
		cases = append(cases, struct {
			url, state, code string
			size             int64
			listing          bool
		}{"file://" + dir + "/closed.txt", "refused", "EACCES", -1, false})
	}
	for _, c := range cases {
		st := (&access.Client{}).Probe(context.Background(), loctest.MustParse(t, c.url))
		if string(st.State) != c.state || st.Code != c.code || st.Size != c.size || st.Listing != c.listing {
			t.Errorf("%s: %s %q size %d listing %v (%v), want %s %q %d %v", c.url, st.State, st.Code, st.Size, st.Listing, st.Err, c.state, c.code, c.size, c.listing)
		}
	}
}
