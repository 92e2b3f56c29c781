package wais

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/internal/printable"
)

func init() {
	access.Register("wais", access.Info{DefaultPort: defaultPort, Resume: true}, func() access.Fetcher { return new(Client) })
}

// Client follows WAIS URLs (RFC 1738 §3.9) for package access, speaking
// the WAIS protocol over TCP: Z39.50-1988 APDUs with WAIS's elements,
// each behind a 25-octet header (header), on one connection per URL:
//
//   - wais://host:port/database?search: Init, then a Search of the
//     search words (a relevance-feedback query, wais-protspec.txt §3.1 and
//     Appendix A); the result is a listing, one entry per document, each
//     entry's URL wais://host:port/database/wtype/wpath written by Build
//     with the document's docid as the wpath.
//   - wais://host:port/database/wtype/wpath: Init, then text retrievals
//     (a Type-1 query, wais-waisprot.txt §8.0) of successive byte chunks
//     of the document until it ends: a chunk shorter than asked, or the
//     server's diagnostic "SF" (present request out of range) after the
//     first chunk. The request's view (access.Options.View), when set,
//     is the document type asked for instead of the URL's wtype (a
//     wtype such as "TEXT"). The retrieval begins at the request's
//     offset (access.Client.GetFrom), the chunks being byte ranges of
//     the document (wais-waisprot.txt §8.0), so that a transfer cut short
//     resumes where it ended.
//   - wais://host:port/database (no search): with the request's search
//     words (access.Options.Search), a search of them; without, the
//     database's source description (the
//     ".src" file: an empty search returns its header, of type WSRC,
//     which is then retrieved as a document).
//
// Its zero value is ready; it keeps no connection between requests, and
// holds no value of one request: those travel with it (access.Options).
type Client struct{}

// view returns the document type req asks for, "" for the URL's own.
func (c *Client) view(req *access.Request) string {
	if req == nil {
		return ""
	}
	return req.View()
}

// search returns the search words req gives, "" for none (a database
// URL without a search then asks for the source description).
func (c *Client) search(req *access.Request) string {
	if req == nil {
		return ""
	}
	return req.Search()
}

// Limits of the client.
const (
	// chunkSize is the number of octets asked for in one text retrieval.
	// freeWAIS's server answers in a buffer of 100000 octets
	// (ir/server.h BUFSZ) and its waissearch asks for 10000.
	chunkSize = 32 << 10
	// maxMessage bounds one reply message (the header's msg_len) before
	// anything is allocated for it; a document's octets are bounded by
	// the access.Client's MaxSize besides.
	maxMessage = 1 << 20
	// maxDocuments bounds the documents one search asks for
	// (Max-Documents-Retrieved, wais-protspec.txt §5; waissearch asks
	// for 40); the access.Client's MaxEntries lowers it.
	maxDocuments = 100
	// retrievalSlack is what a text reply holds besides the text: the
	// APDU's fields, the docid (echoed) and the element tags.
	retrievalSlack = 64 << 10
)

// implementation names the client in its Init APDU.
const implementation = "locator"

func policy(u *locator.URL, off int, rule, reason string) error {
	return &access.PolicyError{URL: access.Masked(u), Offset: off, Rule: rule, Reason: reason}
}

// Check refuses, before any connection, a WAIS URL that names nothing to
// fetch: no host, a search and a document at once, a document path
// without its wtype and wpath (RFC 1738 §3.9), and a database, type or
// search word whose decoded octets hold a NUL, which the server reads as
// the end of the C string it makes of them (freeWAIS zutil.c
// readString), so that it would answer for another name (§6); so is a
// search or a document type given (the request's, or c's) that holds a
// NUL.
func (c *Client) Check(u *locator.URL, req *access.Request) error {
	if u.Host() == "" {
		return policy(u, u.Offset(locator.HostComponent), "RFC 1738 §3.9", "a WAIS URL names the server's host")
	}
	w, err := From(u)
	if err != nil {
		return policy(u, 0, "waisurl", err.Error())
	}
	base := u.Offset(locator.PathComponent)
	if w.HasDoc && u.HasSearch() {
		return policy(u, u.Offset(locator.SearchComponent)-1, "RFC 1738 §3.9", "a WAIS URL is a database, a search or a document, not a search and a document")
	}
	if w.HasDoc {
		if _, err := ParseDocPath(u.Path()); err != nil {
			var we *locator.SchemeError
			if errors.As(err, &we) {
				return policy(u, base+we.Offset, we.Rule, we.Message)
			}
			return err
		}
	}
	if i := strings.IndexByte(w.Database, 0); i >= 0 {
		return policy(u, base, "RFC 1738 §6", "the database name holds a decoded NUL, where the server's C string would end")
	}
	if w.HasDoc && strings.IndexByte(w.WType, 0) >= 0 {
		return policy(u, base, "RFC 1738 §6", "the wtype holds a decoded NUL, where the server's C string would end")
	}
	if u.HasSearch() && strings.IndexByte(w.Search, 0) >= 0 {
		return policy(u, u.Offset(locator.SearchComponent), "RFC 1738 §6", "the search holds a decoded NUL, where the server's C string would end")
	}
	if strings.IndexByte(c.search(req), 0) >= 0 || strings.IndexByte(c.view(req), 0) >= 0 {
		return policy(u, 0, "RFC 1738 §6", "the search words or the document type hold a NUL, where the server's C string would end")
	}
	return nil
}

// searchWords returns the seed words a search URL sends: its search
// decoded, a "+" written as such (not %2B) read as the space between
// words, as the 1993 draft wrote them (search = xalphas [ + search ]).
func searchWords(rawSearch string) string {
	parts := strings.Split(rawSearch, "+")
	for i, p := range parts {
		parts[i] = locator.Decode(p)
	}
	return strings.Join(parts, " ")
}

// Fetch follows u: see Client.
func (c *Client) Fetch(ctx context.Context, u *locator.URL, req *access.Request) (*access.Resource, error) {
	w, err := From(u)
	if err != nil {
		return nil, err
	}
	cn, err := dial(ctx, u, req)
	if err != nil {
		return nil, err
	}
	return c.follow(cn, u, w)
}

var _ access.Replayer = (*Client)(nil)

// Replay reads response, the recorded exchange of u's Fetch (see
// Client), as Fetch reads a live connection: the same steps (Init, the
// search, the retrievals of the document's chunks) each take the next
// recorded reply APDU, so that a search is the same listing, a document
// its octets, and a diagnostic the *access.ServerError it was. A record
// that breaks off or holds what is not a reply APDU is an
// *access.ProtocolError. The record is of a retrieval from the
// document's first octet: a replay is too, whatever the request's
// offset.
func (c *Client) Replay(ctx context.Context, u *locator.URL, req *access.Request, response io.Reader) (*access.Resource, error) {
	w, err := From(u)
	if err != nil {
		return nil, &access.ProtocolError{URL: access.Masked(u), Msg: err.Error()}
	}
	cn := &conn{u: u, req: req, chunk: chunkSize, r: response, w: io.Discard}
	if err := cn.init(); err != nil {
		return nil, err
	}
	return c.follow(cn, u, w)
}

// follow carries out what u asks on cn, after Init.
func (c *Client) follow(cn *conn, u *locator.URL, w *URL) (*access.Resource, error) {
	switch {
	case w.HasDoc:
		ref, err := ParseDocPath(u.Path())
		if err != nil {
			cn.Close()
			return nil, err
		}
		if ref.Form != FormOpaque {
			cn.req.Notef("docid read from the %s form of the wpath (%d fields)", ref.Form, countElements(ref.DocID))
		}
		typ := ref.Type
		if v := c.view(cn.req); v != "" {
			typ = v
		}
		return cn.retrieve(ref.Database, ref.DocID, typ)
	case u.HasSearch() && (w.Search != "" || c.search(cn.req) == ""):
		return cn.search(w.Database, searchWords(u.Search()))
	case c.search(cn.req) != "":
		return cn.search(w.Database, c.search(cn.req))
	}
	return cn.source(w.Database)
}

func countElements(id []byte) int {
	es, _ := parseDocID(id)
	return len(es)
}

// conn is one connection to a WAIS server after the Init exchange, or
// the record of one (Replay: r reads the recorded replies, w discards).
type conn struct {
	nc    net.Conn // nil in a replay
	r     io.Reader
	w     io.Writer
	u     *locator.URL
	req   *access.Request
	chunk int64
	hdr   [headerLen]byte
}

func (c *conn) Close() error {
	if c.nc == nil {
		return nil
	}
	return c.nc.Close()
}

// peer names the other end, for a message.
func (c *conn) peer() string {
	if c.nc == nil {
		return "the record"
	}
	return c.nc.RemoteAddr().String()
}

// dial connects and exchanges Init. When the access.Client records, the
// connection is the request's record (access.RecordExchange, protocol
// "wais"): every APDU sent and received behind its header, the Init
// exchange first. A retrieval resumed at an offset is not recorded: its
// chunks are not the document's.
func dial(ctx context.Context, u *locator.URL, req *access.Request) (*conn, error) {
	nc, err := req.Dial(ctx, u.Host(), u.EffectivePort())
	if err != nil {
		return nil, err
	}
	if req.Offset() == 0 {
		nc = req.Capture(access.RecordExchange, "wais").Conn(nc)
	}
	c := &conn{nc: nc, r: nc, w: nc, u: u, req: req, chunk: chunkSize}
	if err := c.init(); err != nil {
		return nil, err
	}
	return c, nil
}

// init exchanges Init (wais-protspec.txt §2.2); it closes c on an error.
func (c *conn) init() error {
	u, req := c.u, c.req
	init := &initRequest{MessageSize: maxMessage, ImplementationName: implementation, ImplementationVersion: "1"}
	apdu := init.Encode()
	req.Sent(fmt.Sprintf("Init (PDU %d, %d octets): search, message size %d, implementation %q", pduInit, len(apdu), init.MessageSize, init.ImplementationName))
	b, err := c.roundTrip(apdu, maxMessage, "Init")
	if err != nil {
		c.Close()
		return err
	}
	r, err := parseInitResponse(b)
	if err != nil {
		c.Close()
		return c.protocol("Init", err)
	}
	req.Received(fmt.Sprintf("InitResponse (PDU %d, %d octets): %s, message size %d, record size %d, %s %s",
		pduInitResponse, len(b), map[bool]string{true: "accepted", false: "rejected"}[r.Accepted],
		r.PreferredMessageSize, r.MaximumRecordSize, r.ImplementationName, r.ImplementationVersion))
	if !r.Accepted {
		c.Close()
		return &access.ServerError{URL: access.Masked(u), Command: "Init", Code: "rejected", Text: "the server declined service (Init-Response Result 0, wais-protspec.txt §2.2)"}
	}
	// A server that takes smaller records gets smaller chunks.
	if m := r.MaximumRecordSize; m > 0 && m < chunkSize+4096 {
		c.chunk = max(m-4096, 512)
	}
	return nil
}

func (c *conn) protocol(apdu string, err error) error {
	return &access.ProtocolError{URL: access.Masked(c.u), Msg: "reply to " + apdu + ": " + err.Error()}
}

// roundTrip sends one APDU behind its header and reads the reply's
// header and APDU, refusing before allocating a reply longer than limit.
func (c *conn) roundTrip(apdu []byte, limit int64, what string) ([]byte, error) {
	msg := appendHeader(make([]byte, 0, headerLen+len(apdu)), len(apdu))
	msg = append(msg, apdu...)
	if _, err := c.w.Write(msg); err != nil {
		return nil, fmt.Errorf("wais: sending %s to %s: %w", what, c.peer(), err)
	}
	if _, err := io.ReadFull(c.r, c.hdr[:]); err != nil {
		return nil, c.readError(what, "the reply's header", err)
	}
	h, err := parseHeader(c.hdr[:])
	if err != nil {
		return nil, c.protocol(what, err)
	}
	if h.Length > limit {
		return nil, &access.ProtocolError{URL: access.Masked(c.u), Msg: fmt.Sprintf("reply to %s: the header announces %d octets, more than the %d this client takes", what, h.Length, limit)}
	}
	b := make([]byte, h.Length)
	if _, err := io.ReadFull(c.r, b); err != nil {
		return nil, c.readError(what, fmt.Sprintf("the reply's %d octets", h.Length), err)
	}
	return b, nil
}

func (c *conn) readError(what, part string, err error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return &access.ProtocolError{URL: access.Masked(c.u), Msg: "reply to " + what + ": the server closed the connection before " + part + " ended"}
	}
	return fmt.Errorf("wais: reading %s (reply to %s) from %s: %w", part, what, c.peer(), err)
}

// searchResponse sends a Search, logged as desc, and reads its
// Search-Response.
func (c *conn) searchResponse(s *Search, desc string, limit int64, what string) (*searchReply, error) {
	apdu := s.Encode()
	c.req.Sent(fmt.Sprintf("Search (PDU %d, %d octets): %s", pduSearch, len(apdu), desc))
	b, err := c.roundTrip(apdu, limit, what)
	if err != nil {
		return nil, err
	}
	r, err := parseSearchResponse(b)
	if err != nil {
		return nil, c.protocol(what, err)
	}
	var parts []string
	parts = append(parts, fmt.Sprintf("status %d, %d records", r.Status, r.RecordsReturned))
	if len(r.Headers) > 0 {
		parts = append(parts, fmt.Sprintf("%d document headers", len(r.Headers)))
	}
	for _, t := range r.Texts {
		parts = append(parts, fmt.Sprintf("text of %d octets", len(t.Text)))
	}
	for _, d := range r.Diagnostics {
		parts = append(parts, "diagnostic "+d.String())
	}
	if r.SeedWordsUsed != "" {
		parts = append(parts, fmt.Sprintf("seed words used %q", r.SeedWordsUsed))
	}
	c.req.Received(fmt.Sprintf("SearchResponse (PDU %d, %d octets): %s", pduSearchResponse, len(b), strings.Join(parts, ", ")))
	return r, nil
}

func (c *conn) maxDocs() int64 {
	return int64(min(c.req.MaxEntries()+1, maxDocuments))
}

// search runs a relevance-feedback search and lists its documents.
func (c *conn) search(db, words string) (*access.Resource, error) {
	defer c.Close()
	s := &Search{Database: db, SeedWords: words, MaxDocs: c.maxDocs()}
	r, err := c.searchResponse(s, fmt.Sprintf("database %q, query type 3, seed words %q, max documents %d", db, words, s.MaxDocs), maxMessage, "Search")
	if err != nil {
		return nil, err
	}
	if len(r.Headers) == 0 && len(r.Diagnostics) > 0 {
		d := r.Diagnostics[0]
		return nil, &access.ServerError{URL: access.Masked(c.u), Command: fmt.Sprintf("Search %q in %q", words, db), Code: d.Code, Text: d.AddInfo}
	}
	// The results are one Search-Response message, at most maxMessage
	// octets and maxDocuments headers (constants): they are read whole
	// and handed out from memory.
	var entries []access.Entry
	truncated := false
	for _, h := range r.Headers {
		if len(entries) == c.req.MaxEntries() {
			truncated = true
			break
		}
		e, err := c.entry(db, h)
		if err != nil {
			return nil, err
		}
		entries = append(entries, e)
	}
	return &access.Resource{Listing: access.ListingOf(entries, truncated, c.req.MaxEntries()), Size: -1}, nil
}

// docType is the type a document is retrieved as when its header names
// none (freeWAIS's waissearch: "TEXT").
const docType = "TEXT"

func (c *conn) entry(db string, h docHeader) (access.Entry, error) {
	typ := docType
	if len(h.Types) > 0 && h.Types[0] != "" {
		typ = h.Types[0]
	}
	w := &URL{Host: c.u.Host(), Database: db, WType: typ, WPath: string(h.DocID), HasDoc: true}
	if c.u.HasPort() {
		w.Port = c.u.Port()
	}
	s, err := w.Build()
	if err != nil {
		return access.Entry{}, &access.ProtocolError{URL: access.Masked(c.u), Msg: "a search result cannot be written as a WAIS URL: " + err.Error()}
	}
	parts := map[string]any{"headline": h.Headline, "wtype": typ}
	if h.Score >= 0 {
		parts["score"] = h.Score
	}
	if h.Lines >= 0 {
		parts["lines"] = h.Lines
	}
	if len(h.Types) > 0 {
		parts["types"] = h.Types
	}
	for k, v := range map[string]string{"source": h.Source, "date": h.Date, "origin_city": h.OriginCity} {
		if v != "" {
			parts[k] = v
		}
	}
	if h.Group != "header" {
		parts["element_set"] = h.Group
	}
	return access.Entry{URL: s, Name: headline(h.Headline), Type: access.TypeFile, Size: h.DocumentLength, Modified: parseDate(h.Date), Parts: parts}, nil
}

// headline returns a headline as a person reads it, as freeWAIS's
// clients show it (ir/ui.c trim_junk): the server's markers removed
// (ESC "(" or ESC ")" around a term, ESC and four octets for a
// paragraph), CR and LF removed, and what is not printable at either end
// removed.
func headline(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == 0x1b:
			if i+1 < len(s) && (s[i+1] == '(' || s[i+1] == ')') {
				i++
			} else {
				i += 4
			}
		case c == '\r' || c == '\n':
		default:
			b.WriteByte(c)
		}
	}
	t := b.String()
	printable := func(c byte) bool { return c >= 0x20 && c < 0x7f }
	for len(t) > 0 && !printable(t[0]) {
		t = t[1:]
	}
	for len(t) > 0 && !printable(t[len(t)-1]) {
		t = t[:len(t)-1]
	}
	return t
}

// parseDate reads a header's Date, "yyyymmdd" or the older "yymmdd" of
// the 1990 specification's example (wais-protspec.txt B.4: "A Date
// element should actually be yyyymmdd"); anything else is the zero time
// (the text stays in the entry's parts).
func parseDate(s string) time.Time {
	for _, layout := range []string{"20060102", "060102"} {
		if len(s) == len(layout) {
			if t, err := time.Parse(layout, s); err == nil {
				return t
			}
		}
	}
	return time.Time{}
}

// mediaType returns the media type of a WAIS document type: the types
// freeWAIS's indexer writes, else the one its name suggests as a file
// extension.
func mediaType(typ string) string {
	switch strings.ToUpper(typ) {
	case "TEXT", "TEXT-FTP":
		return "text/plain"
	case "WSRC":
		return "application/x-wais-source"
	case "HTML":
		return "text/html"
	case "PS":
		return "application/postscript"
	case "GIF":
		return "image/gif"
	case "TIFF":
		return "image/tiff"
	case "JPEG":
		return "image/jpeg"
	}
	return mime.TypeByExtension("." + strings.ToLower(typ))
}

// source retrieves the database's source description: an empty search
// returns its header, of type WSRC ("Information on database: ..."),
// which is retrieved as a document.
func (c *conn) source(db string) (*access.Resource, error) {
	s := &Search{Database: db, SeedWords: "", MaxDocs: 10}
	r, err := c.searchResponse(s, fmt.Sprintf("database %q, query type 3, no seed words (the source description), max documents %d", db, s.MaxDocs), maxMessage, "Search")
	if err != nil {
		c.Close()
		return nil, err
	}
	for _, h := range r.Headers {
		if len(h.Types) > 0 && h.Types[0] == "WSRC" {
			c.req.Notef("the source description is the WSRC document %q", headline(h.Headline))
			return c.retrieve(db, h.DocID, "WSRC")
		}
	}
	c.Close()
	cmd := fmt.Sprintf("Search \"\" in %q", db)
	if len(r.Diagnostics) > 0 {
		d := r.Diagnostics[0]
		return nil, &access.ServerError{URL: access.Masked(c.u), Command: cmd, Code: d.Code, Text: d.AddInfo}
	}
	return nil, &access.ServerError{URL: access.Masked(c.u), Command: cmd, Code: "WSRC",
		Text: fmt.Sprintf("missing: the server returned %d documents and no source description (a document of type WSRC)", len(r.Headers))}
}

// retrieve reads the first chunk of the document, from the request's
// offset, so that a document the server does not have is an error here,
// and returns the body that reads the rest chunk by chunk.
//
// The document's size is known when its first chunk is its last. From an
// offset at the document's end freeWAIS sends no text, only the
// diagnostic that the range is out of the document, as it does from an
// offset past the end; the octet before the offset tells them apart (see
// atEnd).
func (c *conn) retrieve(db string, docID []byte, typ string) (*access.Resource, error) {
	off := c.req.Offset()
	if c.nc == nil {
		off = 0 // a replay: the record is from the first octet (Replay)
	}
	d := &docReader{c: c, db: db, docID: docID, typ: typ, off: off}
	if err := d.next(); err != nil {
		c.Close()
		return nil, err
	}
	res := &access.Resource{Body: c.req.Limit(d), MediaType: mediaType(typ), Size: -1, Offset: off}
	if off > 0 && d.done && len(d.buf) == 0 {
		if err := d.atEnd(); err != nil {
			c.Close()
			return nil, err
		}
	}
	if d.done {
		res.Size = d.off
	}
	return res, nil
}

// docReader is a document's octets, read in chunks of c.chunk octets.
type docReader struct {
	c     *conn
	db    string
	docID []byte
	typ   string
	off   int64 // the next chunk's first octet
	buf   []byte
	done  bool
	err   error
}

func (d *docReader) Read(p []byte) (int, error) {
	for len(d.buf) == 0 {
		if d.err != nil {
			return 0, d.err
		}
		if d.done {
			return 0, io.EOF
		}
		d.err = d.next()
	}
	n := copy(p, d.buf)
	d.buf = d.buf[n:]
	return n, nil
}

func (d *docReader) Close() error { return d.c.Close() }

// chunk asks for the octets [start, end) of the document and returns
// the text and the diagnostics of the reply.
func (d *docReader) chunk(start, end int64) ([]byte, []diagnostic, error) {
	c := d.c
	s := &Search{Database: d.db, Retrieve: true, DocID: d.docID, DocType: d.typ, Start: start, End: end}
	r, err := c.searchResponse(s, fmt.Sprintf("database %q, query type 1, retrieve docid of %d octets, type %q, bytes %d-%d",
		d.db, len(d.docID), d.typ, s.Start, s.End), (end-start)+retrievalSlack, "Search (text retrieval)")
	if err != nil {
		return nil, nil, err
	}
	var text []byte
	switch len(r.Texts) {
	case 0:
	case 1:
		text = r.Texts[0].Text
	default:
		return nil, nil, c.protocol("Search (text retrieval)", fmt.Errorf("%d document texts for one chunk", len(r.Texts)))
	}
	if int64(len(text)) > end-start {
		return nil, nil, c.protocol("Search (text retrieval)", fmt.Errorf("%d octets of text for a chunk of %d", len(text), end-start))
	}
	if len(r.Texts) == 0 && len(r.Diagnostics) == 0 {
		return nil, nil, c.protocol("Search (text retrieval)", errors.New("neither a document text nor a diagnostic"))
	}
	return text, r.Diagnostics, nil
}

// next asks for the chunk at d.off. The document ends with a chunk
// shorter than asked for, or with the server's diagnostic that the range
// is out of the document (freeWAIS ir/irretrvl.c getData sends
// D_PresentRequestOutOfRange "SF" with the last, short chunk, or alone
// when the document's length is a multiple of the chunk). A diagnostic
// before any octet is the server's "no" (the document is absent).
func (d *docReader) next() error {
	c := d.c
	start, end := d.off, d.off+c.chunk
	text, diags, err := d.chunk(start, end)
	if err != nil {
		return err
	}
	outOfRange := false
	for _, dg := range diags {
		if dg.Code == "SF" && (d.off > 0 || len(text) > 0) {
			outOfRange = true
			continue
		}
		return &access.ServerError{URL: access.Masked(c.u), Command: fmt.Sprintf("retrieve %q bytes %d-%d", d.typ, start, end), Code: dg.Code, Text: dg.AddInfo}
	}
	d.off += int64(len(text))
	d.buf = text
	if outOfRange || int64(len(text)) < c.chunk {
		d.done = true
		c.req.Notef("end of the document after %s octets", strconv.FormatInt(d.off, 10))
	}
	return nil
}

// atEnd is asked when a retrieval from an offset got no octet: it
// retrieves the octet before the offset, which a document that ends at
// the offset has (the Body is then empty), and one that ends before it
// has not. Then the first octet tells a document shorter than the offset
// from one the server does
// not have (its own diagnostic, as without an offset); the first is an
// *OffsetError.
func (d *docReader) atEnd() error {
	c := d.c
	off := d.off
	text, diags, err := d.chunk(off-1, off)
	if err != nil {
		return err
	}
	if len(text) == 1 {
		c.req.Notef("octet %d is the document's last: nothing follows the offset", off-1)
		return nil
	}
	cmd := fmt.Sprintf("retrieve %q bytes %d-%d", d.typ, off-1, off)
	// Without a diagnostic, the server sent a text of no octet.
	code, info := "", ""
	if len(diags) > 0 {
		code, info = diags[0].Code, diags[0].AddInfo
	}
	first, diags, err := d.chunk(0, 1)
	if err != nil {
		return err
	}
	if len(first) == 0 {
		if len(diags) > 0 {
			code, info = diags[0].Code, diags[0].AddInfo
		}
		if code == "" {
			info = "no octet of the document"
		}
		return &access.ServerError{URL: access.Masked(c.u), Command: fmt.Sprintf("retrieve %q bytes 0-1", d.typ), Code: code, Text: info}
	}
	return &OffsetError{URL: access.Masked(c.u), Offset: off, Command: cmd, Code: code, Text: info}
}

// An OffsetError says that the offset a retrieval was to resume at
// (access.Client.GetFrom) lies past the end of the document: the server
// has the document but answers the octet before the offset with its
// diagnostic that the range is out of the document (wais-waisprot.txt
// §8.0; freeWAIS sends "SF", D_PresentRequestOutOfRange). There is
// nothing to resume, and the octets already kept are not the beginning
// of this document (curl's "Offset past end"). access.Classify counts
// it a failure, as it does ftp's.
type OffsetError struct {
	URL     string // the URL, password masked
	Offset  int64
	Command string // the retrieval of the octet before Offset
	Code    string // the server's diagnostic code, "" when it sent none
	Text    string // the diagnostic's text, as sent
}

func (e *OffsetError) Error() string {
	s := e.URL + ": cannot resume at octet " + strconv.FormatInt(e.Offset, 10) + ": the document ends before it: "
	if e.Code == "" {
		s += "the server sends no octet for " + strconv.Quote(e.Command)
	} else {
		s += "the server answers " + strconv.Quote(e.Command) + " with diagnostic " + e.Code + " " + strconv.Quote(e.Text)
	}
	return printable.String(s)
}
