package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rfc1738/locator/internal/peer"
)

// TestGetMethod: --method goes to the URL's own scheme client, here
// ftp's: the RFC's CWD per segment by default, the whole path in RETR
// with nocwd; --ftp-method, its old name, does the same with one line
// of warning first.
func TestGetMethod(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "pub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "pub", "hello.txt"), []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := peer.Pyftpdlib(t, root, peer.PyftpdOptions{})
	u := "ftp://" + s.Addr + "/pub/hello.txt"
	for _, tc := range []struct {
		args      []string
		want, not string // a dialogue line sent, and one that must not be
		warning   string
	}{
		{[]string{"get", "-v", u}, "> CWD pub\n", "> RETR pub/hello.txt\n", ""},
		{[]string{"get", "-v", "--method", "nocwd", u}, "> RETR pub/hello.txt\n", "> CWD pub\n", ""},
		{[]string{"get", "-v", "--ftp-method", "nocwd", u}, "> RETR pub/hello.txt\n", "> CWD pub\n", "locator: --ftp-method is deprecated; use --method\n"},
	} {
		code, out, errs := runCLI(t, "", tc.args...)
		if code != 0 || out != "hello\n" || !strings.Contains(errs, tc.want) || strings.Contains(errs, tc.not) || !strings.HasPrefix(errs, tc.warning) ||
			tc.warning == "" && strings.Contains(errs, "deprecated") {
			t.Errorf("%q: exit %d %q\n%s", tc.args, code, out, errs)
		}
	}
	// A method the client does not offer: refused before connecting.
	code, _, errs := runCLI(t, "", "get", "--method", "over", u)
	if code != 4 || !strings.Contains(errs, `ftp offers no method "over"`) {
		t.Errorf("--method over: exit %d %q", code, errs)
	}
}
