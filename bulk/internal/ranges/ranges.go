// Package ranges reads the lines that begin in a byte range of a file,
// so that ranges which tile a file give each of its lines exactly once:
// the bulk job's splittable reading.
package ranges

import (
	"bufio"
	"io"

	"github.com/rfc1738/locator/internal/lines"
)

// Line is one line of a byte range of a file: the line as
// lines.Scanner gives it, and the offset of its first byte in the file.
// N, the 1-based line number, is known only when the range began at the
// start of the file; it is 0 otherwise (counting the lines before a
// range would mean reading the file up to it).
type Line struct {
	lines.Line
	Offset int64
}

// Scanner reads the lines that begin in a byte range of a file,
// by the rule of `locator parse -` on stdin (lines.Scanner): LF or
// CR LF ends a line, a final line needs no ending, a line whose text is
// longer than max is cut to its first lines.Head bytes and marked
// TooLong. A line belongs to the range that holds its first byte, so
// ranges that tile a file give each line exactly once: a range that
// does not begin the file skips the line in progress at its start (the
// previous range reads it), and the last line begun in a range is read
// to its end even past the range.
type Scanner struct {
	r     *bufio.Reader
	max   int
	pos   int64 // offset of the next line's first byte
	n     int   // lines so far, when known
	known bool  // line numbers are known: the range began the file
	line  Line
	err   error
	done  bool
}

// NewScanner reads lines from r, which must be positioned at
// offset start-1 of the file when start > 0 (the byte before the range:
// a line begins at start only if that byte ends a line), or at 0.
func NewScanner(r io.Reader, start int64, max, bufSize int) *Scanner {
	s := &Scanner{r: bufio.NewReaderSize(r, bufSize), max: max, pos: start, known: start == 0}
	if start == 0 {
		return s
	}
	s.pos = start - 1
	for {
		chunk, err := s.r.ReadSlice('\n')
		s.pos += int64(len(chunk))
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			s.done = true
			if err != io.EOF {
				s.err = err
			}
		}
		return s
	}
}

// Pos is the offset of the next line's first byte: the position to
// claim before Scan.
func (s *Scanner) Pos() int64 { return s.pos }

// Scan reads the next line; false at the end of the file or on an
// error (Err).
func (s *Scanner) Scan() bool {
	if s.done {
		return false
	}
	chunk, err := s.r.ReadSlice('\n')
	if err != bufio.ErrBufferFull {
		return s.finish(chunk, len(chunk), chunk, err)
	}
	// A line longer than the buffer: keep what decides whether it is
	// too long and its head, and its last two bytes for the ending.
	keep := max(s.max, lines.Head) + 2
	held := append([]byte(nil), chunk[:min(len(chunk), keep)]...)
	total := len(chunk)
	tail := append([]byte(nil), chunk[max(0, len(chunk)-2):]...)
	for err == bufio.ErrBufferFull {
		chunk, err = s.r.ReadSlice('\n')
		total += len(chunk)
		if room := keep - len(held); room > 0 {
			held = append(held, chunk[:min(len(chunk), room)]...)
		}
		tail = append(tail, chunk...)
		tail = tail[max(0, len(tail)-2):]
	}
	return s.finish(held, total, tail, err)
}

// finish makes the line of total bytes whose first bytes are raw and
// whose last bytes are tail.
func (s *Scanner) finish(raw []byte, total int, tail []byte, err error) bool {
	if err != nil {
		s.done = true
		if err != io.EOF {
			s.err = err
		}
	}
	if total == 0 {
		return false
	}
	// The text's length: without the LF, then without one CR.
	c := total
	if tail[len(tail)-1] == '\n' {
		c--
		if len(tail) >= 2 && tail[len(tail)-2] == '\r' {
			c--
		}
	} else if tail[len(tail)-1] == '\r' {
		c--
	}
	l := Line{Offset: s.pos}
	if s.known {
		s.n++
		l.N = s.n
	}
	if c > s.max {
		l.Text, l.TooLong = string(raw[:min(c, lines.Head, len(raw))]), true
	} else {
		l.Text = string(raw[:c])
	}
	s.pos += int64(total)
	s.line = l
	return true
}

// Line is the line Scan read.
func (s *Scanner) Line() Line { return s.line }

// Err is the read error that ended the scan, if any.
func (s *Scanner) Err() error { return s.err }
