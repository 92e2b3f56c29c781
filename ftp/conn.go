package ftp

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
)

// A session is one control connection (RFC 959 §2.3) and what the client
// learned on it. A logged-in session outlives the request that opened it
// (see pool): req, u and masked are those of the request using it now.
type session struct {
	req    *access.Request
	u      *locator.URL
	masked string // the URL for messages, password masked
	conn   net.Conn
	br     *bufio.Reader
	peer   net.IP            // the control connection's remote address, which a PASV reply must name
	feat   map[string]string // FEAT's answer (RFC 2389); nil until FEAT is sent
	noEPSV bool              // the server refused EPSV once: PASV from then on
	meta   bool              // MethodMetadata: FEAT after login, SIZE and MDTM before RETR

	// opener is the request whose Dial opened conn: only it may open a
	// data connection to conn's peer (access.Request.DialSame), the
	// host policy having admitted the peer under its URL's name. A
	// session is shared only among requests of one access.Client
	// (sessionKey), whose policy that is.
	opener *access.Request
	rw     *useConn    // conn under the context of the request using the session
	stop   func() bool // ends the watch of that context (bind)
	pool   *pool       // where the session goes back when its request is done
	key    sessionKey  // its key there
	timer  *time.Timer // ends it when it waits idle for ProbeIdle
	home   string      // the login directory, as PWD names it; "" unknown
	asked  bool        // PWD was sent
	moved  bool        // a CWD was sent since the login (or since the last CWD home)
	typ    string      // the TYPE last set ("" none: A, RFC 959 §3.1.1.1)
	spoilt bool        // out of step or in an unknown state: never reused
	retry  bool        // reused, no reply read yet: a closed connection may be the idle session's end
	cancel func()      // releases the context conn was opened under
}

// newSession returns the session of conn, which req's Dial opened under
// a context that is never cancelled (the session may outlive ctx), bound
// to ctx (bind).
func newSession(ctx context.Context, req *access.Request, u *locator.URL, conn net.Conn) *session {
	s := &session{conn: conn, opener: req, rw: &useConn{Conn: conn}}
	s.br = bufio.NewReader(s.rw)
	if a, ok := conn.RemoteAddr().(*net.TCPAddr); ok {
		s.peer = a.IP
	} else if h, _, err := net.SplitHostPort(conn.RemoteAddr().String()); err == nil {
		s.peer = net.ParseIP(h)
	}
	s.bind(ctx, req, u)
	return s
}

// bind gives the session to req, for u, under ctx: its dialogue goes to
// req's log, and ctx's end (a deadline, a cancel) closes the control
// connection, which is then out of step and never reused.
func (s *session) bind(ctx context.Context, req *access.Request, u *locator.URL) {
	s.req, s.u, s.masked, s.meta = req, u, access.Masked(u), false
	s.rw.ctx = ctx
	conn := s.conn
	s.stop = context.AfterFunc(ctx, func() { conn.Close() })
}

// unbind ends the watch of the using request's context; false when it
// has ended (the connection is closed).
func (s *session) unbind() bool {
	if s.stop == nil {
		return true
	}
	ok := s.stop()
	s.stop = nil
	return ok
}

// A useConn is a control connection read and written for one request at
// a time: once that request's context has ended, its error is the
// context's, as for a connection opened under it.
type useConn struct {
	net.Conn
	ctx context.Context
}

func (c *useConn) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	n, err := c.Conn.Read(p)
	if err != nil && c.ctx.Err() != nil {
		err = c.ctx.Err()
	}
	return n, err
}

func (c *useConn) Write(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	n, err := c.Conn.Write(p)
	if err != nil && c.ctx.Err() != nil {
		err = c.ctx.Err()
	}
	return n, err
}

func (s *session) close() {
	s.unbind()
	s.spoilt = true
	if s.conn != nil {
		s.conn.Close()
	}
	if s.cancel != nil {
		s.cancel()
	}
}

// reply reads one reply, logging each line, and sets the URL of a
// protocol error.
//
// The first reply on a reused session may say that the server ended it
// while it waited idle: a 421 ("Service not available, closing control
// connection. This may be a reply to any command if the service knows it
// must shut down", RFC 959 §4.2.1; vsftpd's idle_session_timeout), or
// the connection closed. That is an *idleEndError, after which the
// request begins again on a new login (nothing of it was done).
func (s *session) reply() (reply, error) {
	first := s.retry
	s.retry = false
	if first {
		if _, err := s.br.Peek(1); err != nil && closedByPeer(err) {
			return reply{}, &idleEndError{err: err}
		}
	}
	r, err := readReply(s.br, s.req.MaxLine(), s.req.Received)
	if err != nil {
		return r, s.wrap(err)
	}
	if first && r.Code == 421 {
		return r, &idleEndError{reply: r.String()}
	}
	return r, nil
}

// An idleEndError says that the server ended a reused session while it
// waited idle, before anything of the request using it was done.
type idleEndError struct {
	err   error  // the connection's end
	reply string // or the server's 421
}

func (e *idleEndError) Error() string {
	if e.reply != "" {
		return "ftp: the server ended the idle session: " + strconv.Quote(e.reply)
	}
	return "ftp: the server closed the idle session: " + e.err.Error()
}

func (e *idleEndError) Unwrap() error { return e.err }

// closedByPeer says err is the end of a connection the peer closed (an
// EOF, a reset, a broken pipe), not a deadline or the client's own close.
func closedByPeer(err error) bool {
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) || errors.Is(err, syscall.ECONNABORTED)
}

func (s *session) wrap(err error) error {
	var pe *access.ProtocolError
	if errors.As(err, &pe) && pe.URL == "" {
		pe.URL = s.masked
	}
	return err
}

// send writes one command line and its CRLF (RFC 959 §4.1), logging it;
// secret, when set, is the verb whose argument is masked in the log.
func (s *session) send(line string, secret bool) error {
	if i := strings.IndexAny(line, "\r\n\x00"); i >= 0 {
		// Check refuses such URLs first; this guards the wire itself.
		return &access.PolicyError{URL: s.masked, Rule: "RFC 1738 §6", Reason: "a CR, LF or NUL would end the FTP command early"}
	}
	if secret {
		verb, _, _ := strings.Cut(line, " ")
		s.req.SentSecret(verb)
	} else {
		s.req.Sent(line)
	}
	var w io.Writer = s.conn
	if s.rw != nil {
		w = s.rw
	}
	if _, err := io.WriteString(w, line+"\r\n"); err != nil {
		if s.retry && closedByPeer(err) {
			return &idleEndError{err: err}
		}
		return err
	}
	return nil
}

// cmd sends a command and returns its final reply: preliminary replies
// (1yz) are read past, at most a few, for commands that do not open a
// transfer.
func (s *session) cmd(line string) (reply, error) {
	return s.cmdSecret(line, false)
}

func (s *session) cmdSecret(line string, secret bool) (reply, error) {
	if err := s.send(line, secret); err != nil {
		return reply{}, err
	}
	for i := 0; ; i++ {
		r, err := s.reply()
		if err != nil || r.Class() != 1 {
			return r, err
		}
		if i == 3 {
			return r, &access.ProtocolError{URL: s.masked, Msg: "more than 3 preliminary replies to " + strconv.Quote(maskLine(line, secret))}
		}
	}
}

func maskLine(line string, secret bool) string {
	if !secret {
		return line
	}
	verb, _, _ := strings.Cut(line, " ")
	return verb + " ****"
}

// refused returns the error for a reply that refuses a command: a
// *access.ServerError with the command (masked when secret), the
// server's code and text, and note, the client's own word on it (the
// rule the command carries out, what else may work), as its Rule.
func (s *session) refused(line string, r reply, note string) error {
	return &access.ServerError{URL: s.masked, Command: line, Code: strconv.Itoa(r.Code), Text: r.Text, Rule: note}
}

// unexpected returns a *access.ProtocolError for a reply whose code RFC
// 959 does not allow for the command.
func (s *session) unexpected(line string, r reply) error {
	return &access.ProtocolError{URL: s.masked, Msg: "unexpected reply " + strconv.Quote(clip(r.String())) + " to " + strconv.Quote(line)}
}

// openData opens a passive data connection (RFC 2428 EPSV, else RFC 959
// PASV) through req.DialSame, to the control connection's address: the
// port policy applies to the data port, and the host policy, which
// admitted the control connection by the URL's host, is not asked again
// about its address.
//
// EPSV's reply gives only a port: the connection goes to the control
// connection's address (RFC 2428 §3). PASV's reply gives an address too;
// one other than the control connection's is refused with a
// *access.ProtocolError, so that a server cannot send the client's data
// connection to a third host (the "PASV redirect" counterpart of the FTP
// bounce attack, RFC 2577 §3). The unspecified address 0.0.0.0, which
// some servers behind NAT send, means the control connection's host.
func (s *session) openData(ctx context.Context) (net.Conn, error) {
	if !s.noEPSV {
		r, err := s.cmd("EPSV")
		if err != nil {
			return nil, err
		}
		switch {
		case r.Code == 229:
			port, err := parseEPSV(r.Text)
			if err != nil {
				return nil, s.wrap(err)
			}
			return s.dialData(ctx, port)
		case r.Class() == 5:
			s.noEPSV = true // not implemented or not allowed here: PASV
		default:
			return nil, s.unexpected("EPSV", r)
		}
	}
	r, err := s.cmd("PASV")
	if err != nil {
		return nil, err
	}
	if r.Code != 227 {
		if r.Class() == 4 || r.Class() == 5 {
			return nil, s.refused("PASV", r, "the server offers no passive data connection")
		}
		return nil, s.unexpected("PASV", r)
	}
	ip, port, err := parsePASV(r.Text)
	if err != nil {
		return nil, s.wrap(err)
	}
	if !ip.Equal(s.peer) && !ip.IsUnspecified() {
		return nil, &access.ProtocolError{URL: s.masked, Msg: "PASV reply names " + ip.String() + ", not the control connection's host " + s.peer.String() + "; refused (a data connection to a third host, RFC 2577 §3)"}
	}
	return s.dialData(ctx, port)
}

// dialData opens the data connection to port of the control connection's
// peer, through the Dial of the request that opened it (the only one
// DialSame lets name that peer), under ctx, the using request's context.
func (s *session) dialData(ctx context.Context, port int) (net.Conn, error) {
	req := s.opener
	if req == nil {
		req = s.req
	}
	c, err := req.DialSame(ctx, s.conn, port)
	var pe *access.PolicyError
	if errors.As(err, &pe) {
		pe.URL = s.masked
	}
	return c, err
}

// startTransfer sends line (RETR, NLST, MLSD, LIST) on a data connection
// opened first, and waits for the preliminary reply (125 or 150, RFC 959
// §4.2: the data follows), which it returns. A refusal (4yz, 5yz) closes
// the data connection and returns a *access.ServerError; a 2yz at once (a
// server that sent nothing, or an empty listing it had no data for)
// returns a nil connection and that reply as done.
//
// rest, when above 0, is the octet the transfer is to begin at: "REST
// rest" is sent after the passive command and just before line, since
// it "must be the last command issued before the data transfer command"
// (RFC 3659 §5.3), and must be answered 350 (RFC 959 §4.1.3, "Requested
// file action pending further information"). A server that refuses it
// (500 or 502: not understood or not implemented) is a
// *access.ServerError naming REST.
func (s *session) startTransfer(ctx context.Context, line string, rest int64) (data net.Conn, first reply, done bool, err error) {
	data, err = s.openData(ctx)
	if err != nil {
		return nil, reply{}, false, err
	}
	if rest > 0 {
		restLine := "REST " + strconv.FormatInt(rest, 10)
		r, err := s.cmd(restLine)
		if err != nil {
			data.Close()
			return nil, r, false, err
		}
		if r.Code != 350 {
			data.Close()
			if r.Class() == 4 || r.Class() == 5 {
				return nil, r, false, s.refused(restLine, r, "RFC 959 §4.1.3, RFC 3659 §5: the server does not restart a transfer at an offset; the file can only be retrieved whole")
			}
			return nil, r, false, s.unexpected(restLine, r)
		}
	}
	if err := s.send(line, false); err != nil {
		data.Close()
		return nil, reply{}, false, err
	}
	r, err := s.reply()
	if err != nil {
		data.Close()
		return nil, r, false, err
	}
	switch r.Class() {
	case 1:
		return data, r, false, nil
	case 2:
		data.Close()
		return nil, r, true, nil
	case 4, 5:
		data.Close()
		return nil, r, false, s.refused(line, r, "")
	}
	data.Close()
	return nil, r, false, s.unexpected(line, r)
}

// TransferSize returns the octet count a preliminary reply to RETR
// states in the form "(N bytes)" at its end, as vsftpd ("150 Opening
// BINARY mode data connection for motd (15 bytes).") writes it (pyftpdlib
// states none); RFC 959 does not define the text, so ok is false for any other
// form, and for a count that is not 1 to 18 decimal digits. vsftpd
// counts the file as stored, in TYPE A too (not the CRLF form it sends).
func TransferSize(text string) (n int64, ok bool) {
	end := strings.LastIndex(text, " bytes)")
	if end < 0 {
		return 0, false
	}
	start := strings.LastIndexByte(text[:end], '(')
	if start < 0 {
		return 0, false
	}
	digits := text[start+1 : end]
	if len(digits) == 0 || len(digits) > 18 {
		return 0, false
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseInt(digits, 10, 64)
	return n, err == nil
}

// finish reads the reply that ends a transfer (226 or 250, RFC 959
// §4.2): a 4yz or 5yz after the data is a *TransferError.
func (s *session) finish(line string) error {
	r, err := s.reply()
	if err != nil {
		return err
	}
	if r.Class() != 2 {
		return &TransferError{URL: s.masked, Command: line, Code: strconv.Itoa(r.Code), Text: r.Text}
	}
	return nil
}

// abort ends a transfer early (RFC 959 §4.1.3 ABOR): the data connection
// is closed, ABOR sent, and the replies read until the one that
// completes the abort (225 or 226; a 426 for the transfer cut short may
// come before it).
func (s *session) abort(data net.Conn) error {
	if data != nil {
		data.Close()
	}
	if err := s.send("ABOR", false); err != nil {
		return err
	}
	for i := 0; i < 3; i++ {
		r, err := s.reply()
		if err != nil {
			return err
		}
		if r.Class() == 2 || r.Class() == 5 {
			return nil
		}
	}
	return &access.ProtocolError{URL: s.masked, Msg: "no reply completed ABOR"}
}

// quit ends the session politely (RFC 959 QUIT, reply 221) and closes
// the control connection; its errors do not matter to the object.
func (s *session) quit() {
	if s.conn == nil {
		return
	}
	s.retry = false
	if s.send("QUIT", false) == nil {
		s.reply()
	}
	s.close()
	s.conn = nil
}

// A TransferError says the server reported a failure (4yz or 5yz) at the
// end of a transfer whose data had begun: the object was not delivered
// whole. access.Classify counts it a failure (Failed), not an absent
// object.
type TransferError struct {
	URL     string
	Command string
	Code    string
	Text    string
}

func (e *TransferError) Error() string {
	return e.URL + ": the transfer failed: the server says " + e.Code + " " + e.Text + " after the data of " + strconv.Quote(e.Command)
}
