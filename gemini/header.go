package gemini

import (
	"bufio"
	"errors"
	"io"
	"strconv"
)

// maxMeta bounds a response header's META, in octets (Gemini §3.1:
// "<META> is a UTF-8 encoded string of maximum length 1024 bytes").
const maxMeta = 1024

// maxHeader is the most octets a response header takes: two digits, a
// space, META and CR LF.
const maxHeader = 2 + 1 + maxMeta + 2

// A class is a status's first digit: what the client does with the
// response (Gemini §3.2).
type class int

// The classes of Gemini §3.2 and Appendix 1.
const (
	input         class = 1 // 1x: the server asks for input, META the prompt (§3.2.1)
	success       class = 2 // 2x: the object follows, META its media type (§3.2.2)
	redirectClass class = 3 // 3x: the object is at the URL META names (§3.2.3)
	tempFailure   class = 4 // 4x: a temporary failure, META why (§3.2.4)
	permFailure   class = 5 // 5x: a permanent failure, META why (§3.2.5)
	certRequired  class = 6 // 6x: a client certificate is required (§3.2.6)
)

// String names the class as Gemini §3.2 does.
func (c class) String() string {
	switch c {
	case input:
		return "INPUT"
	case success:
		return "SUCCESS"
	case redirectClass:
		return "REDIRECT"
	case tempFailure:
		return "TEMPORARY FAILURE"
	case permFailure:
		return "PERMANENT FAILURE"
	case certRequired:
		return "CLIENT CERTIFICATE REQUIRED"
	}
	return "class " + strconv.Itoa(int(c))
}

// A header is a response header: <STATUS><SPACE><META><CR><LF>.
type header struct {
	Status int    // two digits, the first from 1 to 6
	Meta   string // at most maxMeta octets, as sent
}

// class returns h's status class, its first digit.
func (h header) Class() class { return class(h.Status / 10) }

// A HeaderError says why a response header is not Gemini's: Offset is
// the octet of the response where the reader saw it.
type HeaderError struct {
	Offset int
	Msg    string
}

func (e *HeaderError) Error() string {
	return "response header, at octet " + strconv.Itoa(e.Offset) + ": " + e.Msg
}

// ErrNoHeader is returned by readResponseHeader when the server closed the
// connection without sending an octet.
var ErrNoHeader = errors.New("the server closed the connection without a response header")

// readResponseHeader reads one response header from br (Gemini §3.1): two
// digits, the first from 1 to 6 (a status outside the table of §3.2 is
// not Gemini), then a space and META of at most maxMeta octets, or
// nothing (an empty META: "20" CR LF), then CR LF. It reads at most
// 2+1+maxMeta+2 octets: a longer line, a line that ends in LF alone or
// not at all, a status that is not two digits, and anything but a space
// after it, fail with a *HeaderError naming the octet; a stream that
// ends first with it too (ErrNoHeader when it is empty), or with the
// reader's error.
func readResponseHeader(br *bufio.Reader) (header, error) {
	var line [maxHeader]byte
	n := 0
	for {
		c, err := br.ReadByte()
		if err != nil {
			if err == io.EOF {
				if n == 0 {
					return header{}, ErrNoHeader
				}
				return header{}, &HeaderError{Offset: n, Msg: "the connection closed before the header's CR LF, after " + strconv.Quote(string(line[:n]))}
			}
			return header{}, err
		}
		if c == '\n' {
			if n == 0 || line[n-1] != '\r' {
				return header{}, &HeaderError{Offset: n, Msg: "the header ends in LF without CR (Gemini §3.1: it ends in CR LF)"}
			}
			n--
			break
		}
		if n == len(line) {
			return header{}, &HeaderError{Offset: n, Msg: "no CR LF within " + strconv.Itoa(maxHeader) + " octets: META is over Gemini's " + strconv.Itoa(maxMeta) + " octets (Gemini §3.1: two digits, a space, at most " + strconv.Itoa(maxMeta) + " octets of META, CR LF)"}
		}
		line[n] = c
		n++
	}
	s := line[:n]
	if len(s) < 2 || !digit(s[0]) || !digit(s[1]) {
		return header{}, &HeaderError{Offset: 0, Msg: "the status is not two digits: " + strconv.Quote(string(s[:min(len(s), 16)]))}
	}
	h := header{Status: int(s[0]-'0')*10 + int(s[1]-'0')}
	if c := h.Class(); c < input || c > certRequired {
		return header{}, &HeaderError{Offset: 0, Msg: "status " + string(s[:2]) + " is outside Gemini's table: the first digit is 1 to 6 (Gemini §3.2)"}
	}
	if len(s) > 2 {
		if s[2] != ' ' {
			return header{}, &HeaderError{Offset: 2, Msg: "the status is followed by " + strconv.Quote(string(s[2:3])) + ", not a space (Gemini §3.1)"}
		}
		if len(s)-3 > maxMeta {
			return header{}, &HeaderError{Offset: 3 + maxMeta, Msg: "META is " + strconv.Itoa(len(s)-3) + " octets, over Gemini's " + strconv.Itoa(maxMeta) + " (Gemini §3.1)"}
		}
		h.Meta = string(s[3:])
	}
	return h, nil
}

func digit(c byte) bool { return '0' <= c && c <= '9' }
