package ftp

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net/textproto"
	"strings"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
)

// The record of a directory. A listing is two transfers, NLST's names
// (the listing RFC 1738 §3.2.2 designates) and MLSD's or LIST's
// description of them (Client), and the Listing is made of both, so the
// record (an access.RecordResource, protocol "ftp") keeps both, each as
// the server sent it, as the parts of one MIME multipart body (RFC 2046
// §5.1):
//
//	Record.MediaType: multipart/mixed; boundary=ftp-listing-<32 hex digits>
//
//	--ftp-listing-…
//	Content-Type: text/x-ftp-listing; command=NLST
//
//	<NLST's data connection, octet for octet>
//	--ftp-listing-…
//	Content-Type: text/x-ftp-listing; command=MLSD
//
//	<MLSD's (or LIST's) data connection>
//	--ftp-listing-…--
//
// The description's part is there only when the description was read
// whole (a refused or failed MLSD or LIST describes nothing, live or
// replayed); the closing delimiter only when NLST was read to its end.
// The boundary is 128 random bits, drawn before the transfers, which a
// server cannot foresee and so cannot send. ReplayRecord reads the parts
// back with the code the live listing reads the transfers with (the
// same limits, LIST's dates without a year as of the record's Date), so
// that a replayed directory is the live Listing: the same entries, in
// the same order, with the same names, types, sizes and dates.
//
// A record of a directory whose media type is not multipart (one made
// before this form, which kept NLST's octets alone) is read as NLST's
// names, undescribed.
type listingRecord struct {
	cap      *access.Capture
	boundary string
	parts    int
	ended    bool
}

// listingPartType is the media type of each part of a directory's
// record, its parameter "command" the FTP command whose data connection
// the part holds (NLST, MLSD, LIST).
const listingPartType = "text/x-ftp-listing"

// newListingRecord returns the record of a listing of req, nil when its
// access.Client does not record.
func newListingRecord(req *access.Request) *listingRecord {
	cap := req.Capture(access.RecordResource, "ftp")
	if cap == nil {
		return nil
	}
	var b [16]byte
	rand.Read(b[:])
	r := &listingRecord{cap: cap, boundary: "ftp-listing-" + hex.EncodeToString(b[:])}
	cap.SetMediaType(mime.FormatMediaType("multipart/mixed", map[string]string{"boundary": r.boundary}))
	return r
}

// part begins the part of the transfer of command verb.
func (r *listingRecord) part(verb string) {
	if r == nil || r.ended {
		return
	}
	delim := "--" + r.boundary + "\r\n"
	if r.parts > 0 {
		delim = "\r\n" + delim
	}
	r.parts++
	r.cap.Received([]byte(delim + "Content-Type: " + mime.FormatMediaType(listingPartType, map[string]string{"command": verb}) + "\r\n\r\n"))
}

// Write keeps p in the current part.
func (r *listingRecord) Write(p []byte) (int, error) {
	if r != nil && !r.ended {
		r.cap.Received(p)
	}
	return len(p), nil
}

// end closes the multipart body: the listing's transfers are complete.
func (r *listingRecord) end() {
	if r == nil || r.ended {
		return
	}
	r.ended = true
	r.cap.Received([]byte("\r\n--" + r.boundary + "--\r\n"))
}

var _ access.RecordReplayer = (*Client)(nil)

// ReplayRecord reads back the record of an ftp URL (access.Client with
// an Archive; access.RecordReplayer): a directory's record (a URL whose
// plan ends in NLST) is its Listing, made of the transfers the record
// holds (see listingRecord) as the live listing was; for a file it
// returns nil, and the record's octets are the object.
//
// A record that does not read as a listing's (a part of another type,
// a line longer than access.Client.MaxLine) is an
// *access.ProtocolError, as such a transfer is live; a record that is
// not whole (access.Record.Truncated) ends its entries with an
// *access.PartialRecordError.
func (c *Client) ReplayRecord(ctx context.Context, u *locator.URL, req *access.Request, rec *access.Record) (*access.Resource, error) {
	if rec.Kind != access.RecordResource {
		return nil, nil
	}
	plan, err := c.plan(u)
	if err != nil {
		return nil, err
	}
	last := plan.Commands[len(plan.Commands)-1]
	if last.Verb != "NLST" {
		return nil, nil
	}
	masked := access.Masked(u)
	bad := func(msg string) error {
		return &access.ProtocolError{URL: masked, Msg: "the record of the directory: " + msg}
	}
	ls := newLister(u, masked, req, last)
	src := access.RecordReader(rec)
	mt, params, _ := mime.ParseMediaType(rec.MediaType)
	if !strings.HasPrefix(mt, "multipart/") || params["boundary"] == "" {
		ls.t = newRecordLines(src, req, masked)
		if err := ls.hold(); err != nil {
			return nil, err
		}
		return &access.Resource{Size: -1, Listing: access.NewListing(ls.max, ls.next, ls.close)}, nil
	}
	mr := multipart.NewReader(src, params["boundary"])
	p, err := mr.NextRawPart()
	if err != nil {
		return nil, replayErr(err, bad)
	}
	if verb, err := partCommand(p.Header); err != nil || verb != "NLST" {
		return nil, bad("its first part is not NLST's (" + listingPartType + "; command=NLST)")
	}
	ls.t = newRecordLines(p, req, masked)
	if err := ls.hold(); err != nil {
		return nil, replayErr(err, bad)
	}
	if ls.t == nil && len(ls.names) > 0 {
		// NLST ended within the names held: the description, when the
		// record has one.
		p, err := mr.NextRawPart()
		switch {
		case err == io.EOF:
		case err != nil:
			return nil, replayErr(err, bad)
		default:
			verb, err := partCommand(p.Header)
			if err != nil || verb != "MLSD" && verb != "LIST" {
				return nil, bad("its second part is not MLSD's or LIST's")
			}
			lines, _, err := readLines(newRecordLines(p, req, masked), ls.holdMax(), req)
			if err != nil {
				return nil, replayErr(err, bad)
			}
			ls.facts = parseFacts(verb, lines, rec.Date)
		}
	}
	return &access.Resource{Size: -1, Listing: access.NewListing(ls.max, ls.next, ls.close)}, nil
}

// partCommand returns the command of a part of a directory's record.
func partCommand(h textproto.MIMEHeader) (string, error) {
	mt, params, err := mime.ParseMediaType(h.Get("Content-Type"))
	if err != nil {
		return "", err
	}
	if mt != listingPartType {
		return "", errors.New("not " + listingPartType)
	}
	return params["command"], nil
}

// replayErr is err, a multipart reader's complaint made a
// *access.ProtocolError (bad's), an error of the octets themselves (a
// *access.PartialRecordError, ErrTooLarge) kept as it is.
func replayErr(err error, bad func(string) error) error {
	var pe *access.ProtocolError
	var pre *access.PartialRecordError
	if errors.As(err, &pe) || errors.As(err, &pre) || errors.Is(err, access.ErrTooLarge) {
		return err
	}
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return bad("it ends before its first part")
	}
	return bad(err.Error())
}

// recordLines gives the lines of a recorded transfer as a live
// transfer gives them (transfer.next): non-empty lines of at most
// MaxLine octets, the last one without its line end too, within
// MaxSize octets.
type recordLines struct {
	br     *bufio.Reader
	max    int
	masked string
	done   bool
}

func newRecordLines(r io.Reader, req *access.Request, masked string) *recordLines {
	if max := req.MaxSize(); max > 0 {
		r = &sizeLimit{r: r, left: max}
	}
	return &recordLines{br: bufio.NewReaderSize(r, 16<<10), max: req.MaxLine(), masked: masked}
}

func (t *recordLines) next() (string, error) {
	for !t.done {
		l, err := access.ReadLine(t.br, t.max)
		switch {
		case err == io.EOF:
			t.done = true
			return "", io.EOF
		case err == io.ErrUnexpectedEOF:
			if l != "" {
				return l, nil
			}
		case err != nil:
			t.done = true
			var pe *access.ProtocolError
			if errors.As(err, &pe) && pe.URL == "" {
				pe.URL = t.masked
			}
			return "", err
		case l != "":
			return l, nil
		}
	}
	return "", io.EOF
}

func (t *recordLines) abort() error {
	t.done = true
	return nil
}
