package access

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"io"
	"net"
	"os"
	"sync"
	"time"

	"github.com/rfc1738/locator"
)

// Archiving: a Client with a Recorder hands it what each Get exchanged
// with a server, so that it can be kept (a WARC file, ISO 28500); a
// Client with an Archive follows URLs from what was kept instead of the
// network. The access layer knows no protocol and no archive format: a
// scheme client says what one exchange of its protocol is (Capture), a
// Recorder writes it, an Archive finds it again, and the scheme client
// reads its own protocol's reply back (Replayer).

// A RecordKind says what a Record holds.
type RecordKind int

const (
	// RecordExchange is what a client sent and what the server answered,
	// the octets of the protocol as they crossed the connection (above
	// TLS): an HTTP request and response, a Gopher selector line and the
	// reply with its dot-stuffing, an NNTP command and its reply.
	RecordExchange RecordKind = iota + 1
	// RecordResource is an object as the client delivered it (a file, an
	// FTP retrieval, a WAIS document), without the protocol around it;
	// Dialogue holds the protocol dialogue that fetched it.
	RecordResource
)

// A Record is one exchange or one object, for a Recorder or from an
// Archive.
type Record struct {
	Kind RecordKind
	// URL is the URL followed (a WARC record's WARC-Target-URI).
	URL *locator.URL
	// Protocol names the protocol the octets are of, in lower case
	// ("http/1.1", "gopher", "gemini", "nntp", "ftp", "wais",
	// "prospero", "file"): a WARC record's WARC-Protocol.
	Protocol string
	// Addr is the address of the server connected to (an IP address
	// without a port), "" when none was (file, a replay).
	Addr string
	// TLS names the TLS version the octets crossed ("tls/1.3", as the
	// IIPC's WARC-Protocol proposal writes it), "" when none.
	TLS string
	// Date is when the exchange began.
	Date time.Time
	// Request holds the octets sent (RecordExchange); nil for a resource.
	Request *Spool
	// Response holds the octets received (RecordExchange), or the object
	// (RecordResource).
	Response *Spool
	// MediaType is the media type Fetch gave the Resource (a resource's
	// own, or what the scheme client read from the reply), "" when
	// unknown.
	MediaType string
	// Dialogue is the request's dialogue log (Client.Dialogue's lines,
	// passwords masked) of a RecordResource: the FTP control connection
	// of a retrieval. An exchange has none: its Request and Response are
	// the protocol's octets themselves, and keeping a second, escaped
	// copy of each line would cost a recording crawl time for nothing.
	Dialogue []byte
	// Truncated says why Response is not the whole reply, in WARC's
	// words (ISO 28500 §5.13): "length" (Client.MaxSize), "time" (a
	// deadline), "disconnect" (the connection failed), "unspecified"
	// (the reader stopped before the end); "" when it is whole.
	Truncated string
}

// Close releases the record's octets (temporary files).
func (r *Record) Close() error {
	var err error
	if r.Request != nil {
		err = r.Request.Close()
	}
	if r.Response != nil {
		err = errors.Join(err, r.Response.Close())
	}
	return err
}

// A Recorder keeps what a Client's requests exchange (Client.Recorder).
// Record is called once per request that sent or received something,
// when its Resource is closed, or when Fetch failed or redirected (an
// exchange's record: a RecordResource is the object, so a Fetch that
// delivered none, an FTP 550, makes no record); it
// must write the record (a record whole or none), or a copy of its
// octets to be written after it returns, in the order of the calls,
// a failure then returned by a later call or when the Recorder is
// closed; it must not keep r's Spools, which are released after it
// returns. It is called from the goroutines of the Client's callers,
// concurrently.
type Recorder interface {
	Record(r *Record) error
}

// An Archive gives back what a Recorder kept (Client.Archive).
type Archive interface {
	// Lookup returns the latest record of u, or a *NotArchivedError.
	// The caller closes the record.
	Lookup(ctx context.Context, u *locator.URL) (*Record, error)
}

// A Replayer is a scheme client that can read its own protocol's reply
// back from a RecordExchange: the Resource Fetch would have returned had
// the server sent response, without any connection (a *Redirect, a
// *ServerError as Fetch would).
type Replayer interface {
	Replay(ctx context.Context, u *locator.URL, req *Request, response io.Reader) (*Resource, error)
}

// A RecordReplayer is a scheme client that reads a whole Record back,
// not only an exchange's response: what its Resource is depends on more
// than the octets received (an FTP directory's record holds two listing
// transfers; a Gemini record answers a prompt only for the answer it
// was made with). When the scheme client implements it, a Client with
// an Archive calls ReplayRecord instead of Replay, and for a
// RecordResource before it returns the octets as the Body: a nil
// Resource and nil error say the record's octets are the object as
// recorded. It returns what Fetch would have returned, without any
// connection; it must not close rec, which the Client closes when the
// Resource is closed.
type RecordReplayer interface {
	ReplayRecord(ctx context.Context, u *locator.URL, req *Request, rec *Record) (*Resource, error)
}

// A NotArchivedError says an Archive holds no record of a URL.
type NotArchivedError struct {
	URL string // masked
}

func (e *NotArchivedError) Error() string { return "access: " + e.URL + " is not in the archive" }

// A RecordError says a Recorder could not keep an exchange (a disk
// full): the request fails with it, since what was asked for (an
// archive) was not made.
type RecordError struct {
	URL string // masked
	Err error
}

func (e *RecordError) Error() string { return "access: recording " + e.URL + ": " + e.Err.Error() }
func (e *RecordError) Unwrap() error { return e.Err }

// SpoolMemory is how many octets a Spool keeps in memory before it
// moves them to a temporary file, so that what a server sends bounds
// disk use, not memory.
const SpoolMemory = 256 << 10

// A Spool holds octets whose length is not known ahead: in memory up to
// SpoolMemory, then in a temporary file. Write appends; ReadAt and
// Reader read what was written. Its methods are safe for concurrent
// use.
type Spool struct {
	mu  sync.Mutex
	buf []byte
	f   *os.File
	n   int64
	err error // the first error of writing, reported by Err and every Write
}

// NewSpool returns an empty Spool.
func NewSpool() *Spool { return &Spool{} }

// Write appends p. An error of the temporary file is kept and returned
// by every later Write and by Err.
func (s *Spool) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return 0, s.err
	}
	if s.f == nil && len(s.buf)+len(p) > SpoolMemory {
		f, err := os.CreateTemp("", "locator-spool-*")
		if err == nil {
			os.Remove(f.Name()) // gone when closed, whatever happens
			_, err = f.Write(s.buf)
		}
		if err != nil {
			if f != nil {
				f.Close()
			}
			s.err = err
			return 0, err
		}
		s.f, s.buf = f, nil
	}
	if s.f != nil {
		n, err := s.f.WriteAt(p, s.n)
		s.n += int64(n)
		if err != nil {
			s.err = err
		}
		return n, err
	}
	s.buf = append(s.buf, p...)
	s.n += int64(len(p))
	return len(p), nil
}

// Err returns the first error of writing, nil when every octet was kept.
func (s *Spool) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// Size returns how many octets were written.
func (s *Spool) Size() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.n
}

// ReadAt reads the octets written, as io.ReaderAt.
func (s *Spool) ReadAt(p []byte, off int64) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if off >= s.n {
		return 0, io.EOF
	}
	if s.f != nil {
		if int64(len(p)) > s.n-off {
			p = p[:s.n-off]
			n, err := s.f.ReadAt(p, off)
			if err == nil {
				err = io.EOF
			}
			return n, err
		}
		return s.f.ReadAt(p, off)
	}
	n := copy(p, s.buf[off:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// Reader returns a reader of the octets written so far.
func (s *Spool) Reader() *io.SectionReader { return io.NewSectionReader(s, 0, s.Size()) }

// Bytes returns the octets when they are still in memory, else nil.
func (s *Spool) Bytes() []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.f != nil {
		return nil
	}
	return s.buf
}

// Close releases the temporary file, if any.
func (s *Spool) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.buf = nil
	if s.f != nil {
		err := s.f.Close()
		s.f = nil
		return err
	}
	return nil
}

// maxRecordDialogue bounds the dialogue kept with a record.
const maxRecordDialogue = 1 << 20

// A Capture gathers one request's record while its scheme client
// carries it out. All its methods may be called on a nil *Capture,
// which does nothing, so that a client need not ask whether its
// Client records.
type Capture struct {
	req *Request

	mu   sync.Mutex
	rec  Record
	dial bytes.Buffer // dialogue lines
	done bool
	tls  interface{ ConnectionState() tls.ConnectionState } // the tapped conn, when over TLS
}

// Capture returns the Capture of this request, made on the first call
// with the kind of record and the protocol the scheme client says, or
// nil when the Client has no Recorder. A scheme client whose reply is
// an exchange taps the connection it speaks over (Capture.Conn); for a
// RecordResource the Client itself keeps the Resource's Body as it is
// read.
func (r *Request) Capture(kind RecordKind, protocol string) *Capture {
	if r == nil || r.Client == nil || r.Client.Recorder == nil {
		return nil
	}
	r.capMu.Lock()
	defer r.capMu.Unlock()
	if r.capture == nil {
		r.capture = &Capture{req: r, rec: Record{Kind: kind, URL: r.URL, Protocol: protocol,
			Date: time.Now().UTC(), Response: NewSpool()}}
		if kind == RecordExchange {
			r.capture.rec.Request = NewSpool()
		}
	}
	return r.capture
}

// Conn returns conn with what is written to it and read from it kept
// in c's request and response; conn must be the connection the
// protocol's octets cross as they are (above TLS). A connection Conn
// returned before, kept open for another request (an NNTP session),
// is given to c: from then on its octets are c's.
func (c *Capture) Conn(conn net.Conn) net.Conn {
	if c == nil || conn == nil {
		return conn
	}
	c.mu.Lock()
	if c.rec.Addr == "" {
		c.rec.Addr = addrIP(conn.RemoteAddr())
	}
	inner := conn
	if t, ok := conn.(*tapConn); ok {
		inner = t.Conn
	}
	if tc, ok := inner.(interface{ ConnectionState() tls.ConnectionState }); ok {
		c.tls = tc
	}
	c.mu.Unlock()
	if t, ok := conn.(*tapConn); ok {
		t.mu.Lock()
		t.c = c
		t.mu.Unlock()
		return t
	}
	return &tapConn{Conn: conn, c: c}
}

// Sent keeps p as octets sent, for a client that writes through
// something Conn cannot wrap.
func (c *Capture) Sent(p []byte) {
	if c != nil && c.rec.Request != nil {
		c.rec.Request.Write(p)
	}
}

// Received keeps p as octets received.
func (c *Capture) Received(p []byte) {
	if c != nil {
		c.rec.Response.Write(p)
	}
}

// SetMediaType sets the record's MediaType, for a client whose record
// is not the Resource's octets as they are (an FTP directory's listing
// transfers, which its Listing is made of); otherwise the record's media
// type is the Resource's.
func (c *Capture) SetMediaType(t string) {
	if c == nil {
		return
	}
	c.mu.Lock()
	c.rec.MediaType = t
	c.mu.Unlock()
}

// SetAddr sets the address of the server connected to, for a client
// whose connection Conn did not see.
func (c *Capture) SetAddr(a net.Addr) {
	if c == nil {
		return
	}
	c.mu.Lock()
	c.rec.Addr = addrIP(a)
	c.mu.Unlock()
}

func (c *Capture) logLine(line string) {
	c.mu.Lock()
	if c.dial.Len()+len(line) <= maxRecordDialogue {
		c.dial.WriteString(line)
	}
	c.mu.Unlock()
}

func addrIP(a net.Addr) string {
	switch a := a.(type) {
	case *net.TCPAddr:
		return a.IP.String()
	case *net.UDPAddr:
		return a.IP.String()
	case nil:
		return ""
	}
	if h, _, err := net.SplitHostPort(a.String()); err == nil {
		return h
	}
	return ""
}

// finish hands the record to the Recorder once; truncated is its
// Truncated. It returns a *RecordError when the record could not be
// kept.
func (c *Capture) finish(truncated string) error {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	if c.done {
		c.mu.Unlock()
		return nil
	}
	c.done = true
	rec := c.rec
	rec.Dialogue = bytes.Clone(c.dial.Bytes())
	if c.tls != nil {
		if st := c.tls.ConnectionState(); st.HandshakeComplete {
			rec.TLS = tlsName[st.Version]
		}
	}
	rec.Truncated = truncated
	c.mu.Unlock()
	defer rec.Close()
	if rec.Response.Size() == 0 && (rec.Request == nil || rec.Request.Size() == 0) && rec.Kind == RecordExchange {
		return nil // nothing crossed: a refused connection
	}
	err := rec.Response.Err()
	if err == nil && rec.Request != nil {
		err = rec.Request.Err()
	}
	if err == nil {
		err = c.req.Client.Recorder.Record(&rec)
	}
	if err != nil {
		return &RecordError{URL: Masked(c.req.URL), Err: err}
	}
	return nil
}

// discard ends c without a record.
func (c *Capture) discard() {
	c.mu.Lock()
	done := c.done
	c.done = true
	c.mu.Unlock()
	if !done {
		c.rec.Close()
	}
}

var tlsName = map[uint16]string{tls.VersionTLS10: "tls/1.0", tls.VersionTLS11: "tls/1.1",
	tls.VersionTLS12: "tls/1.2", tls.VersionTLS13: "tls/1.3"}

// truncation names why a transfer that ended with err is not whole.
func truncation(err error) string {
	switch {
	case err == nil || err == io.EOF:
		return ""
	case errors.Is(err, ErrTooLarge), errors.As(err, new(*TruncatedError)):
		return "length" // a limit of the Client's: MaxSize, MaxEntries
	case errors.Is(err, context.DeadlineExceeded) || isTimeout(err):
		return "time"
	case errors.Is(err, ErrListingClosed):
		return "unspecified"
	}
	return "disconnect"
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// A tapConn keeps a connection's octets in the Capture it belongs to.
type tapConn struct {
	net.Conn
	mu sync.Mutex
	c  *Capture
}

func (t *tapConn) capture() *Capture {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.c
}

func (t *tapConn) Read(p []byte) (int, error) {
	n, err := t.Conn.Read(p)
	if n > 0 {
		t.capture().Received(p[:n])
	}
	return n, err
}

func (t *tapConn) Write(p []byte) (int, error) {
	n, err := t.Conn.Write(p)
	if n > 0 {
		t.capture().Sent(p[:n])
	}
	return n, err
}

// recorded wraps what Fetch returned so that the request's record is
// made when the Resource is closed, or at once when Fetch failed. A
// failure to record fails the request.
func (r *Request) recorded(res *Resource, err error) (*Resource, error) {
	c := r.capture
	if c == nil {
		return res, err
	}
	if r.offset > 0 {
		// The octets from an offset on are not the object, and a record
		// of them would replay as if they were: a resumed transfer is
		// not archived (a scheme client may refuse it first, as ftp's
		// Check does).
		c.discard()
		return res, err
	}
	if (err != nil || res == nil) && c.rec.Kind == RecordResource {
		// A resource record is the object, and there is none: an FTP
		// 550 recorded would replay as an empty file.
		c.discard()
		return res, err
	}
	if err != nil || res == nil {
		if rerr := c.finish(truncation(errCause(err))); rerr != nil {
			if res != nil {
				res.Close()
			}
			return nil, rerr
		}
		return res, err
	}
	c.mu.Lock()
	if c.rec.MediaType == "" { // not set by the client (SetMediaType)
		c.rec.MediaType = res.MediaType
	}
	c.mu.Unlock()
	switch {
	case res.Listing != nil:
		l := res.Listing
		inner := l.close
		l.close = func() error {
			var cerr error
			if inner != nil {
				cerr = inner()
			}
			tr := ""
			if l.err != io.EOF {
				tr = truncation(l.err)
				if l.err == nil {
					tr = "unspecified"
				}
			}
			return errors.Join(cerr, c.finish(tr))
		}
	case res.Body != nil:
		res.Body = &recordedBody{rc: res.Body, c: c, keep: c.rec.Kind == RecordResource}
	default:
		if rerr := c.finish(""); rerr != nil {
			return nil, rerr
		}
	}
	return res, nil
}

// errCause is err, or nothing for a redirect or a server's refusal,
// which are whole replies, and for a *ProtocolError: the client judged
// the octets that crossed, all of which the record holds, and its
// Replay reading them judges them the same way. A record marked cut
// short would end its replay with a *PartialRecordError instead.
func errCause(err error) error {
	var rd *Redirect
	var se *ServerError
	var pe *ProtocolError
	if errors.As(err, &rd) || errors.As(err, &se) || errors.As(err, &pe) {
		return nil
	}
	return err
}

// recordedBody makes the record when the body is closed; for a resource
// it keeps the octets read.
type recordedBody struct {
	rc   io.ReadCloser
	c    *Capture
	keep bool
	end  error // the error that ended reading; io.EOF when read whole
}

func (b *recordedBody) Read(p []byte) (int, error) {
	n, err := b.rc.Read(p)
	if n > 0 && b.keep {
		b.c.Received(p[:n])
	}
	if err != nil && b.end == nil {
		b.end = err
	}
	return n, err
}

func (b *recordedBody) Close() error {
	err := b.rc.Close()
	tr := "unspecified"
	if b.end != nil {
		tr = truncation(b.end)
	}
	return errors.Join(err, b.c.finish(tr))
}

// replay makes the Resource u names from the Client's Archive: the
// scheme client's ReplayRecord when it has one, else a resource's
// octets as the Body, an exchange's response through the scheme
// client's Replay. A record that is not whole (Record.Truncated) never
// reads as the whole object: its octets are delivered, then a
// *PartialRecordError in place of the end.
func (c *Client) replay(ctx context.Context, f Fetcher, u *locator.URL, req *Request) (*Resource, error) {
	rec, err := c.Archive.Lookup(ctx, u)
	if err != nil {
		return nil, err
	}
	req.Notef("replay %s record of %s (%s)", rec.Protocol, Masked(u), rec.Date.Format(time.RFC3339))
	if rec.Truncated != "" {
		req.Notef("the record is not whole (WARC-Truncated: %s): what it holds is delivered, then an error", rec.Truncated)
	}
	var res *Resource
	rr, ok := f.(RecordReplayer)
	if ok {
		res, err = rr.ReplayRecord(ctx, u, req, rec)
	}
	switch {
	case ok && (err != nil || res != nil):
	case rec.Kind == RecordResource:
		size := rec.Response.Size()
		if rec.Truncated != "" {
			size = -1 // the object's is not known
		}
		return &Resource{URL: u, Body: &recordBody{Reader: RecordReader(rec), rec: rec}, MediaType: rec.MediaType, Size: size}, nil
	default:
		rp, ok := f.(Replayer)
		if !ok {
			rec.Close()
			return nil, &ProtocolError{URL: Masked(u), Msg: "the " + u.Scheme() + " client cannot read a recorded " + rec.Protocol + " exchange back"}
		}
		res, err = rp.Replay(ctx, u, req, RecordReader(rec))
	}
	if err != nil || res == nil {
		rec.Close()
		return res, err
	}
	switch {
	case res.Listing != nil:
		inner := res.Listing.close
		res.Listing.close = func() error {
			var err error
			if inner != nil {
				err = inner()
			}
			return errors.Join(err, rec.Close())
		}
	case res.Body != nil:
		res.Body = &closeBoth{ReadCloser: res.Body, rec: rec}
	default:
		rec.Close()
	}
	return res, nil
}

// A PartialRecordError ends the octets of a replayed record that is
// not whole (Record.Truncated, WARC-Truncated, ISO 28500 §5.13): the
// transfer it was made of ended early, so what the record holds is not
// the object, and a replay must not read as if it were.
type PartialRecordError struct {
	URL       string // masked
	Truncated string // "length", "time", "disconnect", "unspecified"
}

func (e *PartialRecordError) Error() string {
	return "access: the archive's record of " + e.URL + " is not whole (truncated: " + e.Truncated + "): the rest of the object is not in the archive"
}

// RecordReader returns a reader of rec's response (or resource) octets,
// as a RecordReplayer reads them: when the record is not whole
// (Truncated) it ends with a *PartialRecordError, not io.EOF.
func RecordReader(rec *Record) io.Reader {
	r := rec.Response.Reader()
	if rec.Truncated == "" {
		return r
	}
	return &partialReader{r: r, err: &PartialRecordError{URL: Masked(rec.URL), Truncated: rec.Truncated}}
}

type partialReader struct {
	r   io.Reader
	err error
}

func (p *partialReader) Read(b []byte) (int, error) {
	n, err := p.r.Read(b)
	if err == io.EOF {
		err = p.err
	}
	return n, err
}

type recordBody struct {
	io.Reader
	rec *Record
}

func (b *recordBody) Close() error { return b.rec.Close() }

type closeBoth struct {
	io.ReadCloser
	rec *Record
}

func (b *closeBoth) Close() error { return errors.Join(b.ReadCloser.Close(), b.rec.Close()) }
