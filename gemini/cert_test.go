package gemini_test

// Client certificates (Gemini §4.3, status 6x of §3.2.6) against
// molly-brown's certificate zones: a path that only the holder of a
// listed certificate may read.

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/hex"
	"errors"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/gemini"
	"github.com/rfc1738/locator/internal/loctest"
)

// clientCert makes a self-signed client certificate valid from
// notBefore to notAfter, and returns it with the hex SHA-256 digest of
// its DER encoding, the form molly-brown's CertificateZones list.
func clientCert(t *testing.T, name string, notBefore, notAfter time.Time) (tls.Certificate, string) {
	t.Helper()
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: name},
		NotBefore: notBefore, NotAfter: notAfter,
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &k.PublicKey, k)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(der)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: k}, hex.EncodeToString(sum[:])
}

// TestClientCertificate reads a path of a certificate zone: without a
// certificate molly-brown answers 60, with one it does not list 61, with
// an expired one 65 (an earlier version's "certificate not valid"), and
// with the listed one the file; each refusal says what was presented.
// The function choosing the certificate is asked with the URL.
func TestClientCertificate(t *testing.T) {
	now := time.Now()
	good, goodHex := clientCert(t, "reader", now.Add(-time.Hour), now.Add(time.Hour))
	other, _ := clientCert(t, "stranger", now.Add(-time.Hour), now.Add(time.Hour))
	expired, expiredHex := clientCert(t, "late", now.Add(-2*time.Hour), now.Add(-time.Hour))
	m := startMolly(t, "[CertificateZones]\n\"^/secret\" = [\""+goodHex+"\", \""+expiredHex+"\"]\n")
	secret := m.url("/secret/key.txt")

	var asked []string
	for _, c := range []struct {
		name string
		cert *tls.Certificate
		code string
		msg  string
	}{
		{"none", nil, "60", "this client presented none"},
		{"stranger", &other, "61", "61 CERTIFICATE NOT AUTHORISED); the certificate presented (SHA256:"},
		{"expired", &expired, "65", "62 CERTIFICATE NOT VALID, or an earlier 6x: expired, not yet valid); the certificate presented (SHA256:" + expiredHex + ")"},
	} {
		g := &gemini.Client{KnownHosts: m.root + "/../known_hosts", Certificate: func(u *locator.URL) (*tls.Certificate, error) {
			asked = append(asked, u.String())
			return c.cert, nil
		}}
		ac, log := client(t, g)
		_, _, err := get(t, ac, secret)
		var se *access.ServerError
		if !errors.As(err, &se) || se.Code != c.code || se.Text == "" || !strings.Contains(err.Error(), se.Text) || !strings.Contains(se.Rule, c.msg) || access.Classify(err) != access.Absent {
			t.Errorf("%s: %v (%v), want %s and %q\n%s", c.name, err, access.Classify(err), c.code, c.msg, log)
		}
		if c.cert != nil && !strings.Contains(log.String(), "client certificate SHA256:") {
			t.Errorf("%s: the dialogue does not say a certificate was presented:\n%s", c.name, log)
		}
		st := ac.Probe(context.Background(), loctest.MustParse(t, secret))
		if st.State != access.StateRefused || st.Code != c.code {
			t.Errorf("%s: probe %+v", c.name, st)
		}
	}
	if len(asked) != 6 || asked[0] != secret {
		t.Errorf("Certificate asked for %q", asked)
	}

	g := &gemini.Client{KnownHosts: m.root + "/../known_hosts", Certificate: func(*locator.URL) (*tls.Certificate, error) { return &good, nil }}
	ac, log := client(t, g)
	_, body, err := get(t, ac, secret)
	if err != nil || string(body) != "secret\n" {
		t.Fatalf("the listed certificate: %q %v\n%s", body, err, log)
	}
	if !strings.Contains(log.String(), "client certificate SHA256:"+goodHex+" presented") {
		t.Errorf("dialogue:\n%s", log)
	}
	// Outside the zone the certificate changes nothing.
	if _, body, err := get(t, ac, m.url("/hello.txt")); err != nil || string(body) != "hello, gemini\r\nline two\n" {
		t.Errorf("outside the zone: %q %v", body, err)
	}

	// Certificate's error fails the request, before anything is sent.
	bad := errors.New("no such identity")
	ac, log = client(t, &gemini.Client{KnownHosts: m.root + "/../known_hosts", Certificate: func(*locator.URL) (*tls.Certificate, error) { return nil, bad }})
	_, _, err = get(t, ac, secret)
	var ce *gemini.CertificateChoiceError
	if !errors.As(err, &ce) || !errors.Is(err, bad) || ce.URL != secret || strings.Contains(log.String(), "> ") {
		t.Errorf("Certificate fails: %v\n%s", err, log)
	}
}
