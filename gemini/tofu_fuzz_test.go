package gemini

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"errors"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// FuzzKnownHosts reads a known-hosts file of any content for a server of
// any spelling (Gemini §4.2): check never panics, fails only with a
// *KnownHostsError or a *CertificateError, never grows the file past
// maxKnownHosts, and a certificate it trusts is known on the next check,
// under the server's key (ServerKey, which its own output keeps:
// RFC 1738 §3.1's host read once is read the same again).
func FuzzKnownHosts(f *testing.F) {
	now := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		f.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "h"}, NotBefore: now.Add(-time.Hour), NotAfter: now.Add(time.Hour)}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &k.PublicKey, k)
	if err != nil {
		f.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	fp := fingerprint(cert)
	f.Add("", "127.0.0.1", 1965)
	f.Add("127.0.0.1:1965 "+fp+" 2027-01-01T00:00:00Z\n", "[::ffff:127.0.0.1]", 1965)
	f.Add("# c\n[::FFFF:127.0.0.1]:1965 SHA256:00 2026-01-01T00:00:00Z\nlocalhost:1965 SHA256:00 2026-01-01T00:00:00Z", "%31%32%37.0.0.1", 1965)
	f.Add("LOCALHOST:01965 SHA256:ab 2027-01-01T00:00:00Z\n", "localhost.", 1965)
	f.Add("x:1 SHA256:ab notatime\n", "x", 1)
	f.Add(strings.Repeat("a", 2000), "ⓛocalhost", 70)
	f.Fuzz(func(t *testing.T, content, host string, port int) {
		port &= 0xffff
		key := serverKey(host, port)
		if lineKey(key) != key {
			t.Fatalf("ServerKey(%q, %d) = %q, read back as %q", host, port, key, lineKey(key))
		}
		file := filepath.Join(t.TempDir(), "known_hosts")
		if err := os.WriteFile(file, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		var kh knownHosts
		v, err := kh.check(file, key, cert, now)
		after, rerr := os.ReadFile(file)
		if rerr != nil {
			t.Fatal(rerr)
		}
		if len(after) > max(len(content), maxKnownHosts) {
			t.Fatalf("the file grew to %d octets", len(after))
		}
		if err != nil {
			var ke *KnownHostsError
			var ce *CertificateError
			if !errors.As(err, &ke) && !errors.As(err, &ce) {
				t.Fatalf("error %T %v", err, err)
			}
			if !bytes.Equal(after, []byte(content)) {
				t.Fatalf("the file changed on an error: %v", err)
			}
			return
		}
		if v == known && !bytes.Equal(after, []byte(content)) {
			t.Fatalf("the file changed for a known certificate")
		}
		if v2, err := kh.check(file, key, cert, now); err != nil || v2 != known {
			t.Fatalf("after %q: %q %v", v, v2, err)
		}
	})
}
