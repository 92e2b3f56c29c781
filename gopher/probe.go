package gopher

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"strconv"
	"strings"
	"sync"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
)

// Probe says whether the item u names is there without transferring it.
//
// Where the server speaks Gopher+ (the URL carries a Gopher+ string, or
// the server's top menu marks its items with a fifth field "+" or "?",
// Gopher+ §2.1), the item's attributes are asked, "selector TAB !"
// (§2.5, RFC 1738 §3.4.6), and the reply's header says: "+..." is
// access.StateOK, with the size of the first +VIEWS entry and +INFO's
// Mod-Date; an error "--N" / "-N" (§2.3) with code 1 ("Item is not
// available") is StateGone, code 2 ("Try again later") StateRefused and
// Transient, code 3 ("Item has moved") a redirection to the item's new
// place. The top menu is read once per server (host and port) and
// remembered by c.
//
// Otherwise the request the URL stands for is sent and the first octets
// of the reply read, as Fetch reads them: a reply that is one type-3
// line (RFC 1436 §3.8) is StateGone, anything else StateOK, the transfer
// ended at once (a menu after its first line).
// Sessions (types 8, T), "URL:" links and ASK forms are probed as Fetch
// follows them.
func (c *Client) Probe(ctx context.Context, u *locator.URL, req *access.Request) (*access.Status, error) {
	x, err := c.newExchange(u, req)
	if err != nil {
		return nil, err
	}
	masked := access.Masked(u)
	plain := x.g.Type != "8" && x.g.Type != "T" && !(x.g.Type == "h" && strings.HasPrefix(x.g.Selector, "URL:")) &&
		(x.plus == nil || x.plus.Command != '?')
	if plain && (x.plus != nil || c.plus.speaks(ctx, req, c, x.host, x.port)) {
		x.plus = &Plus{Command: '!'}
		res, err := x.fetch(ctx, req, masked, x.line("!"), nil, false)
		var se *access.ServerError
		switch {
		case err == nil:
			st := &access.Status{State: access.StateOK, Size: -1, Code: "+", Command: strings.TrimRight(string(x.line("!")), "\r\n")}
			if res.Listing != nil {
				if e, err := res.Listing.Next(); err == nil {
					// A Gopher+ size is an estimate (Gopher+ §2.5),
					// reported as one.
					st.Size, st.SizeApprox = e.Size, e.SizeApprox
					st.Modified = e.Modified
				}
			}
			st.Listing = x.g.Type == "1" || x.g.Type == "7"
			res.Close()
			return st, nil
		case errors.As(err, &se):
			st := &access.Status{State: access.StateGone, Code: se.Code, Text: se.Text, Command: se.Command, Size: -1, Err: err}
			if se.Code == "2" {
				st.State, st.Transient = access.StateRefused, true
			}
			return st, nil
		default:
			var pe *access.ProtocolError
			if !errors.As(err, &pe) {
				return nil, err
			}
			// No Gopher+ header after all: ask as Gopher0.
			req.Notef("no Gopher+ reply to the attribute request: the item itself is asked (RFC 1436)")
		}
	}
	res, err := c.Fetch(ctx, u, req)
	var se *access.ServerError
	if errors.As(err, &se) {
		return &access.Status{State: access.StateGone, Code: se.Code, Text: se.Text, Command: se.Command, Size: -1, Err: err}, nil
	}
	if err != nil {
		return nil, err
	}
	st := &access.Status{State: access.StateOK, Size: res.Size, Modified: res.Modified, Listing: res.Listing != nil}
	defer res.Close() // ends the transfer: a menu is not read past its first line
	if res.Listing != nil {
		if _, lerr := res.Listing.Next(); lerr != nil && lerr != io.EOF {
			var te *access.TruncatedError
			if !errors.As(lerr, &te) {
				return nil, lerr
			}
		}
	}
	if res.Body != nil {
		var b [16]byte
		_, rerr := io.ReadFull(res.Body, b[:])
		if rerr != nil && rerr != io.EOF && rerr != io.ErrUnexpectedEOF {
			return nil, rerr
		}
	}
	return st, nil
}

// plusServers remembers, by host and port, whether a server's top menu
// marks its items as Gopher+ ones. Its zero value is ready.
type plusServers struct {
	mu sync.Mutex
	m  map[string]*plusAnswer
}

type plusAnswer struct {
	done chan struct{}
	plus bool
}

// speaks says whether the server at host:port speaks Gopher+: its top
// menu (the empty selector) has a line whose fifth field begins "+" or
// "?" (Gopher+ §2.1). It asks once per server; probes of the same server
// at the same time wait for the one answer.
func (ps *plusServers) speaks(ctx context.Context, req *access.Request, c *Client, host string, port int) bool {
	key := net.JoinHostPort(strings.ToLower(host), strconv.Itoa(port))
	ps.mu.Lock()
	if ps.m == nil {
		ps.m = map[string]*plusAnswer{}
	}
	a, asked := ps.m[key]
	if !asked {
		a = &plusAnswer{done: make(chan struct{})}
		ps.m[key] = a
	}
	ps.mu.Unlock()
	if asked {
		select {
		case <-a.done:
			return a.plus
		case <-ctx.Done():
			return false
		}
	}
	defer close(a.done)
	a.plus = topMenuPlus(ctx, req, c, host, port)
	req.Notef("the server's top menu says it speaks Gopher+: %v (remembered for %s)", a.plus, key)
	return a.plus
}

// topMenuPlus reads the top menu's first lines (at most 64) for a
// Gopher+ mark.
func topMenuPlus(ctx context.Context, req *access.Request, c *Client, host string, port int) bool {
	conn, err := c.dial(ctx, req, host, port)
	if err != nil {
		return false
	}
	defer conn.Close()
	req.Sent("")
	if _, err := conn.Write([]byte("\r\n")); err != nil {
		return false
	}
	br := newLineReader(conn)
	for i := 0; i < 64; i++ {
		l, err := access.ReadLine(br, req.MaxLine())
		if err != nil && l == "" {
			return false
		}
		if l == "." {
			return false
		}
		if it, perr := ParseMenuLine(l); perr == nil && it.HasPlus && (strings.HasPrefix(it.Plus, "+") || strings.HasPrefix(it.Plus, "?")) {
			return true
		}
		if err != nil {
			return false
		}
	}
	return false
}

func newLineReader(c net.Conn) *bufio.Reader { return bufio.NewReaderSize(c, 16<<10) }
