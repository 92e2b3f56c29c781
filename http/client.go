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
	"net/url"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
)

func init() {
	access.Register("http", access.Info{DefaultPort: 80}, func() access.Fetcher { return new(Client) })
	access.Register("https", access.Info{DefaultPort: 443}, func() access.Fetcher { return new(Client) })
}

// UserAgent is the User-Agent header the client sends.
const UserAgent = "locator (RFC 1738)"

// Client follows http and https URLs for package access: it sends the
// request NewRequest plans (NewProxyRequest's through a proxy), through
// net/http, over connections made by access.Request.Dial (so that local
// policy, the connect and idle deadlines and the dialogue log apply),
// and hands every redirection back to the access.Client as an
// *access.Redirect, so that each hop is checked by policy and shown in
// the dialogue. It implements access.Fetcher and access.Prober and is
// registered for the schemes "http" and "https"; a configured Client is
// given for both (access.Client.Schemes "http" and "https").
//
// A Client keeps no connection between requests: each is made for one
// request and closed after it. Its zero value connects to the server
// itself, with crypto/tls's defaults for https. It is safe for
// concurrent use, and its fields must not be changed once it is in use.
type Client struct {
	// TLSConfig is the TLS configuration of https connections (RFC
	// 2818): the roots trusted, the versions; nil means crypto/tls's
	// defaults, the system's roots. The server name is the URL's host
	// unless it sets one.
	TLSConfig *tls.Config
	// Proxy, when not "", is the host:port of an HTTP proxy (the
	// drafts' gateway) that every request goes through instead of to
	// the server: an http URL is asked of it with the whole URL as the
	// request target (RFC 1945 §5.1.2's absoluteURI, "GET
	// http://host/path"), an https URL through a tunnel it is asked to
	// open, "CONNECT host:port" (RFC 9110 §9.3.6), TLS to the server
	// running inside the tunnel. The proxy is connected to under the
	// access.Client's policy, as a server is; the URL's host is judged
	// by the same policy before anything is sent. The environment's
	// HTTP_PROXY is never read.
	Proxy string
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
	User, Password string
	// AuthOrigin, when not nil, keeps User and Password to URLs of its
	// scheme, host and port (the scheme's default when it names none):
	// a redirection to another server is sent no credentials, as curl
	// sends none without --location-trusted. Nil sends them with every
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
	// when it passes the limit, never held whole.
	Compressed bool
}

// Check refuses, before any connection, an http URL that names no host
// (RFC 1738 §3.1, §3.3), and a Proxy that is not host:port. Nothing in
// an http URL becomes a protocol delimiter: the path and search are sent
// still encoded (unsafe octets encoded, %0D%0A kept as written), never
// decoded, so §6's CR and LF cannot reach the request line.
func (c *Client) Check(u *locator.URL, req *access.Request) error {
	if _, err := NewRequest(u); err != nil {
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
	if c.Proxy != "" {
		if _, _, err := splitAddr(c.Proxy); err != nil {
			return &access.PolicyError{URL: access.Masked(u), Rule: "proxy", Reason: "the proxy " + strconv.Quote(c.Proxy) + " is not host:port: " + err.Error()}
		}
	}
	return nil
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

// plan returns the request to send for u, directly or to c.Proxy: its
// Target is the request line's (the absolute URL for an http URL through
// the proxy); for an https URL through the proxy it is the request inside
// the tunnel, and tunnel the CONNECT that opens it.
func (c *Client) plan(u *locator.URL) (plan, tunnel *Request, err error) {
	if c.Proxy == "" {
		plan, err = NewRequest(u)
		return plan, nil, err
	}
	p, err := NewProxyRequest(u)
	if err != nil {
		return nil, nil, err
	}
	if p.Method == "CONNECT" {
		return p.Tunnel, p, nil
	}
	p.Addr = c.Proxy // the connection goes to the proxy
	return p, nil, nil
}

// transport returns the net/http Transport that carries one request for
// u: over a connection req.Dial opens to the server or to c.Proxy, or
// through the tunnel tunnel asks the proxy for.
func (c *Client) transport(u *locator.URL, req *access.Request, tunnel *Request) *nethttp.Transport {
	return &nethttp.Transport{
		Proxy: nil, // never from the environment: c.Proxy or the URL's host
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			if tunnel != nil {
				return c.connect(ctx, u, req, tunnel)
			}
			if c.Proxy != "" {
				req.Notef("proxy %s: the whole URL as the request target (RFC 1945 §5.1.2)", c.Proxy)
				addr = c.Proxy
			}
			host, port, err := splitAddr(addr)
			if err != nil {
				return nil, err
			}
			return req.Dial(ctx, host, port)
		},
		TLSClientConfig:        c.TLSConfig.Clone(),
		TLSHandshakeTimeout:    req.IdleTimeout(),
		ResponseHeaderTimeout:  req.IdleTimeout(),
		DisableCompression:     true, // the octets as the server has them
		DisableKeepAlives:      true,
		MaxResponseHeaderBytes: int64(req.MaxLine()) * 16,
		ForceAttemptHTTP2:      false,
	}
}

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

// connect opens the tunnel tunnel asks c.Proxy for (RFC 9110 §9.3.6:
// "CONNECT host:port HTTP/1.1" and the same authority in Host) and
// returns the connection, through which the Transport sets up TLS with
// the server. A 2xx reply opens the tunnel; any other is the proxy's
// refusal, an *access.ServerError with its status.
func (c *Client) connect(ctx context.Context, u *locator.URL, req *access.Request, tunnel *Request) (net.Conn, error) {
	host, port, err := splitAddr(c.Proxy)
	if err != nil {
		return nil, err
	}
	req.Notef("proxy %s: a tunnel to %s (RFC 9110 §9.3.6)", c.Proxy, tunnel.Target)
	conn, err := req.Dial(ctx, host, port)
	if err != nil {
		return nil, err
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
		return nil, connectError(u, err)
	}
	req.Received(status)
	for n := 0; ; n++ {
		l, err := access.ReadLine(br, req.MaxLine())
		if err != nil {
			conn.Close()
			return nil, connectError(u, err)
		}
		if l == "" {
			break
		}
		req.Received(l)
		if n == maxConnectHeaders {
			conn.Close()
			return nil, &access.ProtocolError{URL: access.Masked(u), Msg: "the proxy's reply to CONNECT has more than " + strconv.Itoa(maxConnectHeaders) + " header lines"}
		}
	}
	proto, rest, _ := strings.Cut(status, " ")
	code, text, _ := strings.Cut(rest, " ")
	if !strings.HasPrefix(proto, "HTTP/") || len(code) != 3 || code[0] < '1' || code[0] > '5' || strings.Trim(code, "0123456789") != "" {
		conn.Close()
		return nil, &access.ProtocolError{URL: access.Masked(u), Msg: "the proxy's reply to CONNECT is not an HTTP status line: " + strconv.Quote(status)}
	}
	if code[0] != '2' {
		conn.Close()
		return nil, &access.ServerError{URL: access.Masked(u), Command: tunnel.Method + " " + tunnel.Target, Code: code, Text: text,
			Rule: "the proxy " + c.Proxy + " does not open the tunnel (RFC 9110 §9.3.6)"}
	}
	return conn, nil
}

// connectError says what broke the proxy's reply to CONNECT: a line
// too long, or the end of the connection before the reply's end, each a
// *access.ProtocolError naming the URL; a network error is returned as
// it is.
func connectError(u *locator.URL, err error) error {
	var pe *access.ProtocolError
	switch {
	case errors.As(err, &pe):
		return &access.ProtocolError{URL: access.Masked(u), Msg: "the proxy's reply to CONNECT: " + pe.Msg}
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return &access.ProtocolError{URL: access.Masked(u), Msg: "the proxy closed the connection before the end of its reply to CONNECT"}
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
// User is sent). A 2xx reply is the object: its octets as sent (no
// content coding is asked for unless Compressed, which decodes a gzip
// body), its Content-Type (or the type the name's extension suggests),
// Content-Length and Last-Modified. A 3xx reply with a Location is an
// *access.Redirect. Every 4xx and 5xx reply is an *access.ServerError:
// the server answered, and says it will not deliver the object (a 5xx
// is its own trouble, not ours or the network's).
func (c *Client) Fetch(ctx context.Context, u *locator.URL, req *access.Request) (*access.Resource, error) {
	plan, tunnel, err := c.plan(u)
	if err != nil {
		return nil, err
	}
	if u.HasUser() {
		req.Notef("the URL's user and password are not sent (RFC 1738 §3.3: no user name or password is allowed)")
	}
	nreq, err := c.newNetRequest(ctx, u, plan)
	if err != nil {
		return nil, err
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
	tr := c.transport(u, req, tunnel)
	hc := &nethttp.Client{
		Transport: tr,
		CheckRedirect: func(*nethttp.Request, []*nethttp.Request) error {
			return nethttp.ErrUseLastResponse
		},
	}
	lineLogged := false
	trace := &httptrace.ClientTrace{
		WroteHeaderField: func(key string, value []string) {
			if !lineLogged {
				lineLogged = true
				req.Sent(nreq.Method + " " + nreq.URL.RequestURI() + " " + nreq.Proto)
			}
			if strings.EqualFold(key, "Authorization") {
				req.SentSecret(key + ": Basic") // RFC 7617's credentials are the password in base64
				return
			}
			req.Sent(key + ": " + strings.Join(value, ", "))
		},
		TLSHandshakeDone: func(st tls.ConnectionState, err error) {
			if err == nil {
				note := tls.VersionName(st.Version) + " established"
				if st.ServerName != "" {
					note += " with " + st.ServerName
				}
				req.Notef("%s", note)
			}
		},
	}
	nreq = nreq.WithContext(httptrace.WithClientTrace(ctx, trace))
	resp, err := hc.Do(nreq)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return nil, fmt.Errorf("%s: %w", access.Masked(u), err)
	}
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
	closeAll := func() {
		resp.Body.Close()
		tr.CloseIdleConnections()
	}
	code := strconv.Itoa(resp.StatusCode)
	switch {
	case resp.StatusCode >= 200 && resp.StatusCode < 300:
	case resp.StatusCode >= 300 && resp.StatusCode < 400:
		closeAll()
		loc := resp.Header.Get("Location")
		if loc == "" {
			return nil, &access.ProtocolError{URL: access.Masked(u), Msg: "reply " + resp.Status + " without a Location"}
		}
		if c.Data != nil && code != "307" && code != "308" {
			return nil, &access.ServerError{URL: access.Masked(u), Command: nreq.Method + " " + plan.Target, Code: code, Text: strings.TrimSpace(strings.TrimPrefix(resp.Status, code)),
				Rule: "a redirection to " + strconv.Quote(loc) + " that would turn the POST into a GET (RFC 9110 §15.4), not followed"}
		}
		return nil, &access.Redirect{Location: loc, Code: code}
	case resp.StatusCode >= 400 && resp.StatusCode < 600:
		closeAll()
		return nil, &access.ServerError{URL: access.Masked(u), Command: nreq.Method + " " + plan.Target, Code: code, Text: strings.TrimSpace(strings.TrimPrefix(resp.Status, code))}
	default:
		closeAll()
		return nil, &access.ProtocolError{URL: access.Masked(u), Msg: "reply status " + resp.Status + " is not one HTTP defines"}
	}
	raw, size := io.ReadCloser(resp.Body), resp.ContentLength
	if c.Compressed && gzipped(resp.Header.Get("Content-Encoding")) {
		// Content-Length counts the coded octets; the limit is on the
		// decoded ones, counted as they are read.
		req.Notef("decoding the gzip body (RFC 9110 §8.4.1.3) as it is read")
		raw, size = &gunzip{r: resp.Body}, -1
	} else if max := req.MaxSize(); max > 0 && size > max {
		closeAll()
		return nil, fmt.Errorf("%s: %w: the server says Content-Length %d, the limit is %d", access.Masked(u), access.ErrTooLarge, resp.ContentLength, max)
	}
	res := &access.Resource{
		Body:      &body{ReadCloser: req.Limit(raw), close: closeAll},
		MediaType: resp.Header.Get("Content-Type"),
		Size:      size,
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

// newNetRequest makes the net/http request for plan, whose request
// target is plan.Target exactly: it goes out as the URL's Opaque part,
// which net/http writes unchanged, so that escapes are sent as written.
// A target beginning "//" (http://h//x) would be read by net/http as a
// network path; it goes out as RawPath instead, which net/http keeps as
// long as it is a valid encoding, as MakeSafe's output is. An absolute
// target (to a proxy) goes out as "//host/path" in Opaque, which
// net/http writes after the scheme and ":".
//
// The Client's own fields follow: Accept-Encoding when Compressed, Basic
// authorization for User, then Header.
func (c *Client) newNetRequest(ctx context.Context, u *locator.URL, plan *Request) (*nethttp.Request, error) {
	pathPart, query, hasQuery := strings.Cut(plan.Target, "?")
	nu := &url.URL{Scheme: u.Scheme(), Host: plan.Addr, RawQuery: query, ForceQuery: hasQuery && query == ""}
	if abs, ok := strings.CutPrefix(pathPart, u.Scheme()+":"); ok {
		nu.Opaque = abs
	} else if strings.HasPrefix(pathPart, "//") {
		p, err := url.PathUnescape(pathPart)
		if err == nil {
			nu.Path, nu.RawPath = p, pathPart
		}
	} else {
		nu.Opaque = pathPart
	}
	if got := nu.RequestURI(); got != plan.Target {
		return nil, &access.PolicyError{URL: access.Masked(u), Offset: u.Offset(locator.PathComponent), Rule: "hpath",
			Reason: fmt.Sprintf("net/http would send the request target %q instead of %q", got, plan.Target)}
	}
	nreq, err := nethttp.NewRequestWithContext(ctx, plan.Method, "http://placeholder/", nil)
	if err != nil {
		return nil, err
	}
	nreq.URL = nu
	nreq.Host = plan.Host
	nreq.Header.Set("User-Agent", UserAgent)
	if c.Compressed {
		nreq.Header.Set("Accept-Encoding", "gzip")
	}
	if c.User != "" {
		if o := c.AuthOrigin; o == nil || (o.Scheme() == u.Scheme() && addr(o) == addr(u)) {
			nreq.SetBasicAuth(c.User, c.Password)
		}
	}
	for name, values := range c.Header {
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
