package main

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/hex"
	"encoding/pem"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rfc1738/locator/internal/peer"
)

// writeClientCert writes a self-signed client certificate and its key
// as PEM files in dir, named by name, and returns their paths and the
// hex SHA-256 of the certificate (molly-brown's form).
func writeClientCert(t *testing.T, dir, name string) (cert, key, fp string) {
	t.Helper()
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(3), Subject: pkix.Name{CommonName: name},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &k.PublicKey, k)
	if err != nil {
		t.Fatal(err)
	}
	kder, err := x509.MarshalECPrivateKey(k)
	if err != nil {
		t.Fatal(err)
	}
	cert, key = filepath.Join(dir, name+".crt"), filepath.Join(dir, name+".key")
	if err := os.WriteFile(cert, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(key, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kder}), 0o600); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(der)
	return cert, key, hex.EncodeToString(sum[:])
}

// TestGetGeminiCert: get and probe with -E/--cert and --key against
// molly-brown's certificate zone: without a certificate 60 (exit 1, the
// server's META and "presented none"), with the listed one the file
// (key in its own file or with the certificate), with another 61; a key
// that is not the certificate's, or a file missing, is a usage error
// before any connection. probe --known-hosts refuses a changed server
// certificate as the URL's error, both fingerprints named.
func TestGetGeminiCert(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	writeTree(t, root, map[string]string{"secret/key.txt": "secret\n", "open.txt": "open\n"})
	cert, key, fp := writeClientCert(t, dir, "reader")
	otherCert, otherKey, _ := writeClientCert(t, dir, "stranger")
	both := filepath.Join(dir, "both.pem")
	c, _ := os.ReadFile(cert)
	k, _ := os.ReadFile(key)
	if err := os.WriteFile(both, append(c, k...), 0o600); err != nil {
		t.Fatal(err)
	}
	scert, skey, _ := peer.SelfSigned(t, filepath.Join(dir))
	s := peer.MollyBrown(t, root, peer.MollyConfig{Cert: scert, Key: skey, Conf: "[CertificateZones]\n\"^/secret\" = [\"" + fp + "\"]\n"})
	secret := peer.GeminiURL(s, "/secret/key.txt")
	kh := filepath.Join(dir, "kh")

	code, _, errs := runCLI(t, "", "get", "--known-hosts", kh, secret)
	if code != 1 || !strings.Contains(errs, "60 A pre-authorised certificate is required") || !strings.Contains(errs, "presented none") {
		t.Errorf("no certificate: exit %d: %s", code, errs)
	}
	for _, args := range [][]string{{"-E", cert, "--key", key}, {"--key", key, "--cert", cert}, {"--cert", both}} {
		code, out, errs := runCLI(t, "", append(append([]string{"get", "--known-hosts", kh, "-v"}, args...), secret)...)
		if code != 0 || out != "secret\n" || !strings.Contains(errs, "client certificate SHA256:"+fp+" presented") {
			t.Errorf("%q: exit %d %q: %s", args, code, out, errs)
		}
	}
	code, _, errs = runCLI(t, "", "get", "--known-hosts", kh, "--cert", otherCert, "--key", otherKey, secret)
	if code != 1 || !strings.Contains(errs, "61 ") || !strings.Contains(errs, "NOT AUTHORISED") {
		t.Errorf("another certificate: exit %d: %s", code, errs)
	}
	// Outside the zone a certificate changes nothing.
	if code, out, errs := runCLI(t, "", "get", "--known-hosts", kh, "-E", cert, "--key", key, peer.GeminiURL(s, "/open.txt")); code != 0 || out != "open\n" {
		t.Errorf("outside the zone: exit %d %q: %s", code, out, errs)
	}
	for _, args := range [][]string{{"--cert", cert, "--key", otherKey}, {"--key", otherKey, "-E", cert}, {"--cert", filepath.Join(dir, "missing.pem")}} {
		code, _, errs := runCLI(t, "", append(append([]string{"get", "--known-hosts", kh, "-v"}, args...), secret)...)
		if code != 2 || strings.Contains(errs, "> gemini:") {
			t.Errorf("%q: exit %d: %s", args, code, errs)
		}
	}
	// A certificate without its key: the request fails when the server
	// asks for it, nothing sent.
	code, _, errs = runCLI(t, "", "get", "--known-hosts", kh, "-v", "--cert", cert, secret)
	if code == 0 || code == 2 || !strings.Contains(errs, "--cert "+cert) || strings.Contains(errs, "> gemini:") {
		t.Errorf("no key: exit %d: %s", code, errs)
	}

	// probe: the same flags.
	code, out, errs := runCLI(t, "", "probe", "--known-hosts", kh, secret)
	if code != 1 || !strings.HasPrefix(out, "refused 60 ") {
		t.Errorf("probe without a certificate: exit %d\n%s%s", code, out, errs)
	}
	code, out, errs = runCLI(t, "", "probe", "--known-hosts", kh, "--cert", cert, "--key", key, secret)
	if code != 0 || !strings.HasPrefix(out, "ok      20 ") {
		t.Errorf("probe with the certificate: exit %d\n%s%s", code, out, errs)
	}
	// A changed server certificate: the probe's error, both
	// fingerprints named, nothing sent.
	b, err := os.ReadFile(kh)
	if err != nil || !strings.HasPrefix(string(b), s.Addr+" SHA256:") {
		t.Fatalf("known hosts %q %v", b, err)
	}
	serverFP := strings.Fields(string(b))[1]
	other := "SHA256:" + strings.Repeat("0f", 32)
	if err := os.WriteFile(kh, []byte(s.Addr+" "+other+" 2999-01-01T00:00:00Z\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errs = runCLI(t, "", "probe", "--known-hosts", kh, "-v", secret)
	if code != 1 || !strings.HasPrefix(out, "error ") || !strings.Contains(out, other) || !strings.Contains(out, serverFP) || !strings.Contains(out, "remove line 1 of "+kh) || strings.Contains(errs, "> gemini:") {
		t.Errorf("probe, a changed certificate: exit %d\n%s%s", code, out, errs)
	}
	code, out, _ = runCLI(t, "", "probe", "--known-hosts", kh, "--json", secret)
	if code != 1 || !strings.Contains(out, `"status":"error"`) || !strings.Contains(out, other) {
		t.Errorf("probe --json, a changed certificate: exit %d\n%s", code, out)
	}
}

// TestGetGeminiCertOrigin: -E's certificate goes to the server of the
// URL given only: a redirection from another server to the certificate
// zone finds no certificate presented (60), as -u's credentials stay
// with the first server; the same zone asked directly gets the file.
func TestGetGeminiCertOrigin(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	writeTree(t, root, map[string]string{"secret/key.txt": "secret\n"})
	cert, key, fp := writeClientCert(t, dir, "reader")
	scert, skey, _ := peer.SelfSigned(t, dir)
	s := peer.MollyBrown(t, root, peer.MollyConfig{Cert: scert, Key: skey, Conf: "[CertificateZones]\n\"^/secret\" = [\"" + fp + "\"]\n"})
	secret := peer.GeminiURL(s, "/secret/key.txt")
	// molly-brown's own redirections stay on its server; a CGI script
	// of its sends one to the other.
	oroot := t.TempDir()
	cgi := filepath.Join(oroot, "cgi")
	writeTree(t, cgi, map[string]string{"go": "#!/bin/sh\nprintf '31 " + secret + "\\r\\n'\n"})
	if err := os.Chmod(filepath.Join(cgi, "go"), 0o755); err != nil {
		t.Fatal(err)
	}
	other := peer.MollyBrown(t, oroot, peer.MollyConfig{Cert: scert, Key: skey, Conf: `CGIPaths = ["` + cgi + `"]`})
	kh := filepath.Join(dir, "kh")

	code, _, errs := runCLI(t, "", "get", "--known-hosts", kh, "-v", "-E", cert, "--key", key, peer.GeminiURL(other, "/cgi/go"))
	if code != 1 || !strings.Contains(errs, "< 31 "+secret) || !strings.Contains(errs, "presented none") || strings.Count(errs, "client certificate SHA256:") != 1 {
		t.Errorf("redirected to the zone: exit %d: %s", code, errs)
	}
	code, out, errs := runCLI(t, "", "get", "--known-hosts", kh, "-E", cert, "--key", key, secret)
	if code != 0 || out != "secret\n" {
		t.Errorf("the zone's own URL: exit %d %q: %s", code, out, errs)
	}
}
