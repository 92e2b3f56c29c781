package archive

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"crypto/sha1"
	"encoding/base32"
	"fmt"
	"hash"
	"io"
	"strconv"
	"strings"
	"time"
)

// The version line every record written starts with (WARC 1.1 §4).
const version = "WARC/1.1"

// A field is one named field of a record's header (WARC 1.1 §4).
type field struct{ name, value string }

// A header is a record's named fields in the order they were written;
// a name may be repeated (WARC-Protocol, WARC-Concurrent-To).
type header []field

func (h header) get(name string) string {
	for _, f := range h {
		if strings.EqualFold(f.name, name) {
			return f.value
		}
	}
	return ""
}

// fieldValue makes v safe for a field value: the grammar (WARC 1.1 §4,
// field-content is TEXT) allows no control character, so a CR or LF a
// server or URL smuggled in would end the field and forge another.
func fieldValue(v string) string {
	if safeText(v) {
		return v
	}
	return string(appendFieldValue(nil, v))
}

func safeText(v string) bool {
	for i := 0; i < len(v); i++ {
		if c := v[i]; c < ' ' || c == 0x7f {
			return false
		}
	}
	return true
}

// appendFieldValue appends v made safe as fieldValue makes it: each
// control octet as %XX.
func appendFieldValue(dst []byte, v string) []byte {
	if safeText(v) {
		return append(dst, v...)
	}
	for i := 0; i < len(v); i++ {
		if c := v[i]; c < ' ' || c == 0x7f {
			dst = append(dst, '%', upperHex[c>>4], upperHex[c&15])
		} else {
			dst = append(dst, c)
		}
	}
	return dst
}

const upperHex = "0123456789ABCDEF"

// appendHead appends the version line and header of a record whose
// block is n octets long, and the blank line that ends it.
func appendHead(dst []byte, h header, n int64) []byte {
	dst = append(dst, version+"\r\n"...)
	for _, f := range h {
		dst = append(dst, f.name...)
		dst = append(dst, ": "...)
		dst = appendFieldValue(dst, f.value)
		dst = append(dst, "\r\n"...)
	}
	dst = append(dst, "Content-Length: "...)
	dst = strconv.AppendInt(dst, n, 10)
	return append(dst, "\r\n\r\n"...)
}

// warcDate formats t as a WARC-Date: UTC, to the microsecond (WARC 1.1
// §5.4 allows a fraction of a second), so that captures of one second
// keep their order.
func warcDate(t time.Time) string {
	t = t.UTC()
	if t.Year() < 0 || t.Year() > 9999 {
		return t.Format("2006-01-02T15:04:05.000000Z")
	}
	var b [27]byte
	appendDigits(b[:0], t, "--T::")
	b[19] = '.'
	us := t.Nanosecond() / 1000
	for i := 25; i > 19; i-- {
		b[i] = byte('0' + us%10)
		us /= 10
	}
	b[26] = 'Z'
	return string(b[:])
}

// appendDigits appends t's date and time to the second, as
// "2006-01-02T15:04:05" with seps "--T::" (the one before each field
// after the year), "20060102150405" with "", as time.Format writes them
// for a year of four digits.
func appendDigits(dst []byte, t time.Time, seps string) []byte {
	y, mo, d := t.Date()
	h, mi, sec := t.Clock()
	two := func(dst []byte, v int) []byte { return append(dst, byte('0'+v/10), byte('0'+v%10)) }
	dst = append(dst, byte('0'+y/1000), byte('0'+y/100%10), byte('0'+y/10%10), byte('0'+y%10))
	for i, v := range [5]int{int(mo), d, h, mi, sec} {
		if seps != "" {
			dst = append(dst, seps[i])
		}
		dst = two(dst, v)
	}
	return dst
}

// parseDate reads a WARC-Date, with or without a fraction.
func parseDate(s string) (time.Time, error) { return time.Parse(time.RFC3339Nano, s) }

// newID returns a new WARC-Record-ID: a random (version 4) UUID URN
// (RFC 4122 §4.4), as WARC 1.1 §5.2 suggests.
func newID() string {
	var u [16]byte
	rand.Read(u[:])
	u[6] = u[6]&0x0f | 0x40
	u[8] = u[8]&0x3f | 0x80
	b := make([]byte, 0, 47)
	b = append(b, "<urn:uuid:"...)
	for i, c := range u {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			b = append(b, '-')
		}
		b = append(b, lowerHex[c>>4], lowerHex[c&15])
	}
	return string(append(b, '>'))
}

const lowerHex = "0123456789abcdef"

// sha1Digest is the labelled digest of WARC 1.1 §5.8's example: SHA-1
// in base32 (RFC 4648 §6).
func sha1Digest(h hash.Hash) string {
	return "sha1:" + base32.StdEncoding.EncodeToString(h.Sum(nil))
}

func digestOf(p []byte) string { return sha1Of(p) }

// sha1Of is sha1Digest of p, made without a hash.Hash or its Sum.
func sha1Of(p []byte) string {
	sum := sha1.Sum(p)
	var b [5 + 32]byte // "sha1:" and 20 octets in base32, which needs no padding
	copy(b[:], "sha1:")
	base32.StdEncoding.Encode(b[5:], sum[:])
	return string(b[:])
}

// A FormatError says a WARC file is not well formed at a record: the
// record at Offset (of the file, compressed) could not be read.
type FormatError struct {
	File   string
	Offset int64
	Msg    string
}

func (e *FormatError) Error() string {
	return fmt.Sprintf("archive: %s: record at offset %d: %s", e.File, e.Offset, e.Msg)
}

// maxHeader bounds a record's header (and an HTTP header within a
// block that is parsed): a header is a few hundred octets, and a file
// that is not a WARC file must not make a reader keep megabytes.
const maxHeader = 1 << 20

// readHead reads a record's version line and header from r, returning
// the header and the Content-Length. Blank lines before the version
// line (the two CRLF of a previous record) are skipped.
func readHead(r *bufio.Reader) (header, int64, error) {
	var h header
	n := 0
	line, err := readLine(r, &n)
	for err == nil && line == "" {
		line, err = readLine(r, &n)
	}
	if err != nil {
		return nil, 0, err
	}
	if !strings.HasPrefix(line, "WARC/1.") {
		return nil, 0, fmt.Errorf("no WARC version line (%.40q)", line)
	}
	for {
		line, err = readLine(r, &n)
		if err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return nil, 0, err
		}
		if line == "" {
			break
		}
		if (line[0] == ' ' || line[0] == '\t') && len(h) > 0 { // a continuation (§4)
			h[len(h)-1].value += " " + strings.TrimSpace(line)
			continue
		}
		name, value, ok := strings.Cut(line, ":")
		if !ok || name == "" {
			return nil, 0, fmt.Errorf("a header line without a name (%.40q)", line)
		}
		h = append(h, field{strings.TrimSpace(name), strings.TrimSpace(value)})
	}
	cl := h.get("Content-Length")
	size, err := strconv.ParseInt(cl, 10, 64)
	if err != nil || size < 0 {
		return nil, 0, fmt.Errorf("bad Content-Length %.40q", cl)
	}
	return h, size, nil
}

func readLine(r *bufio.Reader, n *int) (string, error) {
	var line []byte
	for {
		frag, err := r.ReadSlice('\n')
		*n += len(frag)
		if *n > maxHeader {
			return "", fmt.Errorf("a header longer than %d octets", maxHeader)
		}
		line = append(line, frag...)
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			if err == io.EOF && len(line) > 0 {
				err = io.ErrUnexpectedEOF
			}
			return "", err
		}
		return string(bytes.TrimRight(line, "\r\n")), nil
	}
}
