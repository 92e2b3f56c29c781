package ftp

import (
	"bufio"
	"context"
	"io"
	"net"
	"strconv"
	"strings"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
)

// maxDescribed bounds the entries of a directory that a listing
// describes (types, sizes, dates from MLSD or LIST). NLST's names and
// the description are two transfers, one after the other on the control
// connection, so describing an entry means holding its name until the
// description has been read: the client holds at most maxDescribed
// names. A directory with more entries is listed as NLST names them,
// streamed from the data connection, each entry a file (RFC 1738
// §3.2.2's own listing), and the dialogue says so.
const maxDescribed = 4096

// A transfer is one listing's data connection, read line by line.
type transfer struct {
	s    *session
	line string // the command
	data net.Conn
	br   *bufio.Reader
	done bool // the final reply was read, or the transfer ended
}

// openTransfer sends line (NLST, MLSD, LIST) and returns its transfer;
// nil when the server completed it at once with no data.
func (s *session) openTransfer(ctx context.Context, line string) (*transfer, error) {
	data, _, done, err := s.startTransfer(ctx, line, 0)
	if err != nil || done {
		return nil, err
	}
	var r io.Reader = data
	if max := s.req.MaxSize(); max > 0 {
		r = &sizeLimit{r: data, left: max}
	}
	return &transfer{s: s, line: line, data: data, br: bufio.NewReaderSize(r, 16<<10)}, nil
}

// next returns the transfer's next non-empty line, at most MaxLine
// octets; at the end of the data it reads the final reply (a 4yz or 5yz
// there is a *TransferError) and returns io.EOF. After an error the data
// connection is closed and the control connection is out of step.
func (t *transfer) next() (string, error) {
	for !t.done {
		l, err := access.ReadLine(t.br, t.s.req.MaxLine())
		if err == io.EOF {
			t.done = true
			t.data.Close()
			if err := t.s.finish(t.line); err != nil {
				return "", err
			}
			return "", io.EOF
		}
		if err != nil && err != io.ErrUnexpectedEOF {
			t.done = true
			t.data.Close()
			return "", t.s.wrap(err)
		}
		if err == io.ErrUnexpectedEOF {
			// The last line, without its line end: the end follows.
			if l == "" {
				continue
			}
			return l, nil
		}
		if l != "" {
			return l, nil
		}
	}
	return "", io.EOF
}

// abort ends the transfer early (ABOR, RFC 959 §4.1.3) when it is under
// way.
func (t *transfer) abort() error {
	if t == nil || t.done {
		return nil
	}
	t.done = true
	return t.s.abort(t.data)
}

// readListing runs one listing transfer and returns its lines, at most
// max of them (truncated reports more: the transfer is then aborted),
// each at most MaxLine octets, in all at most MaxSize octets when that
// is set. rec, when not nil, keeps the transfer's octets as a part of
// the record of command verb (see listingRecord) when they were read
// whole (or to the max lines the listing takes of them): a transfer
// that failed describes nothing, live or replayed.
func (s *session) readListing(ctx context.Context, line, verb string, max int, rec *listingRecord) (lines []string, truncated bool, err error) {
	t, err := s.openTransfer(ctx, line)
	if err != nil || t == nil {
		return nil, false, err
	}
	var kept *access.Spool
	if rec != nil {
		kept = access.NewSpool()
		defer kept.Close()
		t.br = bufio.NewReaderSize(io.TeeReader(t.br, kept), 16<<10)
	}
	lines, truncated, err = readLines(t, max, s.req)
	if rec != nil && err == nil && kept.Err() == nil {
		rec.part(verb)
		io.Copy(rec, kept.Reader())
	}
	return lines, truncated, err
}

// readLines reads src's lines, at most max of them (truncated reports
// more: src is then aborted). A live listing and a replayed one read
// their descriptions with it.
func readLines(src lineSource, max int, req *access.Request) (lines []string, truncated bool, err error) {
	for {
		l, err := src.next()
		if err == io.EOF {
			return lines, false, nil
		}
		if err != nil {
			return nil, false, err
		}
		if len(lines) == max {
			req.Notef("listing truncated at %d entries (MaxEntries)", max)
			if err := src.abort(); err != nil {
				return nil, false, err
			}
			return lines, true, nil
		}
		lines = append(lines, l)
	}
}

// A lineSource gives a listing's lines: a live transfer's, or a
// recorded one's (replay).
type lineSource interface {
	// next returns the next non-empty line, io.EOF at the end.
	next() (string, error)
	// abort ends the lines early.
	abort() error
}

// list sends NLST (with its argument, if any) for the entries' names
// (RFC 1738 §3.2.2) and returns the listing, read as the caller asks.
// The first names, at most maxDescribed (and MaxEntries), are read at
// once; when NLST ends within them, MLSD or LIST follows for their
// types, sizes and dates (describe). Past maxDescribed the names are
// streamed from NLST's data connection undescribed. More than MaxEntries
// names (lines) end the listing with an *access.TruncatedError. Closing
// the listing ends the session (ABOR when NLST is under way, then QUIT).
//
// When the access.Client records, the record holds both transfers'
// octets as the server sent them (see listingRecord), and ReplayRecord
// makes the same listing of them.
func (s *session) list(ctx context.Context, c Command) (*access.Resource, error) {
	t, err := s.openTransfer(ctx, c.String())
	if err != nil {
		return nil, err
	}
	ls := newLister(s.u, s.masked, s.req, c)
	ls.s = s
	ls.rec = newListingRecord(s.req)
	ls.rec.part("NLST")
	if t != nil {
		if ls.rec != nil {
			t.br = bufio.NewReaderSize(io.TeeReader(t.br, ls.rec), 16<<10)
		}
		ls.t = t
	}
	if err := ls.hold(); err != nil {
		return nil, err
	}
	if ls.t != nil {
		s.req.Notef("the directory has more than %d entries: listed as NLST names them, undescribed (MaxDescribed)", maxDescribed)
	} else {
		if len(ls.names) > 0 {
			ls.facts = s.describe(ctx, ls.arg, ls.holdMax(), ls.rec)
		}
		ls.rec.end()
	}
	return &access.Resource{Size: -1, Listing: access.NewListing(ls.max, ls.next, ls.close)}, nil
}

// A lister makes a directory's entries from NLST's names.
type lister struct {
	s          *session // the live session, nil in a replay
	u          *locator.URL
	masked     string
	req        *access.Request
	rec        *listingRecord // the record being made, or nil
	t          lineSource     // NLST still under way (names past maxDescribed), or nil
	arg        string         // NLST's argument
	max        int            // MaxEntries
	names      []string       // the names read at once
	i          int            // the next of names
	pending    string         // a name read past names
	hasPending bool
	lines      int  // NLST lines read
	cut        bool // NLST had more than MaxEntries lines
	facts      map[string]Fact
	dirs       []string // the entries' directory, as URL segments
	seen       map[string]bool
	err        error // what ended NLST, when not its end
}

// newLister returns the lister of the directory u names, listed by the
// NLST command c.
func newLister(u *locator.URL, masked string, req *access.Request, c Command) *lister {
	ls := &lister{u: u, masked: masked, req: req, max: req.MaxEntries(), seen: map[string]bool{}}
	if c.HasArg {
		ls.arg = c.Arg
	}
	base := Split(u)
	ls.dirs = append([]string{}, base.Cwd...)
	if base.HasTypecode && base.Typecode == "d" && base.Name != "" {
		ls.dirs = append(ls.dirs, base.Name)
	}
	return ls
}

// holdMax is how many names are held to be described: maxDescribed,
// or MaxEntries when lower.
func (ls *lister) holdMax() int { return min(maxDescribed, ls.max) }

// hold reads the first names of ls.t, at most holdMax; ls.t is nil
// after it when NLST ended within them (or was cut at MaxEntries).
func (ls *lister) hold() error {
	hold := ls.holdMax()
	for ls.t != nil {
		l, err := ls.t.next()
		if err == io.EOF {
			ls.t = nil
			break
		}
		if err != nil {
			return err
		}
		if len(ls.names) == hold {
			ls.pending, ls.hasPending = l, true
			if hold == ls.max {
				ls.req.Notef("listing truncated at %d entries (MaxEntries)", ls.max)
				if err := ls.t.abort(); err != nil {
					return err
				}
				ls.t, ls.cut = nil, true
			}
			break
		}
		ls.names = append(ls.names, l)
	}
	ls.lines = len(ls.names)
	return nil
}

// next returns the next entry: from the names held, then from NLST.
func (ls *lister) next() (access.Entry, error) {
	for {
		var n string
		switch {
		case ls.i < len(ls.names):
			n = ls.names[ls.i]
			ls.i++
		case ls.hasPending && ls.t != nil:
			n, ls.hasPending = ls.pending, false
			ls.lines++
		case ls.cut:
			return access.Entry{}, &access.TruncatedError{Max: ls.max}
		case ls.t == nil:
			return access.Entry{}, io.EOF
		default:
			l, err := ls.t.next()
			if err != nil {
				if err == io.EOF {
					ls.rec.end()
				}
				ls.t, ls.err = nil, err
				return access.Entry{}, err
			}
			ls.lines++
			n = l
		}
		if ls.lines > ls.max {
			ls.req.Notef("listing truncated at %d entries (MaxEntries)", ls.max)
			return access.Entry{}, &access.TruncatedError{Max: ls.max}
		}
		if e, ok, err := ls.entry(n); err != nil || ok {
			return e, err
		}
	}
}

// entry makes the entry of an NLST name; ok is false for a name that
// is no entry ("", ".", "..", one already listed).
func (ls *lister) entry(n string) (e access.Entry, ok bool, err error) {
	name := n
	if ls.arg != "" {
		name = strings.TrimSuffix(name, "/")
		if i := strings.LastIndexByte(name, '/'); i >= 0 {
			name = name[i+1:]
		}
	}
	if name == "" || name == "." || name == ".." || ls.seen[name] {
		return e, false, nil
	}
	if len(ls.seen) < maxDescribed {
		ls.seen[name] = true // past maxDescribed names, repeats are not looked for
	}
	e = access.Entry{Name: name, Type: access.TypeFile, Size: -1}
	ref := URL{User: locator.Decode(ls.u.User()), HasUser: ls.u.HasUser(), Host: ls.u.Host(), Port: ls.u.Port()}
	ref.Cwd = ls.dirs
	ref.Name, ref.HasName = name, true
	if f, ok := ls.facts[name]; ok {
		e.Size, e.Modified = f.Size, f.Modified
		if len(f.Facts) > 0 {
			e.Parts = map[string]any{}
			for k, v := range f.Facts {
				e.Parts[k] = v
			}
		}
		switch f.Type {
		case "dir":
			e.Type = access.TypeDirectory
			e.Size = -1
			ref.Cwd = append(append([]string{}, ls.dirs...), name)
			ref.Name = ""
		case "link":
			e.Type = access.TypeLink
		}
	}
	u, err := ref.Build()
	if err != nil {
		return e, false, &access.ProtocolError{URL: ls.masked, Msg: "listing entry " + strconv.Quote(clip(name)) + " makes no URL: " + err.Error()}
	}
	e.URL = u
	return e, true, nil
}

// close ends the listing. When NLST was read to its end (and its
// description, if any, completed), the session goes back to its Client;
// else ABOR when NLST is under way, then QUIT, or the connection is closed
// when the control connection is out of step. A replayed listing has
// nothing to end.
func (ls *lister) close() error {
	if ls.s == nil {
		return nil
	}
	if ls.err != nil && ls.err != io.EOF {
		ls.s.quitAfterError(ls.err)
		return nil
	}
	if ls.t == nil && !ls.cut {
		ls.s.release()
		return nil
	}
	if t, ok := ls.t.(*transfer); ok && !t.done {
		if err := t.abort(); err != nil {
			ls.s.close()
			return nil
		}
	}
	if t, ok := ls.t.(*transfer); ok && t.done && t.data != nil {
		t.data.Close()
	}
	ls.s.quit()
	return nil
}
