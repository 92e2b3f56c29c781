package loctest

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
)

// A ZeroRecord is a WARC record whose block ends in Zeros octets of
// zero: a gzip bomb (WARC 1.1 Annex D, one gzip member per record)
// that no real tool writes, for the tests of a reader's bounds.
type ZeroRecord struct {
	Type string // "resource" or "response"
	URI  string // WARC-Target-URI
	// Head is the block's octets before the zeros: an HTTP response's
	// status line and header for a response record, "" for a resource.
	Head  string
	Zeros int64
}

// bombChunk is how many zeros one repeated piece of the deflate stream
// holds.
const bombChunk = 1 << 20

// WriteZeroRecord writes r to w as one gzip member, streaming: a
// record of 4 GiB is some 4 MiB of gzip, made in a few seconds and
// without holding the octets it stands for. Once compress/flate's state
// is steady, each further MiB of zeros after a flush compresses to the
// same octets (checked), which are repeated; the CRC-32 (RFC 1952 §2.3.1)
// is computed over the real octets.
func WriteZeroRecord(w io.Writer, r ZeroRecord) error {
	head := fmt.Sprintf("WARC/1.1\r\nWARC-Type: %s\r\nWARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-000000000042>\r\n"+
		"WARC-Date: 2026-01-01T00:00:00Z\r\nWARC-Target-URI: %s\r\nContent-Type: %s\r\nContent-Length: %d\r\n\r\n%s",
		r.Type, r.URI, map[string]string{"resource": "application/octet-stream", "response": "application/http;msgtype=response"}[r.Type],
		int64(len(r.Head))+r.Zeros, r.Head)
	const tail = "\r\n\r\n"
	var buf bytes.Buffer
	fw, err := flate.NewWriter(&buf, flate.BestCompression)
	if err != nil {
		return err
	}
	zeros := make([]byte, bombChunk)
	crc := crc32.ChecksumIEEE([]byte(head))
	// The head, then whole chunks until two in a row compress alike.
	fw.Write([]byte(head))
	left := r.Zeros
	var piece []byte
	for left >= bombChunk {
		out := buf.Len()
		fw.Write(zeros)
		if err := fw.Flush(); err != nil {
			return err
		}
		left -= bombChunk
		crc = crc32.Update(crc, crc32.IEEETable, zeros)
		p := buf.Bytes()[out:]
		if piece != nil && bytes.Equal(p, piece) {
			break
		}
		piece = append(piece[:0], p...)
	}
	if _, err := w.Write(append([]byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255}, buf.Bytes()...)); err != nil {
		return err
	}
	for left >= bombChunk {
		if _, err := w.Write(piece); err != nil {
			return err
		}
		left -= bombChunk
		crc = crc32.Update(crc, crc32.IEEETable, zeros)
	}
	buf.Reset()
	fw.Write(zeros[:left])
	fw.Write([]byte(tail))
	if err := fw.Close(); err != nil {
		return err
	}
	crc = crc32.Update(crc, crc32.IEEETable, zeros[:left])
	crc = crc32.Update(crc, crc32.IEEETable, []byte(tail))
	n := int64(len(head)) + r.Zeros + int64(len(tail))
	buf.Write(binary.LittleEndian.AppendUint32(nil, crc))
	buf.Write(binary.LittleEndian.AppendUint32(nil, uint32(n))) // ISIZE: the size modulo 2^32
	_, err = w.Write(buf.Bytes())
	return err
}
