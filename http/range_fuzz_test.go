package http

import (
	"context"
	"errors"
	"io"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/internal/loctest"
	"github.com/rfc1738/locator/internal/peer"
)

// FuzzContentRange reads arbitrary Content-Range values: no panic; what
// is accepted is a satisfied range (0 ≤ first ≤ last, last below a known
// complete length) or an unsatisfied one (first and last -1, a complete
// length), and writes back as a value that reads the same; a value
// written as RFC 9110 §14.4 spells it reads back to itself.
func FuzzContentRange(f *testing.F) {
	for _, s := range []string{"bytes 0-0/1", "bytes 1000-2999/3000", "bytes */3000", "bytes 0-9/*", "BYTES 1-2/3",
		"bytes 5-4/10", "bytes 0-10/10", "bytes -1-2/3", "bytes 1-2/ 3", "bytes  1-2/3", "bytes 9223372036854775807-9223372036854775807/*",
		"bytes 1-9223372036854775808/*", "items 1-2/3", "bytes */*", "bytes 01-2/3", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		first, last, complete, ok := contentRange(v)
		if !ok {
			if rangeTotal(v) != -1 {
				t.Fatalf("%q refused, yet rangeTotal %d", v, rangeTotal(v))
			}
			return
		}
		var back string
		switch {
		case first == -1 && last == -1 && complete >= 0:
			back = "bytes */" + strconv.FormatInt(complete, 10)
		case first >= 0 && first <= last && (complete == -1 || last < complete):
			back = "bytes " + strconv.FormatInt(first, 10) + "-" + strconv.FormatInt(last, 10) + "/"
			if complete == -1 {
				back += "*"
			} else {
				back += strconv.FormatInt(complete, 10)
			}
		default:
			t.Fatalf("%q read as %d-%d/%d", v, first, last, complete)
		}
		f2, l2, c2, ok2 := contentRange(back)
		if !ok2 || f2 != first || l2 != last || c2 != complete {
			t.Fatalf("%q read as %d-%d/%d, written %q, read back %d-%d/%d %v", v, first, last, complete, back, f2, l2, c2, ok2)
		}
		if strings.HasPrefix(v, "bytes ") && v != back && !leadingZero(v) {
			t.Fatalf("%q written back as %q", v, back)
		}
		if rangeTotal(v) != complete {
			t.Fatalf("%q: rangeTotal %d, complete %d", v, rangeTotal(v), complete)
		}
	})
}

// leadingZero reports whether a number in v is written with a leading
// zero (which reads, and writes back without it).
func leadingZero(v string) bool {
	for i := 0; i+1 < len(v); i++ {
		if v[i] == '0' && (i == 0 || v[i-1] < '0' || v[i-1] > '9') && v[i+1] >= '0' && v[i+1] <= '9' {
			return true
		}
	}
	return false
}

// FuzzResume serves arbitrary octets as the reply to a request resumed
// at octet 5 ("Range: bytes=5-"), with ErrorBody on: no panic; a
// delivered object begins at octet 5 (GetFrom refuses any other) and
// holds no more than MaxSize octets; a ServerError's Body is no longer
// than MaxSize; every outcome delivered, absent or failed.
func FuzzResume(f *testing.F) {
	f.Add([]byte("HTTP/1.1 206 Partial Content\r\nContent-Range: bytes 5-9/10\r\nContent-Length: 5\r\n\r\nfghij"))
	f.Add([]byte("HTTP/1.1 206 Partial Content\r\nContent-Range: bytes 0-9/10\r\nContent-Length: 10\r\n\r\nabcdefghij"))
	f.Add([]byte("HTTP/1.1 206 Partial Content\r\nContent-Range: bytes 5-9/*\r\n\r\nfghij"))
	f.Add([]byte("HTTP/1.1 416 Range Not Satisfiable\r\nContent-Range: bytes */5\r\n\r\n"))
	f.Add([]byte("HTTP/1.1 416 Range Not Satisfiable\r\nContent-Range: bytes */50\r\n\r\n"))
	f.Add([]byte("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabcdefghij"))
	f.Add([]byte("HTTP/1.1 404 Not Found\r\nContent-Length: 40\r\n\r\n<html>0123456789012345678901234567890123"))
	f.Add([]byte("HTTP/1.1 206 Partial Content\r\nContent-Range: bytes 5-4/10\r\n\r\n"))
	replies := make(chan []byte)
	addr := peer.Hostile(f, func(c net.Conn) {
		reply := <-replies
		c.SetDeadline(time.Now().Add(5 * time.Second))
		go io.Copy(io.Discard, c)
		c.Write(reply)
	})
	u, err := locator.Parse("http://" + addr + "/x")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, reply []byte) {
		go func() { replies <- reply }()
		c := &access.Client{MaxSize: 16, MaxRedirects: -1, IdleTimeout: 2 * time.Second, MaxLine: 256,
			Policy:  access.Policy{Allow: loctest.Rules(t, "127.0.0.1")},
			Schemes: map[string]access.Fetcher{"http": &Client{ErrorBody: true}}}
		res, err := c.GetFrom(context.Background(), u, 5)
		if err == nil {
			if res.Offset != 5 {
				t.Fatalf("delivered from octet %d", res.Offset)
			}
			b, rerr := io.ReadAll(res.Body)
			res.Close()
			if len(b) > 16 {
				t.Fatalf("%d octets delivered past MaxSize 16", len(b))
			}
			err = rerr
		}
		var se *access.ServerError
		switch access.Classify(err) {
		case access.Delivered, access.Failed:
		case access.Absent:
			if !errors.As(err, &se) || len(se.Code) != 3 || se.Code < "400" || se.Code > "599" || len(se.Body) > 16 {
				t.Fatalf("absent with %v, body %q", err, se.Body)
			}
		default:
			t.Fatalf("outcome %d: %v", access.Classify(err), err)
		}
	})
}
