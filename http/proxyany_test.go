package http

// A URL of another scheme through an http proxy (access.Client.Proxy):
// ftp URLs through squid, which speaks FTP to pyftpdlib itself, the
// octets equal to those of a direct FTP retrieval; the proxy's own
// refusals and a proxy that answers no HTTP.

import (
	"bytes"
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rfc1738/locator/access"
	_ "github.com/rfc1738/locator/ftp" // the direct retrieval to compare with
	"github.com/rfc1738/locator/internal/loctest"
	"github.com/rfc1738/locator/internal/peer"
)

func TestProxyFTPSquid(t *testing.T) {
	squid, squidLog := peer.Squid(t, forbidden)
	root := t.TempDir()
	blob := make([]byte, 200_000)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range blob {
		blob[i] = byte(r.UintN(256))
	}
	if err := os.WriteFile(filepath.Join(root, "blob.bin"), blob, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte("alpha\r\nbeta\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ftpd := peer.Pyftpdlib(t, root, peer.PyftpdOptions{})
	base := "ftp://" + ftpd.Addr
	proxied := func(dia io.Writer) *access.Client {
		return &access.Client{Dialogue: dia, IdleTimeout: 20 * time.Second, Proxy: proxyTo(squid)}
	}

	// Squid fetches a text/* file in ASCII mode (RFC 959 §3.1.1.1: CRLF
	// line ends, which it passes on), the client in image mode unless
	// the URL says ;type=a: only the octets of an image transfer are
	// compared.
	for _, name := range []string{"/blob.bin", "/a.txt;type=i"} {
		var dia strings.Builder
		res, b, err := get(t, base+name, proxied(&dia))
		if err != nil {
			t.Fatalf("%s: %v\n%s", name, err, dia.String())
		}
		_, direct, err := get(t, base+name, &access.Client{})
		if err != nil {
			t.Fatalf("%s directly: %v", name, err)
		}
		if !bytes.Equal(b, direct) || len(b) == 0 {
			t.Errorf("%s: %d octets through squid, %d directly", name, len(b), len(direct))
		}
		if name == "/blob.bin" && (res.Size != int64(len(blob)) || !bytes.Equal(b, blob)) {
			t.Errorf("%s: size %d, want %d", name, res.Size, len(blob))
		}
		target := base + name
		for _, want := range []string{"* proxy " + squid + ": the whole URL as the request target (RFC 1945 §5.1.2)\n", "> GET " + target + " HTTP/1.1\n", "> Host: " + ftpd.Addr + "\n", "< HTTP/1.1 200 "} {
			if !strings.Contains(dia.String(), want) {
				t.Errorf("%s: dialogue lacks %q:\n%s", name, want, dia.String())
			}
		}
		if strings.Count(dia.String(), "* connect ") != 1 || strings.Contains(dia.String(), "> USER") {
			t.Errorf("%s: connected to more than the proxy, or spoke FTP:\n%s", name, dia.String())
		}
		if !squidLogsIn(squidLog, " GET "+target+" ") {
			t.Errorf("squid's log has no GET %s", target)
		}
	}

	t.Run("a missing file: the proxy's reply", func(t *testing.T) {
		_, _, err := get(t, base+"/missing.txt", proxied(nil))
		var se *access.ServerError
		if !errors.As(err, &se) || se.Code != "404" || se.Command != "GET "+base+"/missing.txt" ||
			!strings.Contains(se.Rule, "the proxy "+squid) || access.Classify(err) != access.Absent {
			t.Errorf("%v, want squid's 404 naming it", err)
		}
	})

	t.Run("the password goes to the proxy, masked in the dialogue", func(t *testing.T) {
		var dia strings.Builder
		_, _, err := get(t, "ftp://anonymous:s3cret@"+ftpd.Addr+"/a.txt", proxied(&dia))
		if err != nil {
			t.Fatalf("%v\n%s", err, dia.String())
		}
		if strings.Contains(dia.String(), "s3cret") || !strings.Contains(dia.String(), "> GET ftp://anonymous:****@"+ftpd.Addr+"/a.txt HTTP/1.1\n") {
			t.Errorf("dialogue:\n%s", dia.String())
		}
	})

	t.Run("the proxy's own refusal names it", func(t *testing.T) {
		_, _, err := get(t, "ftp://"+forbidden+"/x", proxied(nil))
		var se *access.ServerError
		if !errors.As(err, &se) || se.Code != "403" || !strings.Contains(se.Rule, "the proxy "+squid) || !strings.Contains(err.Error(), squid) {
			t.Errorf("%v, want squid's 403 naming it", err)
		}
	})

	t.Run("probe: HEAD through the proxy", func(t *testing.T) {
		var dia strings.Builder
		st := proxied(&dia).Probe(context.Background(), loctest.MustParse(t, base+"/blob.bin"))
		if st.State != access.StateOK || st.Size != int64(len(blob)) || !strings.Contains(dia.String(), "> HEAD "+base+"/blob.bin HTTP/1.1\n") {
			t.Errorf("%s size %d (%v)\n%s", st.State, st.Size, st.Err, dia.String())
		}
	})
}

// squidLogsIn waits for squid to write want in its log (at the end of
// the transaction, which may come after the client has its answer).
func squidLogsIn(log, want string) bool {
	for range 200 {
		if b, _ := os.ReadFile(log); strings.Contains(string(b), want) {
			return true
		}
		time.Sleep(10 * time.Millisecond)
	}
	return false
}

// TestProxyGarbage: a proxy whose reply is not HTTP is a ProtocolError
// naming the proxy, for the whole URL on the request line as for a
// tunnel. No real proxy does this on purpose: a hostile listener.
func TestProxyGarbage(t *testing.T) {
	addr := peer.Hostile(t, func(c net.Conn) {
		c.SetDeadline(time.Now().Add(5 * time.Second))
		buf := make([]byte, 4096)
		c.Read(buf)
		io.WriteString(c, "SSH-2.0-OpenSSH_9.2\r\n\r\n")
	})
	for _, u := range []string{"http://127.0.0.1:8080/x", "ftp://127.0.0.1/x", "https://127.0.0.1/x"} {
		_, _, err := get(t, u, &access.Client{Proxy: proxyTo(addr), IdleTimeout: 5 * time.Second})
		var pe *access.ProtocolError
		if !errors.As(err, &pe) || !strings.Contains(pe.Msg, "the proxy "+addr) || access.Classify(err) != access.Failed {
			t.Errorf("%s: %v, want a ProtocolError naming the proxy", u, err)
		}
	}
}

// TestProxyUnreachable: a proxy nothing listens on is a *ProxyError that
// names the proxy, not the URL's server, which was never contacted; it
// is a failure, and not transient (a refused connection). The port is
// one the test bound and closed.
func TestProxyUnreachable(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	for _, u := range []string{"http://127.0.0.1:8080/x", "ftp://127.0.0.1/x", "https://127.0.0.1/x"} {
		_, _, err := get(t, u, &access.Client{Proxy: proxyTo(addr)})
		var pe *ProxyError
		if !errors.As(err, &pe) || pe.Proxy != addr || !strings.Contains(err.Error(), "the proxy "+addr+": ") ||
			access.Classify(err) != access.Failed || access.Transient(err) {
			t.Errorf("%s: %v, want a ProxyError naming %s", u, err, addr)
		}
	}
}
