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

	"github.com/rfc1738/locator"
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
	// KeepCredentials writes an HTTP request record as it was sent. By
	// default the values of its header fields that carry credentials
	// (Authorization, Proxy-Authorization, Cookie, and any field whose
	// name says it holds a token, key, secret, password or session) are
	// written masked (maskCredentials), as an FTP dialogue's PASS is
	// (access.Record.Dialogue): a WARC file is passed around, a login is
	// not.
	KeepCredentials bool
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

	// The records of every job Record did not wait for wait in batch to
	// be written with one write (see flushBatch and run): a write for
	// each record cost a crawl a third of what archiving took.
	batching   bool   // write appends to batch (run sets it, for one job)
	batch      []byte // whole records, to be written at batchAt
	batchAt    int64
	batchLines int          // len(pending) when the batch began: its records' lines follow
	batchFirst *locator.URL // the URL of the batch's first record
	batchN     int          // how many fetches' records it holds
	current    *locator.URL // the URL of the job run is writing

	encoders chan *encoder // idle ones, for reuse

	queue      chan *job // records for run to write
	jobs       chan *job // idle ones, for reuse
	stopped    chan struct{}
	qmu        sync.RWMutex // Close closes queue under it, Record sends under it
	qclosed    bool
	fmu        sync.Mutex
	failure    error // of a record written after its Record returned, not reported yet
	failedMore int   // records that failed after it
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
	w := &Writer{opt: opt, base: path, seen: map[string]original{}, encoders: make(chan *encoder, keptEncoders),
		queue: make(chan *job, queueLen), jobs: make(chan *job, queueLen+2), stopped: make(chan struct{})}
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
	go w.run()
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
	read := readIndex
	if looksWACZ(path) {
		read = readWACZIndex // its index, inside it
	}
	return read(path, func(e entry) {
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
	enc := w.getEncoder(nil)
	defer w.release(enc)
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
// they are made (dst). Encoders are reused (Writer.encoders): a
// compressor's state is hundreds of KiB, and a page's buffers a few KiB
// each.
type encoder struct {
	out   []byte    // members made and not yet written to dst
	dst   io.Writer // where out goes once it is flushAt octets long; nil: nowhere, it is all kept
	done  int64     // octets written to dst
	err   error     // dst's first failure
	plain []byte    // one record as it is (a header, or a small record whole)
	ends  []int64   // where each member ends, from where the first begins
	lines []byte    // the index lines of the records
	gz    *gzip.Writer
	m     matcher // for a record under fixedBelow octets
	// squeeze compresses a record under storeBelow octets too: with
	// Options.Dedup, whose revisit records and their requests are what
	// a re-crawl writes, space is what was asked for.
	squeeze bool
}

// keptEncoders is how many idle encoders a Writer keeps: its own, not
// a sync.Pool's, which every garbage collection empties, and a
// compressor made again is hundreds of KiB to allocate and clear. Its
// goroutine uses one, and a second for a new file's warcinfo record.
const keptEncoders = 2

// flushAt is how much an encoder writing into a file holds before it
// writes.
const flushAt = 256 << 10

func (w *Writer) getEncoder(dst io.Writer) *encoder {
	var e *encoder
	select {
	case e = <-w.encoders:
	default:
		gz, _ := gzip.NewWriterLevel(nil, gzip.BestSpeed)
		e = &encoder{gz: gz}
	}
	e.reset(dst)
	e.squeeze = w.opt.Dedup
	return e
}

func (e *encoder) reset(dst io.Writer) {
	e.out, e.dst, e.done, e.err, e.ends, e.lines = e.out[:0], dst, 0, nil, e.ends[:0], e.lines[:0]
}

// release gives e back to w for reuse; buffers a large record grew are
// let go rather than kept.
func (w *Writer) release(e *encoder) {
	if cap(e.out) > 1<<20 {
		e.out = nil
	}
	if cap(e.plain) > 1<<20 {
		e.plain = nil
	}
	e.reset(nil)
	select {
	case w.encoders <- e:
	default:
	}
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
	if size >= storeBelow && int64(len(e.plain))+size+int64(len(endOfRecord)) >= fixedBelow {
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
	if size < storeBelow && (!e.squeeze || len(e.plain) >= fixedBelow) {
		e.out = appendStored(e.out, e.plain)
	} else {
		e.out = e.m.appendFixed(e.out, e.plain)
	}
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
	batch := data && w.batching
	if !batch {
		w.flushBatch() // before start is read: a failure moves the end back
	}
	start := w.size
	switch {
	case batch:
		if len(w.batch) == 0 {
			w.batchAt, w.batchLines, w.batchFirst = start, len(w.pending), w.current
			if w.batch == nil {
				w.batch = make([]byte, 0, batchMax+copyBelow)
			}
		}
		w.batch = append(w.batch, enc.out...)
		w.batchN++
	case data:
		if _, err := w.f.WriteAt(enc.out, start); err != nil {
			return 0, w.fail(start, err)
		}
	default:
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
	// (Not while a batch is made: the lines wait for its records.)
	if !batch && len(w.pending) > 0 && len(w.pending)+len(enc.lines) > indexFlush {
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

// batchMax is how many octets of records a batch holds (and one
// fetch's more); batchWait how long it waits for more.
const (
	batchMax  = 256 << 10
	batchWait = 50 * time.Millisecond
)

// flushBatch writes the batch. A failure is the failure of each record
// in it, which Record has returned: the file is cut back to where the
// batch began, their index lines dropped, and the failure kept for the
// next Record or Close to return.
func (w *Writer) flushBatch() {
	if len(w.batch) == 0 {
		return
	}
	_, err := w.f.WriteAt(w.batch, w.batchAt)
	if err != nil {
		w.f.Truncate(w.batchAt)
		w.size, w.pending = w.batchAt, w.pending[:w.batchLines]
		w.keepFailure(&WriteError{File: w.name, Err: fmt.Errorf("the record of %s: %w", access.Masked(w.batchFirst), err)}, w.batchN)
	}
	if cap(w.batch) > 2*batchMax {
		w.batch = nil
	}
	w.batch, w.batchN, w.batchFirst = w.batch[:0], 0, nil
	if err == nil && len(w.pending) > indexFlush {
		if err := w.flushIndex(); err != nil {
			w.keepFailure(&WriteError{File: w.name + ".cdxj", Err: err}, 1)
		}
	}
}

// keepFailure keeps err, the failure of n records Record has returned,
// for the next Record or Close to return.
func (w *Writer) keepFailure(err error, n int) {
	w.fmu.Lock()
	defer w.fmu.Unlock()
	if w.failure == nil {
		w.failure, w.failedMore = err, w.failedMore+n-1
	} else {
		w.failedMore += n
	}
}

// flushIndex writes the waiting index lines, after the records they
// name: an index line never names a record the file does not hold.
func (w *Writer) flushIndex() error {
	w.flushBatch()
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
//
// The records are made and written by the Writer's own goroutine, one
// after the other in the order Record was called, each written whole
// before the next begins, so that a crawl does not wait for them: a
// record of up to copyBelow octets is copied, and Record returns at
// once (when queued records are waiting, it waits for room); a larger
// one, or one kept in a temporary file, is written before Record
// returns. A failure to write a record Record did not wait for is
// returned by the next call of Record, or by Close.
func (w *Writer) Record(r *access.Record) error {
	if r == nil || r.Response == nil || r.URL == nil {
		return nil
	}
	j := w.newJob(r)
	w.qmu.RLock()
	if w.qclosed {
		w.qmu.RUnlock()
		w.freeJob(j)
		return ErrClosed
	}
	// A job without done is run's once sent: it may be reused at once.
	done := j.done
	w.queue <- j
	w.qmu.RUnlock()
	var err error
	if done != nil {
		<-done
		err = j.err
		w.freeJob(j)
	}
	// An earlier record's failure is reported here, r still written.
	if f := w.takeFailure(); f != nil && err != nil {
		return errors.Join(err, f)
	} else if f != nil {
		return f
	}
	return err
}

// copyBelow is the size of record (request and response or resource)
// up to which Record copies its octets and returns before they are
// written; queued records hold copyBelow*queueLen octets at most.
const copyBelow = 64 << 10

// queueLen is how many records wait to be written at most.
const queueLen = 32

// A job is one record for the Writer's goroutine: a copy of an
// access.Record, and of its octets when they are under copyBelow (buf),
// or the caller's record, which it waits for (done).
type job struct {
	rec       access.Record
	req, resp block
	buf       []byte
	done      chan struct{} // closed once written, when the caller waits
	err       error         // the failure, when the caller waits
}

// newJob makes r a job: its octets copied when they are small and in
// memory, else r itself, which the caller waits for.
func (w *Writer) newJob(r *access.Record) *job {
	var j *job
	select {
	case j = <-w.jobs:
	default:
		j = &job{}
	}
	j.rec, j.err = *r, nil
	resp := inMemoryOctets(r.Response)
	req, reqOK := []byte(nil), true
	if r.Request != nil {
		req = inMemoryOctets(r.Request)
		reqOK = req != nil || r.Request.Size() == 0
	}
	n := len(resp) + len(req) + len(r.Dialogue)
	if resp == nil || !reqOK || n > copyBelow || int64(len(resp)) != r.Response.Size() {
		j.resp, j.req, j.done = r.Response, nil, make(chan struct{})
		if r.Request != nil {
			j.req = r.Request
		}
		return j
	}
	j.buf = append(append(append(j.buf[:0], resp...), req...), r.Dialogue...)
	j.resp = bytesBlock(j.buf[:len(resp):len(resp)])
	j.req = nil
	if r.Request != nil {
		j.req = bytesBlock(j.buf[len(resp) : len(resp)+len(req) : len(resp)+len(req)])
	}
	if r.Dialogue != nil {
		j.rec.Dialogue = j.buf[len(resp)+len(req):]
	}
	j.rec.Request, j.rec.Response, j.done = nil, nil, nil
	return j
}

// freeJob keeps j for another record.
func (w *Writer) freeJob(j *job) {
	if cap(j.buf) > copyBelow {
		j.buf = nil
	}
	*j = job{buf: j.buf[:0]}
	select {
	case w.jobs <- j:
	default:
	}
}

// run writes the queued records, until Close closes the queue.
func (w *Writer) run() {
	defer close(w.stopped)
	idle := time.NewTimer(batchWait)
	idle.Stop()
	flush := func() {
		w.mu.Lock()
		w.flushBatch()
		w.mu.Unlock()
	}
	for {
		// The records of a job Record did not wait for join the batch,
		// which is written when it is full, before a record that is
		// not batched, or once no job has come for batchWait.
		var j *job
		var ok bool
		select {
		case j, ok = <-w.queue:
		default:
			if len(w.batch) == 0 {
				j, ok = <-w.queue
				break
			}
			idle.Reset(batchWait)
			select {
			case j, ok = <-w.queue:
				idle.Stop()
			case <-idle.C:
				flush()
				j, ok = <-w.queue
			}
		}
		if !ok {
			flush()
			return
		}
		w.mu.Lock()
		w.batching, w.current = j.done == nil, j.rec.URL
		w.mu.Unlock()
		err := w.record(&j.rec, j.req, j.resp)
		w.mu.Lock()
		if len(w.batch) >= batchMax {
			w.flushBatch()
		}
		w.batching, w.current = false, nil
		w.mu.Unlock()
		if j.done != nil {
			j.err = err
			close(j.done) // the caller frees j
			continue
		}
		if err != nil {
			w.keepFailure(failedRecord(err, &j.rec), 1)
		}
		w.freeJob(j)
	}
}

// failedRecord is err, of writing r after Record returned, naming r.
func failedRecord(err error, r *access.Record) error {
	if we, ok := err.(*WriteError); ok {
		return &WriteError{File: we.File, Err: fmt.Errorf("the record of %s: %w", access.Masked(r.URL), we.Err)}
	}
	return fmt.Errorf("archive: the record of %s: %w", access.Masked(r.URL), err)
}

// takeFailure returns the failure of a record written after its Record
// returned, once.
func (w *Writer) takeFailure() error {
	w.fmu.Lock()
	defer w.fmu.Unlock()
	err, more := w.failure, w.failedMore
	w.failure, w.failedMore = nil, 0
	if more > 0 {
		err = fmt.Errorf("%w (and %d records after it)", err, more)
	}
	return err
}

// record makes and writes r's records, of the octets req and resp
// (r.Request and r.Response, or copies of them).
func (w *Writer) record(r *access.Record, req, resp block) error {
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
		pi, err := examineResponse(r.Protocol, resp)
		if err != nil {
			return err
		}
		ct := "application/" + family + ";msgtype="
		if family == "http" && req != nil && !w.opt.KeepCredentials {
			if req, err = maskCredentials(req); err != nil {
				return err
			}
		}
		// The response first and its request after it, as Heritrix
		// writes them: a reader that has found the response (by the
		// index's offset) finds its request as the next record.
		var reqOut *out
		if req != nil && req.Size() > 0 {
			reqDigest, err := blockDigest(req)
			if err != nil {
				return err
			}
			h := append(common("request", newID()), field{"WARC-Concurrent-To", mainID},
				field{"Content-Type", ct + "request"}, field{"WARC-Block-Digest", reqDigest})
			reqOut = &out{h: h, b: req}
		}
		h := common("response", mainID)
		if reqOut != nil {
			h = append(h, field{"WARC-Concurrent-To", reqOut.h.get("WARC-Record-ID")})
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
		recs = append(recs, out{h: h, b: resp, e: mkEntry(mime, pi.status, pi.payload)})
		if reqOut != nil {
			recs = append(recs, *reqOut)
		}
		if pi.head > 0 && !pi.chunked {
			revisitBlock = io.NewSectionReader(resp, 0, pi.head)
		} else if pi.head > 0 {
			revisitBlock = nil // a chunked body cannot be cut off at its header and read back
		} else {
			revisitBlock = bytesBlock(nil)
		}
	case access.RecordResource:
		d, err := blockDigest(resp)
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
		recs = append(recs, out{h: h, b: resp, e: mkEntry(mediaType(ct), "", d)})
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
	// The page players show of a capture they would misread (derive.go),
	// after the capture's records, in the same write.
	drawn := derive(r, req, resp, mainID, wd)
	if drawn != nil {
		recs = append(recs, *drawn)
	}

	// Which records are written is decided under the lock (dedup);
	// they are compressed outside it, and written under it. Without
	// dedup there is nothing to decide: the lock is taken once, to
	// write.
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
				if drawn != nil {
					// A player shows the page of the original the revisit names.
					recs = recs[:len(recs)-1]
				}
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
	enc := w.getEncoder(nil)
	defer w.release(enc)
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
// in the order pywb searches (by key, then timestamp; compareLines).
func (w *Writer) closeFile() error {
	w.flushBatch()
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
	if slices.IsSortedFunc(lines, compareLines) {
		return nil
	}
	slices.SortFunc(lines, compareLines)
	sorted := make([]byte, 0, len(b))
	for _, l := range lines {
		sorted = append(sorted, l...)
	}
	// A new file of a name of its own (O_EXCL), renamed over the
	// index: a name beside it that a symbolic link was planted at
	// ("NAME.warc.gz.cdxj.tmp") is never written through.
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+"-*.tmp")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(sorted)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if st, serr := os.Lstat(path); err == nil && serr == nil {
		err = os.Chmod(tmp, st.Mode().Perm()) // the index's: CreateTemp's is 0600
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}

// Close writes the records still queued, and ends the current file and
// its index. It returns the failure to write a record that Record has
// not returned.
func (w *Writer) Close() error {
	w.qmu.Lock()
	if !w.qclosed {
		w.qclosed = true
		close(w.queue)
	}
	w.qmu.Unlock()
	<-w.stopped
	failure := w.takeFailure()
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return failure
	}
	w.closed = true
	err := w.closeFile()
	if failure != nil {
		return errors.Join(failure, err)
	}
	return err
}
