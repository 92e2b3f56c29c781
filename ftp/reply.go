package ftp

import (
	"bufio"
	"errors"
	"io"
	"net"
	"strconv"
	"strings"

	"github.com/rfc1738/locator/access"
)

// MaxReplyLines bounds the lines of one multi-line reply (RFC 959 §4.2,
// "123-First line" ... "123 The last line"), so that a server cannot
// hold the client in a reply without end. A FEAT list or a login banner
// is tens of lines; each line is bounded by access.Client.MaxLine.
const MaxReplyLines = 1000

// A reply is one FTP reply (RFC 959 §4.2): a three-digit code and its
// text, one element per line. For a multi-line reply Lines holds every
// line as sent, the first with its "123-" and the last with its "123 ";
// Text is the text of the first line after the code.
type reply struct {
	Code  int
	Text  string
	Lines []string
}

// Class returns the reply's first digit: 1 preliminary, 2 completion,
// 3 intermediate, 4 transient failure, 5 permanent failure (RFC 959
// §4.2.1).
func (r reply) Class() int { return r.Code / 100 }

// String returns the first line of the reply.
func (r reply) String() string {
	if len(r.Lines) > 0 {
		return r.Lines[0]
	}
	return strconv.Itoa(r.Code) + " " + r.Text
}

// replyCode reads the code of a reply line: three digits, the first 1–5
// (RFC 959 §4.2: "a three digit number ... followed by some text"), then
// a space, a "-" (a multi-line reply goes on) or nothing. It returns the
// code and the separator (0 at the end of the line), or ok false.
func replyCode(line string) (code int, sep byte, ok bool) {
	if len(line) < 3 || line[0] < '1' || line[0] > '5' || !isDigit(line[1]) || !isDigit(line[2]) {
		return 0, 0, false
	}
	code = int(line[0]-'0')*100 + int(line[1]-'0')*10 + int(line[2]-'0')
	if len(line) == 3 {
		return code, 0, true
	}
	if line[3] != ' ' && line[3] != '-' {
		return 0, 0, false
	}
	return code, line[3], true
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// readReply reads one reply from br (RFC 959 §4.2). A single-line reply
// is "123 text" (or "123" alone). A multi-line reply begins "123-" and
// ends at the first line that begins with the same code followed by a
// space; lines between may hold anything. Each line is bounded by
// maxLine octets (access.ReadLine) and the reply by MaxReplyLines lines;
// log, when not nil, receives each line as read. A line that is not a
// reply, a reply longer than the bounds, or a connection that ends inside
// a reply is a *access.ProtocolError; a read error is returned as is.
func readReply(br *bufio.Reader, maxLine int, log func(string)) (reply, error) {
	line, err := readLine(br, maxLine)
	if err != nil {
		return reply{}, err
	}
	if log != nil {
		log(line)
	}
	code, sep, ok := replyCode(line)
	if !ok {
		return reply{}, &access.ProtocolError{Msg: "not an FTP reply (RFC 959 §4.2: three digits, then a space or \"-\"): " + strconv.Quote(clip(line))}
	}
	r := reply{Code: code, Lines: []string{line}}
	if len(line) > 4 {
		r.Text = line[4:]
	}
	if sep != '-' {
		return r, nil
	}
	end := line[:3] + " "
	for {
		if len(r.Lines) >= MaxReplyLines {
			return reply{}, &access.ProtocolError{Msg: "a multi-line reply (RFC 959 §4.2) of more than " + strconv.Itoa(MaxReplyLines) + " lines"}
		}
		line, err := readLine(br, maxLine)
		if err != nil {
			return reply{}, err
		}
		if log != nil {
			log(line)
		}
		r.Lines = append(r.Lines, line)
		if strings.HasPrefix(line, end) || line == end[:3] {
			return r, nil
		}
	}
}

// readLine is access.ReadLine with an end of stream inside a reply
// reported as a protocol error.
func readLine(br *bufio.Reader, maxLine int) (string, error) {
	line, err := access.ReadLine(br, maxLine)
	switch {
	case err == nil:
		return line, nil
	case errors.Is(err, io.EOF):
		return "", &access.ProtocolError{Msg: "the server closed the control connection where a reply was due"}
	case errors.Is(err, io.ErrUnexpectedEOF):
		return "", &access.ProtocolError{Msg: "the server closed the control connection inside a reply line: " + strconv.Quote(clip(line))}
	}
	return "", err
}

func clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}

// parseEPSV returns the port of an extended passive mode reply (RFC 2428
// §3): "229 Entering Extended Passive Mode (|||6446|)". The text holds,
// in parentheses, a delimiter d (an octet in 33–126), d, d, the port in
// decimal, d; the network address is left out (the data connection goes
// to the control connection's address).
func parseEPSV(text string) (int, error) {
	open := strings.IndexByte(text, '(')
	if open < 0 || len(text) < open+6 {
		return 0, epsvError(text)
	}
	s := text[open+1:]
	d := s[0]
	if d < 33 || d > 126 || s[1] != d || s[2] != d {
		return 0, epsvError(text)
	}
	s = s[3:]
	end := strings.IndexByte(s, d)
	if end < 1 || end+1 >= len(s) || s[end+1] != ')' {
		return 0, epsvError(text)
	}
	port, ok := parsePort(s[:end])
	if !ok {
		return 0, epsvError(text)
	}
	return port, nil
}

func epsvError(text string) error {
	return &access.ProtocolError{Msg: "malformed EPSV reply (RFC 2428 §3: \"(|||port|)\"): " + strconv.Quote(clip(text))}
}

func parsePort(s string) (int, bool) {
	if s == "" || len(s) > 5 {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return 0, false
		}
		n = n*10 + int(s[i]-'0')
	}
	return n, 0 < n && n <= 65535
}

// parsePASV returns the address and port of a passive mode reply (RFC 959
// §4.1.2 PASV, reply 227): six decimal numbers 0–255 separated by commas,
// h1,h2,h3,h4,p1,p2, for the address h1.h2.h3.h4 and the port p1×256+p2.
// As RFC 1123 §4.1.2.6 advises, the numbers are looked for anywhere in
// the text: servers differ in what surrounds them.
func parsePASV(text string) (net.IP, int, error) {
	for i := 0; i < len(text); i++ {
		if !isDigit(text[i]) || i > 0 && isDigit(text[i-1]) {
			continue
		}
		var n [6]int
		j, k := i, 0
		for ; k < 6; k++ {
			v, w := 0, 0
			for j < len(text) && isDigit(text[j]) && w < 4 {
				v = v*10 + int(text[j]-'0')
				j++
				w++
			}
			if w == 0 || w > 3 || v > 255 {
				break
			}
			n[k] = v
			if k < 5 {
				if j >= len(text) || text[j] != ',' {
					break
				}
				j++
			}
		}
		if k == 6 && (j == len(text) || !isDigit(text[j])) {
			port := n[4]*256 + n[5]
			if port == 0 {
				break
			}
			return net.IPv4(byte(n[0]), byte(n[1]), byte(n[2]), byte(n[3])), port, nil
		}
	}
	return nil, 0, &access.ProtocolError{Msg: "malformed PASV reply (RFC 959 §4.1.2: h1,h2,h3,h4,p1,p2): " + strconv.Quote(clip(text))}
}
