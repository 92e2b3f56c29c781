package gopher

import (
	"bufio"
	"errors"
	"io"
	"strconv"
	"strings"

	"github.com/rfc1738/locator/access"
)

// A replyHeader is the first line of a Gopher+ reply (Gopher+ §2.3):
// "+" for success or "-" for an error, then the data's length: N octets
// follow, -1 the data ends with a lone "." line, -2 at the close.
type replyHeader struct {
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

// parseReplyHeader reads a Gopher+ reply header line (CR LF removed).
// The error, a *ReplyError, names the offset and the rule.
func parseReplyHeader(line string) (replyHeader, error) {
	bad := func(off int, msg string) error {
		return &ReplyError{Offset: off, Rule: "Gopher+ §2.3", Message: msg}
	}
	line = strings.TrimRight(line, " ")
	if line == "" {
		return replyHeader{}, bad(0, "an empty line is no Gopher+ reply header (+N, +-1, +-2, -N, --1, --2)")
	}
	var h replyHeader
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
// gopherd's ".", is not read), the data read as a textReader reads a
// text, up to a "." line the close follows (-1), or everything up to the
// close (-2).
func dataReader(br *bufio.Reader, h replyHeader) io.Reader {
	switch {
	case h.Length >= 0:
		return &exactReader{r: br, left: h.Length}
	case h.Length == -1:
		return newTextReader(br)
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

// A textReader reads a text item or a "+-1" data block (RFC 1436 §3.8,
// Gopher+ §2.3) as servers send it: every octet, line ends included,
// up to the close. A lone "." line (CR LF or LF ended) is the end of the
// text, and removed, only when the server closes the connection right
// after it; a "." line with octets after it is a line of the text, and
// the octets after it are text too. Lines beginning with "." are
// delivered as sent, "..x" included: RFC 1436 §3.8 asks servers to
// double such a period, and none does (gophernicus and pygopherd send a
// file as it is, UMN gopherd 3.0 the file and then a "." line). Undoing
// it would change the text, and ending at any "." line would cut a Perl
// format or a Markdown file short.
type textReader struct {
	br   *bufio.Reader
	bol  bool // at the beginning of a line
	done bool
	err  error
}

// newTextReader returns a textReader reading from r.
func newTextReader(r io.Reader) *textReader {
	br, ok := r.(*bufio.Reader)
	if !ok {
		br = bufio.NewReader(r)
	}
	return &textReader{br: br, bol: true}
}

func (t *textReader) Read(p []byte) (int, error) {
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
				if len(b) < 3 && err != nil && !errors.Is(err, io.EOF) {
					t.finish(err) // the line cannot be told from the end
					continue
				}
				if k := dotLine(b); k > 0 {
					// What follows the "." line decides: the close
					// makes it the terminator; octets make it text.
					b, err = t.br.Peek(k + 1)
					if len(b) == k {
						if err == nil || errors.Is(err, io.EOF) {
							t.br.Discard(k)
							err = io.EOF
						}
						t.finish(err)
						continue
					}
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

// dotLine returns the length of the "." line that b (peeked at a line's
// start) begins with: 2 for ".\n", 3 for ".\r\n", 0 when b begins no
// such line.
func dotLine(b []byte) int {
	switch {
	case len(b) >= 2 && b[1] == '\n':
		return 2
	case len(b) >= 3 && b[1] == '\r' && b[2] == '\n':
		return 3
	}
	return 0
}

// finish ends the text at the stream's end or error: the close, with or
// without a "." line before it, is the end (pygopherd and gophernicus
// send none).
func (t *textReader) finish(err error) {
	t.done = true
	if err == nil || errors.Is(err, io.EOF) {
		t.err = io.EOF
		return
	}
	t.err = err
}
