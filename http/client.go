package http

import (
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

// The client follows http and https URLs for package access: it sends
// the request NewRequest plans, through net/http, over connections made
// by access.Request.Dial (so that local policy, the connect and idle
// deadlines and the dialogue log apply), and hands every redirection
// back to access.Get as an *access.Redirect, so that each hop is checked
// by policy and shown in the dialogue.
func init() {
	access.Register("http", access.Info{DefaultPort: 80}, client{})
	access.Register("https", access.Info{DefaultPort: 443}, client{})
}

// UserAgent is the User-Agent header the client sends.
const UserAgent = "locator (RFC 1738)"

// tlsConfig, when not nil, is the TLS configuration of https
// connections (tests set it to trust their own server).
var tlsConfig *tls.Config

type client struct{}

// Check refuses, before any connection, an http URL that names no host
// (RFC 1738 §3.1, §3.3). Nothing in an http URL becomes a protocol
// delimiter: the path and search are sent still encoded (unsafe octets
// encoded, %0D%0A kept as written), never decoded, so §6's CR and LF
// cannot reach the request line.
func (client) Check(u *locator.URL, req *access.Request) error {
	if _, err := NewRequest(u); err != nil {
		var re *RequestError
		if errors.As(err, &re) {
			return &access.PolicyError{URL: access.Masked(u), Offset: re.Problem.Offset, Rule: re.Problem.Rule, Reason: re.Problem.Message}
		}
		return err
	}
	return nil
}

// Fetch sends GET with the request target NewRequest plans, exactly as
// written (never re-encoded), the fragment left out, and no user or
// password (§3.3 allows none). A 2xx reply is the object: its octets as
// sent (no content coding is asked for), its Content-Type (or the type
// the name's extension suggests), Content-Length and Last-Modified. A
// 3xx reply with a Location is an *access.Redirect. Every 4xx and 5xx
// reply is an *access.ServerError: the server answered, and says it will
// not deliver the object (a 5xx is its own trouble, not ours or the
// network's).
func (client) Fetch(ctx context.Context, u *locator.URL, req *access.Request) (*access.Resource, error) {
	plan, err := NewRequest(u)
	if err != nil {
		return nil, err
	}
	if u.HasUser() {
		req.Notef("the URL's user and password are not sent (RFC 1738 §3.3: no user name or password is allowed)")
	}
	nreq, err := newNetRequest(ctx, u, plan)
	if err != nil {
		return nil, err
	}
	tr := &nethttp.Transport{
		Proxy: nil, // never from the environment: the URL's host is the server
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			host, port, err := net.SplitHostPort(addr)
			if err != nil {
				return nil, err
			}
			p, err := strconv.Atoi(port)
			if err != nil {
				return nil, err
			}
			return req.Dial(ctx, host, p)
		},
		TLSClientConfig:        tlsConfig.Clone(),
		TLSHandshakeTimeout:    req.IdleTimeout(),
		ResponseHeaderTimeout:  req.IdleTimeout(),
		DisableCompression:     true, // the octets as the server has them
		DisableKeepAlives:      true,
		MaxResponseHeaderBytes: int64(req.MaxLine()) * 16,
		ForceAttemptHTTP2:      false,
	}
	c := &nethttp.Client{
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
	resp, err := c.Do(nreq)
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
		return nil, &access.Redirect{Location: loc, Code: code}
	case resp.StatusCode >= 400 && resp.StatusCode < 600:
		closeAll()
		return nil, &access.ServerError{URL: access.Masked(u), Command: plan.Method + " " + plan.Target, Code: code, Text: strings.TrimSpace(strings.TrimPrefix(resp.Status, code))}
	default:
		closeAll()
		return nil, &access.ProtocolError{URL: access.Masked(u), Msg: "reply status " + resp.Status + " is not one HTTP defines"}
	}
	if max := req.Options.MaxSize; max > 0 && resp.ContentLength > max {
		closeAll()
		return nil, fmt.Errorf("%s: %w: the server says Content-Length %d, the limit is %d", access.Masked(u), access.ErrTooLarge, resp.ContentLength, max)
	}
	res := &access.Resource{
		Body:      &body{ReadCloser: req.Limit(resp.Body), close: closeAll},
		MediaType: resp.Header.Get("Content-Type"),
		Size:      resp.ContentLength,
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
// long as it is a valid encoding, as MakeSafe's output is.
func newNetRequest(ctx context.Context, u *locator.URL, plan *Request) (*nethttp.Request, error) {
	pathPart, query, hasQuery := strings.Cut(plan.Target, "?")
	nu := &url.URL{Scheme: u.Scheme(), Host: plan.Addr, RawQuery: query, ForceQuery: hasQuery && query == ""}
	if strings.HasPrefix(pathPart, "//") {
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
	return nreq, nil
}

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
