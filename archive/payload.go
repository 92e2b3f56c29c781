package archive

import (
	"bytes"
	"crypto/sha1"
	"io"
	"net/http/httputil"
	"strings"
	"sync"
)

// bufs are the buffers blocks are copied through, so that recording a
// page allocates no 32 KiB buffer per copy.
var bufs = sync.Pool{New: func() any { b := make([]byte, 32<<10); return &b }}

// inMemoryOctets returns the octets of b when it holds them in memory
// (a Spool not moved to a file, a bytesBlock), else nil.
func inMemoryOctets(b block) []byte {
	switch b := b.(type) {
	case bytesBlock:
		return b
	case interface{ Bytes() []byte }:
		return b.Bytes()
	}
	return nil
}

// copySection writes the n octets of b at off to dst.
func copySection(dst io.Writer, b block, off, n int64) error {
	if p := inMemoryOctets(b); p != nil && off+n <= int64(len(p)) {
		_, err := dst.Write(p[off : off+n])
		return err
	}
	buf := bufs.Get().(*[]byte)
	defer bufs.Put(buf)
	_, err := io.CopyBuffer(dst, io.NewSectionReader(b, off, n), *buf)
	return err
}

// A block is a record's octets: an access.Spool, or a section of a file.
type block interface {
	io.ReaderAt
	Size() int64
}

type bytesBlock []byte

func (b bytesBlock) ReadAt(p []byte, off int64) (int, error) {
	return bytes.NewReader(b).ReadAt(p, off)
}
func (b bytesBlock) Size() int64 { return int64(len(b)) }

// A payloadInfo says where a response block's payload is and what its
// digests are.
type payloadInfo struct {
	head    int64  // octets of protocol header before the payload; -1 when there is no well-defined payload
	block   string // WARC-Block-Digest
	payload string // WARC-Payload-Digest, "" when there is no well-defined payload
	status  string // the protocol's status ("200", "20"), "" when it has none
	mime    string // the payload's media type as the protocol header says, "" when it says none
	chunked bool   // the HTTP payload is sent in chunks
}

// protocolFamily is the protocol a WARC-Protocol names without its
// version or TLS ("http/1.1" -> "http", "gophers" -> "gopher"), which
// names its Content-Type.
func protocolFamily(p string) string {
	p, _, _ = strings.Cut(strings.ToLower(p), "/")
	switch p {
	case "https", "h2":
		return "http"
	case "gophers":
		return "gopher"
	}
	return p
}

// responseHead finds the protocol header of a response block: for HTTP
// the status line and header fields up to the empty line (RFC 9112 §2.1,
// past any 1xx interim response), for Gemini the response header line
// (Gemini §3.1). Other protocols have none: the payload is the whole
// response, what a Gopher client reads after its selector line (RFC 1436
// §2) and what an NNTP, WAIS or Prospero exchange holds.
func responseHead(family string, b block) (head int64, status, mime string, chunked bool) {
	// A header is a few hundred octets: the first 16 KiB are read, and
	// up to maxHeader only when the header is longer.
	buf := readHeadOctets(b, 16<<10)
	if n := int64(len(buf)); n < b.Size() && n < maxHeader &&
		!bytes.Contains(buf, []byte("\n\n")) && !bytes.Contains(buf, []byte("\r\n\r\n")) {
		buf = readHeadOctets(b, maxHeader)
	}
	switch family {
	case "http":
		off := 0
		for {
			rest := buf[off:]
			end, sep := bytes.Index(rest, []byte("\r\n\r\n")), 4
			if e2 := bytes.Index(rest, []byte("\n\n")); e2 >= 0 && (end < 0 || e2 < end) {
				end, sep = e2, 2
			}
			if end < 0 {
				return -1, "", "", false
			}
			hdr := rest[:end]
			line, fields, _ := bytes.Cut(hdr, []byte("\n"))
			version, code, ok := firstFields(line)
			if !ok || !bytes.HasPrefix(version, []byte("HTTP/")) {
				return -1, "", "", false
			}
			if len(code) == 3 && code[0] == '1' && string(code) != "101" {
				off += end + sep
				continue
			}
			status = statusString(code)
			for len(fields) > 0 {
				var f []byte
				f, fields, _ = bytes.Cut(fields, []byte("\n"))
				name, value, ok := bytes.Cut(f, []byte(":"))
				if !ok {
					continue
				}
				switch name = bytes.TrimSpace(name); {
				case equalLower(name, "transfer-encoding"):
					chunked = containsLower(value, "chunked")
				case equalLower(name, "content-type"):
					mime = mediaType(string(value))
				}
			}
			return int64(off + end + sep), status, mime, chunked
		}
	case "gemini":
		end := bytes.IndexByte(buf, '\n')
		if end < 0 {
			return -1, "", "", false
		}
		line := strings.TrimRight(string(buf[:end]), "\r")
		if len(line) >= 2 {
			status = line[:2]
		}
		if len(line) > 3 && status[0] == '2' {
			mime = mediaType(line[3:])
		}
		return int64(end + 1), status, mime, false
	}
	return 0, "", "", false
}

// firstFields returns the first two fields of line as strings.Fields
// splits it (a header's status line).
func firstFields(line []byte) (a, b []byte, ok bool) {
	if !isASCII(line) {
		f := strings.Fields(string(line))
		if len(f) < 2 {
			return nil, nil, false
		}
		return []byte(f[0]), []byte(f[1]), true
	}
	next := func() []byte {
		i := 0
		for i < len(line) && asciiSpace(line[i]) {
			i++
		}
		j := i
		for j < len(line) && !asciiSpace(line[j]) {
			j++
		}
		f := line[i:j]
		line = line[j:]
		return f
	}
	a, b = next(), next()
	return a, b, len(b) > 0
}

func asciiSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

func isASCII(p []byte) bool {
	for _, c := range p {
		if c >= 0x80 {
			return false
		}
	}
	return true
}

// asciiEqualLower reports whether p in lower case (ASCII letters only)
// is lower.
func asciiEqualLower(p []byte, lower string) bool {
	if len(p) != len(lower) {
		return false
	}
	for i, c := range p {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lower[i] {
			return false
		}
	}
	return true
}

// equalLower reports whether strings.ToLower(string(p)) is lower, an
// ASCII word: a letter outside ASCII may lower to one inside ("İ" to
// "i").
func equalLower(p []byte, lower string) bool {
	if !isASCII(p) {
		return strings.ToLower(string(p)) == lower
	}
	return asciiEqualLower(p, lower)
}

// containsLower reports whether strings.ToLower(string(p)) contains
// lower, an ASCII word.
func containsLower(p []byte, lower string) bool {
	if !isASCII(p) {
		return strings.Contains(strings.ToLower(string(p)), lower)
	}
	for i := 0; i+len(lower) <= len(p); i++ {
		if asciiEqualLower(p[i:i+len(lower)], lower) {
			return true
		}
	}
	return false
}

// statusString is code as a string, the common ones without a copy.
func statusString(code []byte) string {
	switch string(code) {
	case "200":
		return "200"
	case "206":
		return "206"
	case "301":
		return "301"
	case "302":
		return "302"
	case "304":
		return "304"
	case "404":
		return "404"
	}
	return string(code)
}

// examineResponse computes a response block's digests. The payload of
// an HTTP response is its entity body with the transfer coding removed
// (the IIPC's guidelines; a chunked body is digested as it is once
// reassembled, so that one object served in chunks and whole has one
// digest), the content coding kept.
func examineResponse(protocol string, b block) (payloadInfo, error) {
	family := protocolFamily(protocol)
	head, status, mime, chunked := responseHead(family, b)
	pi := payloadInfo{head: head, status: status, mime: mime, chunked: chunked}
	size := b.Size()
	if p := inMemoryOctets(b); p != nil && int64(len(p)) >= size {
		p = p[:size]
		pi.block = sha1Of(p)
		if head >= 0 && !chunked {
			pi.payload = sha1Of(p[head:])
		} else if head >= 0 {
			ph := sha1.New()
			if _, err := io.Copy(ph, httputil.NewChunkedReader(bytes.NewReader(p[head:]))); err == nil {
				pi.payload = sha1Digest(ph)
			}
		}
		return pi, nil
	}
	bh, ph := sha1.New(), sha1.New()
	if head >= 0 && !chunked {
		if err := copySection(bh, b, 0, head); err != nil {
			return pi, err
		}
		if err := copySection(io.MultiWriter(bh, ph), b, head, size-head); err != nil {
			return pi, err
		}
		pi.block, pi.payload = sha1Digest(bh), sha1Digest(ph)
		return pi, nil
	}
	if err := copySection(bh, b, 0, size); err != nil {
		return pi, err
	}
	pi.block = sha1Digest(bh)
	if head >= 0 {
		if _, err := io.Copy(ph, httputil.NewChunkedReader(io.NewSectionReader(b, head, size-head))); err == nil {
			pi.payload = sha1Digest(ph)
		}
	}
	return pi, nil
}

// blockDigest computes the digest of a whole block, the payload of a
// resource record.
func blockDigest(b block) (string, error) {
	if p := inMemoryOctets(b); p != nil && int64(len(p)) >= b.Size() {
		return sha1Of(p[:b.Size()]), nil
	}
	h := sha1.New()
	if err := copySection(h, b, 0, b.Size()); err != nil {
		return "", err
	}
	return sha1Digest(h), nil
}

// mediaType is the type/subtype of a Content-Type value, in lower case,
// without parameters.
func mediaType(v string) string {
	v, _, _ = strings.Cut(v, ";")
	return strings.ToLower(strings.TrimSpace(v))
}

func readHeadOctets(b block, max int64) []byte {
	if p := inMemoryOctets(b); p != nil && int64(len(p)) == b.Size() {
		return p[:min(int64(len(p)), max)]
	}
	buf := make([]byte, min(b.Size(), max))
	n, _ := b.ReadAt(buf, 0)
	return buf[:n]
}
