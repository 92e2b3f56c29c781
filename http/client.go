package http

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	nethttp "net/http"
	"net/http/httptrace"
	"net/textproto"
	"net/url"
	"path"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
)

func init() {
	access.Register("http", access.Info{DefaultPort: 80, Resume: true}, func() access.Fetcher { return new(Client) })
	access.Register("https", access.Info{DefaultPort: 443, Resume: true}, func() access.Fetcher { return new(Client) })
}

var (
	_ access.ProxyFetcher = (*Client)(nil)
	_ access.AgentNamer   = (*Client)(nil)
)

// WithAgent returns a new Client configured as c whose requests send
// agent as their User-Agent (RFC 9110 §10.1.5), unless c's Header names
// one: a crawler's, in place of UserAgent. The new Client keeps its own
// connections.
func (c *Client) WithAgent(agent string) access.Fetcher {
	h := c.Header.Clone()
	if h.Get("User-Agent") == "" {
		if h == nil {
			h = nethttp.Header{}
		}
		h.Set("User-Agent", agent)
	}
	return &Client{TLSConfig: c.TLSConfig, Header: h, User: c.User, Password: c.Password, AuthOrigin: c.AuthOrigin,
		Data: c.Data, Compressed: c.Compressed, ErrorBody: c.ErrorBody, Method: c.Method, OnReply: c.OnReply}
}

// CarriesAnyScheme marks Client as an access.ProxyFetcher: when the
// access.Client names an http proxy for a URL (access.Request.Proxy),
// Check, Fetch and Probe take a URL of any scheme and ask the proxy for
// it, the whole URL on the request line (RFC 1945 §5.1.2; the CERN
// library's gopher_proxy, ftp_proxy, wais_proxy, news_proxy), an https
// URL through a tunnel (RFC 9110 §9.3.6).
func (*Client) CarriesAnyScheme() {}

// UserAgent is the User-Agent header the client sends.
const UserAgent = "locator (RFC 1738)"

// Client follows http and https URLs for package access, and URLs of
// every scheme through an HTTP proxy (access.Client.Proxy): it sends the
// request NewRequest plans (NewProxyRequest's through a proxy), through
// net/http, over connections made by access.Request.Dial (so that local
// policy, the connect and idle deadlines and the dialogue log apply),
// and hands every redirection back to the access.Client as an
// *access.Redirect, so that each hop is checked by policy and shown in
// the dialogue. It implements access.Fetcher and access.Prober and is
// registered for the schemes "http" and "https"; a configured Client is
// given for both (access.Client.Schemes "http" and "https").
//
// A Client keeps the connection of a request whose reply was read whole
// for the next request of the same access.Client to the same server
// (keep-alive, RFC 9112 §9.3), at most 8 idle per server and 64 in all
// for each access.Client and route (direct, or through one proxy); an
// idle connection is closed after the access.Client's IdleTimeout, or
// by CloseIdle (access.Client.CloseIdle). Its zero value connects to
// the server itself, with crypto/tls's defaults for https. It is safe
// for concurrent use, and its fields must not be changed once it is in
// use; it must not be copied after its first use.
type Client struct {
	// TLSConfig is the TLS configuration of https connections (RFC
	// 2818): the roots trusted, the versions; nil means crypto/tls's
	// defaults, the system's roots. The server name is the URL's host
	// unless it sets one.
	TLSConfig *tls.Config
	// Header holds header fields sent with every request after the
	// client's own, replacing a field of the same name (a User-Agent
	// here replaces UserAgent; a Host replaces the URL's host and port
	// in Host, as curl's -H does). Check refuses a name that is not an
	// HTTP token and a value holding CR, LF or NUL (RFC 9110 §5.1,
	// §5.5): it would end the field and begin another, as §6 of RFC
	// 1738 keeps CR and LF from becoming delimiters.
	Header nethttp.Header
	// User and Password, when User is not "", are sent with every
	// request as Basic authorization (RFC 7617 §2), the password masked
	// in the dialogue. They are the client's, never the URL's: RFC 1738
	// §3.3 allows no user name or password in an http URL.
	//
	// When User is "", the access.Client's Login (a .netrc) is asked
	// for the URL's host (access.Request.Login, with the URL's user, if
	// it names one without a password): the login it knows is sent as
	// Basic authorization to that host only, never through a
	// redirection to another, as curl's --netrc does.
	User, Password string
	// AuthOrigin, when not nil, keeps the credentials the Client sends
	// to URLs of its scheme, host and port (the scheme's default when
	// it names none): User and Password, and Header's Authorization and
	// Cookie fields, and its Proxy-Authorization when the request goes
	// to the server itself rather than to a proxy. A redirection to
	// another server, or to the same host by another scheme or port, is
	// sent none of them, as curl sends none without --location-trusted
	// (CVE-2018-1000007, CVE-2022-27776). Nil sends them with every
	// request.
	AuthOrigin *locator.URL
	// Data, when not nil, makes Fetch's request a POST with Data as its
	// body (RFC 9110 §9.3.3), of Content-Type
	// application/x-www-form-urlencoded unless Header names one, as
	// curl's -d. A 307 or 308 reply is followed with the same POST (RFC
	// 9110 §15.4.8, §15.4.9: the method is kept); a 301, 302 or 303
	// would turn it into a GET of another resource (§15.4.2-4), which
	// is not done: the reply is an *access.ServerError naming the
	// Location. Probe sends HEAD, without Data.
	Data []byte
	// Compressed asks for a gzip body (Accept-Encoding: gzip, RFC 9110
	// §12.5.3) and decodes one while it is read. MaxSize then bounds
	// the decoded octets: a small body that decodes to many is cut
	// when it passes the limit, never held whole. It is not asked when
	// the object is resumed (access.Request.Offset): a Range counts the
	// coded octets.
	Compressed bool
	// ErrorBody keeps the page a server sends with a 4xx or 5xx reply
	// in the *access.ServerError's Body, at most access.MaxErrorBody
	// octets (and no more than the access.Client's MaxSize), read under
	// the idle deadline, as curl's --fail-with-body; false drops it: a
	// page whose Content-Length is at most 2 KiB is read to its end so
	// that the connection can be kept, a larger one closes the
	// connection unread.
	ErrorBody bool
	// Method, when not "", is the method of Fetch's request in place of
	// GET (or POST with Data), as curl's -X: nothing else of the request
	// changes, and every redirection followed is sent it too. Check
	// refuses a Method that is not an HTTP token (RFC 9110 §9.1). Probe
	// sends HEAD whatever Method says.
	Method string
	// OnReply, when not nil, is called with the head of every final
	// reply Fetch, Probe and Replay read, a redirection's and a
	// refusal's included, before the reply is acted on, in the order
	// they came (interim 1xx replies are not): what curl's -i and -I
	// write, and the last one's status is its %{http_code}. It is
	// called on the goroutine of the Fetch, Probe or Replay.
	OnReply func(Reply)

	mu     sync.Mutex
	routes map[route]*nethttp.Transport // the connections kept (transport.go)
}

// Check refuses, before any connection, an http URL that names no host
// (RFC 1738 §3.1, §3.3), and a proxy (access.Request.Proxy) that is not
// an http URL with a host and a port from 1 to 65535; through a proxy a
// URL of any scheme is taken (NewProxyRequest), an http or https one
// still with a host. Nothing in the URL becomes a protocol delimiter:
// the path and search are sent still encoded (unsafe octets encoded,
// %0D%0A kept as written), never decoded, so §6's CR and LF cannot reach
// the request line.
func (c *Client) Check(u *locator.URL, req *access.Request) error {
	mk := NewRequest
	if req != nil && req.Proxy != nil {
		if _, err := proxyAddr(req.Proxy); err != nil {
			return &access.PolicyError{URL: access.Masked(u), Rule: "proxy", Reason: err.Error()}
		}
		mk = NewProxyRequest
	}
	if _, err := mk(u); err != nil {
		var re *RequestError
		if errors.As(err, &re) {
			return &access.PolicyError{URL: access.Masked(u), Offset: re.Problem.Offset, Rule: re.Problem.Rule, Reason: re.Problem.Message}
		}
		return err
	}
	for name, values := range c.Header {
		if msg := badField(name, values); msg != "" {
			return &access.PolicyError{URL: access.Masked(u), Rule: "header", Reason: msg}
		}
	}
	if c.Method != "" && !isToken(c.Method) {
		return &access.PolicyError{URL: access.Masked(u), Rule: "method", Reason: "the request method " + strconv.Quote(c.Method) + " is not an HTTP token (RFC 9110 §9.1)"}
	}
	return nil
}

// proxyAddr returns the host:port to connect to for the proxy p: an
// http URL with a host, its port or 80. An https proxy (TLS to the
// proxy itself) is not spoken.
func proxyAddr(p *locator.URL) (string, error) {
	if p.Scheme() != "http" {
		return "", fmt.Errorf("the proxy %s is not an http URL (a proxy is spoken to in plain HTTP)", access.Masked(p))
	}
	if !p.HasAuthority() || p.Host() == "" {
		return "", fmt.Errorf("the proxy %s names no host", access.Masked(p))
	}
	a := addr(p)
	if _, _, err := splitAddr(a); err != nil {
		return "", fmt.Errorf("the proxy %s is not host:port: %v", access.Masked(p), err)
	}
	return a, nil
}

// badField says what is wrong with a header field of Header: a name
// that is not a token (RFC 9110 §5.1), a value with CR, LF or NUL
// (§5.5); "" when nothing is.
func badField(name string, values []string) string {
	if !isToken(name) {
		return "the header name " + strconv.Quote(name) + " is not an HTTP token (RFC 9110 §5.1)"
	}
	for _, v := range values {
		if strings.ContainsAny(v, "\r\n\x00") {
			return "the value of header " + name + " holds CR, LF or NUL (RFC 9110 §5.5)"
		}
	}
	return ""
}

// isToken reports whether s is an HTTP token, as a header field's name
// must be (RFC 9110 §5.6.2: one or more tchar).
func isToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		case strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0:
		default:
			return false
		}
	}
	return true
}

// plan returns the request to send for u, directly or to req.Proxy
// (whose address is proxy): its Target is the request line's (the
// absolute URL, of any scheme, through the proxy); for an https URL
// through the proxy it is the request inside the tunnel, and tunnel the
// CONNECT that opens it.
func (c *Client) plan(u *locator.URL, req *access.Request) (plan, tunnel *Request, proxy string, err error) {
	if req.Proxy == nil {
		plan, err = NewRequest(u)
		return plan, nil, "", err
	}
	if proxy, err = proxyAddr(req.Proxy); err != nil {
		return nil, nil, "", &access.PolicyError{URL: access.Masked(u), Rule: "proxy", Reason: err.Error()}
	}
	p, err := NewProxyRequest(u)
	if err != nil {
		return nil, nil, "", err
	}
	if p.Method == "CONNECT" {
		return p.Tunnel, p, proxy, nil
	}
	p.Addr = proxy // the connection goes to the proxy
	return p, nil, proxy, nil
}

// shownTarget is plan's request target as the dialogue and errors show
// it: a password of the URL's (an ftp URL's, which goes to the proxy)
// masked.
func shownTarget(u *locator.URL, plan *Request) string {
	if !u.HasPassword() || strings.HasPrefix(plan.Target, "/") {
		return plan.Target
	}
	if m, err := locator.Parse(access.Masked(u)); err == nil {
		if p, err := NewProxyRequest(m); err == nil {
			return p.Target
		}
	}
	return u.Scheme() + ":****"
}

// A ProxyError is the failure to reach the proxy a request goes through
// (access.Request.Proxy): a refused connection, a timeout, a policy
// that does not allow its address. It names the proxy, which the
// failure is about, rather than the URL's server, which was never
// contacted; errors.As and errors.Is see the error it wraps.
type ProxyError struct {
	Proxy string // the proxy's host:port
	Err   error
}

func (e *ProxyError) Error() string { return "the proxy " + e.Proxy + ": " + e.Err.Error() }

func (e *ProxyError) Unwrap() error { return e.Err }

// splitAddr splits "host:port" ("[::1]:80") into the host without
// brackets and the port's number.
func splitAddr(addr string) (string, int, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", 0, err
	}
	p, err := strconv.Atoi(port)
	if err != nil || p < 1 || p > 65535 || host == "" {
		return "", 0, fmt.Errorf("no host, or port %q is not a number from 1 to 65535", port)
	}
	return host, p, nil
}

// maxConnectHeaders bounds the header lines of a proxy's reply to
// CONNECT (each line bounded by MaxLine).
const maxConnectHeaders = 100

// connect opens the tunnel tunnel asks the proxy for (RFC 9110 §9.3.6:
// "CONNECT host:port HTTP/1.1" and the same authority in Host) and
// returns the connection, through which the Transport sets up TLS with
// the server. A 2xx reply opens the tunnel; any other is the proxy's
// refusal, an *access.ServerError with its status.
func (c *Client) connect(ctx context.Context, u *locator.URL, req *access.Request, tunnel *Request, proxy string) (net.Conn, error) {
	host, port, err := splitAddr(proxy)
	if err != nil {
		return nil, err
	}
	req.Notef("proxy %s: a tunnel to %s (RFC 9110 §9.3.6)", proxy, tunnel.Target)
	conn, err := keep(ctx, req, host, port)
	if err != nil {
		return nil, &ProxyError{Proxy: proxy, Err: err}
	}
	lines := []string{tunnel.Line(), "Host: " + tunnel.Host, "User-Agent: " + UserAgent}
	var b strings.Builder
	for _, l := range lines {
		req.Sent(l)
		b.WriteString(l + "\r\n")
	}
	b.WriteString("\r\n")
	if _, err := io.WriteString(conn, b.String()); err != nil {
		conn.Close()
		return nil, err
	}
	// The reply is read octet by octet: after its empty line the
	// connection belongs to TLS, and nothing of it may be read ahead.
	br := bufio.NewReaderSize(oneOctet{conn}, 16)
	status, err := access.ReadLine(br, req.MaxLine())
	if err != nil {
		conn.Close()
		return nil, connectError(u, proxy, err)
	}
	req.Received(status)
	for n := 0; ; n++ {
		l, err := access.ReadLine(br, req.MaxLine())
		if err != nil {
			conn.Close()
			return nil, connectError(u, proxy, err)
		}
		if l == "" {
			break
		}
		req.Received(l)
		if n == maxConnectHeaders {
			conn.Close()
			return nil, &access.ProtocolError{URL: access.Masked(u), Msg: "the proxy " + proxy + "'s reply to CONNECT has more than " + strconv.Itoa(maxConnectHeaders) + " header lines"}
		}
	}
	proto, rest, _ := strings.Cut(status, " ")
	code, text, _ := strings.Cut(rest, " ")
	if !strings.HasPrefix(proto, "HTTP/") || len(code) != 3 || code[0] < '1' || code[0] > '5' || strings.Trim(code, "0123456789") != "" {
		conn.Close()
		return nil, &access.ProtocolError{URL: access.Masked(u), Msg: "the proxy " + proxy + "'s reply to CONNECT is not an HTTP status line: " + strconv.Quote(status)}
	}
	if code[0] != '2' {
		conn.Close()
		return nil, &access.ServerError{URL: access.Masked(u), Command: tunnel.Method + " " + tunnel.Target, Code: code, Text: text,
			Rule: "the proxy " + proxy + " does not open the tunnel (RFC 9110 §9.3.6)"}
	}
	return conn, nil
}

// connectError says what broke the proxy's reply to CONNECT: a line
// too long, or the end of the connection before the reply's end, each a
// *access.ProtocolError naming the URL; a network error is returned as
// it is.
func connectError(u *locator.URL, proxy string, err error) error {
	var pe *access.ProtocolError
	switch {
	case errors.As(err, &pe):
		return &access.ProtocolError{URL: access.Masked(u), Msg: "the proxy " + proxy + "'s reply to CONNECT: " + pe.Msg}
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return &access.ProtocolError{URL: access.Masked(u), Msg: "the proxy " + proxy + " closed the connection before the end of its reply to CONNECT"}
	}
	return err
}

// oneOctet reads at most one octet at a time.
type oneOctet struct{ r io.Reader }

func (o oneOctet) Read(p []byte) (int, error) {
	if len(p) > 1 {
		p = p[:1]
	}
	return o.r.Read(p)
}

// Fetch sends GET (POST with Data) with the request target NewRequest
// plans, exactly as written (never re-encoded), the fragment left out,
// and no user or password of the URL's (§3.3 allows none; the Client's
// User is sent, or the login access.Request.Login knows for the host).
// Through a proxy (access.Request.Proxy) the target is the whole URL,
// of any scheme (NewProxyRequest), an https URL's request going through
// a tunnel. A 2xx reply is the object: its octets as sent (no content
// coding is asked for unless Compressed, which decodes a gzip body),
// its Content-Type (or the type the name's extension suggests),
// Content-Length and Last-Modified. A 3xx reply with a Location is an
// *access.Redirect. Every 4xx and 5xx reply is an *access.ServerError:
// the server (or the proxy) answered, and says it will not deliver the
// object (a 5xx is its own trouble, not ours or the network's). A reply
// that is not HTTP is an *access.ProtocolError naming who sent it.
//
// To resume (access.Request.Offset N > 0) it asks for "Range: bytes=N-"
// (RFC 9110 §14.2): a 206 reply's Content-Range says where Body begins
// (Resource.Offset) and the whole object's length (Resource.Size); a 200
// sends the whole object, Resource.Offset 0, which access.GetFrom
// refuses; a 416 whose Content-Range "bytes */LEN" has LEN at most N
// says nothing follows N: an empty Body at Offset N, Size LEN (at the
// end, LEN = N, the transfer is complete, as curl says; past it,
// access.GetFrom fails with an *access.OffsetError). Any other 416 is
// the server's refusal.
//
// For an access.Client that records (access.Client.Recorder), the
// exchange is the octets of the request and of the reply as they
// crossed the connection (protocol "http/1.1"), above TLS for https:
// through a proxy, the request to the proxy and its reply; through a
// tunnel, the request and reply inside it, without the CONNECT. A kept
// connection's octets are the request's that uses it. Should net/http
// send a request again on a new connection, the kept one having closed
// as it was sent (RFC 9112 §9.3.1), the record holds both sendings.
func (c *Client) Fetch(ctx context.Context, u *locator.URL, req *access.Request) (*access.Resource, error) {
	plan, tunnel, proxy, err := c.plan(u, req)
	if err != nil {
		return nil, err
	}
	if u.HasUser() && web(u) {
		req.Notef("the URL's user and password are not sent (RFC 1738 §3.3: no user name or password is allowed)")
	}
	offset := req.Offset()
	nreq, err := c.newNetRequest(ctx, u, req, plan, offset == 0)
	if err != nil {
		return nil, err
	}
	if offset > 0 {
		nreq.Header.Set("Range", "bytes="+strconv.FormatInt(offset, 10)+"-")
	}
	if c.Data != nil {
		nreq.Method = nethttp.MethodPost
		nreq.Body = io.NopCloser(bytes.NewReader(c.Data))
		nreq.ContentLength = int64(len(c.Data))
		nreq.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(c.Data)), nil }
		if nreq.Header.Get("Content-Type") == "" {
			nreq.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		}
	}
	if c.Method != "" {
		nreq.Method = c.Method
	}
	if err := allow(req, plan, proxy); err != nil {
		return nil, err
	}
	cap := req.Capture(access.RecordExchange, "http/1.1")
	tr := c.transport(req, proxy, false)
	hc := &nethttp.Client{
		Transport: tr,
		CheckRedirect: func(*nethttp.Request, []*nethttp.Request) error {
			return nethttp.ErrUseLastResponse
		},
	}
	target := shownTarget(u, plan)
	lineLogged := false
	var tap *headTap
	trace := &httptrace.ClientTrace{
		GotConn: func(info httptrace.GotConnInfo) {
			if info.Reused {
				req.Notef("the connection of an earlier request is reused (RFC 9112 §9.3)")
			}
			// A kept connection's octets are this request's from
			// now on: net/http sends the next request only after
			// this one's reply was read.
			t, inner := tapOf(info.Conn)
			if t != nil && c.OnReply != nil {
				t.begin()
				tap = t
			}
			cap.Conn(inner)
		},
		WroteHeaderField: func(key string, value []string) {
			if !lineLogged {
				lineLogged = true
				req.Sent(nreq.Method + " " + target + " " + nreq.Proto)
			}
			if strings.EqualFold(key, "Authorization") {
				req.SentSecret(key + ": Basic") // RFC 7617's credentials are the password in base64
				return
			}
			req.Sent(key + ": " + strings.Join(value, ", "))
		},
	}
	d := &dialInfo{req: req, u: u, tunnel: tunnel, proxy: proxy, cap: cap}
	nreq = nreq.WithContext(context.WithValue(httptrace.WithClientTrace(ctx, trace), dialKey{}, d))
	// who answers the request line: the proxy, unless it only opened a
	// tunnel to the server.
	who := ""
	if tunnel == nil {
		who = proxy
	}
	resp, err := hc.Do(nreq)
	var head []byte
	if tap != nil {
		head = tap.take()
	}
	if err != nil {
		return nil, replyError(u, who, err)
	}
	done := func() {
		resp.Body.Close()
		if !c.kept(tr) {
			tr.CloseIdleConnections() // CloseIdle came while the reply was read
		}
	}
	return c.answer(u, req, reply{resp: resp, command: nreq.Method + " " + target, who: who, head: head, done: done})
}

// A reply is an HTTP reply to read, live or recorded.
type reply struct {
	resp    *nethttp.Response
	command string // the request line's method and target, as shown
	who     string // the proxy that answered the request line, "" the server
	head    []byte // the head as it came (Reply.Head), or nil
	// done closes the reply (the connection goes back to be kept when
	// it was read whole).
	done func()
}

// maxDrain bounds the page of a redirection or refusal read to its end,
// so that the connection can be kept: one whose Content-Length says it
// is larger is closed instead.
const maxDrain = 2 << 10

// drain reads a short reply's page to its end, so that its connection
// can serve the next request, and closes it.
func (r reply) drain() {
	if n := r.resp.ContentLength; n >= 0 && n <= maxDrain {
		io.CopyN(io.Discard, r.resp.Body, n+1)
	}
	r.done()
}

// answer turns the reply to a Fetch into what Fetch returns, as the
// doc of Fetch says: the dialogue lines of the reply's head, then the
// Resource, *access.Redirect, *access.ServerError or
// *access.ProtocolError its status makes.
func (c *Client) answer(u *locator.URL, req *access.Request, r reply) (*access.Resource, error) {
	resp := r.resp
	c.report(u, resp, r.head)
	req.Received(resp.Proto + " " + resp.Status)
	keys := make([]string, 0, len(resp.Header))
	for k := range resp.Header {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		for _, v := range resp.Header[k] {
			req.Received(k + ": " + v)
		}
	}
	offset := req.Offset()
	code := strconv.Itoa(resp.StatusCode)
	command := r.command
	text := strings.TrimSpace(strings.TrimPrefix(resp.Status, code))
	rule := ""
	if r.who != "" {
		rule = "the reply of the proxy " + r.who + " (its own, or the server's it passes on)"
	}
	var start int64 // the octet of the object Body begins at
	switch {
	case resp.StatusCode == 206 && offset > 0:
		first, _, _, ok := contentRange(resp.Header.Get("Content-Range"))
		if !ok || first < 0 {
			r.done()
			return nil, &access.ProtocolError{URL: access.Masked(u), Msg: "reply 206 to a Range without a Content-Range \"bytes FIRST-LAST/LENGTH\" (RFC 9110 §14.4): " + strconv.Quote(resp.Header.Get("Content-Range"))}
		}
		start = first
	case resp.StatusCode >= 200 && resp.StatusCode < 300:
		if offset > 0 {
			req.Notef("the server sends the whole object (%s), not the octets from %d on", code, offset)
		}
	case resp.StatusCode >= 300 && resp.StatusCode < 400:
		r.drain()
		loc := resp.Header.Get("Location")
		if loc == "" {
			return nil, &access.ProtocolError{URL: access.Masked(u), Msg: "reply " + resp.Status + " without a Location"}
		}
		if c.Data != nil && code != "307" && code != "308" {
			return nil, &access.ServerError{URL: access.Masked(u), Command: command, Code: code, Text: text,
				Rule: "a redirection to " + strconv.Quote(loc) + " that would turn the POST into a GET (RFC 9110 §15.4), not followed"}
		}
		return nil, &access.Redirect{Location: loc, Code: code}
	case resp.StatusCode == 416 && offset > 0:
		if first, _, complete, ok := contentRange(resp.Header.Get("Content-Range")); ok && first < 0 && complete <= offset {
			r.drain()
			req.Notef("the object has %d octets: nothing from octet %d on (RFC 9110 §15.5.17)", complete, offset)
			return &access.Resource{Body: io.NopCloser(strings.NewReader("")), MediaType: resp.Header.Get("Content-Type"), Size: complete, Offset: offset}, nil
		}
		fallthrough
	case resp.StatusCode >= 400 && resp.StatusCode < 600:
		body := c.errorBody(req, resp)
		if body == nil {
			r.drain()
		} else {
			r.done()
		}
		return nil, &access.ServerError{URL: access.Masked(u), Command: command, Code: code, Text: text, Rule: rule, Body: body,
			RetryAfter: retryAfter(resp.StatusCode, resp.Header.Get("Retry-After"), time.Now())}
	default:
		r.done()
		return nil, &access.ProtocolError{URL: access.Masked(u), Msg: "reply status " + resp.Status + " is not one HTTP defines"}
	}
	raw, size := io.ReadCloser(resp.Body), resp.ContentLength
	if c.Compressed && offset == 0 && gzipped(resp.Header.Get("Content-Encoding")) {
		// Content-Length counts the coded octets; the limit is on the
		// decoded ones, counted as they are read.
		req.Notef("decoding the gzip body (RFC 9110 §8.4.1.3) as it is read")
		raw, size = &gunzip{r: resp.Body}, -1
	} else if max := req.MaxSize(); max > 0 && size > max {
		r.done()
		return nil, fmt.Errorf("%s: %w: the server says Content-Length %d, the limit is %d", access.Masked(u), access.ErrTooLarge, resp.ContentLength, max)
	}
	if resp.StatusCode == 206 && offset > 0 {
		// Size is the whole object's: Content-Range's complete length
		// (-1 when it says "*").
		_, _, size, _ = contentRange(resp.Header.Get("Content-Range"))
	}
	res := &access.Resource{
		Body:      &body{ReadCloser: req.Limit(raw), close: r.done},
		MediaType: resp.Header.Get("Content-Type"),
		Size:      size,
		Offset:    start,
	}
	if res.MediaType == "" {
		res.MediaType = mime.TypeByExtension(path.Ext(locator.Decode(u.Path())))
	}
	if lm := resp.Header.Get("Last-Modified"); lm != "" {
		if t, err := nethttp.ParseTime(lm); err == nil {
			res.Modified = t
		}
	}
	return res, nil
}

// web reports whether u is an http or https URL (not one of another
// scheme carried to a proxy).
func web(u *locator.URL) bool { return u.Scheme() == "http" || u.Scheme() == "https" }

// errorBody reads the page of a 4xx or 5xx reply when ErrorBody asks
// for it: at most access.MaxErrorBody octets, and no more than MaxSize,
// each read under the connection's idle deadline. What was read before
// an error is kept.
func (c *Client) errorBody(req *access.Request, resp *nethttp.Response) []byte {
	if !c.ErrorBody {
		return nil
	}
	n := int64(access.MaxErrorBody)
	if m := req.MaxSize(); m > 0 && m < n {
		n = m
	}
	b, _ := io.ReadAll(io.LimitReader(resp.Body, n))
	if len(b) == 0 {
		return nil
	}
	return b
}

// replyError is the error of a request net/http could not carry out: a
// reply that is not HTTP (a status line, a header, a Content-Length
// that is malformed, or a head too large) is an *access.ProtocolError
// naming who sent it (proxy, when the request line went to a proxy);
// anything else, a network error, is returned as it is, after the URL.
func replyError(u *locator.URL, proxy string, err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	var pe *access.ProtocolError
	var se *access.ServerError
	var po *access.PolicyError
	if errors.As(err, &pe) || errors.As(err, &se) || errors.As(err, &po) {
		return err // a tunnel's refusal, a policy on the address
	}
	if malformed(err) {
		who := "the server"
		if proxy != "" {
			who = "the proxy " + proxy
		}
		return &access.ProtocolError{URL: access.Masked(u), Msg: who + " sent no valid HTTP reply: " + err.Error()}
	}
	return fmt.Errorf("%s: %w", access.Masked(u), err)
}

// malformed reports whether err is net/http's (or net/textproto's)
// refusal of a reply it could not read as HTTP. net/http has no type
// for these errors; its messages are its interface.
func malformed(err error) bool {
	var tpe textproto.ProtocolError
	if errors.As(err, &tpe) {
		return true
	}
	msg := err.Error()
	for _, m := range []string{"malformed HTTP", "malformed MIME", "bad Content-Length", "response headers exceeded", "unsupported transfer encoding", "too many transfer encodings", "invalid Trailer"} {
		if strings.Contains(msg, m) {
			return true
		}
	}
	return false
}

// newNetRequest makes the net/http request for plan, whose request
// target is plan.Target exactly: it goes out as the URL's Opaque part,
// which net/http writes unchanged, so that escapes are sent as written.
// A target beginning "//" (http://h//x) would be read by net/http as a
// network path; it goes out as RawPath instead, which net/http keeps as
// long as it is a valid encoding, as MakeSafe's output is. An absolute
// target (to a proxy), of any scheme, goes out whole in Opaque, which
// net/http writes as it is when it does not begin "//", over a plain
// connection (the net/http URL's scheme is http) to the proxy.
//
// The Client's own fields follow: Accept-Encoding when Compressed and
// gzip is wanted, Basic authorization for User (or the login
// access.Request.Login knows, for an http URL that gives none), then
// Header.
func (c *Client) newNetRequest(ctx context.Context, u *locator.URL, req *access.Request, plan *Request, gzip bool) (*nethttp.Request, error) {
	nu := &url.URL{Scheme: "http", Host: plan.Addr}
	if plan.TLS {
		nu.Scheme = "https"
	}
	if !strings.HasPrefix(plan.Target, "/") {
		nu.Opaque = plan.Target // absolute form
	} else {
		pathPart, query, hasQuery := strings.Cut(plan.Target, "?")
		nu.RawQuery, nu.ForceQuery = query, hasQuery && query == ""
		if strings.HasPrefix(pathPart, "//") {
			p, err := url.PathUnescape(pathPart)
			if err == nil {
				nu.Path, nu.RawPath = p, pathPart
			}
		} else {
			nu.Opaque = pathPart
		}
	}
	if got := nu.RequestURI(); got != plan.Target {
		return nil, &access.PolicyError{URL: access.Masked(u), Offset: u.Offset(locator.PathComponent), Rule: "hpath",
			Reason: fmt.Sprintf("net/http would send the request target %q instead of %q", got, shownTarget(u, plan))}
	}
	nreq, err := nethttp.NewRequestWithContext(ctx, plan.Method, "http://placeholder/", nil)
	if err != nil {
		return nil, err
	}
	nreq.URL = nu
	nreq.Host = plan.Host
	nreq.Header.Set("User-Agent", UserAgent)
	if c.Compressed && gzip {
		nreq.Header.Set("Accept-Encoding", "gzip")
	}
	if c.User != "" {
		if o := c.AuthOrigin; o == nil || (o.Scheme() == u.Scheme() && addr(o) == addr(u)) {
			nreq.SetBasicAuth(c.User, c.Password)
		}
	} else if web(u) && !u.HasPassword() {
		// A .netrc: asked for this URL's host only, so that a
		// redirection to another server gets that server's login,
		// if any, never this one's.
		user := ""
		if u.HasUser() {
			user = locator.Decode(u.User())
		}
		if login, password, ok := req.Login(user); ok && (login != "" || user != "") {
			if login == "" {
				login = user
			}
			if strings.ContainsAny(login, ":\r\n\x00") || strings.ContainsAny(password, "\r\n\x00") {
				return nil, &access.PolicyError{URL: access.Masked(u), Rule: "login", Reason: "the login for this host holds a colon, CR, LF or NUL, which Basic authorization cannot carry (RFC 7617 §2)"}
			}
			req.Notef("Basic authorization with the login known for %s (RFC 7617 §2)", hostOnly(u))
			nreq.SetBasicAuth(login, password)
		}
	}
	origin := c.AuthOrigin == nil || c.AuthOrigin.Scheme() == u.Scheme() && addr(c.AuthOrigin) == addr(u)
	for name, values := range c.Header {
		if !origin && credential(name, req.Proxy != nil) {
			req.Notef("the %s field is not sent to %s://%s, another origin than %s://%s (as curl's without --location-trusted)",
				nethttp.CanonicalHeaderKey(name), u.Scheme(), addr(u), c.AuthOrigin.Scheme(), addr(c.AuthOrigin))
			continue
		}
		if strings.EqualFold(name, "Host") {
			// net/http sends Request.Host, never a Host in Header.
			if len(values) > 0 {
				nreq.Host = values[len(values)-1]
			}
			continue
		}
		nreq.Header[nethttp.CanonicalHeaderKey(name)] = values
	}
	return nreq, nil
}

// credential reports whether the header field name carries credentials
// that AuthOrigin keeps to one server: Authorization (RFC 9110 §11.6.2)
// and Cookie (RFC 6265 §5.4), which curl drops on a redirection to
// another server, and Proxy-Authorization (RFC 9110 §11.7.2) unless
// the request goes to a proxy, which it is for.
func credential(name string, proxied bool) bool {
	return strings.EqualFold(name, "Authorization") || strings.EqualFold(name, "Cookie") ||
		strings.EqualFold(name, "Proxy-Authorization") && !proxied
}

// gzipped reports whether a Content-Encoding is gzip alone (RFC 9110
// §8.4.1.3; "x-gzip" its old name).
func gzipped(enc string) bool {
	enc = strings.ToLower(strings.TrimSpace(enc))
	return enc == "gzip" || enc == "x-gzip"
}

// gunzip decodes a gzip body as it is read, its reader made at the first
// Read so that Fetch never waits for the body's first octets.
type gunzip struct {
	r  io.ReadCloser
	zr *gzip.Reader
}

func (g *gunzip) Read(p []byte) (int, error) {
	if g.zr == nil {
		zr, err := gzip.NewReader(g.r)
		if err != nil {
			return 0, fmt.Errorf("the gzip body: %w", err)
		}
		g.zr = zr
	}
	return g.zr.Read(p)
}

func (g *gunzip) Close() error { return g.r.Close() }

// body closes the response and the connection behind it.
type body struct {
	io.ReadCloser
	close func()
}

func (b *body) Close() error {
	err := b.ReadCloser.Close()
	b.close()
	return err
}

// maxRetryAfter bounds the wait a Retry-After may ask for.
const maxRetryAfter = time.Hour

// retryAfter reads the Retry-After of a 429 (RFC 6585 §4) or 503 (RFC
// 9110 §15.6.4) reply, "HTTP-date / delay-seconds" (RFC 9110 §10.2.3),
// as a wait from now, at most maxRetryAfter; 0 for another status, a
// malformed value, or a date already past.
func retryAfter(status int, v string, now time.Time) time.Duration {
	if status != 429 && status != 503 {
		return 0
	}
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	var d time.Duration
	if v[0] >= '0' && v[0] <= '9' {
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			return 0
		}
		if n > uint64(maxRetryAfter/time.Second) {
			return maxRetryAfter
		}
		d = time.Duration(n) * time.Second
	} else {
		t, err := nethttp.ParseTime(v)
		if err != nil {
			return 0
		}
		d = t.Sub(now)
	}
	return min(max(d, 0), maxRetryAfter)
}

var _ access.Replayer = (*Client)(nil)

// Replay reads back a recorded exchange (access.RecordExchange,
// protocol "http/1.1"): response holds the octets the server, or the
// proxy, sent, an HTTP/1.x reply (RFC 9112 §4-§7) after any interim
// 1xx ones. It returns what Fetch returns for that reply, without any
// connection: the object of a 2xx (its chunked coding removed, a gzip
// body decoded when Compressed), an *access.Redirect for a 3xx, an
// *access.ServerError for a 4xx or 5xx, with the same dialogue lines.
// A recording that is not an HTTP reply, whose head is larger than a
// live reply's may be (MaxLine × 16 octets), or that ends before the
// reply's end (Body then fails as it reaches the cut) is an
// *access.ProtocolError.
func (c *Client) Replay(ctx context.Context, u *locator.URL, req *access.Request, response io.Reader) (*access.Resource, error) {
	plan, tunnel, proxy, err := c.plan(u, req)
	if err != nil {
		return nil, err
	}
	who := ""
	if tunnel == nil {
		who = proxy
	}
	method := nethttp.MethodGet
	if c.Data != nil {
		method = nethttp.MethodPost
	}
	if c.Method != "" {
		method = c.Method
	}
	maxHead := int64(req.MaxLine()) * 16
	head := &headLimit{r: response, left: maxHead + replayBuffer}
	br := bufio.NewReaderSize(head, replayBuffer)
	var resp *nethttp.Response
	for {
		resp, err = nethttp.ReadResponse(br, &nethttp.Request{Method: method})
		if err == nil && maxHead+replayBuffer-head.left-int64(br.Buffered()) > maxHead {
			err = errHeadTooLarge // what is read less what is buffered ahead
		}
		if err != nil {
			return nil, recordedError(u, maxHead, err)
		}
		// An interim reply (RFC 9110 §15.2) precedes the final one, as
		// net/http's Transport reads it; 101 would switch protocols.
		if resp.StatusCode < 100 || resp.StatusCode >= 200 || resp.StatusCode == 101 {
			break
		}
		req.Received(resp.Proto + " " + resp.Status)
	}
	head.off = true
	resp.Body = &replayBody{rc: resp.Body, u: u}
	return c.answer(u, req, reply{resp: resp, command: method + " " + shownTarget(u, plan), who: who, head: lastHead(head.kept), done: func() { resp.Body.Close() }})
}

// replayBuffer is the buffer a recorded reply is read through.
const replayBuffer = 4 << 10

// errHeadTooLarge ends the reading of a recorded reply's head larger
// than a live one may be.
var errHeadTooLarge = errors.New("head too large")

// headLimit reads at most left octets of r until off is set: the
// head of a recorded reply, and what the buffer reads ahead of it,
// which it keeps (Reply.Head).
type headLimit struct {
	r    io.Reader
	left int64
	off  bool
	kept []byte
}

func (h *headLimit) Read(p []byte) (int, error) {
	if h.off {
		return h.r.Read(p)
	}
	if h.left <= 0 {
		return 0, errHeadTooLarge
	}
	if int64(len(p)) > h.left {
		p = p[:h.left]
	}
	n, err := h.r.Read(p)
	h.left -= int64(n)
	h.kept = append(h.kept, p[:n]...)
	return n, err
}

// recordedError says what is wrong with a recorded reply's head.
func recordedError(u *locator.URL, maxHead int64, err error) error {
	msg := "the recorded reply is not HTTP: " + err.Error()
	switch {
	case errors.Is(err, errHeadTooLarge):
		msg = "the recorded reply's head is larger than " + strconv.FormatInt(maxHead, 10) + " octets"
	case errors.Is(err, io.EOF):
		msg = "the recording holds no reply"
	case errors.Is(err, io.ErrUnexpectedEOF):
		msg = "the recording ends before the reply's head ends"
	}
	return &access.ProtocolError{URL: access.Masked(u), Msg: msg}
}

// replayBody is a recorded reply's body: an error reading it (the
// recording cut before the body's end, a malformed chunk) is the
// recording's, an *access.ProtocolError.
type replayBody struct {
	rc  io.ReadCloser
	u   *locator.URL
	err error
}

func (b *replayBody) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	n, err := b.rc.Read(p)
	if err != nil && err != io.EOF {
		msg := "the recorded reply's body: " + err.Error()
		if errors.Is(err, io.ErrUnexpectedEOF) {
			msg = "the recording ends before the reply's body ends"
		}
		b.err = &access.ProtocolError{URL: access.Masked(b.u), Msg: msg}
		err = b.err
	}
	return n, err
}

func (b *replayBody) Close() error { return b.rc.Close() }
