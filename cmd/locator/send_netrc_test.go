package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rfc1738/locator/internal/peer"
)

// TestSendNetrc: locator send --netrc-file logs in to an SMTP server
// that requires AUTH (RFC 4954; aiosmtpd) with the login the file gives
// for the server's host; without the file the server refuses MAIL (530)
// and nothing is delivered. The password is masked in -v's dialogue.
func TestSendNetrc(t *testing.T) {
	srv, maildir := peer.AiosmtpdAuth(t, "sender", "n3trc pass")
	t.Setenv("SMTP_SERVER", srv.Addr)
	netrc := filepath.Join(t.TempDir(), "netrc")
	if err := os.WriteFile(netrc, []byte("machine 127.0.0.1 login sender password \"n3trc pass\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	delivered := func() int {
		names, _ := filepath.Glob(filepath.Join(maildir, "new", "*"))
		return len(names)
	}
	code, _, errs := runCLI(t, "body\n", "send", "--from", "me@example.net", "mailto:joe@example.com")
	if code == 0 || delivered() != 0 {
		t.Fatalf("without a login: exit %d, %d delivered\n%s", code, delivered(), errs)
	}
	code, _, errs = runCLI(t, "body\n", "send", "-v", "--netrc-file", netrc, "--from", "me@example.net", "mailto:joe@example.com")
	if code != 0 || delivered() != 1 {
		t.Fatalf("--netrc-file: exit %d, %d delivered\n%s", code, delivered(), errs)
	}
	if !strings.Contains(errs, "> AUTH PLAIN ****") && !strings.Contains(errs, "> AUTH LOGIN") || strings.Contains(errs, "n3trc") {
		t.Errorf("dialogue:\n%s", errs)
	}
	code, _, errs = runCLI(t, "body\n", "send", "--netrc-file", filepath.Join(t.TempDir(), "none"), "--from", "me@example.net", "mailto:joe@example.com")
	if code != 2 || !strings.Contains(errs, "--netrc-file") {
		t.Errorf("a missing --netrc-file: exit %d %q", code, errs)
	}
}
