package access

import (
	"context"
	"io"
	"net"
	"time"

	"github.com/rfc1738/locator"
)

// A Terminal is the person's side of an interactive session: the keys
// they type, the screen the service writes to, and where the client's
// own messages go (the URL's advice, the escape prompt, notices).
//
// When In is an *os.File on a terminal, a session client may put the
// terminal into raw mode for the session; it restores it on every exit
// path. Otherwise the session relays In and Out as streams, so that a
// script can drive it.
type Terminal struct {
	In  io.Reader
	Out io.Writer
	// Msg receives the client's own messages; nil: Out.
	Msg io.Writer
	// ShowPassword asks the client to show the password the URL
	// suggests at the start (RFC 1738 §3.8: the user and password are
	// "advisory only"); it is otherwise shown only when the person asks.
	ShowPassword bool
}

// A Sessioner is the client of a scheme whose URLs designate interactive
// services rather than data objects (RFC 1738 §3.8: telnet "does not
// designate a data object, but rather an interactive service"; the 1993
// draft names telnet, rlogin and tn3270 together as "interactive
// sessions", whose information "cannot be addressed individually or, in
// general, automatically retrieved").
//
// Its Fetch, which Client.Get calls, fails with a clear error saying so;
// a program that has a person at hand calls Client.Interact instead, which
// applies the same policy and Check and then hands the person over to
// Session.
type Sessioner interface {
	Fetcher
	// Session runs the interactive session u designates on t until it
	// ends: the service closes the connection, the person quits, or ctx
	// ends. It opens connections only through req.DialSession (or
	// req.Dial). It returns nil for a session that ended normally.
	Session(ctx context.Context, u *locator.URL, req *Request, t Terminal) error
}

// Keep-alive probes of a session connection (DialSession): after
// IdleTimeout without traffic, one probe every SessionProbeInterval, and
// the connection is given up after SessionProbeCount unanswered probes.
const (
	sessionProbeInterval = 15 * time.Second
	sessionProbeCount    = 4
)

// DialSession connects as Dial does (policy on the address, the connect
// timeout, the "* connect" note, the caller's context ending interrupts
// the connection), for an interactive session: a person may sit idle at
// the keyboard for hours and so may the service, so reads have no
// deadline. A dead connection is still found: each write has the idle
// deadline (a peer that stops reading is cut off), and on a TCP
// connection keep-alive probes begin after IdleTimeout without traffic,
// one every SessionProbeInterval, SessionProbeCount unanswered probes
// ending the connection (a read then fails). A connection with
// unacknowledged data is bounded by the kernel's retransmission limit
// instead (about 15 minutes on Linux).
func (r *Request) DialSession(ctx context.Context, host string, port int) (net.Conn, error) {
	c, err := r.Dial(ctx, host, port)
	if err != nil {
		return nil, err
	}
	ic, ok := c.(*idleConn)
	if !ok {
		return c, nil
	}
	if tc, ok := ic.Conn.(*net.TCPConn); ok {
		tc.SetKeepAliveConfig(net.KeepAliveConfig{Enable: true, Idle: r.Client.idleTimeout(),
			Interval: sessionProbeInterval, Count: sessionProbeCount})
	}
	return &sessionConn{ic}, nil
}

// sessionConn reads without a deadline and writes with the idle one.
type sessionConn struct{ *idleConn }

func (c *sessionConn) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.Conn.Read(p)
}
