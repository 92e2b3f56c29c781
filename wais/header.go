package wais

import (
	"fmt"
	"strconv"
)

// headerLen is the length of the header that precedes every WAIS message
// on the wire: 25 printable octets (freeWAIS-sf ir/wmessage.h,
// HEADER_LENGTH; the WAIS Protocol Users Manual wais-waisprot.txt §2.0
// calls the message under it the APDU).
const headerLen = 25

// header fields' values (freeWAIS-sf ir/wmessage.h).
const (
	msgZ3950       = 'z' // msg_type: a Z39.50 APDU follows
	msgACK         = 'a'
	msgNAK         = 'n'
	headerVersion  = '2' // hdr_vers
	noCompression  = ' '
	noEncoding     = ' '
	headerChecksum = '0' // msg_checksum: freeWAIS writes '0' (its XOR is "NOTUSEDYET")
)

// A header is the 25-octet WAIS message header (freeWAIS-sf ir/wmessage.h,
// struct wais_header):
//
//	octets  0–9   msg_len     the length of the message that follows, decimal, "%010ld"
//	octet   10    msg_type    'z' Z39.50 APDU, 'a' ACK, 'n' NAK
//	octet   11    hdr_vers    '2'
//	octets 12–21  server      a name, padded with spaces
//	octet   22    compression ' ' none, 'u' unix compress
//	octet   23    encoding    ' ' none, 'h' hex, 'i' IBM hex, 'u' uuencode
//	octet   24    msg_checksum
//
// The letters are read case-insensitively ("The characters in the header
// are case insensitive", wmessage.h).
type header struct {
	Length      int64
	Type        byte
	Version     byte
	Server      string
	Compression byte
	Encoding    byte
	Checksum    byte
}

// A HeaderError says a message header cannot be read: the offset in the
// header and what is wrong there.
type HeaderError struct {
	Offset int
	Msg    string
}

func (e *HeaderError) Error() string {
	return "wais: message header: offset " + strconv.Itoa(e.Offset) + ": " + e.Msg
}

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// parseHeader reads a 25-octet WAIS message header. The length is ten
// decimal digits (a space before the first digit is read as freeWAIS's
// atol reads it); a message this client cannot take — another type than
// 'z', compression or an encoding, another header version — is an error
// naming the octet.
func parseHeader(b []byte) (header, error) {
	var h header
	if len(b) != headerLen {
		return h, &HeaderError{Offset: len(b), Msg: fmt.Sprintf("a header is %d octets, got %d", headerLen, len(b))}
	}
	i := 0
	for i < 10 && b[i] == ' ' {
		i++
	}
	if i == 10 {
		return h, &HeaderError{Offset: 0, Msg: "msg_len has no digits"}
	}
	for ; i < 10; i++ {
		c := b[i]
		if c < '0' || c > '9' {
			return h, &HeaderError{Offset: i, Msg: fmt.Sprintf("msg_len: %q is not a decimal digit", c)}
		}
		h.Length = h.Length*10 + int64(c-'0')
	}
	h.Type = lower(b[10])
	h.Version = lower(b[11])
	h.Server = string(b[12:22])
	h.Compression = lower(b[22])
	h.Encoding = lower(b[23])
	h.Checksum = b[24]
	switch {
	case h.Type != msgZ3950:
		return h, &HeaderError{Offset: 10, Msg: fmt.Sprintf("msg_type %q: only 'z' (a Z39.50 APDU) is a reply", b[10])}
	case h.Version != headerVersion:
		return h, &HeaderError{Offset: 11, Msg: fmt.Sprintf("hdr_vers %q, not '2'", b[11])}
	case h.Compression != noCompression:
		return h, &HeaderError{Offset: 22, Msg: fmt.Sprintf("compression %q is not supported (only ' ', none)", b[22])}
	case h.Encoding != noEncoding:
		return h, &HeaderError{Offset: 23, Msg: fmt.Sprintf("encoding %q is not supported (only ' ', none)", b[23])}
	}
	return h, nil
}

// appendHeader appends the header of a Z39.50 message of n octets, as
// the freeWAIS client writes it: the length as "%010d", 'z', '2', the
// server name "wais" padded to ten octets, no compression, no encoding,
// checksum '0'.
func appendHeader(dst []byte, n int) []byte {
	var b [headerLen]byte
	s := strconv.Itoa(n)
	for i := range 10 {
		b[i] = '0'
	}
	copy(b[10-len(s):10], s)
	b[10] = msgZ3950
	b[11] = headerVersion
	copy(b[12:22], "wais      ")
	b[22] = noCompression
	b[23] = noEncoding
	b[24] = headerChecksum
	return append(dst, b[:]...)
}
