package archive

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/klauspost/compress/gzip"

	"github.com/rfc1738/locator/access"
)

// Options says how a Writer writes.
type Options struct {
	// MaxSize rolls over to a new file once a file has this many octets
	// (0: never). A record is never split: a file ends after the record
	// that passes the size.
	MaxSize int64
	// Dedup writes a payload whose digest was recorded before (by this
	// Writer, or in an index of DedupIndex) as a 'revisit' record of
	// profile identical-payload-digest (WARC 1.1 §6.7.2) instead of again.
	Dedup bool
	// DedupIndex names CDXJ indexes of earlier captures to deduplicate
	// against.
	DedupIndex []string
	// Software is the warcinfo record's "software" field.
	Software string
}

// The profile of a revisit record whose payload was recorded before
// (WARC 1.1 §6.7.2).
const profileIdentical = "http://netpreserve.org/warc/1.1/revisit/identical-payload-digest"

// inMemory bounds the records of one Record call compressed in memory
// before they are written with one write: larger ones are written as
// they are compressed (and cut off again on failure).
const inMemory = 4 << 20

// A Writer writes WARC files: an access.Recorder. Its methods are safe
// for concurrent use.
type Writer struct {
	opt       Options
	base, ext string

	mu      sync.Mutex
	seq     int      // the number of the next rollover file
	f       *os.File // the current WARC file
	idx     *os.File // its CDXJ index
	name    string
	size    int64
	records int // records after the warcinfo
	idxSize int64
	pending []byte // index lines not yet written (indexFlush)
	info    string
	infoID  atomic.Pointer[string] // info, read without the lock
	seen    map[string]original    // payload digest -> its first record (Options.Dedup)
	closed  bool
	files   []string
}

// An original is what a revisit record refers to.
type original struct {
	uri, date, id string
}

// A WriteError says a record could not be written; the file is left as
// it was before the record (a disk full).
type WriteError struct {
	File string
	Err  error
}

func (e *WriteError) Error() string { return "archive: writing " + e.File + ": " + e.Err.Error() }
func (e *WriteError) Unwrap() error { return e.Err }

// ErrClosed is returned by Record after Close.
var ErrClosed = errors.New("archive: writer closed")

// Create starts a WARC file at path ("crawl.warc.gz") with its warcinfo
// record, and its index path+".cdxj". It never overwrites a file: when
// path exists (a crawl resumed), the first free rollover name is taken
// instead ("crawl-00001.warc.gz", "crawl-00002.warc.gz", ...), as it is
// when a file passes opt.MaxSize.
func Create(path string, opt Options) (*Writer, error) {
	w := &Writer{opt: opt, base: path, seen: map[string]original{}}
	if strings.HasSuffix(path, ".warc.gz") {
		w.base, w.ext = strings.TrimSuffix(path, ".warc.gz"), ".warc.gz"
	}
	for _, p := range opt.DedupIndex {
		if err := w.loadDedup(p); err != nil {
			return nil, err
		}
	}
	if err := w.open(); err != nil {
		return nil, err
	}
	return w, nil
}

// currentInfo is the WARC-Record-ID of the current file's warcinfo
// record, which a record names (WARC-Warcinfo-ID); Record checks it
// again under the lock, since a rollover may come in between.
func (w *Writer) currentInfo() string { return *w.infoID.Load() }

// Files returns the WARC files written so far.
func (w *Writer) Files() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.files...)
}

func (w *Writer) loadDedup(path string) error {
	return readIndex(path, func(e entry) {
		if e.Digest == "" || e.Mime == "warc/revisit" {
			return
		}
		if _, ok := w.seen[e.Digest]; !ok {
			w.seen[e.Digest] = original{uri: e.URL, date: warcDate(e.time())}
		}
	})
}

// open makes the next file that does not exist yet, with its index,
// and writes its warcinfo record.
func (w *Writer) open() error {
	for {
		name := w.base + w.ext
		if w.seq > 0 {
			name = fmt.Sprintf("%s-%05d%s", w.base, w.seq, w.ext)
		}
		w.seq++
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return &WriteError{File: name, Err: err}
		}
		idx, err := os.OpenFile(name+".cdxj", os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, fs.ErrExist) { // an index without its file: keep both names
			f.Close()
			os.Remove(name)
			continue
		}
		if err != nil {
			f.Close()
			os.Remove(name)
			return &WriteError{File: name + ".cdxj", Err: err}
		}
		w.f, w.idx, w.name, w.size, w.records, w.idxSize, w.pending = f, idx, name, 0, 0, 0, w.pending[:0]
		w.files = append(w.files, name)
		break
	}
	info := newID()
	w.info = info
	w.infoID.Store(&info) // its own copy: w.info changes under the lock only
	software := w.opt.Software
	if software == "" {
		software = "locator"
	}
	fields := "software: " + fieldValue(software) + "\r\nformat: WARC File Format 1.1\r\n" +
		"conformsTo: http://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/\r\n"
	h := header{
		{"WARC-Type", "warcinfo"},
		{"WARC-Record-ID", w.info},
		{"WARC-Date", warcDate(time.Now())},
		{"WARC-Filename", filepath.Base(w.name)},
		{"Content-Type", "application/warc-fields"},
		{"WARC-Block-Digest", digestOf([]byte(fields))},
	}
	enc := getEncoder(nil)
	defer enc.release()
	_, err := w.write([]out{{h: h, b: bytesBlock(fields)}}, enc, false)
	return err
}

// An out is one record to write: its header, its block, and the CDXJ
// entry it makes (nil for none).
type out struct {
	h header
	b block
	e *entry
}

// An encoder makes the gzip members of one Record call's records, in
// memory (out) or, for records too large to hold, into the file as
// they are made (dst). Encoders are reused (encoders): a compressor's
// state is hundreds of KiB, and a page's buffers a few KiB each.
type encoder struct {
	out   []byte    // members made and not yet written to dst
	dst   io.Writer // where out goes once it is flushAt octets long; nil: nowhere, it is all kept
	done  int64     // octets written to dst
	err   error     // dst's first failure
	plain []byte    // one record as it is (a header, or a small record whole)
	ends  []int64   // where each member ends, from where the first begins
	lines []byte    // the index lines of the records
	gz    *gzip.Writer
}

var encoders = sync.Pool{New: func() any {
	gz, _ := gzip.NewWriterLevel(nil, gzip.BestSpeed)
	return &encoder{gz: gz}
}}

// flushAt is how much an encoder writing into a file holds before it
// writes.
const flushAt = 256 << 10

func getEncoder(dst io.Writer) *encoder {
	e := encoders.Get().(*encoder)
	e.reset(dst)
	return e
}

func (e *encoder) reset(dst io.Writer) {
	e.out, e.dst, e.done, e.err, e.ends, e.lines = e.out[:0], dst, 0, nil, e.ends[:0], e.lines[:0]
}

// release gives e back for reuse; buffers a large record grew are let
// go rather than kept.
func (e *encoder) release() {
	if cap(e.out) > 1<<20 {
		e.out = nil
	}
	if cap(e.plain) > 1<<20 {
		e.plain = nil
	}
	e.reset(nil)
	encoders.Put(e)
}

// Write appends what the compressor makes to out.
func (e *encoder) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	e.out = append(e.out, p...)
	if e.dst != nil && len(e.out) >= flushAt {
		e.flush()
	}
	return len(p), e.err
}

func (e *encoder) flush() error {
	if e.dst != nil && e.err == nil && len(e.out) > 0 {
		n, err := e.dst.Write(e.out)
		e.done += int64(n)
		e.out, e.err = e.out[:0], err
	}
	return e.err
}

// pos is how many octets of members e has made.
func (e *encoder) pos() int64 { return e.done + int64(len(e.out)) }

// A record's block is compressed at flate's best speed (klauspost's
// flate, twice as fast as compress/flate's and as well understood by
// every gzip reader); a block under storeBelow octets (a request line
// and header, a revisit's header) is stored in its gzip member, not
// compressed: the Huffman tables of a compressed member cost more time
// than a few hundred octets are worth.
const storeBelow = 1024

// encode makes recs' members, each record a gzip member of its own,
// and sets e.ends.
func (e *encoder) encode(recs []out) error {
	for _, r := range recs {
		if err := e.member(r.h, r.b); err != nil {
			return err
		}
		e.ends = append(e.ends, e.pos())
	}
	return e.flush()
}

var endOfRecord = []byte("\r\n\r\n")

func (e *encoder) member(h header, b block) error {
	size := b.Size()
	e.plain = appendHead(e.plain[:0], h, size)
	if size >= storeBelow {
		e.gz.Reset(e)
		e.gz.Write(e.plain)
		if err := copySection(e.gz, b, 0, size); err != nil {
			return err
		}
		e.gz.Write(endOfRecord)
		return e.gz.Close()
	}
	if p := inMemoryOctets(b); p != nil && int64(len(p)) >= size {
		e.plain = append(e.plain, p[:size]...)
	} else if size > 0 {
		n := len(e.plain)
		e.plain = slices.Grow(e.plain, int(size))[:n+int(size)]
		if _, err := io.ReadFull(io.NewSectionReader(b, 0, size), e.plain[n:]); err != nil {
			return err
		}
	}
	e.plain = append(e.plain, endOfRecord...)
	e.out = appendStored(e.out, e.plain)
	if e.dst != nil && len(e.out) >= flushAt {
		return e.flush()
	}
	return e.err
}

// appendStored appends p to dst as a gzip member (RFC 1952 §2.3) whose
// deflate blocks are stored (RFC 1951 §3.2.4), as compress/gzip writes
// at NoCompression, without a compressor's state to keep.
func appendStored(dst, p []byte) []byte {
	dst = append(dst, 0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255) // no flags, no time, OS unknown
	crc, n := crc32.ChecksumIEEE(p), len(p)
	for {
		k := min(len(p), 0xffff)
		final := byte(0)
		if k == len(p) {
			final = 1 // BFINAL, BTYPE 00, the rest of the octet padding
		}
		dst = append(dst, final, byte(k), byte(k>>8), ^byte(k), ^byte(k>>8))
		dst = append(dst, p[:k]...)
		p = p[k:]
		if final == 1 {
			break
		}
	}
	dst = binary.LittleEndian.AppendUint32(dst, crc)
	return binary.LittleEndian.AppendUint32(dst, uint32(n))
}

// write writes records at the end of the current file, and their index
// lines, each with one write: the members enc made, or, when data is
// false, members it makes here, straight into the file (a record too
// large to hold). It writes them all or none: on a failure the file
// and index are cut back to where they were.
func (w *Writer) write(recs []out, enc *encoder, data bool) (int64, error) {
	start := w.size
	if data {
		if _, err := w.f.WriteAt(enc.out, start); err != nil {
			return 0, w.fail(start, err)
		}
	} else {
		enc.reset(io.NewOffsetWriter(w.f, start))
		if err := enc.encode(recs); err != nil {
			return 0, w.fail(start, err)
		}
	}
	enc.lines = enc.lines[:0]
	prev := int64(0)
	for i, r := range recs {
		if r.e != nil {
			r.e.Offset, r.e.Length, r.e.Filename = jsonInt(start+prev), jsonInt(enc.ends[i]-prev), filepath.Base(w.name)
			enc.lines = r.e.appendLine(enc.lines)
		}
		prev = enc.ends[i]
	}
	// The index lines wait in memory and are written indexFlush octets
	// at a time, the earlier records' before this one's lines join them:
	// a write for each record's line cost a crawl as much as its
	// compression. A writer killed loses lines, not records: the Reader
	// reads the part of a file past its index's last record itself.
	if len(w.pending) > 0 && len(w.pending)+len(enc.lines) > indexFlush {
		if err := w.flushIndex(); err != nil {
			return 0, w.fail(start, err)
		}
	}
	w.pending = append(w.pending, enc.lines...)
	w.size = start + prev
	return prev, nil
}

// indexFlush is how many octets of index lines wait before they are
// written (about 300 lines).
const indexFlush = 64 << 10

// flushIndex writes the waiting index lines.
func (w *Writer) flushIndex() error {
	if len(w.pending) == 0 {
		return nil
	}
	n, err := w.idx.WriteAt(w.pending, w.idxSize)
	if err != nil {
		w.idx.Truncate(w.idxSize) // whole lines only
		return err
	}
	w.idxSize += int64(n)
	w.pending = w.pending[:0]
	return nil
}

// fail cuts the file back to start, so that it holds whole records
// only, and says what failed. The index is cut back to the lines of
// those records.
func (w *Writer) fail(start int64, err error) error {
	w.f.Truncate(start)
	w.idx.Truncate(w.idxSize)
	return &WriteError{File: w.name, Err: err}
}

// Record writes r: an exchange as a 'request' and a 'response' record
// (or a 'revisit' for a payload recorded before, with Options.Dedup), an
// object as a 'resource' record and the dialogue that fetched it as a
// 'metadata' record. It implements access.Recorder.
func (w *Writer) Record(r *access.Record) error {
	if r == nil || r.Response == nil || r.URL == nil {
		return nil
	}
	target := access.Masked(r.URL)
	date := r.Date
	if date.IsZero() {
		date = time.Now()
	}
	wd := warcDate(date)
	common := func(typ, id string) header {
		// Room for these seven fields and the six a record adds at
		// most (a response's), so that the header is made once.
		h := make(header, 0, 13)
		h = append(h, field{"WARC-Type", typ}, field{"WARC-Record-ID", id}, field{"WARC-Date", wd},
			field{"WARC-Target-URI", target})
		if r.Addr != "" {
			h = append(h, field{"WARC-IP-Address", r.Addr})
		}
		if r.Protocol != "" {
			h = append(h, field{"WARC-Protocol", r.Protocol})
		}
		if r.TLS != "" {
			h = append(h, field{"WARC-Protocol", r.TLS}) // the layer below, after the protocol's own
		}
		return h
	}
	key := Key(r.URL)
	ts := cdxTimestamp(date)
	mkEntry := func(mime, status, digest string) *entry {
		return &entry{key: key, ts: ts, entryJSON: entryJSON{URL: target, Mime: mime,
			Status: status, Digest: digest, Date: wd}}
	}
	recs := make([]out, 0, 2)
	var payloadDigest string
	var revisitBlock block // what a revisit keeps: the protocol header
	mainID := newID()
	family := protocolFamily(r.Protocol)
	switch r.Kind {
	case access.RecordExchange:
		pi, err := examineResponse(r.Protocol, r.Response)
		if err != nil {
			return err
		}
		ct := "application/" + family + ";msgtype="
		// The response first and its request after it, as Heritrix
		// writes them: a reader that has found the response (by the
		// index's offset) finds its request as the next record.
		var req *out
		if r.Request != nil && r.Request.Size() > 0 {
			reqDigest, err := blockDigest(r.Request)
			if err != nil {
				return err
			}
			h := append(common("request", newID()), field{"WARC-Concurrent-To", mainID},
				field{"Content-Type", ct + "request"}, field{"WARC-Block-Digest", reqDigest})
			req = &out{h: h, b: r.Request}
		}
		h := common("response", mainID)
		if req != nil {
			h = append(h, field{"WARC-Concurrent-To", req.h.get("WARC-Record-ID")})
		}
		h = append(h, field{"Content-Type", ct + "response"}, field{"WARC-Block-Digest", pi.block})
		if pi.payload != "" {
			h = append(h, field{"WARC-Payload-Digest", pi.payload})
			payloadDigest = pi.payload
		}
		if r.Truncated != "" {
			h = append(h, field{"WARC-Truncated", r.Truncated})
		}
		mime := pi.mime
		if mime == "" {
			mime = "application/" + family
		}
		recs = append(recs, out{h: h, b: r.Response, e: mkEntry(mime, pi.status, pi.payload)})
		if req != nil {
			recs = append(recs, *req)
		}
		if pi.head > 0 && !pi.chunked {
			revisitBlock = io.NewSectionReader(r.Response, 0, pi.head)
		} else if pi.head > 0 {
			revisitBlock = nil // a chunked body cannot be cut off at its header and read back
		} else {
			revisitBlock = bytesBlock(nil)
		}
	case access.RecordResource:
		d, err := blockDigest(r.Response)
		if err != nil {
			return err
		}
		payloadDigest = d
		ct := r.MediaType
		if ct == "" {
			ct = "application/octet-stream"
		}
		h := append(common("resource", mainID), field{"Content-Type", ct},
			field{"WARC-Block-Digest", d}, field{"WARC-Payload-Digest", d})
		if r.Truncated != "" {
			h = append(h, field{"WARC-Truncated", r.Truncated})
		}
		recs = append(recs, out{h: h, b: r.Response, e: mkEntry(mediaType(ct), "", d)})
		revisitBlock = bytesBlock(nil)
		if len(r.Dialogue) > 0 && r.Protocol != "file" {
			mt := "text/plain; charset=utf-8"
			if family == "ftp" {
				mt = "text/x-ftp-control-conversation" // as Heritrix and wpull name FTP's
			}
			mh := append(common("metadata", newID()), field{"WARC-Concurrent-To", mainID},
				field{"WARC-Refers-To", mainID}, field{"Content-Type", mt},
				field{"WARC-Block-Digest", digestOf(r.Dialogue)})
			recs = append(recs, out{h: mh, b: bytesBlock(r.Dialogue)})
		}
	default:
		return fmt.Errorf("archive: a record of unknown kind %d", r.Kind)
	}

	// Which records are written is decided under the lock (dedup);
	// they are compressed outside it, so that concurrent requests
	// compress at once, and written under it. Without dedup there is
	// nothing to decide: the lock is taken once, to write.
	info := w.currentInfo()
	if w.opt.Dedup {
		w.mu.Lock()
		if w.closed {
			w.mu.Unlock()
			return ErrClosed
		}
		if payloadDigest != "" && revisitBlock != nil && r.Truncated == "" {
			if o, ok := w.seen[payloadDigest]; ok {
				recs[0] = w.revisit(recs[0], o, revisitBlock, payloadDigest) // the response or resource: the others follow it
			}
		}
		if payloadDigest != "" && r.Truncated == "" {
			if _, ok := w.seen[payloadDigest]; !ok {
				w.seen[payloadDigest] = original{uri: target, date: wd, id: mainID}
			}
		}
		info = w.info
		w.mu.Unlock()
	}

	var total int64
	for i := range recs {
		recs[i].h = append(recs[i].h, field{"WARC-Warcinfo-ID", info})
		total += recs[i].b.Size()
	}
	enc := getEncoder(nil)
	defer enc.release()
	data := total <= inMemory
	if data {
		if err := enc.encode(recs); err != nil {
			return err // reading the record's octets failed: nothing was written
		}
	}

	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return ErrClosed
	}
	// A file that has passed MaxSize is rolled over before the next
	// record, not after the last, which would leave a file of a
	// warcinfo alone.
	if w.opt.MaxSize > 0 && w.records > 0 && w.size >= w.opt.MaxSize {
		if err := w.roll(); err != nil {
			return err
		}
	}
	if w.info != info { // a new file since: its warcinfo is named
		for i := range recs {
			recs[i].h[len(recs[i].h)-1].value = w.info
		}
		data = false
	}
	if _, err := w.write(recs, enc, data); err != nil {
		return err
	}
	w.records += len(recs)
	return nil
}

// revisit turns a response or resource record into a 'revisit' record
// of the original o (WARC 1.1 §6.7.2): its block is the protocol header
// alone (empty for a protocol that has none), marked truncated for
// 'length' as §6.7.2 requires when a block is kept.
func (w *Writer) revisit(r out, o original, b block, digest string) out {
	var h header
	for _, f := range r.h {
		switch f.name {
		case "WARC-Type":
			f.value = "revisit"
		case "WARC-Block-Digest":
			d, err := blockDigest(b)
			if err != nil {
				continue
			}
			f.value = d
		case "WARC-Truncated":
			continue
		}
		h = append(h, f)
	}
	h = append(h, field{"WARC-Profile", profileIdentical})
	if o.id != "" {
		h = append(h, field{"WARC-Refers-To", o.id})
	}
	h = append(h, field{"WARC-Refers-To-Target-URI", o.uri}, field{"WARC-Refers-To-Date", o.date})
	if b.Size() > 0 {
		h = append(h, field{"WARC-Truncated", "length"})
	}
	e := *r.e
	e.Mime = "warc/revisit"
	return out{h: h, b: b, e: &e}
}

// roll ends the current file and starts the next.
func (w *Writer) roll() error {
	if err := w.closeFile(); err != nil {
		return err
	}
	return w.open()
}

// closeFile closes the current file and sorts its index, so that it is
// in the order pywb searches (by key, then timestamp).
func (w *Writer) closeFile() error {
	err := w.f.Close()
	if e := w.flushIndex(); e != nil && err == nil {
		err = &WriteError{File: w.name + ".cdxj", Err: e}
	}
	if e := w.idx.Close(); err == nil {
		err = e
	}
	if e := sortIndex(w.name + ".cdxj"); err == nil {
		err = e
	}
	return err
}

func sortIndex(path string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	// The lines are sorted where they were read, and written out once:
	// this is done as a crawl ends, while it waits.
	lines := bytes.SplitAfter(b, []byte("\n"))
	if n := len(lines); n > 0 && len(lines[n-1]) == 0 {
		lines = lines[:n-1]
	}
	if slices.IsSortedFunc(lines, bytes.Compare) {
		return nil
	}
	slices.SortFunc(lines, bytes.Compare)
	sorted := make([]byte, 0, len(b))
	for _, l := range lines {
		sorted = append(sorted, l...)
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, sorted, 0o644); err != nil {
		os.Remove(tmp)
		return err
	}
	return os.Rename(tmp, path)
}

// Close ends the current file and its index.
func (w *Writer) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return nil
	}
	w.closed = true
	return w.closeFile()
}
