package http

import (
	"context"
	"errors"
	"io"
	"net"
	"testing"
	"time"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
)

// FuzzReply serves arbitrary octets as an HTTP server's reply and checks
// what the client makes of them: no panic, every outcome classified as
// delivered, absent or failed (never a policy refusal: redirections are
// not followed here, so no fuzzed Location can lead anywhere), never
// more than MaxSize octets delivered, and a ServerError only for a
// status the reply really gave.
func FuzzReply(f *testing.F) {
	f.Add([]byte("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello"))
	f.Add([]byte("HTTP/1.0 404 Not Found\r\n\r\n"))
	f.Add([]byte("HTTP/1.1 301 Moved\r\nLocation: http://127.0.0.1:25/\r\n\r\n"))
	f.Add([]byte("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n"))
	f.Add([]byte("HTTP/1.1 200 OK\r\n\r\n" + "0123456789abcdefghij"))
	f.Add([]byte("garbage"))
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
	f.Fuzz(func(t *testing.T, reply []byte) {
		go func() { replies <- reply }()
		opts := access.Options{MaxSize: 16, MaxRedirects: -1, IdleTimeout: 2 * time.Second, MaxLine: 256,
			Policy: access.Policy{AllowHosts: []string{"127.0.0.1"}}}
		res, err := access.Get(context.Background(), u, opts)
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
