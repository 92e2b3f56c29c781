package newsreader

import (
	"bufio"
	"bytes"
	"io"
	"strconv"

	"github.com/rfc1738/locator/access"
)

// A DotReader reads the octets of an NNTP multi-line data block (RFC
// 3977 §3.1.1; RFC 977 §2.4.1): each line as the server sent it, line
// end included, with the "byte-stuffing" undone ("If any line of the
// data block begins with the "termination octet" ("." or %x2E), that
// line MUST be "dot-stuffed" by prepending an additional termination
// octet"), up to the terminating line "." CR LF, which is not part of
// the data. A bare LF ending a line is kept as sent, and accepted after
// the terminating ".".
//
// A block that ends at close without its "." line is a
// *access.ProtocolError after the octets read so far, so a cut
// connection is never taken for a whole article; a line longer than the
// bound is one too, so that a server cannot flood the reader with an
// endless line.
type DotReader struct {
	// URL names the URL followed in errors.
	URL     string
	br      *bufio.Reader
	max     int
	pending []byte
	line    []byte
	done    bool
	err     error
}

// NewDotReader returns a DotReader over br whose lines are at most
// maxLine octets without their line end.
func NewDotReader(br *bufio.Reader, maxLine int) *DotReader {
	return &DotReader{br: br, max: maxLine}
}

// Done reports whether the terminating "." line was read: the
// connection is then ready for the next command.
func (d *DotReader) Done() bool { return d.done }

// Read implements io.Reader: it returns io.EOF after the terminating
// line.
func (d *DotReader) Read(p []byte) (int, error) {
	for len(d.pending) == 0 {
		if d.done {
			return 0, io.EOF
		}
		if d.err != nil {
			return 0, d.err
		}
		d.next()
	}
	n := copy(p, d.pending)
	d.pending = d.pending[n:]
	return n, nil
}

// next reads one line into pending, or sets done or err.
func (d *DotReader) next() {
	d.line = d.line[:0]
	for {
		chunk, err := d.br.ReadSlice('\n')
		d.line = append(d.line, chunk...)
		if len(d.line) > d.max+2 {
			d.err = &access.ProtocolError{URL: d.URL, Msg: "a line of the data block longer than " + strconv.Itoa(d.max) + " octets"}
			return
		}
		switch err {
		case nil:
			line := d.line
			if bytes.Equal(line, []byte(".\r\n")) || bytes.Equal(line, []byte(".\n")) {
				d.done = true
				return
			}
			if line[0] == '.' {
				line = line[1:]
			}
			d.pending = line
			return
		case bufio.ErrBufferFull:
			continue
		case io.EOF:
			d.err = &access.ProtocolError{URL: d.URL, Msg: "the data block ended at close without its terminating \".\" line (RFC 3977 §3.1.1)"}
			// The octets of the unfinished line are delivered before
			// the error.
			d.pending = d.line
			if len(d.pending) > 0 && d.pending[0] == '.' {
				d.pending = d.pending[1:]
			}
			return
		default:
			d.err = err
			return
		}
	}
}
