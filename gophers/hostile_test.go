package gophers_test

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/gophers"
	"github.com/rfc1738/locator/internal/peer"
)

// tlsHostile starts a hostile listener that speaks TLS with the test's
// certificate and then runs serve on the decrypted connection (and the
// TCP connection under it); it returns its address and a Client that
// trusts the certificate.
func tlsHostile(t *testing.T, serve func(c *tls.Conn, raw net.Conn)) (string, *access.Client) {
	t.Helper()
	cert, key, roots := peer.SelfSigned(t, t.TempDir())
	kp, err := tls.LoadX509KeyPair(cert, key)
	if err != nil {
		t.Fatal(err)
	}
	addr := peer.Hostile(t, func(c net.Conn) {
		c.SetDeadline(time.Now().Add(10 * time.Second))
		tc := tls.Server(c, &tls.Config{Certificates: []tls.Certificate{kp}})
		if tc.Handshake() != nil {
			return
		}
		serve(tc, c)
		tc.Close()
	})
	return addr, &access.Client{MaxLine: 200, IdleTimeout: 5 * time.Second,
		Schemes: map[string]access.Fetcher{"gophers": &gophers.Client{TLSConfig: &tls.Config{RootCAs: roots}}}}
}

// TestGophersHostile: faults no real server makes on purpose.
func TestGophersHostile(t *testing.T) {
	roots := func() *tls.Config { _, _, r := peer.SelfSigned(t, t.TempDir()); return &tls.Config{RootCAs: r} }
	plainClient := &access.Client{IdleTimeout: 5 * time.Second, Schemes: map[string]access.Fetcher{"gophers": &gophers.Client{TLSConfig: roots()}}}
	getErr := func(c *access.Client, raw string) error {
		u, _ := locator.Parse(raw)
		res, err := c.Get(context.Background(), u)
		if err == nil {
			if res.Listing != nil {
				_, err = res.Listing.ReadAll()
			}
			res.Close()
		}
		return err
	}

	t.Run("closed in the handshake", func(t *testing.T) {
		addr := peer.Hostile(t, func(c net.Conn) {})
		err := getErr(plainClient, "gophers://"+addr+"/0x")
		var te *gophers.TLSError
		if !errors.As(err, &te) || te.Addr != addr || access.Classify(err) != access.Failed {
			t.Errorf("%T %v", err, err)
		}
	})

	t.Run("endless octets that are not TLS", func(t *testing.T) {
		addr := peer.Hostile(t, func(c net.Conn) {
			c.Write(bytes.Repeat([]byte{0xff, 'x'}, 64<<10))
		})
		err := getErr(plainClient, "gophers://"+addr+"/0x")
		var nt *gophers.NotTLSError
		if !errors.As(err, &nt) || len(nt.Reply) != gophers.MaxReply || nt.Reply[0] != 0xff {
			t.Fatalf("%T %v", err, err)
		}
		if strings.ContainsRune(err.Error(), 0xff) || !strings.Contains(err.Error(), `\xff`) {
			t.Errorf("the message is not printable: %q", err.Error())
		}
	})

	t.Run("a plain menu before any request", func(t *testing.T) {
		addr := peer.Hostile(t, func(c net.Conn) {
			c.Write([]byte("3Not TLS\terror.host\t1\r\n.\r\n"))
		})
		err := getErr(plainClient, "gophers://"+addr+"/1")
		var nt *gophers.NotTLSError
		if !errors.As(err, &nt) || nt.Reply != "3Not TLS\terror.host\t1\r\n" {
			t.Errorf("%T %v", err, err)
		}
	})

	t.Run("an endless menu line over TLS", func(t *testing.T) {
		addr, c := tlsHostile(t, func(c *tls.Conn, _ net.Conn) {
			bufio.NewReader(c).ReadString('\n')
			c.Write([]byte("0" + strings.Repeat("a", 10000)))
		})
		raw := "gophers://" + addr + "/1"
		err := getErr(c, raw)
		var pe *access.ProtocolError
		if !errors.As(err, &pe) || pe.URL != raw {
			t.Errorf("%T %v", err, err)
		}
	})

	t.Run("a reply cut without close_notify", func(t *testing.T) {
		addr, c := tlsHostile(t, func(c *tls.Conn, raw net.Conn) {
			bufio.NewReader(c).ReadString('\n')
			c.Write(bytes.Repeat([]byte("binary"), 1000))
			raw.Close() // no close_notify: as a third party cutting the stream would
		})
		u, _ := locator.Parse("gophers://" + addr + "/9file.bin")
		res, err := c.Get(context.Background(), u)
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(res.Body)
		res.Close()
		var pe *access.ProtocolError
		if !errors.As(err, &pe) || !strings.Contains(pe.Msg, "close_notify") || pe.URL != u.String() || len(b) != 6000 {
			t.Errorf("%d octets, %T %v", len(b), err, err)
		}
	})
}
