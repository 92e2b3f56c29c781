package telnet

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"strconv"
	"sync"
	"sync/atomic"

	"golang.org/x/term"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
)

func init() {
	access.Register("telnet", access.Info{DefaultPort: 23}, func() access.Fetcher { return Client{} })
}

// Client is the telnet scheme's access client, an access.Sessioner: a
// telnet URL designates an interactive service (RFC 1738 §3.8), so
// access.Client.Interact runs it as a Telnet session (RFC 854) on the
// person's terminal, and access.Client.Get refuses it. It has no
// settings and keeps nothing between sessions: its zero value is the
// client.
type Client struct{}

// escapeKey is the key that interrupts a session for the escape prompt:
// ^] (GS, 0x1d), the BSD telnet client's.
const escapeKey = 0x1d

// Check reports a URL that names no session (not telnet, no host) as a
// *access.PolicyError with the offset of the part at fault. It touches
// no network.
func (Client) Check(u *locator.URL, req *access.Request) error {
	if _, err := NewSession(u); err != nil {
		var se *SessionError
		if errors.As(err, &se) {
			return &access.PolicyError{URL: access.Masked(u), Offset: se.Problem.Offset, Rule: se.Problem.Rule, Reason: se.Problem.Message}
		}
		return err
	}
	return nil
}

// Fetch refuses: a telnet URL "does not designate a data object, but
// rather an interactive service" (RFC 1738 §3.8). The error says how to
// open it instead (access.Client.Interact; the command `locator telnet
// URL`).
func (Client) Fetch(ctx context.Context, u *locator.URL, req *access.Request) (*access.Resource, error) {
	return nil, &access.PolicyError{URL: access.Masked(u), Rule: "RFC 1738 §3.8",
		Reason: "a telnet URL designates an interactive service, not a data object: it is opened as a session on a terminal (locator telnet URL), not retrieved"}
}

// A SignalError says a session was ended by a signal (SIGINT, SIGTERM,
// SIGHUP) after the terminal was restored.
type SignalError struct{ Signal os.Signal }

func (e *SignalError) Error() string {
	return "telnet: session ended by signal " + e.Signal.String()
}

// keyHook, when not nil, sees every key typed (tests: a panic on the
// input path must leave the terminal restored).
var keyHook func(c byte)

// Session runs the Telnet session u designates on t (RFC 854), until the
// service closes the connection (nil), the person quits from the escape
// prompt (nil), a signal ends it (*SignalError), ctx ends, or the
// connection fails.
//
// On a terminal (t.In an *os.File for which term.IsTerminal holds) the
// terminal is put in raw mode for the session and restored on every
// exit path: the normal end, the escape prompt's quit, SIGINT, SIGTERM
// and SIGHUP, and a panic in any of the session's goroutines. Keys go to
// the service as typed (CR as CR NUL, RFC 854), echoed locally only
// while the service does not ECHO (RFC 857); ^] opens the escape prompt
// (q quit, p show the suggested password, c continue, ^] send ^]). The
// client offers TERMINAL-TYPE ($TERM, RFC 1091) and NAWS (the window
// size, RFC 1073, sent again on every SIGWINCH), and asks the service
// to SUPPRESS-GO-AHEAD (RFC 858).
//
// Elsewhere (a pipe, a file) the session relays t.In and t.Out so that a
// script can drive it: a line end LF is sent as CR LF, and the service's
// CR LF is written as LF (its CR NUL as CR); there is no escape key and
// no local echo; TERMINAL-TYPE and NAWS are refused (there is no
// terminal to describe); the end of t.In does not end the session,
// which lasts until the service closes it.
//
// The URL's user and password are advice (RFC 1738 §3.8: "clients
// accessing a telnet URL merely advise the user of the suggested
// username and password"): the user is shown at the start, the password
// only when asked for (t.ShowPassword, or ^] p); neither is ever sent
// or logged.
func (Client) Session(ctx context.Context, u *locator.URL, req *access.Request, t access.Terminal) (err error) {
	sess, err := NewSession(u)
	if err != nil {
		return err
	}
	s := &session{sess: sess, req: req, t: t, out: t.Out, msg: t.Msg}
	if s.msg == nil {
		s.msg = t.Out
	}
	if f, ok := t.In.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		s.tty, s.fd = true, int(f.Fd())
		s.neg.TermType = TermType(os.Getenv("TERM"))
		s.neg.Size = func() (int, int) {
			w, h, err := term.GetSize(s.fd)
			if err != nil {
				return 0, 0
			}
			return w, h
		}
	}

	conn, err := req.DialSession(ctx, sess.Host, sess.Port)
	if err != nil {
		return err
	}
	s.conn = conn
	defer conn.Close()

	if s.tty {
		state, err := term.MakeRaw(s.fd)
		if err != nil {
			return fmt.Errorf("telnet: raw mode for the terminal: %w", err)
		}
		s.restoreOnce = func() { term.Restore(s.fd, state) }
		defer s.restore()
		// Output processing is off in raw mode: the client's own lines
		// need CR LF to begin at the left margin.
		s.msg = crlf{s.msg}
		// The request's own dialogue writer is wrapped, never the
		// Client's, which other requests share.
		d := req.Dialogue
		if d == nil {
			d = req.Client.Dialogue
		}
		if d != nil {
			req.Dialogue = crlf{d}
		}
	}
	s.advise()

	done := make(chan error, 2)
	sigs := make(chan os.Signal, 4)
	if s.tty {
		notifyEnd(sigs)
		notifyResize(sigs)
		defer signal.Stop(sigs)
	}

	// The first requests of a terminal client on the Telnet port.
	if s.tty {
		s.mu.Lock()
		var first []Event
		first = append(first, s.neg.Request(WILL, OptTType)...)
		first = append(first, s.neg.Request(WILL, OptNAWS)...)
		first = append(first, s.neg.Request(DO, OptSGA)...)
		err := s.sendEvents(first)
		s.mu.Unlock()
		if err != nil {
			return err
		}
	}

	go s.guard(func() { done <- s.fromNet() })
	go s.guard(func() {
		if err := s.fromKeys(); err != nil {
			done <- err
		}
	})

	for {
		select {
		case err := <-done:
			if err == nil && s.tty {
				fmt.Fprintln(s.msg, "Connection closed.")
			}
			return err
		case sig := <-sigs:
			if isResize(sig) {
				s.mu.Lock()
				err := s.sendEvents(s.neg.Resized())
				s.mu.Unlock()
				if err != nil {
					return err
				}
				continue
			}
			return &SignalError{Signal: sig}
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

type session struct {
	sess *Session
	req  *access.Request
	t    access.Terminal
	out  io.Writer // the screen
	msg  io.Writer // the client's own messages
	conn net.Conn
	tty  bool
	fd   int

	restoreOnce func()
	restored    sync.Once

	mu  sync.Mutex // guards neg and writes to conn
	neg Negotiator

	remoteEcho atomic.Bool // the service echoes (RFC 857)
	quit       atomic.Bool
}

// restore restores the terminal once, from whichever exit path comes
// first.
func (s *session) restore() {
	if s.restoreOnce != nil {
		s.restored.Do(s.restoreOnce)
	}
}

// guard runs f; a panic in it restores the terminal before it goes on
// (a panic in a goroutine other than the caller's would skip the
// caller's deferred restore).
func (s *session) guard(f func()) {
	defer func() {
		if r := recover(); r != nil {
			s.restore()
			panic(r)
		}
	}()
	f()
}

// advise shows the URL's suggestions (RFC 1738 §3.8).
func (s *session) advise() {
	host := s.sess.Host
	if bytes.IndexByte([]byte(host), ':') >= 0 {
		host = "[" + host + "]"
	}
	line := "Connected to " + host + " port " + strconv.Itoa(s.sess.Port) + "."
	if s.tty {
		line += " Escape key: ^] (then q to quit)."
	}
	fmt.Fprintln(s.msg, line)
	if !s.sess.HasUser && !s.sess.HasPassword {
		return
	}
	var b bytes.Buffer
	b.WriteString("The URL suggests")
	if s.sess.HasUser {
		b.WriteString(" the login name " + strconv.Quote(s.sess.User))
	}
	if s.sess.HasPassword {
		if s.sess.HasUser {
			b.WriteString(" and")
		}
		switch {
		case s.t.ShowPassword:
			b.WriteString(" the password " + strconv.Quote(s.sess.Password))
		case s.tty:
			b.WriteString(" a password (^] then p shows it)")
		default:
			b.WriteString(" a password (not shown unless asked for)")
		}
	}
	b.WriteString(": advice only (RFC 1738 §3.8); type what the service asks for yourself.")
	fmt.Fprintln(s.msg, b.String())
}

// sendEvents writes commands to the connection and logs them; s.mu is
// held.
func (s *session) sendEvents(evs []Event) error {
	if len(evs) == 0 {
		return nil
	}
	var b []byte
	for _, e := range evs {
		s.req.Sent(Describe(e))
		b = Encode(b, e)
	}
	s.updateEcho()
	_, err := s.conn.Write(b)
	return err
}

func (s *session) updateEcho() {
	s.remoteEcho.Store(s.neg.Enabled(false, OptEcho))
}

// fromNet copies the service's data to the screen and answers its
// commands, until the connection ends: nil at its end of file.
func (s *session) fromNet() error {
	var ps Parser
	buf := make([]byte, 32<<10)
	var out []byte
	var cr bool // the last data octet was CR
	for {
		n, rerr := s.conn.Read(buf)
		out = out[:0]
		var werr error
		perr := ps.Feed(buf[:n], func(e Event) {
			if werr != nil {
				return
			}
			switch e.Kind {
			case Data:
				out, cr = s.screen(out, e.Data, cr)
				return
			case Option:
				s.req.Received(Describe(e))
				s.mu.Lock()
				werr = s.sendEvents(s.neg.Receive(e.Cmd, e.Opt))
				s.updateEcho()
				s.mu.Unlock()
			case Sub:
				s.req.Received(Describe(e))
				s.mu.Lock()
				werr = s.sendEvents(s.neg.Subnegotiate(e.Opt, e.Params))
				s.mu.Unlock()
			case Command:
				if e.Cmd != GA && e.Cmd != NOP {
					s.req.Received(Describe(e))
				}
			}
		})
		if len(out) > 0 {
			if _, err := s.out.Write(out); err != nil {
				return fmt.Errorf("telnet: writing the session's output: %w", err)
			}
		}
		switch {
		case werr != nil:
			return werr
		case perr != nil:
			return perr
		case rerr == io.EOF:
			if cr && !s.tty {
				s.out.Write([]byte{'\r'})
			}
			return nil
		case rerr != nil:
			if s.quit.Load() {
				return nil
			}
			return rerr
		}
	}
}

// screen appends the service's data octets to out as they go to the
// screen: as received in BINARY (RFC 856); otherwise CR NUL is CR
// (RFC 854), and in a relay CR LF is LF. cr says whether the previous
// octet was a CR held back.
func (s *session) screen(out, data []byte, cr bool) ([]byte, bool) {
	s.mu.Lock()
	binary := s.neg.Enabled(false, OptBinary)
	s.mu.Unlock()
	if binary {
		if cr && !s.tty {
			out = append(out, '\r')
		}
		return append(out, data...), false
	}
	for _, c := range data {
		if cr {
			cr = false
			switch {
			case c == 0:
				if !s.tty {
					out = append(out, '\r')
				}
				continue
			case c == '\n' && !s.tty:
				out = append(out, '\n')
				continue
			case !s.tty:
				out = append(out, '\r')
			}
		}
		if c == '\r' {
			cr = true
			if s.tty {
				out = append(out, '\r')
			}
			continue
		}
		out = append(out, c)
	}
	return out, cr
}

// fromKeys sends what the person types to the service, until t.In ends
// (nil: in a relay the session goes on until the service closes it) or
// the person quits from the escape prompt (nil, and the connection
// closed, which ends fromNet).
func (s *session) fromKeys() error {
	buf := make([]byte, 4096)
	var wire, echo []byte
	prompt := false
	cr := false // relay: a CR held back
	for {
		n, rerr := s.t.In.Read(buf)
		wire, echo = wire[:0], echo[:0]
		s.mu.Lock()
		binary := s.neg.Enabled(true, OptBinary)
		s.mu.Unlock()
		localEcho := s.tty && !s.remoteEcho.Load()
		for _, c := range buf[:n] {
			if keyHook != nil {
				keyHook(c)
			}
			if prompt {
				prompt = false
				switch c {
				case 'q', 'Q':
					fmt.Fprintln(s.msg, "quit")
					s.quit.Store(true)
					if len(wire) > 0 {
						s.write(wire)
					}
					s.conn.Close()
					return nil
				case 'p', 'P':
					if s.sess.HasPassword {
						fmt.Fprintln(s.msg, "\nthe URL suggests the password "+strconv.Quote(s.sess.Password))
					} else {
						fmt.Fprintln(s.msg, "\nthe URL suggests no password")
					}
					continue
				case escapeKey:
					fmt.Fprintln(s.msg)
					wire = append(wire, escapeKey)
					continue
				case 'c', 'C', '\r', '\n':
					fmt.Fprintln(s.msg)
					continue
				default:
					prompt = true
					fmt.Fprint(s.msg, "\n"+promptText)
					continue
				}
			}
			if s.tty && c == escapeKey {
				if len(echo) > 0 {
					s.out.Write(echo)
					echo = echo[:0]
				}
				prompt = true
				fmt.Fprint(s.msg, "\n"+promptText)
				continue
			}
			if localEcho {
				switch {
				case c == '\r':
					echo = append(echo, '\r', '\n')
				case c == 0x7f || c == '\b':
					echo = append(echo, '\b', ' ', '\b')
				case c >= ' ' || c == '\t':
					echo = append(echo, c)
				}
			}
			wire = s.nvt(wire, c, binary, &cr)
		}
		if len(echo) > 0 {
			s.out.Write(echo)
		}
		if len(wire) > 0 {
			if err := s.write(wire); err != nil {
				// A write blocked past the idle timeout: the service
				// has stopped reading. Any other failure (the service
				// closed the connection) is for fromNet to find and
				// report, with whatever the service wrote before.
				if access.Timeout(err) {
					return err
				}
				return nil
			}
		}
		if rerr != nil {
			if cr {
				s.write([]byte{'\r', 0})
			}
			if s.tty && rerr == io.EOF {
				return errors.New("telnet: the terminal closed")
			}
			if rerr == io.EOF {
				return nil // the relay's input ended; the service may still write
			}
			return fmt.Errorf("telnet: reading the terminal: %w", rerr)
		}
	}
}

const promptText = "locator telnet: q quit, p show the suggested password, c continue, ^] send ^] > "

// nvt appends the key c to wire as the Network Virtual Terminal sends it
// (RFC 854): IAC doubled always; outside BINARY, CR as CR NUL and, in a
// relay, LF as CR LF (a CR held back in *cr until the next octet shows
// whether it ends a line).
func (s *session) nvt(wire []byte, c byte, binary bool, cr *bool) []byte {
	if c == IAC {
		return append(wire, IAC, IAC)
	}
	if binary {
		return append(wire, c)
	}
	if s.tty {
		if c == '\r' {
			return append(wire, '\r', 0)
		}
		return append(wire, c)
	}
	if *cr {
		*cr = false
		if c == '\n' {
			return append(wire, '\r', '\n')
		}
		wire = append(wire, '\r', 0)
	}
	switch c {
	case '\r':
		*cr = true
		return wire
	case '\n':
		return append(wire, '\r', '\n')
	}
	return append(wire, c)
}

func (s *session) write(b []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, err := s.conn.Write(b)
	return err
}

// crlf writes LF as CR LF, for a terminal in raw mode.
type crlf struct{ w io.Writer }

func (c crlf) Write(p []byte) (int, error) {
	if bytes.IndexByte(p, '\n') < 0 {
		return c.w.Write(p)
	}
	q := bytes.ReplaceAll(p, []byte("\n"), []byte("\r\n"))
	if _, err := c.w.Write(q); err != nil {
		return 0, err
	}
	return len(p), nil
}
