package access

import (
	"context"
	"errors"
	"io"
	"net"
	"syscall"
	"time"

	"github.com/rfc1738/locator"
)

// A State is the answer of a probe: is the object a URL names there?
type State string

// The states of a probe (Status.State), each named after its value.
const (
	// StateOK: the server says the object is there.
	StateOK State = "ok"
	// StateGone: the server says it does not exist (FTP 550, HTTP 404
	// and 410, a Gopher type-3 error, NNTP 411/423/430, a missing file).
	StateGone State = "gone"
	// StateRefused: the server answered but will not say or give (a
	// login refused, HTTP 401/403, a 5xx, a file that may not be read).
	StateRefused State = "refused"
	// StateError: the question could not be asked or answered:
	// connection refused, a timeout, a reply that breaks the protocol.
	StateError State = "error"
	// StatePolicy: local policy refused the URL before any connection
	// (RFC 1738 §6: ports, hosts, decoded delimiters; no client).
	StatePolicy State = "policy"
)

// A Status is what a probe learned of the object a URL names, without
// retrieving it.
type Status struct {
	State State
	// Code and Text are the protocol's own answer ("550", "Failed to
	// change directory."; "404", "Not Found"; "ENOENT"), when there was
	// one; Command is the command it answered.
	Code, Text, Command string
	// Size is the object's size when the server says it, else -1;
	// Modified its modification time when known.
	Size     int64
	Modified time.Time
	// SizeApprox is true when Size is the server's estimate, not a
	// count of octets (a Gopher+ view's "<2k>").
	SizeApprox bool
	// Listing is true when the object is a collection (a directory, a
	// menu, a group).
	Listing bool
	// URL is the URL the answer is about: the one probed, or the last
	// one a redirection led to.
	URL *locator.URL
	// Err is the error behind a State other than Present, or nil.
	Err error
	// Transient is true when trying again later may give another answer:
	// a timeout, a reset connection, an FTP 4yz reply (RFC 959 §4.2
	// "transient negative completion"). A refused connection is not.
	Transient bool
}

// A Prober is a Fetcher that can also say whether the object a URL names
// is there without transferring it (FTP SIZE/MDTM or the directory's
// CWD, HTTP HEAD, Gopher+ attributes, NNTP STAT, a file's stat).
//
// Probe returns a Status for every answer the server gives (StateOK,
// StateGone or StateRefused, with the protocol's code and text), and an
// error for everything else: a *PolicyError, a network error, a
// *ProtocolError, or a *Redirect to have the Client follow another URL.
// It opens connections only through req.Dial, as Fetch does.
type Prober interface {
	Probe(ctx context.Context, u *locator.URL, req *Request) (*Status, error)
}

// An IdleCloser is a scheme client that keeps sessions open between
// requests to one server (an FTP login reused for several URLs);
// CloseIdle ends them (QUIT). Client.CloseIdle calls it.
type IdleCloser interface {
	CloseIdle()
}

// probeOctets is how many octets the fallback reads of a body before it
// closes it: enough to see that the object begins, and an error that
// a server writes in place of the object (a Gopher type-3 line is read
// by the client before the Body is returned).
const probeOctets = 16

// Stat returns what the server says of the object u names, without its
// body: its size, modification time and whether it is a listing. Like
// Get it applies the Policy and the scheme client's Check before any
// connection and follows redirects (each hop checked anew) at most
// MaxRedirects times.
//
// When the scheme's client is a Prober, its Probe is asked. Otherwise
// Stat falls back to Fetch: a Resource is there (its Size, Modified,
// and whether it is a listing), after at most probeOctets (16) octets of
// its Body were read and the Body closed, which ends the transfer (FTP
// ABOR, a closed connection).
//
// The error is nil only when the object is there (State StateOK); when
// the server says it is gone or refuses it, a *ServerError with the
// protocol's code and text; otherwise an error as Get returns.
func (c *Client) Stat(ctx context.Context, u *locator.URL) (*Status, error) {
	st, err := c.stat(ctx, u, nil)
	if err == nil && st.State != StateOK {
		return st, &ServerError{URL: Masked(st.URL), Command: st.Command, Code: st.Code, Text: st.Text}
	}
	return st, err
}

// stat is Stat, a server's negative answer left as a Status.
func (c *Client) stat(ctx context.Context, u *locator.URL, opts *Options) (*Status, error) {
	st, last, err := follow(c, u, opts, func(f Fetcher, u *locator.URL, req *Request) (*Status, error) {
		if p, ok := f.(Prober); ok {
			return p.Probe(ctx, u, req)
		}
		return fallback(ctx, f, u, req)
	})
	if err != nil {
		return fromError(last, err), err
	}
	if st.URL == nil {
		st.URL = last
	}
	return st, nil
}

// Probe says whether the object u names is there, without transferring
// it, as Stat does, and never fails: every error becomes a Status with
// Err set. A *PolicyError, *UnsupportedError or ErrNoPassword is
// StatePolicy, a *ServerError StateGone (the fallback through Fetch
// cannot tell "absent" from "refused": a client's own Prober can),
// anything else StateError (Transient when it is a timeout or a reset
// connection, not when the connection was refused).
func (c *Client) Probe(ctx context.Context, u *locator.URL) *Status {
	st, _ := c.stat(ctx, u, nil)
	return st
}

// fallback probes through Fetch: the object's first octets at most.
func fallback(ctx context.Context, f Fetcher, u *locator.URL, req *Request) (*Status, error) {
	res, err := f.Fetch(ctx, u, req)
	if err != nil {
		return nil, err
	}
	st := &Status{State: StateOK, Size: res.Size, Modified: res.Modified, URL: res.URL}
	if res.Listing != nil {
		// Nothing of a listing is read: closing it ends the transfer.
		st.Listing = true
		res.Close()
		return st, nil
	}
	if res.Body != nil {
		var b [probeOctets]byte
		_, rerr := io.ReadFull(res.Body, b[:])
		res.Body.Close()
		if rerr != nil && rerr != io.EOF && rerr != io.ErrUnexpectedEOF {
			return nil, rerr
		}
	}
	return st, nil
}

// fromError is the Status of an error a probe ended with.
func fromError(u *locator.URL, err error) *Status {
	st := &Status{State: StateError, Size: -1, URL: u, Err: err}
	var se *ServerError
	switch {
	case errors.As(err, &se):
		st.State, st.Code, st.Text, st.Command = StateGone, se.Code, se.Text, se.Command
	case Classify(err) == Forbidden:
		st.State = StatePolicy
	default:
		st.Transient = Transient(err)
	}
	return st
}

// Transient reports whether trying again later may succeed where err
// failed: a deadline that passed, a connection reset or cut short. A
// refused connection (nothing listens there) and a name that does not
// resolve are not: they say the same thing next time.
func Transient(err error) bool {
	if err == nil {
		return false
	}
	if errors.Is(err, syscall.ECONNREFUSED) {
		return false
	}
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) {
		return dnsErr.IsTemporary || dnsErr.IsTimeout
	}
	if Timeout(err) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.EPIPE) {
		return true
	}
	return false
}
