package gopher_test

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/internal/loctest"
	"github.com/rfc1738/locator/internal/peer"
)

// TestProbePygopherd: pygopherd's menus mark items "+" (Gopher+ §2.1),
// so each item's attributes are asked ("selector TAB !", §2.5): "+-2"
// is there, "--2" with code 1 gone; the size is the first view's.
func TestProbePygopherd(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, "hello.txt"), "Hello from gopher\n", 0o644)
	write(t, filepath.Join(root, "docs", "inner.txt"), "inner\n", 0o644)
	s := peer.Pygopherd(t, root)
	base := "gopher://" + s.Addr + "/"
	for _, c := range []struct {
		url, state, code string
		listing          bool
	}{
		{base + "0/hello.txt", "ok", "+", false},
		{base + "1/docs", "ok", "+", true},
		{base, "ok", "+", true},
		{base + "0/none.txt", "gone", "1", false},
		{base + "1/nodir", "gone", "1", false},
	} {
		var log bytes.Buffer
		ac := &access.Client{Dialogue: &log}
		st := ac.Probe(context.Background(), loctest.MustParse(t, c.url))
		if string(st.State) != c.state || st.Code != c.code || st.Listing != c.listing {
			t.Errorf("%s: %s %s listing %v (%v), want %s %s %v\n%s", c.url, st.State, st.Code, st.Listing, st.Err, c.state, c.code, c.listing, log.String())
		}
		if !strings.Contains(log.String(), "\\x09!") {
			t.Errorf("%s: no attribute request:\n%s", c.url, log.String())
		}
	}
}
