package main

import (
	"bytes"
	"crypto/sha256"
	"crypto/x509"
	"encoding/hex"
	"encoding/pem"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rfc1738/locator/internal/peer"
)

// TestGetGemini: locator get and probe on gemini URLs served by
// molly-brown: a file byte for byte, a redirect, a refusal (exit 1), the
// certificate trusted on first use in ~/.config/locator/known_hosts or
// --known-hosts, and a changed one refused (exit 3) with both
// fingerprints.
func TestGetGemini(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	if err := os.MkdirAll(filepath.Join(root, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	data := bytes.Repeat([]byte("gemini\x00\xff\r\n"), 5000)
	if err := os.WriteFile(filepath.Join(root, "sub", "data.bin"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	cert, key, _ := peer.SelfSigned(t, dir)
	s := peer.MollyBrown(t, root, peer.MollyConfig{Cert: cert, Key: key, Conf: "[PermRedirects]\n\"^/old$\" = \"/sub/data.bin\"\n"})
	pemBytes, err := os.ReadFile(cert)
	if err != nil {
		t.Fatal(err)
	}
	blk, _ := pem.Decode(pemBytes)
	c, err := x509.ParseCertificate(blk.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(c.Raw)
	fp := "SHA256:" + hex.EncodeToString(sum[:])

	// The default known-hosts file, under the user's configuration
	// folder.
	cfg := filepath.Join(dir, "config")
	t.Setenv("XDG_CONFIG_HOME", cfg)
	out := filepath.Join(dir, "out.bin")
	if code, _, errs := runCLI(t, "", "get", "-o", out, peer.GeminiURL(s, "/old")); code != 0 {
		t.Fatalf("get: exit %d: %s", code, errs)
	}
	if got, _ := os.ReadFile(out); !bytes.Equal(got, data) {
		t.Errorf("get wrote %d octets, the file has %d", len(got), len(data))
	}
	if b, err := os.ReadFile(filepath.Join(cfg, "locator", "known_hosts")); err != nil || !strings.HasPrefix(string(b), s.Addr+" "+fp+" ") {
		t.Errorf("default known hosts: %q %v", b, err)
	}

	kh := filepath.Join(dir, "kh")
	code, body, errs := runCLI(t, "", "get", "--known-hosts", kh, "-v", peer.GeminiURL(s, "/sub/data.bin"))
	if code != 0 || body != string(data) || !strings.Contains(errs, "first use: trusted and remembered") || !strings.Contains(errs, "< 20 application/octet-stream") {
		t.Fatalf("get --known-hosts: exit %d, %d octets\n%s", code, len(body), errs)
	}
	if code, _, errs := runCLI(t, "", "get", "--known-hosts", kh, peer.GeminiURL(s, "/missing")); code != 1 || !strings.Contains(errs, "51 Not found!") {
		t.Errorf("get of a missing file: exit %d: %s", code, errs)
	}
	if code, out, errs := runCLI(t, "", "probe", peer.GeminiURL(s, "/sub/data.bin"), peer.GeminiURL(s, "/missing")); code != 1 || !strings.Contains(out, "ok") || !strings.Contains(out, "gone") {
		t.Errorf("probe: exit %d\n%s%s", code, out, errs)
	}

	// Another certificate kept for the server: refused.
	other := "SHA256:" + strings.Repeat("0f", 32)
	if err := os.WriteFile(kh, []byte(s.Addr+" "+other+" 2999-01-01T00:00:00Z\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, _, errs = runCLI(t, "", "get", "--known-hosts", kh, peer.GeminiURL(s, "/sub/data.bin"))
	if code != 3 || !strings.Contains(errs, other) || !strings.Contains(errs, fp) || !strings.Contains(errs, "remove line 1 of "+kh) {
		t.Errorf("changed certificate: exit %d: %s", code, errs)
	}
}
