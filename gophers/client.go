package gophers

import (
	"bufio"
	"context"
	"crypto/tls"
	"errors"
	"io"
	"net"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/gopher"
	"github.com/rfc1738/locator/internal/printable"
)

func init() {
	access.Register(scheme, access.Info{DefaultPort: defaultPort}, func() access.Fetcher { return new(Client) })
}

// Client follows gophers URLs for package access: it is a gopher.Client
// (the same request, the same reading of the reply, the same limits)
// whose every connection is TLS begun at the first octet over
// access.Request.Dial's connection, as curl's gophers makes it.
//
// A server that answers the TLS handshake in plain Gopher is a
// *NotTLSError: the URL says TLS, and the request is never sent in the
// clear instead (no silent downgrade). A reply read to the server's
// close that ends without TLS's close_notify is an *access.ProtocolError
// (it may have been cut short). The items of a menu read over
// TLS that name the menu's own host and port are gophers URLs; others
// stay gopher URLs (see the package documentation).
//
// Its zero value is ready (the system's roots, the URL's host as the
// server name); it is safe for concurrent use, and its fields must not
// be changed once it is in use.
type Client struct {
	// TLSConfig configures TLS; nil means the system's roots. Its
	// ServerName, when empty, is the URL's host (RFC 6066 §3: sent as
	// SNI unless it is an address; the certificate is verified for it
	// either way). A MinVersion of 0 is TLS 1.2.
	TLSConfig *tls.Config

	once sync.Once
	g    *gopher.Client
}

var (
	_ access.Describer = (*Client)(nil)
	_ access.Prober    = (*Client)(nil)
)

// gopher returns the gopher.Client that carries out c's requests, made
// once.
func (c *Client) gopher() *gopher.Client {
	c.once.Do(func() {
		c.g = &gopher.Client{Connect: c.connect}
	})
	return c.g
}

// A NotTLSError says that the server a gophers URL names answered the
// TLS handshake with octets that are not TLS: a plain Gopher server (a
// menu line, an error item) on the port the URL says speaks TLS. The
// request was not sent, and is not sent again without TLS: a client that
// fell back would send the selector, and show the reply, in the clear
// under a URL that promises otherwise. errors.As sees it as the
// *access.ProtocolError it amounts to.
type NotTLSError struct {
	URL   string // the URL followed, password masked
	Addr  string // host:port connected to
	Reply string // what the server sent first, up to its first line end, at most maxReply octets
}

// maxReply bounds NotTLSError.Reply.
const maxReply = 256

func (e *NotTLSError) Error() string {
	return e.protocolError().Error()
}

func (e *NotTLSError) protocolError() *access.ProtocolError {
	return &access.ProtocolError{URL: e.URL, Msg: "the server at " + e.Addr + " answered the TLS handshake in plain text, " +
		strconv.Quote(e.Reply) + ": it speaks Gopher without TLS on that port, and a gophers URL is not followed in the clear (a gopher URL names the item without TLS)"}
}

// As lets errors.As see a NotTLSError as an *access.ProtocolError.
func (e *NotTLSError) As(target any) bool {
	if p, ok := target.(**access.ProtocolError); ok {
		*p = e.protocolError()
		return true
	}
	return false
}

// A TLSError says that TLS with the server failed: its certificate was
// not valid for the host or not signed by a trusted root, or the
// handshake broke off. Err is crypto/tls's error.
type TLSError struct {
	URL  string // the URL followed, password masked
	Addr string // host:port connected to
	Err  error
}

// Error returns "URL: TLS with ADDR: ERR", made printable (package
// printable): crypto/tls's message may quote a certificate's names,
// which the server chose.
func (e *TLSError) Error() string {
	return printable.String(e.URL + ": TLS with " + e.Addr + ": " + e.Err.Error())
}

func (e *TLSError) Unwrap() error { return e.Err }

// connect is the gopher.Client's Connect: req.Dial's connection, then
// TLS on it.
func (c *Client) connect(ctx context.Context, req *access.Request, host string, port int) (net.Conn, error) {
	conn, err := req.Dial(ctx, host, port)
	if err != nil {
		return nil, err
	}
	cfg := c.TLSConfig.Clone()
	if cfg == nil {
		cfg = &tls.Config{}
	}
	if cfg.ServerName == "" {
		cfg.ServerName = host
	}
	if cfg.MinVersion == 0 {
		cfg.MinVersion = tls.VersionTLS12
	}
	rec := &recorder{Conn: conn}
	tc := tls.Client(rec, cfg)
	if err := tc.HandshakeContext(ctx); err != nil {
		conn.Close()
		return nil, handshakeError(err, rec, access.Masked(req.URL), net.JoinHostPort(host, strconv.Itoa(port)))
	}
	rec.first, rec.done = nil, true // what follows is TLS's
	st := tc.ConnectionState()
	peer := ""
	if len(st.PeerCertificates) > 0 {
		peer = ", certificate of " + strconv.Quote(st.PeerCertificates[0].Subject.String())
	}
	req.Notef("TLS %s, %s%s", tls.VersionName(st.Version), tls.CipherSuiteName(st.CipherSuite), peer)
	// The record of the exchange is Gopher's octets as they cross the
	// connection returned here, above TLS, under the protocol
	// "gophers": the gopher client taps that connection and records
	// under the protocol the capture was first asked for with.
	req.Capture(access.RecordExchange, scheme)
	return &closeNotify{Conn: tc, rec: rec, url: access.Masked(req.URL)}, nil
}

// A closeNotify is the TLS connection of an exchange, whose end must be
// TLS's close_notify alert: a Gopher reply other than a menu ends where
// the server closes the connection (RFC 1436 §2), and over TLS a close
// without the alert may be a third party's cutting the reply short (RFC
// 8446 §6.1: the alert is "to avoid a truncation attack"). crypto/tls
// accepts the end of the stream at a record boundary as io.EOF; this
// turns it into an *access.ProtocolError, as curl with OpenSSL reports
// "unexpected eof while reading". Both TLS terminators of the tests,
// stunnel4 and socat, send the alert.
type closeNotify struct {
	*tls.Conn
	rec *recorder
	url string
}

func (c *closeNotify) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if err == io.EOF && c.rec.eof {
		err = &access.ProtocolError{URL: c.url, Msg: "the server closed the connection without TLS's close_notify (RFC 8446 §6.1): the reply may have been cut short"}
	}
	return n, err
}

// A recorder keeps the first maxReply octets read from its connection
// during the handshake (crypto/tls reads ahead of the record header it
// rejects, and a server that is not TLS is shown by what it sent), and
// whether the stream ended under TLS: after a close_notify crypto/tls
// reads no more.
type recorder struct {
	net.Conn
	first []byte
	done  bool // maxReply octets kept, or the handshake is over
	eof   bool // the stream ended (without close_notify, which TLS reads first)
}

func (r *recorder) Read(p []byte) (int, error) {
	n, err := r.Conn.Read(p)
	if err == io.EOF {
		r.eof = true
	}
	if !r.done {
		k := min(n, maxReply-len(r.first))
		r.first = append(r.first, p[:k]...)
		r.done = len(r.first) == maxReply
	}
	return n, err
}

// handshakeError types the error of a failed handshake: an answer that
// does not begin as TLS is a *NotTLSError, anything else a *TLSError
// (which unwraps to a deadline or a reset connection, for
// access.Transient).
func handshakeError(err error, rec *recorder, masked, addr string) error {
	var rh tls.RecordHeaderError
	if errors.As(err, &rh) {
		rec.done = true
		// The rest of the first line, for the message: the connection
		// is given up either way, so a short wait.
		rec.Conn.SetReadDeadline(time.Now().Add(time.Second))
		return &NotTLSError{URL: masked, Addr: addr, Reply: plainReply(rec.first, rec.Conn)}
	}
	return &TLSError{URL: masked, Addr: addr, Err: err}
}

// plainReply returns what a server that does not speak TLS sent first:
// head (the octets crypto/tls read before it gave up) and what r holds
// after them, up to the first LF (kept) and at most maxReply octets in
// all. It reads at most maxReply-len(head) octets from r, none when head
// holds an LF.
func plainReply(head []byte, r io.Reader) string {
	b := make([]byte, 0, maxReply)
	b = append(b, head[:min(len(head), maxReply)]...)
	if i := strings.IndexByte(string(b), '\n'); i >= 0 {
		return string(b[:i+1])
	}
	br := bufio.NewReaderSize(io.LimitReader(r, int64(maxReply-len(b))), 64)
	for len(b) < maxReply {
		c, err := br.ReadByte()
		if err != nil {
			break
		}
		b = append(b, c)
		if c == '\n' {
			break
		}
	}
	return string(b)
}

// A relabel holds the gopher URL u stands for, and how to carry what the gopher client
// says of it back to u.
type relabel struct {
	gu       *locator.URL
	from, to string // access.Masked of the gopher URL and of u
	delta    int    // offset in u's input of an offset in gu's
	host     string // u's host, in lower case
	port     int    // u's port, or 70
}

func newRelabel(u *locator.URL) (*relabel, error) {
	if u.Scheme() != scheme {
		return nil, &access.PolicyError{URL: access.Masked(u), Rule: "gophersurl", Reason: "scheme is " + strconv.Quote(u.Scheme()) + ", not gophers"}
	}
	gu, delta, err := asGopher(u)
	if err != nil {
		return nil, &access.PolicyError{URL: access.Masked(u), Rule: "gophersurl", Reason: err.Error()}
	}
	return &relabel{gu: gu, from: access.Masked(gu), to: access.Masked(u), delta: delta,
		host: strings.ToLower(u.Host()), port: u.EffectivePort()}, nil
}

// err puts u back where the gopher client's error names the gopher URL.
func (r *relabel) err(err error) error {
	if err == nil {
		return nil
	}
	var pe *access.PolicyError
	var se *access.ServerError
	var pr *access.ProtocolError
	var oe *access.OffsetError
	var rd *access.Redirect
	switch {
	case errors.As(err, &pe):
		if pe.URL == r.from {
			pe.URL = r.to
			if pe.Offset > 0 {
				pe.Offset += r.delta
			}
		}
	case errors.As(err, &se):
		if se.URL == r.from {
			se.URL = r.to
		}
	case errors.As(err, &rd):
		if rd.Code != "URL:" {
			// A Gopher+ "item has moved" names a menu line's place,
			// which has no TLS flag; a "URL:" link's scheme is its
			// author's.
			rd.Location = SameServer(rd.Location, r.host, r.port)
		}
	case errors.As(err, &oe):
		if oe.URL == r.from {
			oe.URL = r.to
		}
	}
	var nt *NotTLSError
	if !errors.As(err, &nt) && errors.As(err, &pr) && pr.URL == r.from {
		pr.URL = r.to
	}
	return err
}

// SameServer returns s, the URL of an item of a menu read from host (in
// lower case) at port over gophers, as the URL to follow (an "h" item's
// "URL:" link is not one: its scheme is as its author wrote it): a gopher URL of the same
// host and port is written as a gophers URL (the server that sent the
// menu over TLS serves the item over TLS); any other URL is s itself
// (another server, whose menu line cannot say whether it speaks TLS).
func SameServer(s, host string, port int) string {
	if !strings.HasPrefix(s, "gopher://") {
		return s
	}
	u, err := locator.Parse(s)
	if err != nil || u.Scheme() != "gopher" || !u.HasAuthority() {
		return s
	}
	if strings.ToLower(u.Host()) != host || u.EffectivePort() != port {
		return s
	}
	return withScheme(s)
}

// listing returns l with each entry's URL as SameServer writes it and
// its errors naming u.
func (r *relabel) listing(l *access.Listing, max int) *access.Listing {
	return access.NewListing(max, func() (access.Entry, error) {
		e, err := l.Next()
		if err != nil {
			return e, r.err(err)
		}
		if e.Type != access.TypeLink { // a "URL:" link's scheme is its author's
			e.URL = SameServer(e.URL, r.host, r.port)
		}
		return e, nil
	}, l.Close)
}

// resource carries res back to u.
func (r *relabel) resource(res *access.Resource, req *access.Request) *access.Resource {
	if res.Listing != nil {
		res.Listing = r.listing(res.Listing, req.MaxEntries())
	}
	if res.URL != nil && res.URL.Scheme() == "gopher" {
		// A filled-out ASK form's URL (gopher.Client.Fetch).
		if fu, err := locator.Parse(SameServer(res.URL.String(), r.host, r.port)); err == nil {
			res.URL = fu
		}
	}
	return res
}

// Check refuses, before any connection, what gopher.Client.Check refuses
// (RFC 1738 §3.4.1, §6: a decoded CR, LF, NUL or TAB where it would
// change the request, no host, a search with no words, a CSO item), and
// a URL that is not a gophers URL. The offsets are u's.
func (c *Client) Check(u *locator.URL, req *access.Request) error {
	r, err := newRelabel(u)
	if err != nil {
		return err
	}
	return r.err(c.gopher().Check(r.gu, req))
}

// Fetch retrieves the object u names as gopher.Client.Fetch does, over
// TLS: a menu's entries are gophers URLs where they name u's own host
// and port (SameServer), a Gopher+ "item has moved" to the same server
// too; a server that answers in plain text is a *NotTLSError, a failed
// handshake or certificate a *TLSError.
func (c *Client) Fetch(ctx context.Context, u *locator.URL, req *access.Request) (*access.Resource, error) {
	r, err := newRelabel(u)
	if err != nil {
		return nil, err
	}
	res, err := c.gopher().Fetch(ctx, r.gu, req)
	if err != nil {
		return nil, r.err(err)
	}
	return r.resource(res, req), nil
}

var _ access.Replayer = (*Client)(nil)

// Replay reads response, the recorded reply to u's request (its octets
// above TLS), as Fetch reads a live one: gopher.Client.Replay's reading,
// the menu's entries and a Gopher+ "item has moved" carried back to u
// as Fetch carries them (SameServer).
func (c *Client) Replay(ctx context.Context, u *locator.URL, req *access.Request, response io.Reader) (*access.Resource, error) {
	r, err := newRelabel(u)
	if err != nil {
		return nil, err
	}
	res, err := c.gopher().Replay(ctx, r.gu, req, response)
	if err != nil {
		return nil, r.err(err)
	}
	return r.resource(res, req), nil
}

// Probe says whether the item u names is there, as gopher.Client.Probe
// does, over TLS.
func (c *Client) Probe(ctx context.Context, u *locator.URL, req *access.Request) (*access.Status, error) {
	r, err := newRelabel(u)
	if err != nil {
		return nil, err
	}
	st, err := c.gopher().Probe(ctx, r.gu, req)
	if err != nil {
		return nil, r.err(err)
	}
	st.Err = r.err(st.Err)
	return st, nil
}

// Views returns the Gopher+ views of the item u names (its +VIEWS), as
// gopher.Client.Views does, over TLS.
func (c *Client) Views(ctx context.Context, u *locator.URL, req *access.Request) ([]access.View, error) {
	r, err := newRelabel(u)
	if err != nil {
		return nil, err
	}
	v, err := c.gopher().Views(ctx, r.gu, req)
	return v, r.err(err)
}
