// Package lines reads a stream of untrusted text one line at a time,
// as `locator parse -` reads standard input and the bulk job reads its
// files: streaming, with a bound on the length of one line, so that a
// hostile stream (a gigabyte without a newline) is never held whole.
package lines

import (
	"bufio"
	"bytes"
	"io"
	"strings"
)

// Max bounds one line for the command and the bulk job: a URL, or a
// reference, is never this long.
const Max = 1 << 20

// Head is how many octets of a line longer than the bound are kept, to
// name it in a message.
const Head = 512

// bufSize is the reader's buffer: a line within it is read without a
// copy into held.
const bufSize = 64 << 10

// A Line is one line of the stream.
type Line struct {
	N int // 1-based line number
	// Text is the line without its ending: LF, CR LF, or for the last
	// line, which may have no LF, nothing or a CR. A CR elsewhere is
	// part of the line. For a line longer than the bound, Text is its
	// first Head octets.
	Text    string
	TooLong bool // the line without its ending is longer than the bound
}

// Blank reports whether the line holds nothing but spaces and tabs: it
// is no input.
func (l Line) Blank() bool { return !l.TooLong && strings.Trim(l.Text, " \t") == "" }

// A Scanner reads the Lines of a stream, as bufio.Scanner does, but
// without stopping at a line longer than its bound: that line is
// reported (TooLong) and the stream goes on. It holds at most the bound
// and one buffer (64 KiB) of a line.
type Scanner struct {
	r    *bufio.Reader
	max  int
	n    int
	line Line
	err  error
	done bool
}

// NewScanner returns a Scanner of r whose lines may be up to max octets
// long, their ending not counted.
func NewScanner(r io.Reader, max int) *Scanner {
	return newScanner(r, max, bufSize)
}

// newScanner is NewScanner with a buffer of size octets (16 at least),
// for tests that cross its edge with short lines.
func newScanner(r io.Reader, max, size int) *Scanner {
	return &Scanner{r: bufio.NewReaderSize(r, size), max: max}
}

// Scan reads the next line, which Line then returns. It returns false at
// the end of the stream, or at an error, which Err then returns.
func (s *Scanner) Scan() bool {
	if s.done {
		return false
	}
	var held []byte // the line so far, when longer than the buffer
	tooLong := false
	for {
		chunk, err := s.r.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			// A part of a long line: hold it up to the bound (a CR
			// that may begin the CR LF ending not counted), then only
			// its first Head octets.
			switch {
			case !tooLong:
				held = append(held, chunk...)
				if len(bytes.TrimSuffix(held, []byte("\r"))) > s.max {
					tooLong, held = true, bytes.Clone(held[:min(len(held), Head)])
				}
			case len(held) < Head:
				held = append(held, chunk[:min(len(chunk), Head-len(held))]...)
			}
			continue
		}
		if err != nil {
			s.done = true
			if err != io.EOF {
				s.err = err
			}
		}
		line := chunk
		if held != nil {
			line = append(held, chunk...)
		}
		if len(line) == 0 {
			return false // the end, after a line ending or of an empty stream
		}
		s.n++
		text := bytes.TrimSuffix(bytes.TrimSuffix(line, []byte("\n")), []byte("\r"))
		if tooLong || len(text) > s.max {
			s.line = Line{N: s.n, Text: string(text[:min(len(text), Head)]), TooLong: true}
		} else {
			s.line = Line{N: s.n, Text: string(text)}
		}
		return true
	}
}

// Line returns the line Scan read.
func (s *Scanner) Line() Line { return s.line }

// Err returns the error that ended the stream, nil at its end.
func (s *Scanner) Err() error { return s.err }
