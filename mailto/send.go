package mailto

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/internal/dest"
)

// SendOptions says where and how Send submits a message.
type SendOptions struct {
	// Server is the submission server, "host:port".
	Server string
	// Hello is the client's name in EHLO (RFC 5321 §4.1.1.1); "" for
	// this machine's host name when it is a domain, else "localhost".
	Hello string
	// User, when not "", is the identity to authenticate as (RFC 4954)
	// when the server offers AUTH; Password gives its password, asked
	// only then. Without User no AUTH is attempted.
	User     string
	Password func() (string, error)
	// Login, when not nil, gives the login for the server (a .netrc, as
	// access.Client.Login): given the server's host (decoded, in lower
	// case) and User, the user and password to authenticate with, or ok
	// false. It is asked only when the server offers AUTH: before
	// Password when User is given, and, when it is not, for a login to
	// authenticate with instead of none (as curl's --netrc does). A
	// login from it is not sent in clear to a host other than this
	// machine: without TLS, no AUTH is attempted then.
	Login func(host, user string) (login, password string, ok bool)
	// RequireTLS refuses to submit over a connection that STARTTLS
	// (RFC 3207) did not protect. Without it STARTTLS is used whenever
	// the server offers it.
	RequireTLS bool
	// TLSConfig is used for STARTTLS; nil: the system's roots and the
	// server's host name.
	TLSConfig *tls.Config
	// ConnectTimeout and IdleTimeout bound the connection's
	// establishment and every read and write (access.Client's defaults
	// when zero); MaxLine bounds a reply line (64 KiB when zero).
	ConnectTimeout, IdleTimeout time.Duration
	MaxLine                     int
	// Dialogue, when not nil, receives the SMTP dialogue, one line per
	// command and reply, credentials masked.
	Dialogue io.Writer
	// Dial replaces the network dialer (tests).
	Dial access.DialFunc
}

// A Receipt says what Send did.
type Receipt struct {
	Server     string   // the server, "host:port"
	Greeting   string   // the server's 220 greeting line
	TLS        bool     // STARTTLS protected the submission
	Auth       string   // the AUTH mechanism used, "" for none
	Encoding   string   // the body's Content-Transfer-Encoding
	Recipients []string // the RCPT TO addresses, To then Cc
	Reply      string   // the server's reply accepting the message
	Message    []byte   // the message as sent (before dot-stuffing)
	Notes      []string // choices made: TLS, AUTH, encoding, and why
}

// Send submits m over SMTP (RFC 5321) to o.Server: EHLO (HELO when the
// server does not know it, §3.2), STARTTLS when offered (RFC 3207; the
// EHLO is repeated over TLS, §4.2), AUTH PLAIN or LOGIN when o.User is
// set, or o.Login knows a login for the server, and the server offers
// it (RFC 4954; never in clear text to a host other than this machine),
// MAIL FROM with BODY=8BITMIME when the body is 8bit (RFC 6152), one
// RCPT TO per recipient, DATA with the message dot-stuffed (§4.5.2),
// QUIT. The envelope's return path is
// m.From (RFC 6068 §7: it "is set and correct").
//
// Nothing is submitted unless every recipient is accepted: a refused
// RCPT ends the session before DATA. A reply of 4xx or 5xx is an
// *access.ServerError naming the command (credentials masked); a
// malformed reply an *access.ProtocolError; a refusal of ours (no TLS
// with RequireTLS, a password that would go in clear, AUTH asked for and
// not offered) an *access.PolicyError; m that Bytes refuses, its
// *locator.SchemeError; a Server that is not host:port a
// *locator.SchemeError of field "server".
func Send(ctx context.Context, m *Message, o SendOptions) (*Receipt, error) {
	if _, _, err := m.Bytes(false); err != nil {
		return nil, err
	}
	host, portText, err := net.SplitHostPort(o.Server)
	if err != nil {
		return nil, &locator.SchemeError{Scheme: "mailto", Field: "server", Rule: "host:port", Message: strconv.Quote(o.Server) + " is not host:port (" + err.Error() + ")"}
	}
	port, err := strconv.Atoi(portText)
	if err != nil || port <= 0 || port > 65535 {
		return nil, &locator.SchemeError{Scheme: "mailto", Field: "server", Offset: len(o.Server) - len(portText), Rule: "host:port", Message: "the port of " + strconv.Quote(o.Server) + " is not a number from 1 to 65535"}
	}
	req := &access.Request{Client: &access.Client{
		ConnectTimeout: o.ConnectTimeout,
		IdleTimeout:    o.IdleTimeout,
		MaxLine:        o.MaxLine,
		Dialogue:       o.Dialogue,
		Dial:           o.Dial,
		// The server is the user's choice, not a URL's: its port, 25 or
		// 587 among them, is the one to use (RFC 1738 §6's caution is
		// about ports a URL names).
		Policy: access.Policy{AllowPorts: []int{port}},
	}, Dialogue: o.Dialogue}
	conn, err := req.Dial(ctx, host, port)
	if err != nil {
		return nil, err
	}
	c := &smtpConn{req: req, conn: conn, br: bufio.NewReader(conn), server: o.Server}
	defer func() {
		if c.conn != nil {
			c.conn.Close()
		}
	}()
	rc := &Receipt{Server: o.Server}
	note := func(format string, args ...any) {
		s := fmt.Sprintf(format, args...)
		rc.Notes = append(rc.Notes, s)
		req.Notef("%s", s)
	}

	g, err := c.reply("", 220)
	if err != nil {
		return nil, err
	}
	rc.Greeting = g.text()
	hello := o.Hello
	if hello == "" {
		hello = localName()
	}
	ext, err := c.hello(hello)
	if err != nil {
		return nil, err
	}
	if _, ok := ext["STARTTLS"]; ok {
		if _, err := c.cmd("STARTTLS", 220); err != nil {
			return nil, err
		}
		cfg := o.TLSConfig
		if cfg == nil {
			cfg = &tls.Config{ServerName: host}
		}
		tc := tls.Client(c.conn, cfg)
		if err := tc.HandshakeContext(ctx); err != nil {
			return nil, fmt.Errorf("mailto: STARTTLS with %s: %w", o.Server, err)
		}
		c.conn, c.br = tc, bufio.NewReader(tc)
		st := tc.ConnectionState()
		rc.TLS = true
		note("STARTTLS: %s, %s", tls.VersionName(st.Version), tls.CipherSuiteName(st.CipherSuite))
		// RFC 3207 §4.2: "The client MUST discard any knowledge obtained
		// from the server ... which was not obtained from the TLS
		// negotiation itself"; it sends EHLO again.
		if ext, err = c.hello(hello); err != nil {
			return nil, err
		}
	} else if o.RequireTLS {
		return nil, &access.PolicyError{Reason: "RFC 3207: the server " + o.Server + " does not offer STARTTLS, and TLS is required"}
	} else {
		note("no STARTTLS: the server does not offer it; the message goes in clear")
	}

	mechs, offered := ext["AUTH"]
	// login asks o.Login for the server's login, once the server offers
	// AUTH.
	login := func() (string, string, bool) {
		if o.Login == nil {
			return "", "", false
		}
		l, p, ok := o.Login(dest.Name(host), o.User)
		if ok && l != "" {
			note("the login for %s from the login file", dest.Name(host))
		}
		return l, p, ok && l != ""
	}
	switch {
	case o.User != "":
		if !offered {
			return nil, &access.PolicyError{Reason: "RFC 4954: a user is given for AUTH, and the server " + o.Server + " does not offer AUTH"}
		}
		if !rc.TLS && !isLoopback(host) {
			return nil, &access.PolicyError{Reason: "RFC 4954 §4: AUTH without TLS would send the password in clear to " + o.Server}
		}
		user, password := o.User, o.Password
		if l, p, ok := login(); ok {
			user, password = l, func() (string, error) { return p, nil }
		}
		if rc.Auth, err = c.auth(user, password, mechs); err != nil {
			return nil, err
		}
		note("AUTH %s as %s", rc.Auth, user)
	case !offered:
	default:
		user, pw, ok := login()
		if !ok {
			note("no AUTH: the server offers it, and no user is given")
			break
		}
		if !rc.TLS && !isLoopback(host) {
			note("no AUTH: without TLS the login would go in clear to %s (RFC 4954 §4)", o.Server)
			break
		}
		if rc.Auth, err = c.auth(user, func() (string, error) { return pw, nil }, mechs); err != nil {
			return nil, err
		}
		note("AUTH %s as %s", rc.Auth, user)
	}

	_, eight := ext["8BITMIME"]
	msg, cte, err := m.Bytes(eight)
	if err != nil {
		return nil, err
	}
	rc.Message, rc.Encoding = msg, cte
	switch {
	case cte == SevenBit:
		note("body 7bit: US-ASCII lines of at most 998 octets")
	case cte == EightBit:
		note("body 8bit: the server offers 8BITMIME (RFC 6152)")
	case cte == QuotedPrintable && eight:
		note("body quoted-printable: a line longer than 998 octets or a NUL")
	case cte == QuotedPrintable:
		note("body quoted-printable: the server does not offer 8BITMIME")
	}
	mail := "MAIL FROM:<" + must(ParseAddrSpec(m.From)) + ">"
	if cte == EightBit {
		mail += " BODY=8BITMIME"
	}
	if params, ok := ext["SIZE"]; ok {
		if limit, err := strconv.Atoi(params); err == nil && limit > 0 && len(msg) > limit {
			return nil, &access.ServerError{Command: "EHLO", Code: "SIZE", Text: fmt.Sprintf("the server takes messages of at most %d octets; this one is %d", limit, len(msg))}
		}
		mail += " SIZE=" + strconv.Itoa(len(msg))
	}
	if _, err := c.cmd(mail, 250); err != nil {
		return nil, err
	}
	for _, a := range append(append([]string(nil), m.To...), m.Cc...) {
		a = must(ParseAddrSpec(a))
		if _, err := c.cmd("RCPT TO:<"+a+">", 250, 251); err != nil {
			c.quit()
			return nil, err
		}
		rc.Recipients = append(rc.Recipients, a)
	}
	if _, err := c.cmd("DATA", 354); err != nil {
		c.quit()
		return nil, err
	}
	if err := c.data(msg); err != nil {
		return nil, err
	}
	r, err := c.reply("<message>", 250)
	if err != nil {
		return nil, err
	}
	rc.Reply = r.text()
	c.quit()
	return rc, nil
}

func must(s string, err error) string {
	if err != nil {
		panic(err) // Bytes checked every address first
	}
	return s
}

// localName is this machine's host name when it is a domain RFC 5321
// §4.1.1.1 would take, else "localhost".
func localName() string {
	h, err := os.Hostname()
	if err != nil || h == "" || len(h) > 253 {
		return "localhost"
	}
	for i := 0; i < len(h); i++ {
		c := h[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '.') {
			return "localhost"
		}
	}
	return h
}

func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// smtpConn is one SMTP session: the connection (every read and write
// with the idle deadline, from access.Request.Dial) and its dialogue.
type smtpConn struct {
	req    *access.Request
	conn   net.Conn
	br     *bufio.Reader
	server string
}

// A reply is an SMTP reply: its code and its lines' texts (RFC 5321
// §4.2).
type reply struct {
	code  int
	lines []string
}

func (r *reply) text() string {
	return strconv.Itoa(r.code) + " " + strings.Join(r.lines, " / ")
}

// reply reads one reply, its lines "ddd-text" then "ddd text" (§4.2),
// and returns it when its code is one of want, else an
// *access.ServerError for the command (as logged).
func (c *smtpConn) reply(command string, want ...int) (*reply, error) {
	r := &reply{}
	for {
		line, err := access.ReadLine(c.br, c.req.MaxLine())
		if err != nil {
			if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
				return nil, &access.ProtocolError{Msg: "the SMTP server " + c.server + " closed the connection" + after(command)}
			}
			return nil, err
		}
		c.req.Received(line)
		if len(line) < 3 || !digits(line[:3]) || line[0] < '2' || line[0] > '5' || len(line) > 3 && line[3] != ' ' && line[3] != '-' {
			return nil, &access.ProtocolError{Msg: fmt.Sprintf("the SMTP server %s sent %q%s, not a reply \"ddd text\" (RFC 5321 §4.2)", c.server, line, after(command))}
		}
		code, _ := strconv.Atoi(line[:3])
		if r.code != 0 && code != r.code {
			return nil, &access.ProtocolError{Msg: fmt.Sprintf("the SMTP server %s changed its reply code from %d to %d within one reply (RFC 5321 §4.2.1)", c.server, r.code, code)}
		}
		r.code = code
		text := ""
		if len(line) > 4 {
			text = line[4:]
		}
		r.lines = append(r.lines, text)
		if len(line) == 3 || line[3] == ' ' {
			break
		}
	}
	for _, w := range want {
		if r.code == w {
			return r, nil
		}
	}
	return r, &access.ServerError{Command: command, Code: strconv.Itoa(r.code), Text: strings.Join(r.lines, " / ")}
}

func after(command string) string {
	if command == "" {
		return ""
	}
	return " after " + strconv.Quote(command)
}

func digits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func (c *smtpConn) send(line string) error {
	_, err := io.WriteString(c.conn, line+"\r\n")
	return err
}

// cmd sends a command line and reads its reply.
func (c *smtpConn) cmd(line string, want ...int) (*reply, error) {
	c.req.Sent(line)
	if err := c.send(line); err != nil {
		return nil, err
	}
	return c.reply(line, want...)
}

// hello sends EHLO, or HELO when the server answers EHLO with 500, 502
// or 504 (RFC 5321 §3.2), and returns the service extensions offered,
// keyword (upper case) to parameters (§4.1.1.1).
func (c *smtpConn) hello(name string) (map[string]string, error) {
	r, err := c.cmd("EHLO "+name, 250)
	if err != nil {
		if r != nil && (r.code == 500 || r.code == 502 || r.code == 504) {
			_, err = c.cmd("HELO "+name, 250)
			return map[string]string{}, err
		}
		return nil, err
	}
	ext := map[string]string{}
	for _, l := range r.lines[1:] {
		k, v, _ := strings.Cut(l, " ")
		ext[strings.ToUpper(k)] = v
	}
	return ext, nil
}

// auth authenticates with PLAIN (RFC 4616, the identity and password in
// the initial response) or, when the server offers only that, LOGIN;
// the password never reaches the dialogue.
func (c *smtpConn) auth(user string, password func() (string, error), offered string) (string, error) {
	mech := ""
	for _, m := range strings.Fields(strings.ToUpper(offered)) {
		if m == "PLAIN" {
			mech = m
			break
		}
		if m == "LOGIN" {
			mech = m
		}
	}
	if mech == "" {
		return "", &access.PolicyError{Reason: "RFC 4954: the server offers AUTH " + offered + "; this client speaks PLAIN and LOGIN"}
	}
	if password == nil {
		return "", access.ErrNoPassword
	}
	pw, err := password()
	if err != nil {
		return "", err
	}
	b64 := base64.StdEncoding.EncodeToString
	plain := b64([]byte("\x00" + user + "\x00" + pw))
	secret := func(line, logged string, want ...int) (*reply, error) {
		c.req.Sent(logged)
		if err := c.send(line); err != nil {
			return nil, err
		}
		return c.reply(logged, want...)
	}
	if mech == "PLAIN" {
		_, err = secret("AUTH PLAIN "+plain, "AUTH PLAIN ****", 235)
		return mech, err
	}
	if _, err := c.cmd("AUTH LOGIN", 334); err != nil {
		return "", err
	}
	if _, err := c.cmd(b64([]byte(user)), 334); err != nil {
		return "", err
	}
	_, err = secret(b64([]byte(pw)), "****", 235)
	return mech, err
}

// data writes msg after DATA's 354: each line that begins with "." gets
// another (RFC 5321 §4.5.2), then the line "." ends it. The dialogue
// shows the header lines and the body's size.
func (c *smtpConn) data(msg []byte) error {
	b := bufio.NewWriterSize(c.conn, 32<<10) // one deadline per 32 KiB
	head := true
	nbody, octets := 0, 0
	for len(msg) > 0 {
		var line []byte
		if i := bytes.Index(msg, []byte("\r\n")); i >= 0 {
			line, msg = msg[:i+2], msg[i+2:]
		} else {
			line, msg = append(msg, '\r', '\n'), nil
		}
		if head {
			if len(line) == 2 {
				head = false
			} else {
				c.req.Sent(string(line[:len(line)-2]))
			}
		} else {
			nbody++
			octets += len(line)
		}
		if line[0] == '.' {
			b.WriteByte('.')
		}
		b.Write(line)
	}
	b.WriteString(".\r\n")
	c.req.Sent("")
	c.req.Notef("body: %d lines, %d octets", nbody, octets)
	c.req.Sent(".")
	return b.Flush()
}

// quit ends the session politely; its reply matters no more.
func (c *smtpConn) quit() {
	c.cmd("QUIT", 221)
}
