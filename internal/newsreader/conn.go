package newsreader

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"strconv"
	"strings"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/internal/dest"
)

// A Reply is an NNTP status line (RFC 3977 §3.2; RFC 977 §2.4.2): a
// three-digit code, then, after one space, the server's arguments and
// text.
type Reply struct {
	Code int
	Text string
}

func (r Reply) String() string {
	if r.Text == "" {
		return strconv.Itoa(r.Code)
	}
	return strconv.Itoa(r.Code) + " " + r.Text
}

// A ReplyError says a line is not a status line; Offset is the octet of
// line that breaks RFC 3977 §3.2's "three-digit status indicator".
type ReplyError struct {
	Line   string
	Offset int
	Msg    string
}

func (e *ReplyError) Error() string {
	return "not an NNTP status line (RFC 3977 §3.2) at offset " + strconv.Itoa(e.Offset) + ": " + e.Msg + ": " + strconv.Quote(e.Line)
}

// ParseReply reads a status line (without its CR LF): RFC 3977 §3.2
// "Each response MUST begin with a three-digit status indicator", the
// first digit 1 to 5; the code is followed by the end of the line or a
// space and the rest (RFC 977 §2.4.2 allows a code alone).
func ParseReply(line string) (Reply, error) {
	if len(line) < 3 {
		return Reply{}, &ReplyError{Line: line, Offset: len(line), Msg: "shorter than a three-digit code"}
	}
	if line[0] < '1' || line[0] > '5' {
		return Reply{}, &ReplyError{Line: line, Offset: 0, Msg: "the code's first digit is 1 to 5"}
	}
	for i := 1; i < 3; i++ {
		if line[i] < '0' || line[i] > '9' {
			return Reply{}, &ReplyError{Line: line, Offset: i, Msg: "the code is three digits"}
		}
	}
	code := int(line[0]-'0')*100 + int(line[1]-'0')*10 + int(line[2]-'0')
	if len(line) == 3 {
		return Reply{Code: code}, nil
	}
	if line[3] != ' ' {
		return Reply{}, &ReplyError{Line: line, Offset: 3, Msg: "a space follows the code"}
	}
	return Reply{Code: code, Text: line[4:]}, nil
}

// Auth is a user name and password for AUTHINFO USER/PASS (RFC 4643
// §2.3), sent only when the server asks for them (480). An empty User
// is no credentials: the login the access.Client's Login (a .netrc)
// knows for the server is then sent instead, if any (see Cmd).
type Auth struct {
	User, Password string
}

// A Conn is one NNTP connection made through access.Request.Dial: every
// read and write has the request's idle deadline, every command and
// status line goes to the dialogue log (AUTHINFO PASS masked), every
// line is bounded by the request's MaxLine, and multi-line data by
// MaxSize.
type Conn struct {
	req *access.Request
	// nc is the connection commands are written to and replies read
	// from: raw, or raw tapped for the request's record (tap); nil in
	// a replay, which reads br alone.
	nc  net.Conn
	raw net.Conn
	cap *access.Capture // the record's, nil when the Client does not record
	br  *bufio.Reader
	// replay is set on a Conn that reads a recorded exchange (Replay):
	// nothing is written, and replies come from the record.
	replay bool
	url    string
	host   string // the server's host, as dialled
	auth   *Auth
	// authed is set once AUTHINFO succeeded.
	authed bool
	// read counts the octets of multi-line data blocks read, for
	// the request's MaxSize.
	read   int64
	closed bool
	// keep, when not nil, is the Pool's release of a leased connection
	// (Pool.Lease): Quit gives the connection back to the pool instead
	// of ending it, and Close closes it and tells the pool so.
	keep func(error)
	// reader is set once MODE READER is answered (ModeReader).
	reader bool
	// Greeting is the server's initial status line.
	Greeting Reply
}

// Dial connects to host:port through req.Dial and reads the greeting
// (RFC 3977 §5.1: 200 posting allowed, 201 no posting; 400 and 502 say
// the service is not available). Credentials (a not empty auth.User),
// or without them the login the access.Client's Login knows for host,
// answer a 480 from any later command (Cmd).
//
// When the access.Client records, the connection is the request's
// record (access.RecordExchange, protocol "nntp"): every command as
// sent and every reply as received, the greeting first, except AUTHINFO
// PASS, which is written past the record and kept as "AUTHINFO PASS
// ****" (see Tap).
func Dial(ctx context.Context, req *access.Request, host string, port int, auth Auth) (*Conn, error) {
	nc, err := req.Dial(ctx, host, port)
	if err != nil {
		return nil, err
	}
	c := &Conn{req: req, nc: nc, raw: nc, url: access.Masked(req.URL), host: host}
	c.br = bufio.NewReaderSize(connReader{c}, 4096)
	c.Tap(req)
	if auth.User != "" {
		c.auth = &auth
	}
	if err := c.greet(); err != nil {
		nc.Close()
		return nil, err
	}
	return c, nil
}

// greet reads the greeting.
func (c *Conn) greet() error {
	r, err := c.readReply()
	if err != nil {
		return err
	}
	c.Greeting = r
	switch r.Code {
	case 200, 201:
		return nil
	case 400, 502:
		return c.serverError("", r)
	}
	return c.protoError("greeting " + strconv.Quote(r.String()) + " is not 200, 201, 400 or 502 (RFC 3977 §5.1.1)")
}

// connReader reads the Conn's connection as it is now: raw, or tapped
// for the record of the request the Conn serves.
type connReader struct{ c *Conn }

func (r connReader) Read(p []byte) (int, error) { return r.c.nc.Read(p) }

// Tap gives the connection to req, a request it serves (Dial's, or a
// later one that reuses it: Pool.Session): when req's Client records,
// what crosses the connection from now on is req's record, commands and
// replies, and no longer an earlier request's. The password of AUTHINFO
// PASS is never in a record: the command is written to the connection
// beneath the tap and handed to the record as "AUTHINFO PASS ****",
// as the dialogue shows it.
func (c *Conn) Tap(req *access.Request) {
	if c.replay {
		return
	}
	c.cap = req.Capture(access.RecordExchange, "nntp")
	if c.cap == nil {
		c.nc = c.raw
		return
	}
	c.nc = c.cap.Conn(c.nc) // a tapped connection is given to req's record
}

// Replay returns a Conn that reads response, the replies of a recorded
// exchange (a Conn's record, greeting first), as a Conn reads a
// server's: its commands are written nowhere, and each reply read is
// the next recorded one, so that the scheme client's own steps, run on
// it, give what they gave live. A 480 is answered as if credentials
// were sent (the recorded AUTHINFO replies follow it). A record that
// ends early or holds what is not NNTP is an *access.ProtocolError, as
// it is live.
func Replay(req *access.Request, response io.Reader) (*Conn, error) {
	c := &Conn{req: req, url: access.Masked(req.URL), replay: true, br: bufio.NewReaderSize(response, 4096)}
	if err := c.greet(); err != nil {
		return nil, err
	}
	return c, nil
}

// Close closes the connection without QUIT.
func (c *Conn) Close() error {
	if k := c.keep; k != nil {
		c.keep = nil
		err := c.Close()
		k(errClosed)
		return err
	}
	if c.closed {
		return nil
	}
	c.closed = true
	if c.nc == nil {
		return nil
	}
	return c.nc.Close()
}

// Quit sends QUIT (RFC 3977 §5.4), reads the 205, and closes; on a
// connection already closed it does nothing. A leased connection
// (Pool.Lease) goes back to its pool instead, in step for another
// command. A replay reads no more:
// the reply of the request was read.
func (c *Conn) Quit() error {
	if k := c.keep; k != nil && !c.closed {
		c.keep = nil
		k(nil) // in step: kept for the next request
		return nil
	}
	if c.closed {
		return nil
	}
	defer c.Close()
	if c.replay {
		return nil
	}
	_, err := c.Cmd("QUIT")
	return err
}

func (c *Conn) protoError(msg string) error {
	return &access.ProtocolError{URL: c.url, Msg: msg}
}

func (c *Conn) serverError(cmd string, r Reply) error {
	return &access.ServerError{URL: c.url, Command: cmd, Code: strconv.Itoa(r.Code), Text: r.Text}
}

// withURL gives a ProtocolError from access.ReadLine or a DotReader the
// URL being followed.
func (c *Conn) withURL(err error) error {
	var pe *access.ProtocolError
	if errors.As(err, &pe) && pe.URL == "" {
		pe.URL = c.url
	}
	return err
}

func (c *Conn) readReply() (Reply, error) {
	line, err := access.ReadLine(c.br, c.req.MaxLine())
	if err != nil {
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return Reply{}, c.protoError("the server closed the connection instead of a status line")
		}
		return Reply{}, c.withURL(err)
	}
	c.req.Received(line)
	r, err := ParseReply(line)
	if err != nil {
		return Reply{}, c.protoError(err.Error())
	}
	return r, nil
}

// maxCommand is RFC 3977 §3.1's bound: "command lines MUST NOT exceed
// 512 octets, which includes the terminating CRLF pair".
const maxCommand = 512

// checkArg returns the offset of the first octet of arg that would
// break a command line, or -1: CR, LF or NUL would end it (RFC 1738 §6;
// RFC 3977 §3.1 "The arguments MUST NOT contain CR or LF"), and a space
// or TAB would split it into two arguments (§3.1: arguments are
// separated by one or more spaces or TABs).
func checkArg(arg string) int {
	return strings.IndexAny(arg, "\r\n\x00 \t")
}

// send writes one command line; args are checked with checkArg (a
// second guard behind the fetchers' Check, which refuses such URLs
// before connecting).
func (c *Conn) send(verb string, args ...string) (string, error) {
	line := verb
	for i, a := range args {
		if j := checkArg(a); j >= 0 {
			what := strconv.Quote(a)
			if verb == "AUTHINFO" {
				what = "of AUTHINFO " + args[0] // never the user or password
				if i == 0 {
					what = "of AUTHINFO"
				}
			}
			return "", &access.PolicyError{URL: c.url, Offset: j, Rule: "RFC 3977 §3.1", Reason: "the argument " + what + " holds an octet that would break the command line (CR, LF, NUL, space or TAB)"}
		}
		line += " " + a
	}
	if len(line)+2 > maxCommand {
		return "", &access.PolicyError{URL: c.url, Rule: "RFC 3977 §3.1", Reason: verb + ": the command line would exceed 512 octets"}
	}
	w := c.nc
	if verb == "AUTHINFO" && len(args) == 2 && args[0] == "PASS" {
		c.req.SentSecret("AUTHINFO PASS")
		// Past the tap; the record has the masked line (see Tap).
		w = c.raw
		c.cap.Sent([]byte("AUTHINFO PASS ****\r\n"))
	} else {
		c.req.Sent(line)
	}
	if c.replay {
		return line, nil
	}
	if _, err := io.WriteString(w, line+"\r\n"); err != nil {
		return line, err
	}
	return line, nil
}

// Cmd sends a command and reads its status line. A 480 ("authentication
// required", RFC 4643 §2.1) is answered with AUTHINFO USER/PASS, and the
// command sent again once, when the connection has credentials: its
// Auth, or, without one, the login the access.Client's Login (a .netrc)
// knows for the server (see login), asked only then.
func (c *Conn) Cmd(verb string, args ...string) (Reply, error) {
	if _, err := c.send(verb, args...); err != nil {
		return Reply{}, err
	}
	r, err := c.readReply()
	if err != nil || r.Code != 480 || c.authed || verb == "AUTHINFO" {
		return r, err
	}
	auth := c.auth
	if auth == nil && c.replay {
		auth = &Auth{} // the recorded AUTHINFO replies follow
	}
	if auth == nil {
		a, ok := c.login()
		if !ok {
			return r, nil
		}
		auth = &a
	}
	if err := c.AuthInfo(auth.User, auth.Password); err != nil {
		return Reply{}, err
	}
	if _, err := c.send(verb, args...); err != nil {
		return Reply{}, err
	}
	return c.readReply()
}

// login returns the login the access.Client's Login knows for the
// server connected to and the URL's user ("" when it names none): the
// URL's own server through Request.Login, or, for a news URL, which
// names no server (RFC 1738 §3.6), the configured server's, whose host
// is given to Client.Login as Request.Login gives a URL's (decoded, in
// lower case).
func (c *Conn) login() (Auth, bool) {
	req := c.req
	if req.Client == nil || req.Client.Login == nil {
		return Auth{}, false
	}
	user := ""
	if req.URL != nil && req.URL.HasUser() {
		user = locator.Decode(req.URL.User())
	}
	var a Auth
	var ok bool
	if req.URL != nil && req.URL.Host() != "" && dest.Name(req.URL.Host()) == dest.Name(c.host) {
		a.User, a.Password, ok = req.Login(user)
	} else {
		a.User, a.Password, ok = req.Client.Login(dest.Name(c.host), user)
	}
	if !ok || a.User == "" {
		return Auth{}, false
	}
	req.Notef("the server asks for authentication: the login for %s from the login file", dest.Name(c.host))
	return a, true
}

// AuthInfo authenticates with AUTHINFO USER and PASS (RFC 4643 §2.3):
// 281 accepts, 381 asks for the password; 481 (rejected), 482 (out of
// sequence) and 502 (not permitted) are *access.ServerError. The
// password is masked in the dialogue.
func (c *Conn) AuthInfo(user, pass string) error {
	r, err := c.Cmd("AUTHINFO", "USER", user)
	if err != nil {
		return err
	}
	if r.Code == 381 {
		if r, err = c.Cmd("AUTHINFO", "PASS", pass); err != nil {
			return err
		}
	}
	switch r.Code {
	case 281:
		c.authed = true
		return nil
	case 481, 482, 502, 480:
		return c.serverError("AUTHINFO USER", r)
	}
	return c.protoError("AUTHINFO answered " + strconv.Quote(r.String()) + " (RFC 4643 §2.3.1: 281, 381, 481, 482 or 502)")
}

// ModeReader sends MODE READER (RFC 3977 §5.3): a server that is also a
// transit server (INN) answers reader commands only after it ("401
// MODE-READER" otherwise). 200 and 201 go on; 500 and 501 (a server of
// RFC 977, which has no MODE command) too; 502 is an
// *access.ServerError.
func (c *Conn) ModeReader() error {
	if c.reader {
		return nil // a session kept by a Pool is in reader mode already
	}
	r, err := c.Cmd("MODE", "READER")
	if err != nil {
		return err
	}
	switch r.Code {
	case 200, 201, 500, 501:
		c.reader = true
		return nil
	case 400, 502:
		return c.serverError("MODE READER", r)
	}
	return c.protoError("MODE READER answered " + strconv.Quote(r.String()) + " (RFC 3977 §5.3.3)")
}

// A Group is the answer to GROUP (RFC 3977 §6.1.1.2): "211 number low
// high group".
type Group struct {
	Name             string
	Count, Low, High int64
}

// ParseGroup reads the text of a 211 reply: number low high group.
func ParseGroup(text string) (Group, error) {
	f := fields(text)
	if len(f) < 4 {
		return Group{}, errors.New("a 211 reply is \"211 number low high group\" (RFC 3977 §6.1.1.2); found " + strconv.Quote(text))
	}
	var g Group
	for i, p := range []*int64{&g.Count, &g.Low, &g.High} {
		n, err := parseNumber(f[i])
		if err != nil {
			return Group{}, errors.New("a 211 reply's " + []string{"number", "low", "high"}[i] + " is digits (RFC 3977 §6.1.1.2); found " + strconv.Quote(f[i]))
		}
		*p = n
	}
	g.Name = f[3]
	return g, nil
}

// Group selects a group (RFC 3977 §6.1.1; RFC 977 §3.2.1). 411 (no such
// group) and other 4xx/5xx answers are an *access.ServerError.
func (c *Conn) Group(name string) (Group, error) {
	r, err := c.Cmd("GROUP", name)
	if err != nil {
		return Group{}, err
	}
	if r.Code != 211 {
		return Group{}, c.answer("GROUP "+name, r)
	}
	g, err := ParseGroup(r.Text)
	if err != nil {
		return Group{}, c.protoError(err.Error())
	}
	return g, nil
}

// answer turns an unexpected reply into an error: 4xx and 5xx are the
// server's refusal (*access.ServerError: 411, 420, 423, 430, 480, 502,
// ...), anything else a *access.ProtocolError.
func (c *Conn) answer(cmd string, r Reply) error {
	if r.Code >= 400 {
		return c.serverError(cmd, r)
	}
	return c.protoError(strconv.Quote(cmd) + " answered " + strconv.Quote(r.String()))
}

// Article sends ARTICLE arg (a number, or a message-id in "<" ">"; RFC
// 3977 §6.2.1) and returns the article's octets as a DotReader: the
// caller reads it to its end. 423 and 430 are *access.ServerError.
func (c *Conn) Article(arg string) (*DotReader, error) {
	r, err := c.Cmd("ARTICLE", arg)
	if err != nil {
		return nil, err
	}
	if r.Code != 220 {
		return nil, c.answer("ARTICLE "+arg, r)
	}
	return c.dotReader(), nil
}

func (c *Conn) dotReader() *DotReader {
	d := NewDotReader(c.br, c.req.MaxLine())
	d.URL = c.url
	return d
}

// Lines reads the lines of a multi-line data block (RFC 3977 §3.1.1)
// after a status line that announced one: dot-stuffing undone, each line
// without its CR LF, to the terminating "." line. It stops at max lines
// and reports more (the rest is not read: the connection must then be
// closed, not reused). A block that ends at close without the "." line
// is a *access.ProtocolError; a line longer than MaxLine too; more
// octets than the request's MaxSize is access.ErrTooLarge.
func (c *Conn) Lines(max int, each func(line string) error) (more bool, err error) {
	n := 0
	for {
		line, err := access.ReadLine(c.br, c.req.MaxLine())
		if err != nil {
			if err == io.EOF || err == io.ErrUnexpectedEOF {
				return false, c.protoError("the multi-line block ended at close without its terminating \".\" line (RFC 3977 §3.1.1)")
			}
			return false, c.withURL(err)
		}
		c.read += int64(len(line)) + 2
		if m := c.req.MaxSize(); m > 0 && c.read > m {
			return false, access.ErrTooLarge
		}
		if line == "." {
			return false, nil
		}
		if n >= max {
			return true, nil
		}
		n++
		if err := each(strings.TrimPrefix(line, ".")); err != nil {
			return false, err
		}
	}
}
