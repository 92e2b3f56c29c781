package access

import (
	"bufio"
	"errors"
	"io"
	"strings"
	"testing"
)

func newReaderSize(s string, size int) *bufio.Reader {
	return bufio.NewReaderSize(strings.NewReader(s), size)
}

func newReaderFrom(r io.Reader, size int) *bufio.Reader { return bufio.NewReaderSize(r, size) }

type countingReader struct {
	r io.Reader
	n int
}

func (c *countingReader) Read(p []byte) (int, error) {
	// One octet at a time, so that the count is what was asked for.
	if len(p) > 1 {
		p = p[:1]
	}
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

// FuzzReadLine checks ReadLine against a plain reading of its contract:
// the lines are the input split after each LF, each without its LF and
// one CR before it; a line longer than max is a *ProtocolError; the last
// piece without an LF comes with io.ErrUnexpectedEOF. Whatever the
// buffer size, the answer is the same.
func FuzzReadLine(f *testing.F) {
	f.Add("abc\r\ndef\n", 5, 16)
	f.Add("123456\r\n", 5, 16)
	f.Add(strings.Repeat("a", 40)+"\r", 40, 16)
	f.Add("\r\r\n\n", 0, 4096)
	f.Fuzz(func(t *testing.T, in string, max, size int) {
		if max < 0 || max > 1<<16 {
			return
		}
		size = 16 + (size&0xffff)%4096
		br := newReaderSize(in, size)
		rest := in
		for {
			line, err := ReadLine(br, max)
			i := strings.IndexByte(rest, '\n')
			if i < 0 {
				// The end: a last piece without LF, or nothing.
				var pe *ProtocolError
				switch {
				case rest == "":
					if err != io.EOF {
						t.Fatalf("at the end: %q %v", line, err)
					}
				case len(rest) > max:
					if !errors.As(err, &pe) {
						t.Fatalf("last piece of %d > %d octets: %q %v", len(rest), max, line, err)
					}
				default:
					if err != io.ErrUnexpectedEOF || line != rest {
						t.Fatalf("last piece %q: %q %v", rest, line, err)
					}
				}
				return
			}
			want := strings.TrimSuffix(rest[:i], "\r")
			rest = rest[i+1:]
			if len(want) > max {
				var pe *ProtocolError
				if !errors.As(err, &pe) {
					t.Fatalf("line of %d > %d octets: %q %v", len(want), max, line, err)
				}
				return
			}
			if err != nil || line != want {
				t.Fatalf("line %q: %q %v", want, line, err)
			}
		}
	})
}
