package archive

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha1"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/internal/printable"
)

// A Reader finds captures in WARC files: an access.Archive. Its methods
// are safe for concurrent use.
type Reader struct {
	// MaxSize bounds the octets of an object read back, as
	// access.Client.MaxSize bounds one fetched (0: no bound): a capture
	// whose block holds more (the payload after the protocol's header
	// of a response record) is a *SizeError, found from the record's
	// Content-Length before its block is decompressed, so that a record
	// that inflates to gigabytes (a gzip bomb) costs neither the time to
	// inflate it nor a temporary file larger than MaxSize and that
	// header. Set it before the first Lookup.
	MaxSize int64

	files    []*warcFile
	closers  []io.Closer // the files opened
	byKey    map[string][]*capture
	byDigest map[string]*capture // payload digest -> a capture that holds it (not a revisit)

	// onRecord, when set, is called with each capture scan finds
	// (WriteIndex).
	onRecord func(h header, head []byte, key string, off, length int64)

	mu       sync.Mutex
	problems []error
	bad      map[*capture]bool
}

// A warcFile is one WARC file: a file of its own, or a WARC file stored
// in a WACZ (a section of the ZIP file).
type warcFile struct {
	path string // the file's name, "X.wacz#archive/NAME" for a WACZ's
	f    io.ReaderAt
	size int64
}

// A capture is where one response, resource or revisit record is.
type capture struct {
	file        *warcFile
	off, length int64
	url         string
	t           time.Time
	revisit     bool
	digest      string
}

// Open reads the indexes of WARC files: each file's CDXJ index
// (FILE.cdxj) when there is one that reads whole, else the file itself,
// record by record. A WACZ file (a ZIP file, NAME.wacz) is read as the
// WARC files it stores, through its own CDXJ index (OpenWACZ says how it
// is checked first); a WACZ that fails its checks fails Open. A record that cannot be read is a problem
// (Problems), not a failure: the records before and after it are still
// found.
func Open(paths ...string) (*Reader, error) {
	r := &Reader{byKey: map[string][]*capture{}, byDigest: map[string]*capture{}, bad: map[*capture]bool{}}
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			r.Close()
			return nil, err
		}
		r.closers = append(r.closers, f)
		st, err := f.Stat()
		if err != nil {
			r.Close()
			return nil, err
		}
		if isWACZ(p, f) {
			if err := r.openWACZ(p, f, st.Size()); err != nil {
				r.Close()
				return nil, err
			}
			continue
		}
		wf := &warcFile{path: p, f: f, size: st.Size()}
		r.files = append(r.files, wf)
		if end, ok := r.loadIndex(wf); ok {
			// A writer killed, or a disk full, leaves the last records
			// of a file out of its index: what follows the last record
			// the index names is read here.
			if end < wf.size {
				r.scan(wf, end)
			}
			continue
		}
		r.scan(wf, 0)
	}
	for _, cs := range r.byKey {
		sort.SliceStable(cs, func(i, j int) bool { return cs[i].t.Before(cs[j].t) })
	}
	return r, nil
}

// loadIndex reads wf's CDXJ index, reporting false (and a problem) when
// there is none that reads whole, so that the file is read instead. It
// returns where the last record the index names ends: the file's size
// when the index names a record cut off by the end of the file (a
// problem), so that what is past it is not read again.
func (r *Reader) loadIndex(wf *warcFile) (int64, bool) {
	var caps []*capture
	var probs []error
	var end int64
	err := readIndex(wf.path+".cdxj", func(e entry) {
		if e.Derived != "" { // a page drawn for players, not a capture: never replayed (derive.go)
			end = max(end, min(int64(e.Offset)+int64(e.Length), wf.size))
			return
		}
		c := &capture{file: wf, off: int64(e.Offset), length: int64(e.Length), url: e.URL, t: e.time(),
			revisit: e.Mime == "warc/revisit", digest: e.Digest}
		if c.off+c.length > wf.size {
			probs = append(probs, &FormatError{File: wf.path, Offset: c.off, Msg: "the record the index names is cut off by the end of the file"})
			end = wf.size
			return
		}
		end = max(end, c.off+c.length)
		caps = append(caps, c)
		r.add(e.key, c)
	})
	if errors.Is(err, os.ErrNotExist) {
		return 0, false
	}
	if err != nil {
		for _, c := range caps { // forget what was read: the file is read instead
			r.remove(c)
		}
		r.problems = append(r.problems, err)
		return 0, false
	}
	r.problems = append(r.problems, probs...)
	return end, true
}

func (r *Reader) add(key string, c *capture) {
	r.byKey[key] = append(r.byKey[key], c)
	if !c.revisit && c.digest != "" {
		if _, ok := r.byDigest[c.digest]; !ok {
			r.byDigest[c.digest] = c
		}
	}
}

func (r *Reader) remove(c *capture) {
	for k, cs := range r.byKey {
		for i, x := range cs {
			if x == c {
				r.byKey[k] = append(cs[:i:i], cs[i+1:]...)
			}
		}
	}
	for d, x := range r.byDigest {
		if x == c {
			delete(r.byDigest, d)
		}
	}
}

// readIndex calls fn with each line of a CDXJ index; a line that does
// not read is an *IndexError.
func readIndex(path string, fn func(entry)) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return scanIndex(path, f, fn)
}

func scanIndex(path string, rd io.Reader, fn func(entry)) error {
	s := bufio.NewScanner(rd)
	s.Buffer(make([]byte, 64<<10), maxHeader)
	n := 0
	for s.Scan() {
		n++
		line := s.Text()
		if line == "" || strings.HasPrefix(line, "!") { // pywb's "!meta" lines
			continue
		}
		e, err := parseLine(line)
		if err != nil {
			return &IndexError{File: path, Line: n, Msg: err.Error()}
		}
		fn(e)
	}
	if err := s.Err(); err != nil {
		return &IndexError{File: path, Line: n + 1, Msg: err.Error()}
	}
	return nil
}

// A counter counts the octets read through it, below a bufio.Reader:
// what the reader consumed is n less what it holds buffered. A gzip
// reader over a bufio.Reader (an io.ByteReader) reads no further than
// its member's end.
type counter struct {
	r io.Reader
	n int64
}

func (c *counter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

var gzipMagic = []byte{0x1f, 0x8b, 0x08}

// scan reads wf record by record from off, adding its captures; a record that
// does not read is a problem, and reading goes on at the next gzip
// member (or "WARC/1." line of an uncompressed file) after it.
func (r *Reader) scan(wf *warcFile, off int64) {
	for off < wf.size {
		next, err := r.scanRecord(wf, off)
		if err == io.EOF {
			return
		}
		if err != nil {
			r.problems = append(r.problems, &FormatError{File: wf.path, Offset: off, Msg: err.Error()})
			if next <= off {
				next = resync(wf, off+1)
			}
		}
		off = next
	}
}

// scanRecord reads the record at off and returns where the next one
// starts.
func (r *Reader) scanRecord(wf *warcFile, off int64) (int64, error) {
	c := &counter{r: io.NewSectionReader(wf.f, off, wf.size-off)}
	in := bufio.NewReader(c)
	consumed := func() int64 { return c.n - int64(in.Buffered()) }
	magic, err := in.Peek(3)
	if err != nil && len(magic) == 0 {
		return 0, io.EOF
	}
	gz := bytes.Equal(magic, gzipMagic)
	if !gz && len(bytes.TrimSpace(magic)) == 0 {
		// blank lines at the end of an uncompressed file
		rest, _ := io.ReadAll(in)
		if len(bytes.TrimSpace(rest)) == 0 {
			return 0, io.EOF
		}
		return 0, fmt.Errorf("octets that are not a record")
	}
	br := in
	if gz {
		z, err := gzip.NewReader(in)
		if err != nil {
			return 0, err
		}
		z.Multistream(false)
		br = bufio.NewReader(z)
	}
	h, size, err := readHead(br)
	if err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return 0, err
	}
	var head []byte
	if r.onRecord != nil {
		// The protocol's header, for an index line's status and mime.
		head = make([]byte, min(size, 16<<10))
		if n, err := io.ReadFull(br, head); err != nil {
			return 0, fmt.Errorf("the block ends after %d of its %d octets", n, size)
		}
	}
	if n, err := io.CopyN(io.Discard, br, size-int64(len(head))); err != nil {
		return 0, fmt.Errorf("the block ends after %d of its %d octets", n+int64(len(head)), size)
	}
	if gz {
		if _, err := io.Copy(io.Discard, br); err != nil {
			return 0, fmt.Errorf("the gzip member is cut off or corrupt: %v", err)
		}
	} else {
		var crlf [4]byte
		if _, err := io.ReadFull(br, crlf[:]); err != nil || string(crlf[:]) != "\r\n\r\n" {
			return 0, fmt.Errorf("the block is not followed by two CRLF")
		}
	}
	end := off + consumed()
	if end <= off {
		return 0, fmt.Errorf("a record of no octets")
	}
	typ := h.get("WARC-Type")
	if typ == "response" || typ == "resource" || typ == "revisit" {
		target := strings.Trim(h.get("WARC-Target-URI"), "<>")
		u, err := locator.Parse(target)
		if err != nil {
			return end, fmt.Errorf("WARC-Target-URI %.60q: %v", target, err)
		}
		t, _ := parseDate(h.get("WARC-Date"))
		if r.onRecord != nil {
			r.onRecord(h, head, Key(u), off, end-off)
		}
		if h.get(derivedFrom) != "" {
			return end, nil // a page drawn for players, not a capture: indexed, never replayed (derive.go)
		}
		r.add(Key(u), &capture{file: wf, off: off, length: end - off, url: target, t: t,
			revisit: typ == "revisit", digest: h.get("WARC-Payload-Digest")})
	}
	return end, nil
}

// resync finds the next place at or after off where a record may start.
func resync(wf *warcFile, off int64) int64 {
	buf := make([]byte, 16<<10)
	for off < wf.size {
		n, _ := wf.f.ReadAt(buf, off)
		if n == 0 {
			break
		}
		b := buf[:n]
		i := bytes.Index(b, gzipMagic)
		if j := bytes.Index(b, []byte("\nWARC/1.")); j >= 0 && (i < 0 || j+1 < i) {
			i = j + 1
		}
		if i >= 0 {
			return off + int64(i)
		}
		if off+int64(n) >= wf.size {
			break
		}
		off += int64(n - 8) // a magic cut by the buffer's end is found by the next read
	}
	return wf.size
}

// Problems returns the records that could not be read, each a
// *FormatError naming its file and offset, and indexes that could not
// be read (*IndexError).
func (r *Reader) Problems() []error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]error(nil), r.problems...)
}

// Close closes the files.
func (r *Reader) Close() error {
	var err error
	for _, f := range r.closers {
		err = errors.Join(err, f.Close())
	}
	return err
}

// A rawRecord is a record read back: its header and block.
type rawRecord struct {
	h     header
	block *access.Spool
}

// read reads the record of c, checking its block digest. A record over
// MaxSize is a *SizeError, not a problem of the file.
func (r *Reader) read(c *capture) (*rawRecord, error) {
	raw, err := readRaw(c.file, c.off, c.length, nil, -1, r.MaxSize)
	var se *SizeError
	if errors.As(err, &se) {
		se.File, se.Offset, se.URL = c.file.path, c.off, c.url
		return nil, se
	}
	if err != nil {
		err := &FormatError{File: c.file.path, Offset: c.off, Msg: err.Error()}
		r.mu.Lock()
		if !r.bad[c] {
			r.bad[c] = true
			r.problems = append(r.problems, err)
		}
		r.mu.Unlock()
		return nil, err
	}
	return raw, nil
}

// readRaw reads the record at off in wf, at most length octets of the
// file, checking its block digest. When want is not nil and says no to
// the record's header, or the block is over maxBlock octets (maxBlock >= 0),
// readRaw returns neither a record nor an error. When the object the
// block holds is over limit octets (limit > 0), it returns a *SizeError
// (without the capture's file, offset and URL), having decompressed no
// more than the protocol's header.
func readRaw(wf *warcFile, off, length int64, want func(header) bool, maxBlock, limit int64) (*rawRecord, error) {
	sec := io.NewSectionReader(wf.f, off, length)
	br := bufio.NewReaderSize(sec, 32<<10)
	var src *bufio.Reader = br
	if magic, _ := br.Peek(3); bytes.Equal(magic, gzipMagic) {
		z, err := gzip.NewReader(br)
		if err != nil {
			return nil, err
		}
		z.Multistream(false)
		src = bufio.NewReaderSize(z, 32<<10)
	}
	h, size, err := readHead(src)
	if err != nil {
		return nil, err
	}
	if want != nil && !want(h) || maxBlock >= 0 && size > maxBlock {
		return nil, nil
	}
	sp := access.NewSpool()
	d := sha1.New()
	dst := io.MultiWriter(sp, d)
	var done int64
	if limit > 0 && size > limit {
		// The object is the whole block of a resource record, what
		// follows the protocol's header in a response's: the header is
		// read to tell, 16 KiB first (held in memory), then up to
		// maxHeader when it is longer.
		var head int64
		if typ := h.get("WARC-Type"); typ == "response" || typ == "revisit" {
			for want := min(size, 16<<10); ; want = min(size, maxHeader) {
				n, err := io.CopyN(dst, src, want-done)
				done += n
				if err != nil {
					sp.Close()
					return nil, fmt.Errorf("the block ends after %d of its %d octets", done, size)
				}
				head, _, _, _ = responseHead(blockFamily(h), sp)
				if head >= 0 || done >= min(size, maxHeader) {
					break
				}
			}
		}
		if size-max(head, 0) > limit {
			sp.Close()
			return nil, &SizeError{Size: size - max(head, 0), Max: limit}
		}
	}
	if n, err := io.CopyN(dst, src, size-done); err != nil {
		werr := sp.Err()
		sp.Close()
		if werr != nil {
			return nil, fmt.Errorf("keeping the block: %w", werr) // the temporary file's failure, not the record's
		}
		return nil, fmt.Errorf("the block ends after %d of its %d octets", done+n, size)
	}
	if want := h.get("WARC-Block-Digest"); strings.HasPrefix(strings.ToLower(want), "sha1:") {
		if got := sha1Digest(d); !strings.EqualFold(strings.TrimPrefix(got, "sha1:"), want[5:]) {
			sp.Close()
			return nil, fmt.Errorf("the block's digest is %s, not %s", got, want)
		}
	}
	return &rawRecord{h: h, block: sp}, nil
}

// maxRequest bounds the request record read beside a response: the
// requests a client here makes are a line or a header.
const maxRequest = 1 << 20

// requestOf returns the block of the request record that follows the
// response or revisit at c and names it (WARC-Concurrent-To), as the
// Writer and Heritrix write them, or nil: a request written before its
// response (wget's order) is not looked for, and a request that does not
// read whole is none.
func (r *Reader) requestOf(c *capture, h header) *access.Spool {
	id := h.get("WARC-Record-ID")
	off := c.off + c.length
	if id == "" || off >= c.file.size {
		return nil
	}
	raw, err := readRaw(c.file, off, c.file.size-off, func(q header) bool {
		if q.get("WARC-Type") != "request" {
			return false
		}
		for _, f := range q {
			if strings.EqualFold(f.name, "WARC-Concurrent-To") && f.value == id {
				return true
			}
		}
		return false
	}, maxRequest, -1)
	if err != nil || raw == nil {
		return nil
	}
	return raw.block
}

// Lookup returns the latest capture of u (the URL as given, or another
// of the same key when none has that URL), or under a context of
// WithTime the closest to that time, a revisit record resolved
// to the payload it refers to. A capture whose record cannot be read is
// a problem, and the one before it is returned instead. It implements
// access.Archive.
func (r *Reader) Lookup(ctx context.Context, u *locator.URL) (*access.Record, error) {
	caps := r.byKey[Key(u)]
	if len(caps) == 0 {
		caps = r.byKey[oldIPKey(u)]
	}
	if len(caps) == 0 {
		return nil, &access.NotArchivedError{URL: access.Masked(u)}
	}
	want := access.Masked(u)
	var same []*capture
	for _, c := range caps {
		if c.url == want {
			same = append(same, c)
		}
	}
	if len(same) == 0 {
		same = caps
	}
	// The latest first, or the closest to the time asked for (WithTime).
	order := make([]*capture, 0, len(same))
	if at, ok := timeFrom(ctx); ok {
		order = byDistance(same, at)
	} else {
		for i := len(same) - 1; i >= 0; i-- {
			order = append(order, same[i])
		}
	}
	var firstErr error
	for _, c := range order {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		rec, err := r.record(c)
		if err == nil {
			return rec, nil
		}
		if errors.Is(err, access.ErrTooLarge) {
			return nil, err // the capture asked for, too large: not another instead
		}
		if firstErr == nil {
			firstErr = err
		}
	}
	return nil, firstErr
}

// record makes the access.Record of the capture c.
func (r *Reader) record(c *capture) (*access.Record, error) {
	raw, err := r.read(c)
	if err != nil {
		return nil, err
	}
	h := raw.h
	rec := &access.Record{Protocol: h.get("WARC-Protocol"), Addr: h.get("WARC-IP-Address"),
		Truncated: h.get("WARC-Truncated")}
	for _, f := range h {
		if strings.EqualFold(f.name, "WARC-Protocol") && strings.HasPrefix(f.value, "tls/") {
			rec.TLS = f.value
		}
	}
	rec.Date, _ = parseDate(h.get("WARC-Date"))
	target := strings.Trim(h.get("WARC-Target-URI"), "<>")
	if rec.URL, err = locator.Parse(target); err != nil {
		raw.block.Close()
		return nil, &FormatError{File: c.file.path, Offset: c.off, Msg: "WARC-Target-URI: " + err.Error()}
	}
	switch h.get("WARC-Type") {
	case "response":
		rec.Kind, rec.Response = access.RecordExchange, raw.block
		rec.Request = r.requestOf(c, h)
	case "resource":
		rec.Kind, rec.Response, rec.MediaType = access.RecordResource, raw.block, h.get("Content-Type")
	case "revisit":
		if err := r.resolve(c, raw, rec); err != nil {
			raw.block.Close()
			return nil, err
		}
		if rec.Kind == access.RecordExchange {
			rec.Request = r.requestOf(c, h)
		}
	default:
		raw.block.Close()
		return nil, &FormatError{File: c.file.path, Offset: c.off, Msg: "a " + h.get("WARC-Type") + " record is no capture"}
	}
	return rec, nil
}

// A SizeError says the object a capture holds is over Reader.MaxSize:
// it is access.ErrTooLarge, as an object fetched over the limit is.
type SizeError struct {
	File   string
	Offset int64  // the record's, in the file
	URL    string // the capture's WARC-Target-URI (a password masked when written)
	Size   int64  // the object's octets, as the record's Content-Length says
	Max    int64
}

func (e *SizeError) Error() string {
	return fmt.Sprintf("archive: %s: the capture of %s (record at offset %d) holds %d octets, over the limit of %d: it is not read",
		e.File, printable.String(e.URL), e.Offset, e.Size, e.Max)
}

func (e *SizeError) Unwrap() error { return access.ErrTooLarge }

// blockFamily is the protocol family of a response block: its
// WARC-Protocol's, else its Content-Type's ("application/http;
// msgtype=response", as a WARC of another tool names it).
func blockFamily(h header) string {
	if p := h.get("WARC-Protocol"); p != "" {
		return protocolFamily(p)
	}
	mt := mediaType(h.get("Content-Type"))
	if f, ok := strings.CutPrefix(mt, "application/"); ok {
		return f
	}
	return ""
}

// A RevisitError says the record a revisit refers to is not in the
// archive (WARC 1.1 §6.7: a revisit holds no payload of its own).
type RevisitError struct {
	File   string
	Offset int64
	Digest string
}

func (e *RevisitError) Error() string {
	return fmt.Sprintf("archive: %s: the revisit record at offset %d refers to a payload (%s) that is in none of the files read", e.File, e.Offset, e.Digest)
}

// resolve fills rec from the record the revisit raw refers to: the
// capture that holds its payload digest. An HTTP response is the
// revisit's own header with the original's payload when both frame the
// payload alike (both chunked or neither), else the original response.
func (r *Reader) resolve(c *capture, raw *rawRecord, rec *access.Record) error {
	digest := raw.h.get("WARC-Payload-Digest")
	oc := r.byDigest[digest]
	if oc == nil {
		return &RevisitError{File: c.file.path, Offset: c.off, Digest: digest}
	}
	orig, err := r.read(oc)
	if err != nil {
		return err
	}
	rec.Truncated = orig.h.get("WARC-Truncated")
	if orig.h.get("WARC-Type") == "resource" {
		rec.Kind, rec.Response, rec.MediaType = access.RecordResource, orig.block, orig.h.get("Content-Type")
		raw.block.Close()
		return nil
	}
	rec.Kind = access.RecordExchange
	family := protocolFamily(rec.Protocol)
	ohead, _, _, ochunked := responseHead(family, orig.block)
	rhead, _, _, rchunked := responseHead(family, raw.block)
	if raw.block.Size() == 0 || ohead < 0 || rhead < 0 || ochunked != rchunked || rhead != raw.block.Size() {
		rec.Response = orig.block
		raw.block.Close()
		return nil
	}
	sp := access.NewSpool()
	_, err = io.Copy(sp, io.NewSectionReader(raw.block, 0, rhead))
	if err == nil {
		_, err = io.Copy(sp, io.NewSectionReader(orig.block, ohead, orig.block.Size()-ohead))
	}
	raw.block.Close()
	orig.block.Close()
	if err != nil {
		sp.Close()
		return err
	}
	rec.Response = sp
	return nil
}
