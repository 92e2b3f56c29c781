package http

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/internal/loctest"
)

// FuzzReply serves arbitrary octets as an HTTP server's reply and checks
// what the client makes of them: no panic, every outcome classified as
// delivered, absent or failed (never a policy refusal: redirections are
// not followed here, so no fuzzed Location can lead anywhere), never
// more than MaxSize octets delivered (decoded octets, when the client
// asks for gzip), and a ServerError only for a status the reply really
// gave.
func FuzzReply(f *testing.F) {
	f.Add([]byte("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello"), false)
	f.Add([]byte("HTTP/1.0 404 Not Found\r\n\r\n"), false)
	f.Add([]byte("HTTP/1.1 301 Moved\r\nLocation: http://127.0.0.1:25/\r\n\r\n"), false)
	f.Add([]byte("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n"), false)
	f.Add([]byte("HTTP/1.1 200 OK\r\n\r\n"+"0123456789abcdefghij"), false)
	f.Add([]byte("garbage"), false)
	// A gzip body (RFC 9110 §8.4.1.3) of 64 octets "a", for Compressed.
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write(bytes.Repeat([]byte("a"), 64))
	zw.Close()
	f.Add(append([]byte("HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\n\r\n"), z.Bytes()...), true)
	f.Add(append([]byte("HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\n\r\n"), z.Bytes()[:10]...), true)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		f.Fatal(err)
	}
	defer ln.Close()
	replies := make(chan []byte)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			reply := <-replies
			go func() {
				c.SetDeadline(time.Now().Add(5 * time.Second))
				go io.Copy(io.Discard, c)
				c.Write(reply)
				c.Close()
			}()
		}
	}()
	u, err := locator.Parse("http://" + ln.Addr().String() + "/x")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, reply []byte, compressed bool) {
		go func() { replies <- reply }()
		c := &access.Client{MaxSize: 16, MaxRedirects: -1, IdleTimeout: 2 * time.Second, MaxLine: 256,
			Policy:  access.Policy{Allow: loctest.Rules(t, "127.0.0.1")},
			Schemes: map[string]access.Fetcher{"http": &Client{Compressed: compressed}}}
		res, err := c.Get(context.Background(), u)
		if err == nil {
			b, rerr := io.ReadAll(res.Body)
			res.Close()
			if len(b) > 16 {
				t.Fatalf("%d octets delivered past MaxSize 16", len(b))
			}
			err = rerr
		}
		switch access.Classify(err) {
		case access.Delivered, access.Failed:
		case access.Absent:
			var se *access.ServerError
			if !errors.As(err, &se) || len(se.Code) != 3 || se.Code < "400" || se.Code > "599" {
				t.Fatalf("absent with %v", err)
			}
		default:
			t.Fatalf("outcome %d: %v", access.Classify(err), err)
		}
	})
}

// FuzzConnectReply serves arbitrary octets as a proxy's reply to CONNECT
// (RFC 9110 §9.3.6) and checks what the client makes of them: no panic,
// nothing delivered (no TLS server is behind the proxy: after a 2xx the
// handshake fails), every outcome absent or failed, and a ServerError
// only for a status line the reply gave, of a code that is not 2xx,
// naming the CONNECT.
func FuzzConnectReply(f *testing.F) {
	f.Add([]byte("HTTP/1.1 200 Connection established\r\n\r\n"))
	f.Add([]byte("HTTP/1.1 403 Forbidden\r\nContent-Length: 3\r\n\r\nno!"))
	f.Add([]byte("HTTP/1.0 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm=\"x\"\r\n\r\n"))
	f.Add([]byte("HTTP/1.1 503 Service Unavailable\r\n"))
	f.Add([]byte("HTTP/1.1 2000 OK\r\n\r\n"))
	f.Add([]byte("garbage"))
	f.Add([]byte(strings.Repeat("X: y\r\n", 120)))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		f.Fatal(err)
	}
	defer ln.Close()
	replies := make(chan []byte)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			reply := <-replies
			go func() {
				defer c.Close()
				c.SetDeadline(time.Now().Add(5 * time.Second))
				// The whole CONNECT request first, so that the reply
				// answers it rather than racing it.
				br := bufio.NewReader(c)
				for {
					l, err := br.ReadString('\n')
					if err != nil || l == "\r\n" {
						break
					}
				}
				c.Write(reply)
			}()
		}
	}()
	u, err := locator.Parse("https://example.org/x")
	if err != nil {
		f.Fatal(err)
	}
	c := &access.Client{MaxRedirects: -1, IdleTimeout: 2 * time.Second, MaxLine: 256,
		Proxy: proxyTo(ln.Addr().String()), Schemes: with(&Client{})}
	f.Fuzz(func(t *testing.T, reply []byte) {
		go func() { replies <- reply }()
		res, err := c.Get(context.Background(), u)
		if err == nil {
			res.Close()
			t.Fatalf("delivered through a tunnel to no TLS server, reply %q", reply)
		}
		var se *access.ServerError
		switch access.Classify(err) {
		case access.Failed:
			if errors.As(err, &se) {
				t.Fatalf("failed with a ServerError: %v", err)
			}
		case access.Absent:
			if !errors.As(err, &se) || len(se.Code) != 3 || se.Code[0] == '2' || se.Command != "CONNECT example.org:443" ||
				!bytes.HasPrefix(reply, []byte("HTTP/")) || !bytes.Contains(reply, []byte(" "+se.Code)) {
				t.Fatalf("absent with %v, reply %q", err, reply)
			}
		default:
			t.Fatalf("outcome %v: %v", access.Classify(err), err)
		}
	})
}
