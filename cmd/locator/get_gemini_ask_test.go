package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rfc1738/locator/internal/peer"
)

// TestGetGeminiAsk: a gemini request for input (status 10, Gemini
// §3.2.1) from a CGI program of molly-brown is answered by --ask, by
// number or by prompt, and the URL asked for again with the answer as
// its search part; without an answer (and no terminal), the server's
// status is the outcome (exit 1).
func TestGetGeminiAsk(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	cgi := filepath.Join(root, "cgi")
	if err := os.MkdirAll(cgi, 0o755); err != nil {
		t.Fatal(err)
	}
	script := "#!/bin/sh\nif [ -z \"$QUERY_STRING\" ]; then printf '10 Your name?\\r\\n'; else printf '20 text/plain\\r\\nHello %s' \"$QUERY_STRING\"; fi\n"
	if err := os.WriteFile(filepath.Join(cgi, "hello"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	s := peer.MollyBrown(t, root, peer.MollyConfig{Conf: `CGIPaths = ["` + cgi + `"]`})
	kh := filepath.Join(dir, "known_hosts")
	u := peer.GeminiURL(s, "/cgi/hello")
	for _, answer := range []string{"1=Ada L", "your name=Ada L"} {
		code, out, errs := runCLI(t, "", "get", "--known-hosts", kh, "--ask", answer, "-v", u)
		if code != 0 || out != "Hello Ada%20L" {
			t.Errorf("--ask %q: exit %d %q\n%s", answer, code, out, errs)
		}
		if !strings.Contains(errs, "< 10 Your name?") || !strings.Contains(errs, "> "+u+"?Ada%20L") {
			t.Errorf("--ask %q: dialogue:\n%s", answer, errs)
		}
	}
	code, out, errs := runCLI(t, "", "get", "--known-hosts", kh, u)
	if code != 1 || out != "" || !strings.Contains(errs, "Your name?") {
		t.Errorf("no answer: exit %d %q\n%s", code, out, errs)
	}
}
