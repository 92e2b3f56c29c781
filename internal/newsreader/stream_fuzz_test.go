package newsreader

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"reflect"
	"testing"

	"github.com/rfc1738/locator/access"
)

// FuzzBlockLine: a multi-line data block (RFC 3977 §3.1.1) read a line
// at a time by BlockLine gives the lines Lines gives, in order, and ends
// as it ends: io.EOF where Lines reaches the "." line, the same error
// otherwise (a block cut at close, a line over MaxLine, more than
// MaxSize octets).
func FuzzBlockLine(f *testing.F) {
	for _, s := range []string{"a\r\n..b\r\n.\r\n", "x\r\n", "", ".\r\nafter\r\n", "\r\n.\r\n", "long line long line long line long line\r\n.\r\n", "a\nb\n.\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		conn := func() *Conn {
			req := &access.Request{Client: &access.Client{MaxLine: 32, MaxSize: 1024}}
			return &Conn{req: req, br: bufio.NewReader(bytes.NewReader(data)), url: "nntp://h/g"}
		}
		var want []string
		_, werr := conn().Lines(1<<20, func(l string) error { want = append(want, l); return nil })
		c := conn()
		var got []string
		var gerr error
		for {
			l, err := c.BlockLine()
			if err != nil {
				gerr = err
				break
			}
			got = append(got, l)
		}
		if gerr == io.EOF {
			gerr = nil
		}
		same := (werr == nil) == (gerr == nil) && (werr == nil || werr.Error() == gerr.Error() || errors.Is(werr, access.ErrTooLarge) && errors.Is(gerr, access.ErrTooLarge))
		if !same || !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: BlockLine %q, %v; Lines %q, %v", data, got, gerr, want, werr)
		}
	})
}
