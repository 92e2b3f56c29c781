package http

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"net"
	"testing"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/internal/loctest"
)

// FuzzReplay reads arbitrary octets back as a recorded HTTP reply
// (Client.Replay) and checks what comes of them: no panic, no
// connection, never more than MaxSize octets delivered, every outcome
// delivered, absent or failed, and every failure a reply's (a
// *access.ProtocolError for a recording that is not a whole HTTP
// reply, a *access.ServerError for a refusal), ErrTooLarge, or, for a
// gzip body the client decodes, the gzip reader's (an empty body is
// gzip's unexpected end).
func FuzzReplay(f *testing.F) {
	f.Add([]byte("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Type: text/plain\r\n\r\nhello"), false)
	f.Add([]byte("HTTP/1.0 404 Not Found\r\n\r\n"), false)
	f.Add([]byte("HTTP/1.1 301 Moved\r\nLocation: http://127.0.0.1:25/\r\nContent-Length: 3\r\n\r\nabc"), false)
	f.Add([]byte("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n"), false)
	f.Add([]byte("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\n\r\n0123456789"), false)
	f.Add([]byte("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc"), false)
	f.Add([]byte("garbage"), false)
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write(bytes.Repeat([]byte("a"), 100))
	zw.Close()
	f.Add(append([]byte("HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\n\r\n"), z.Bytes()...), true)
	f.Add(append([]byte("HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n8\r\n"), z.Bytes()[:8]...), true)
	u, err := locator.Parse("http://127.0.0.1/x")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, rec []byte, compressed bool) {
		arc := &loctest.Archive{}
		addReply(arc, u.String(), string(rec))
		c := &access.Client{Archive: arc, MaxSize: 64, MaxLine: 256, MaxRedirects: -1,
			Dial: func(context.Context, string, string) (net.Conn, error) {
				t.Fatal("a replay connected")
				return nil, nil
			},
			Schemes: map[string]access.Fetcher{"http": &Client{Compressed: compressed, ErrorBody: true}}}
		res, err := c.Get(context.Background(), u)
		if err == nil {
			b, rerr := io.ReadAll(res.Body)
			res.Close()
			if len(b) > 64 {
				t.Fatalf("%d octets delivered past MaxSize 64", len(b))
			}
			err = rerr
		}
		if o := access.Classify(err); o == access.Forbidden {
			t.Fatalf("%v: outcome %v", err, o)
		}
		if err == nil {
			return
		}
		var pe *access.ProtocolError
		var se *access.ServerError
		var ce flate.CorruptInputError
		switch {
		case errors.As(err, &pe), errors.As(err, &se), errors.Is(err, access.ErrTooLarge):
		case compressed && (errors.Is(err, gzip.ErrHeader) || errors.Is(err, gzip.ErrChecksum) || errors.As(err, &ce) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF)):
		default:
			t.Fatalf("%.60q: %T %v", rec, err, err)
		}
	})
}
