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

// TestGetFTPType: an ftp URL without ;type= is transferred in TYPE I,
// the file's exact octets (RFC 1738 §3.2.3 leaves the choice to the
// client; curl and wget do the same); --ftp-ascii asks for TYPE A, the
// line ends converted (RFC 959 §3.1.1.1), as ;type=a does.
func TestGetFTPType(t *testing.T) {
	root := t.TempDir()
	const stored = "a\r\nb\n"
	if err := os.WriteFile(filepath.Join(root, "crlf.txt"), []byte(stored), 0o644); err != nil {
		t.Fatal(err)
	}
	s := peer.Pyftpdlib(t, root, peer.PyftpdOptions{})
	u := "ftp://" + s.Addr + "/crlf.txt"
	for _, tc := range []struct {
		args       []string
		typ, bytes string
	}{
		{[]string{"get", "-v", u}, "> TYPE I\n", stored},
		{[]string{"get", "-v", "--ftp-ascii", u}, "> TYPE A\n", "a\nb\n"},
		{[]string{"get", "-v", u + ";type=a"}, "> TYPE A\n", "a\nb\n"},
		{[]string{"get", "-v", "--ftp-ascii", u + ";type=i"}, "> TYPE I\n", stored},
	} {
		code, out, errs := runCLI(t, "", tc.args...)
		if code != 0 || out != tc.bytes || !strings.Contains(errs, tc.typ) {
			t.Errorf("%q: exit %d %q, want %q after %q\n%s", tc.args, code, out, tc.bytes, tc.typ, errs)
		}
	}
}
