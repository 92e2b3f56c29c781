package access

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/internal/dest"
	"github.com/rfc1738/locator/internal/printable"
)

// A DialFunc opens a connection, as net.Dialer.DialContext does.
type DialFunc func(ctx context.Context, network, addr string) (net.Conn, error)

// A Request is one attempt to follow a URL, handed by a Client to its
// scheme's client: the Client's limits and policy, and what every
// protocol needs to honour them.
type Request struct {
	// Client is the Client following the URL. A scheme client reads its
	// settings and never changes them.
	Client *Client
	URL    *locator.URL // the URL being followed
	// Dialogue, when not nil, is where this request's dialogue goes
	// instead of Client.Dialogue: a scheme client may set it to a wrapper
	// of Client.Dialogue for its own request.
	Dialogue io.Writer
	// Proxy, when not nil, is the proxy the request goes through
	// (Client.Proxy): the Fetcher, a ProxyFetcher of the proxy's scheme,
	// connects to it and asks it for URL.
	Proxy  *locator.URL
	info   Info
	hop    int
	offset int64
	opts   *Options // the request's own values; never nil from a Client
	// fromServer is true when the URL was sent by a server at an
	// ordinary address (a redirection from it, or Options.From):
	// Policy.Special's SpecialGiven then keeps it off special networks.
	fromServer bool
	// connected and public say whether this request made a connection,
	// and one to an ordinary address (reached).
	connected, public bool

	capMu   sync.Mutex
	capture *Capture // Capture's, when the Client records
}

// Offset returns the octet the object is to begin at (Client.GetFrom),
// 0 for the whole object. A client whose Info says Resume begins Body
// there and sets Resource.Offset to it.
func (r *Request) Offset() int64 { return r.offset }

// Login returns the login Client.Login knows for the server of the URL
// followed (a .netrc machine), given the URL's user ("" for none), or ok
// false. The host it asks for is the URL's, decoded and in lower case
// (internal/dest.Name).
func (r *Request) Login(user string) (login, password string, ok bool) {
	if r.Client.Login == nil || r.URL == nil || r.URL.Host() == "" {
		return "", "", false
	}
	return r.Client.Login(dest.Name(r.URL.Host()), user)
}

// MaxLine returns the bound on one line of a protocol's replies.
func (r *Request) MaxLine() int { return r.Client.maxLine() }

// MaxEntries returns the bound on a listing's entries.
func (r *Request) MaxEntries() int { return r.Client.maxEntries() }

// MaxSize returns the bound on the object's octets, or 0 for none.
func (r *Request) MaxSize() int64 { return r.Client.MaxSize }

// IdleTimeout returns the bound on each read and write.
func (r *Request) IdleTimeout() time.Duration { return r.Client.idleTimeout() }

// Password asks the person for a password the URL does not give, with
// prompt (RFC 1738 §3.2.1), through the request's Options.Password, else
// Client.Password; without either it returns ErrNoPassword.
func (r *Request) Password(prompt string) (string, error) {
	if r.opts != nil && r.opts.Password != nil {
		return r.opts.Password(prompt)
	}
	if r.Client.Password == nil {
		return "", ErrNoPassword
	}
	return r.Client.Password(prompt)
}

// Method returns the retrieval method m names (a scheme client's Method
// field), or the scheme's first (default) method when m is empty. It
// returns a *PolicyError naming the methods offered when m is not one of
// them.
func (r *Request) Method(m string) (string, error) {
	if m == "" {
		if len(r.info.Methods) > 0 {
			return r.info.Methods[0], nil
		}
		return "", nil
	}
	for _, x := range r.info.Methods {
		if x == m {
			return m, nil
		}
	}
	return "", &PolicyError{URL: Masked(r.URL), Rule: "method", Reason: fmt.Sprintf("%s offers no method %q (methods: %s)", r.URL.Scheme(), m, strings.Join(r.info.Methods, ", "))}
}

// Dial connects to host:port with the connect timeout and returns a
// connection whose every Read and Write has the idle deadline. host is an
// IPv6 literal without brackets, or a name, or an address. Dial applies
// the policy to it (a redirection's host, an address a server names):
// the host is read as a resolver must see it (escapes decoded, an
// internationalised name as its A-labels: "%31%32%37.0.0.1" is
// 127.0.0.1), a name is looked up once (Client.Resolver), each address
// is checked (Policy: Allow, Deny, Special) and an allowed address is
// itself dialled, so that a name cannot lead to one address when
// checked and another when dialled. The connection is noted in the
// dialogue.
func (r *Request) Dial(ctx context.Context, host string, port int) (net.Conn, error) {
	if err := r.checkPort(host, port); err != nil {
		return nil, err
	}
	return r.dial(ctx, "tcp", host, port, false)
}

// DialSame connects to port on the peer of ctrl, a connection this
// Request's Dial opened, as Dial does (connect timeout, idle deadline,
// the port policy, a note in the dialogue), for a protocol whose second
// connection goes to the same host as its first: an FTP data connection
// in passive mode (RFC 959 §3.2, RFC 2428 §3).
//
// The Allow and Special rules are not applied again: they admitted the
// peer when ctrl was opened, under the name the URL gives, and an allow
// list of names (Rule "ftp.example.org") would refuse the peer's
// address, which is all a second connection can name. A Deny rule is
// (it may name the port). A ctrl that Dial of this Request did not
// open is refused with a *PolicyError (rule "host"), so that no address
// escapes the policy this way.
func (r *Request) DialSame(ctx context.Context, ctrl net.Conn, port int) (net.Conn, error) {
	if t, ok := ctrl.(*tapConn); ok {
		ctrl = t.Conn
	}
	ic, ok := ctrl.(*idleConn)
	if !ok || ic.req != r || ic.closed.Load() {
		return nil, &PolicyError{URL: Masked(r.URL), Rule: "host", Reason: "a second connection goes only to the peer of a connection this request opened and has open"}
	}
	host := ""
	if a, ok := ic.RemoteAddr().(*net.TCPAddr); ok {
		host = a.IP.String()
	} else if h, _, err := net.SplitHostPort(ic.RemoteAddr().String()); err == nil {
		host = h
	}
	if host == "" {
		return nil, &PolicyError{URL: Masked(r.URL), Rule: "host", Reason: "the connection's peer " + strconv.Quote(ic.RemoteAddr().String()) + " has no address to connect to"}
	}
	if err := r.checkPort(host, port); err != nil {
		return nil, err
	}
	return r.dial(ctx, "tcp", host, port, true)
}

// checkPort refuses a port of another service (RFC 1738 §6's caution)
// unless it is the scheme's default or Policy.AllowPorts lists it.
func (r *Request) checkPort(host string, port int) error {
	if port != r.info.DefaultPort && badPort(port) && !r.Client.Policy.allowsPort(port) {
		return &PolicyError{URL: Masked(r.URL), Rule: "RFC 1738 §6",
			Reason: "port " + strconv.Itoa(port) + " of " + host + " belongs to another service and is not " + r.URL.Scheme() + "'s default (" + strconv.Itoa(r.info.DefaultPort) + "); allow it explicitly to connect"}
	}
	return nil
}

// resolve returns the addresses of host that the policy lets this
// request connect to on port, in the resolver's order, and the host's
// name as the rules match it; same is true for a second connection to
// the peer of a first (only Deny applies). None allowed is a
// *PolicyError saying why the first was refused.
func (r *Request) resolve(ctx context.Context, host string, port int, same bool) (string, []netip.Addr, error) {
	res := r.Client.resolver()
	if pr, ok := res.(PortResolver); ok {
		res = atPort{pr, port}
	}
	name, addrs, err := dest.Addrs(ctx, res, host)
	if err != nil {
		if he := (*dest.HostError)(nil); errors.As(err, &he) {
			return "", nil, &PolicyError{URL: Masked(r.URL), Rule: "host", Reason: he.Reason}
		}
		return "", nil, err
	}
	pol := &r.Client.Policy
	proxy := r.Proxy != nil && dest.Name(host) == dest.Name(r.Proxy.Host())
	var ok []netip.Addr
	var first error
	for _, a := range addrs {
		var err error
		switch {
		case same:
			err = pol.denied(name, a, port)
		case proxy:
			// The proxy is the person's own setting, not a server's word.
			err = pol.denied(name, a, port)
		default:
			err = pol.checkAddr(name, a, port, r.fromServer)
		}
		if err != nil {
			if first == nil {
				first = &PolicyError{URL: Masked(r.URL), Rule: "host", Reason: "host " + strconv.Quote(host) + " is not allowed by local policy: " + err.Error()}
			}
			continue
		}
		ok = append(ok, a)
	}
	if len(ok) == 0 {
		return "", nil, first
	}
	return name, ok, nil
}

func (r *Request) dial(ctx context.Context, network, host string, port int, same bool) (net.Conn, error) {
	dctx, cancel := context.WithTimeout(ctx, r.Client.connectTimeout())
	defer cancel()
	_, addrs, err := r.resolve(dctx, host, port, same)
	if err != nil {
		return nil, err
	}
	var c net.Conn
	for _, a := range addrs {
		addr := dest.Addr(a, strconv.Itoa(port))
		if h := strings.Trim(host, "[]"); h != a.String() {
			r.Notef("connect %s (%s)", net.JoinHostPort(h, strconv.Itoa(port)), a)
		} else {
			r.Notef("connect %s", addr)
		}
		if r.Client.Dial != nil {
			c, err = r.Client.Dial(dctx, network, addr)
		} else {
			var d net.Dialer
			c, err = d.DialContext(dctx, network, addr)
		}
		if err == nil {
			r.reached(a)
			break
		}
		if dctx.Err() != nil {
			break
		}
	}
	if err != nil {
		return nil, err
	}
	ic := &idleConn{Conn: c, idle: r.Client.idleTimeout(), ctx: ctx, req: r}
	// The caller's context ending interrupts a read or write under way.
	ic.stop = context.AfterFunc(ctx, func() { c.SetDeadline(time.Now()) })
	return ic, nil
}

// reached notes that the request connected to a: whether the server it
// follows is on the open Internet decides what a redirection from it
// may reach (SpecialGiven).
func (r *Request) reached(a netip.Addr) {
	r.capMu.Lock()
	defer r.capMu.Unlock()
	if Special(a) == "" {
		r.public = true
	}
	r.connected = true
}

// idleConn sets a fresh deadline before every Read and Write, so that a
// server that stalls is cut off after the idle timeout, and gives up at
// once when the caller's context ends.
type idleConn struct {
	net.Conn
	idle time.Duration
	ctx  context.Context
	stop func() bool
	req  *Request // the Request whose Dial opened it (DialSame)
	// closed is set by Close: a closed connection admits no second one.
	closed atomic.Bool
}

func (c *idleConn) Close() error {
	c.closed.Store(true)
	c.stop()
	return c.Conn.Close()
}

func (c *idleConn) deadline() time.Time {
	if c.ctx.Err() != nil {
		return time.Now()
	}
	d := time.Now().Add(c.idle)
	if cd, ok := c.ctx.Deadline(); ok && cd.Before(d) {
		d = cd
	}
	return d
}

func (c *idleConn) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	c.Conn.SetReadDeadline(c.deadline())
	return c.Conn.Read(p)
}

func (c *idleConn) Write(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	c.Conn.SetWriteDeadline(c.deadline())
	return c.Conn.Write(p)
}

// Sent logs a command line the client sent ("> CWD /etc").
func (r *Request) Sent(line string) { r.logLine("> ", line) }

// SentSecret logs a command whose argument is a secret, masked
// ("> PASS ****").
func (r *Request) SentSecret(verb string) { r.logLine("> ", verb+" ****") }

// Received logs a reply line ("< 250 OK").
func (r *Request) Received(line string) { r.logLine("< ", line) }

// Notef logs a note of the client's own ("* connect 127.0.0.1:21").
func (r *Request) Notef(format string, args ...any) {
	r.logLine("* ", fmt.Sprintf(format, args...))
}

func (r *Request) logLine(prefix, line string) {
	w := r.Dialogue
	if w == nil {
		w = r.Client.Dialogue
	}
	r.capMu.Lock()
	c := r.capture
	r.capMu.Unlock()
	if c != nil && c.rec.Kind == RecordResource { // set once, when c is made
		c.logLine(prefix + printable.String(line) + "\n")
	}
	if w == nil {
		return
	}
	// Secrets are masked where they are written, field by field (PASS's
	// argument by SentSecret, a URL's password by Masked), never by
	// looking for the password's text in a line: that would garble a
	// line that happens to contain it and show where its letters are.
	r.Client.logMu.Lock()
	defer r.Client.logMu.Unlock()
	io.WriteString(w, prefix+printable.String(line)+"\n")
}

// Limit returns body bounded by Client.MaxSize: a read past the limit
// fails with ErrTooLarge (the octets up to the limit are delivered
// first). With no limit it returns body.
func (r *Request) Limit(body io.ReadCloser) io.ReadCloser {
	if r.Client.MaxSize <= 0 {
		return body
	}
	return &limited{rc: body, left: r.Client.MaxSize}
}

type limited struct {
	rc   io.ReadCloser
	left int64
}

func (l *limited) Read(p []byte) (int, error) {
	if l.left <= 0 {
		// One more octet would exceed the limit: see whether there is one.
		var one [1]byte
		n, err := l.rc.Read(one[:])
		if n > 0 {
			return 0, ErrTooLarge
		}
		return 0, err
	}
	if int64(len(p)) > l.left {
		p = p[:l.left]
	}
	n, err := l.rc.Read(p)
	l.left -= int64(n)
	return n, err
}

// WriteTo copies the body to w through a buffer of copyBuffer octets
// (io.Copy calls it, so that a limit does not shrink the copy to
// io.Copy's 32 KiB), each read bounded as Read bounds it: the octets up
// to the limit are written, then ErrTooLarge when one more arrives.
func (l *limited) WriteTo(w io.Writer) (int64, error) {
	buf := make([]byte, copyBuffer)
	var total int64
	for {
		n, err := l.Read(buf)
		if n > 0 {
			m, werr := w.Write(buf[:n])
			total += int64(m)
			if werr != nil {
				return total, werr
			}
			if m < n {
				return total, io.ErrShortWrite
			}
		}
		if err == io.EOF {
			return total, nil
		}
		if err != nil {
			return total, err
		}
	}
}

// copyBuffer is the buffer limited.WriteTo copies through, as large as
// the clients' own (ftp's Body copies through 256 KiB).
const copyBuffer = 256 << 10

func (l *limited) Close() error { return l.rc.Close() }

// ReadLine reads one line ending in LF (a CR before it is removed) of at
// most max octets, not counting the line end, from br. A longer line fails
// with a *ProtocolError as soon as its max+2nd octet is seen (at most
// max+2 octets are read past the previous line), so that a server cannot
// flood a reply; a stream that ends before the LF returns what it read
// with io.ErrUnexpectedEOF (io.EOF when it read nothing).
func ReadLine(br *bufio.Reader, max int) (string, error) {
	if max < 0 {
		max = 0
	}
	tooLong := func() error {
		return &ProtocolError{Msg: "a reply line longer than " + strconv.Itoa(max) + " octets"}
	}
	var long []byte
	for {
		chunk, err := br.ReadSlice('\n')
		switch err {
		case nil:
			line := string(append(long, chunk...))
			line = strings.TrimSuffix(line, "\n")
			line = strings.TrimSuffix(line, "\r")
			if len(line) > max {
				return "", tooLong()
			}
			return line, nil
		case bufio.ErrBufferFull:
			// Without its LF the line may still end in the CR of a
			// CRLF: max octets and a CR are all a good line can hold.
			if len(long)+len(chunk) > max+1 {
				return "", tooLong()
			}
			long = append(long, chunk...)
			continue
		case io.EOF:
			line := string(append(long, chunk...))
			if line == "" {
				return "", io.EOF
			}
			if len(line) > max {
				return "", tooLong()
			}
			return line, io.ErrUnexpectedEOF
		default:
			return "", err
		}
	}
}
