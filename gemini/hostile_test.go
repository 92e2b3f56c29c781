package gemini_test

// Faults no real server makes on purpose, from a hostile TLS listener
// (peer.Hostile): an endless status line, a header without CR LF, a
// body that never ends, a redirect to nowhere, and a certificate that
// changes between two connections.

import (
	"bufio"
	"context"
	"crypto/tls"
	"errors"
	"io"
	"net"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/gemini"
	"github.com/rfc1738/locator/internal/loctest"
	"github.com/rfc1738/locator/internal/peer"
)

// keyPair makes a self-signed certificate for 127.0.0.1.
func keyPair(t *testing.T) (tls.Certificate, string) {
	t.Helper()
	cert, key, _ := peer.SelfSigned(t, t.TempDir())
	kp, err := tls.LoadX509KeyPair(cert, key)
	if err != nil {
		t.Fatal(err)
	}
	return kp, fingerprintOf(t, cert)
}

// hostile serves TLS with the certificate pick returns for the n-th
// connection (from 0), reads the request line and runs reply.
func hostile(t *testing.T, pick func(n int64) tls.Certificate, reply func(c net.Conn)) string {
	t.Helper()
	var n atomic.Int64
	return peer.Hostile(t, func(c net.Conn) {
		kp := pick(n.Add(1) - 1)
		tc := tls.Server(c, &tls.Config{Certificates: []tls.Certificate{kp}})
		tc.SetDeadline(time.Now().Add(20 * time.Second))
		if _, err := bufio.NewReader(tc).ReadString('\n'); err != nil {
			return
		}
		reply(tc)
	})
}

func TestHostileReplies(t *testing.T) {
	kp, _ := keyPair(t)
	one := func(int64) tls.Certificate { return kp }
	write := func(s string) func(net.Conn) {
		return func(c net.Conn) { io.WriteString(c, s) }
	}
	endless := func(prefix string) func(net.Conn) {
		return func(c net.Conn) {
			io.WriteString(c, prefix)
			b := []byte(strings.Repeat("a", 4096))
			for {
				if _, err := c.Write(b); err != nil {
					return
				}
			}
		}
	}
	for _, c := range []struct {
		name  string
		reply func(net.Conn)
		want  string
	}{
		{"endless status line", endless("20 "), "no CR LF within 1029 octets"},
		{"endless status digits", endless(""), "no CR LF within 1029 octets"},
		{"no CR LF, closed", write("20 text/gemini"), "the connection closed before the header's CR LF"},
		{"LF alone", write("20 text/gemini\nbody"), "ends in LF without CR"},
		{"nothing", write(""), "without a response header"},
		{"status of one digit", write("2 text/gemini\r\n"), "not two digits"},
		{"no space", write("20text/gemini\r\n"), "not a space"},
		{"redirect to nowhere", write("30 \r\n"), "without a URL in META"},
	} {
		addr := hostile(t, one, c.reply)
		ac, _ := client(t, &gemini.Client{Insecure: true})
		_, _, err := get(t, ac, "gemini://"+addr+"/")
		var pe *access.ProtocolError
		if !errors.As(err, &pe) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want a protocol error %q", c.name, err, c.want)
		}
	}

	// A body that never ends is cut at MaxSize.
	addr := hostile(t, one, endless("20 application/octet-stream\r\n"))
	ac, _ := client(t, &gemini.Client{Insecure: true})
	ac.MaxSize = 1 << 20
	res, err := ac.Get(context.Background(), loctest.MustParse(t, "gemini://"+addr+"/"))
	if err != nil {
		t.Fatal(err)
	}
	n, err := io.Copy(io.Discard, res.Body)
	res.Close()
	if !errors.Is(err, access.ErrTooLarge) || n != 1<<20 {
		t.Errorf("endless body: %d octets, %v", n, err)
	}
}

// TestCertificateSwap: a server whose certificate changes between two
// connections is trusted on the first and refused on the second, with
// both fingerprints.
func TestCertificateSwap(t *testing.T) {
	a, fa := keyPair(t)
	b, fb := keyPair(t)
	addr := hostile(t, func(n int64) tls.Certificate {
		if n == 0 {
			return a
		}
		return b
	}, func(c net.Conn) { io.WriteString(c, "20 text/plain\r\nhi") })
	kh := filepath.Join(t.TempDir(), "known_hosts")
	ac, _ := client(t, &gemini.Client{KnownHosts: kh})
	if _, body, err := get(t, ac, "gemini://"+addr+"/"); err != nil || string(body) != "hi" {
		t.Fatalf("first connection: %q %v", body, err)
	}
	_, _, err := get(t, ac, "gemini://"+addr+"/")
	var ce *gemini.CertificateError
	if !errors.As(err, &ce) || ce.Known != fa || ce.Got != fb || ce.Server != addr {
		t.Fatalf("second connection: %v, want a *CertificateError from %s to %s", err, fa, fb)
	}
	if !strings.Contains(err.Error(), fa) || !strings.Contains(err.Error(), fb) {
		t.Errorf("message %q lacks a fingerprint", err)
	}
}

// TestContextEndsBody: a body whose server stalls ends when the caller's
// context does, well before the idle timeout.
func TestContextEndsBody(t *testing.T) {
	kp, _ := keyPair(t)
	release := make(chan struct{})
	defer close(release)
	addr := hostile(t, func(int64) tls.Certificate { return kp }, func(c net.Conn) {
		io.WriteString(c, "20 text/plain\r\npart")
		<-release
	})
	ac, _ := client(t, &gemini.Client{Insecure: true})
	ctx, cancel := context.WithCancel(context.Background())
	res, err := ac.Get(ctx, loctest.MustParse(t, "gemini://"+addr+"/"))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Close()
	time.AfterFunc(200*time.Millisecond, cancel)
	start := time.Now()
	b, err := io.ReadAll(res.Body)
	if err == nil || string(b) != "part" || time.Since(start) > 10*time.Second {
		t.Errorf("stalled body after cancel: %q %v after %v", b, err, time.Since(start))
	}
}
