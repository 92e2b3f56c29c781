package gopher

import (
	"bufio"
	"errors"
	"io"
	"strconv"
	"strings"

	"github.com/rfc1738/locator/access"
)

// A ReplyHeader is the first line of a Gopher+ reply (Gopher+ §2.3):
// "+" for success or "-" for an error, then the data's length: N octets
// follow, -1 the data ends with a lone "." line, -2 at the close.
type ReplyHeader struct {
	OK     bool
	Length int64 // >= 0, -1 or -2
}

// A ReplyError reports a line that is not a Gopher+ reply header (Gopher+
// §2.3), with the offset in the line and the rule. It is about the
// server's reply, not a URL: a URL's errors are *locator.SchemeError.
type ReplyError struct {
	Offset  int
	Rule    string
	Message string
}

func (e *ReplyError) Error() string {
	return "gopher: reply header: offset " + strconv.Itoa(e.Offset) + ": " + e.Rule + ": " + e.Message
}

// ParseReplyHeader reads a Gopher+ reply header line (CR LF removed).
// The error, a *ReplyError, names the offset and the rule.
func ParseReplyHeader(line string) (ReplyHeader, error) {
	bad := func(off int, msg string) error {
		return &ReplyError{Offset: off, Rule: "Gopher+ §2.3", Message: msg}
	}
	line = strings.TrimRight(line, " ")
	if line == "" {
		return ReplyHeader{}, bad(0, "an empty line is no Gopher+ reply header (+N, +-1, +-2, -N, --1, --2)")
	}
	var h ReplyHeader
	switch line[0] {
	case '+':
		h.OK = true
	case '-':
	default:
		return h, bad(0, "a Gopher+ reply begins \"+\" (success) or \"-\" (an error), not "+quote(line[0]))
	}
	n := line[1:]
	switch n {
	case "-1":
		h.Length = -1
		return h, nil
	case "-2":
		h.Length = -2
		return h, nil
	}
	if n == "" || len(n) > 18 || strings.Trim(n, "0123456789") != "" {
		return h, bad(1, "the length after \""+line[:1]+"\" is digits, -1 or -2, not "+strconv.Quote(trimTo(n, 20)))
	}
	h.Length, _ = strconv.ParseInt(n, 10, 64)
	return h, nil
}

// dataReader returns the data of a reply whose header is h, read from
// br: exactly h.Length octets (a shorter stream fails with
// io.ErrUnexpectedEOF; what a server sends after them, such as UMN
// gopherd's ".", is not read), the lines up to a "." line with their
// dot-stuffing undone (-1), or everything up to the close (-2).
func dataReader(br *bufio.Reader, h ReplyHeader) io.Reader {
	switch {
	case h.Length >= 0:
		return &exactReader{r: br, left: h.Length}
	case h.Length == -1:
		return NewTextReader(br)
	}
	return br
}

type exactReader struct {
	r    io.Reader
	left int64
}

func (e *exactReader) Read(p []byte) (int, error) {
	if e.left <= 0 {
		return 0, io.EOF
	}
	if int64(len(p)) > e.left {
		p = p[:e.left]
	}
	n, err := e.r.Read(p)
	e.left -= int64(n)
	if err == io.EOF {
		if e.left > 0 {
			return n, &access.ProtocolError{Msg: "the server closed the connection " + strconv.FormatInt(e.left, 10) + " octets before the length its Gopher+ header announced"}
		}
		err = nil
	}
	return n, err
}

// A TextReader reads a text item or a "+-1" data block (RFC 1436 §3.8,
// Gopher+ §2.3): it delivers the lines as sent, with their line ends,
// removes the extra "." of a line that begins with one ("..x" is ".x"),
// and ends at the line holding a lone "." (CR LF or LF ended), or at the
// close when the server sends no such line (pygopherd never does).
// Octets after the "." line are an error: the server does not stuff its
// lines, and the text may be cut short.
type TextReader struct {
	br   *bufio.Reader
	bol  bool // at the beginning of a line
	done bool
	err  error
}

// NewTextReader returns a TextReader reading from r.
func NewTextReader(r io.Reader) *TextReader {
	br, ok := r.(*bufio.Reader)
	if !ok {
		br = bufio.NewReader(r)
	}
	return &TextReader{br: br, bol: true}
}

func (t *TextReader) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		if t.done {
			if n > 0 {
				return n, nil
			}
			return 0, t.err
		}
		if n > 0 && t.br.Buffered() == 0 {
			return n, nil // deliver what is here before waiting
		}
		if t.bol {
			b, err := t.br.Peek(1)
			if len(b) == 0 {
				t.finish(err)
				continue
			}
			if b[0] == '.' {
				b, err = t.br.Peek(3)
				if k := terminator(b, err); k > 0 {
					t.br.Discard(k)
					t.end()
					continue
				}
				if len(b) >= 2 && b[1] == '.' {
					t.br.Discard(1)
				}
			}
			t.bol = false
		}
		c, err := t.br.ReadByte()
		if err != nil {
			t.finish(err)
			continue
		}
		p[n] = c
		n++
		if c == '\n' {
			t.bol = true
		}
	}
	return n, nil
}

// terminator returns the length of the "." line that b (peeked at a
// line's start, err the peek's error) begins with: ".\r\n", ".\n", or
// "." / ".\r" at the end of the stream; 0 when b begins no such line.
func terminator(b []byte, err error) int {
	switch {
	case len(b) >= 2 && b[1] == '\n':
		return 2
	case len(b) >= 3 && b[1] == '\r' && b[2] == '\n':
		return 3
	case err != nil && (len(b) == 1 || len(b) == 2 && b[1] == '\r'):
		return len(b)
	}
	return 0
}

// end is called after the "." line: the stream must end there.
func (t *TextReader) end() {
	t.done = true
	t.err = io.EOF
	// Discard took the "." line, up to 3 octets; what follows decides.
	b, err := t.br.Peek(1)
	if len(b) > 0 {
		t.err = &access.ProtocolError{Msg: "octets follow the lone \".\" line that ends the text (RFC 1436 §3.8): the server does not dot-stuff its lines, so the text was cut short there"}
		return
	}
	if err != nil && !errors.Is(err, io.EOF) {
		// The data is complete; a server that is slow to close does not
		// make it less so.
		t.err = io.EOF
	}
}

// finish ends the text at the stream's end or error: the close without
// a "." line is accepted (pygopherd, UMN's text/html view).
func (t *TextReader) finish(err error) {
	t.done = true
	if err == nil || errors.Is(err, io.EOF) {
		t.err = io.EOF
		return
	}
	t.err = err
}
