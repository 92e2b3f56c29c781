package newsreader

import (
	"io"
	"strconv"
	"strings"

	"github.com/rfc1738/locator/access"
)

// Streaming forms of Overview and ActiveList: the lines of the reply are
// read one at a time as the caller asks, so that the memory a listing
// takes is one line, whatever the size of the group or of the active
// list.

// BlockLine reads the next line of a multi-line data block (RFC 3977
// §3.1.1) after a status line that announced one: dot-stuffing undone,
// without its CR LF; io.EOF at the terminating "." line. A block that
// ends at close without the "." line is a *access.ProtocolError; a line
// longer than MaxLine too; more octets than the request's MaxSize is
// access.ErrTooLarge.
func (c *Conn) BlockLine() (string, error) {
	line, err := access.ReadLine(c.br, c.req.MaxLine())
	if err != nil {
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return "", c.protoError("the multi-line block ended at close without its terminating \".\" line (RFC 3977 §3.1.1)")
		}
		return "", c.withURL(err)
	}
	c.read += int64(len(line)) + 2
	if m := c.req.MaxSize(); m > 0 && c.read > m {
		return "", access.ErrTooLarge
	}
	if line == "." {
		return "", io.EOF
	}
	return strings.TrimPrefix(line, "."), nil
}

// OverviewStream is Overview read as the caller asks: it sends the
// command (OVER, then XOVER when the server does not know it, then the
// HEAD and NEXT walk, by method, as Overview does) and returns a
// function that returns the next article's overview, then io.EOF. An
// error from it leaves the connection out of step: close it. A group
// with no articles gives none without a command.
func (c *Conn) OverviewStream(g Group, lo, hi int64, method string) (next func() (Overview, error), err error) {
	end := func() (Overview, error) { return Overview{}, io.EOF }
	if g.Count == 0 || lo > hi {
		return end, nil
	}
	rng := strconv.FormatInt(lo, 10) + "-" + strconv.FormatInt(hi, 10)
	verbs := []string{"OVER", "XOVER"}
	switch method {
	case MethodXover:
		verbs = verbs[1:]
	case MethodHead:
		verbs = nil
	}
	for _, verb := range verbs {
		r, err := c.Cmd(verb, rng)
		if err != nil {
			return nil, err
		}
		switch {
		case r.Code == 224:
			return func() (Overview, error) {
				line, err := c.BlockLine()
				if err != nil {
					return Overview{}, err
				}
				o, err := ParseOverview(line)
				if err != nil {
					return Overview{}, c.protoError(err.Error())
				}
				return o, nil
			}, nil
		case r.Code == 423 || r.Code == 420:
			// "No articles in that range" (RFC 3977 §8.3.2).
			return end, nil
		case unknown(r):
			c.req.Notef("%s is not known to the server (%d); trying the next way", verb, r.Code)
			continue
		}
		return nil, c.answer(verb+" "+rng, r)
	}
	w := &walker{c: c, lo: lo, hi: hi, first: true}
	return w.next, nil
}

// A walker lists the current group with HEAD and NEXT (see walk), one
// article at a time.
type walker struct {
	c      *Conn
	lo, hi int64
	first  bool
	done   bool
}

func (w *walker) next() (Overview, error) {
	c := w.c
	for !w.done {
		if !w.first {
			r, err := c.Cmd("NEXT")
			switch {
			case err != nil:
				return Overview{}, err
			case r.Code == 421:
				w.done = true
				return Overview{}, io.EOF
			case r.Code != 223:
				return Overview{}, c.answer("NEXT", r)
			}
		}
		w.first = false
		r, err := c.Cmd("HEAD")
		switch {
		case err != nil:
			return Overview{}, err
		case r.Code == 420 || r.Code == 423:
			w.done = true
			return Overview{}, io.EOF
		case r.Code != 221:
			return Overview{}, c.answer("HEAD", r)
		}
		n, id, err := numberAndID(r.Text)
		if err != nil {
			return Overview{}, c.protoError("HEAD answered " + strconv.Quote(r.String()) + ": " + err.Error())
		}
		var head []string
		long, err := c.Lines(maxHeadLines, func(line string) error {
			head = append(head, line)
			return nil
		})
		if err != nil {
			return Overview{}, err
		}
		if long {
			return Overview{}, c.protoError("HEAD " + strconv.FormatInt(n, 10) + " answered with more than " + strconv.Itoa(maxHeadLines) + " header lines")
		}
		if n > w.hi {
			w.done = true
			return Overview{}, io.EOF
		}
		if n >= w.lo {
			return fromHead(n, id, head), nil
		}
	}
	return Overview{}, io.EOF
}

// ActiveStream is ActiveList read as the caller asks: it sends LIST
// ACTIVE (or LIST) and returns a function that returns the next line of
// the active list, then io.EOF. An error from it leaves the connection
// out of step: close it.
func (c *Conn) ActiveStream(pattern string) (next func() (Active, error), err error) {
	args := []string{"ACTIVE"}
	if pattern != "" {
		args = append(args, pattern)
	}
	r, err := c.Cmd("LIST", args...)
	if err == nil && unknown(r) && pattern == "" {
		c.req.Notef("LIST ACTIVE is not known to the server (%d); sending LIST (RFC 977 §3.6)", r.Code)
		r, err = c.Cmd("LIST")
	}
	if err != nil {
		return nil, err
	}
	if r.Code != 215 {
		return nil, c.answer("LIST "+strings.Join(args, " "), r)
	}
	return func() (Active, error) {
		line, err := c.BlockLine()
		if err != nil {
			return Active{}, err
		}
		a, err := ParseActive(line)
		if err != nil {
			return Active{}, c.protoError(err.Error())
		}
		return a, nil
	}, nil
}

// Listing returns a listing whose entries next makes, at most
// Request.MaxEntries; closing it ends the session: QUIT when the reply
// was read to its end, else the connection is closed (the rest of the
// reply is not read, RFC 3977 §3.1.1).
func (c *Conn) Listing(next func() (access.Entry, error)) *access.Listing {
	complete := false
	return access.NewListing(c.req.MaxEntries(), func() (access.Entry, error) {
		e, err := next()
		if err == io.EOF {
			complete = true
		}
		return e, err
	}, func() error {
		if complete {
			return c.Quit()
		}
		return c.Close()
	})
}
