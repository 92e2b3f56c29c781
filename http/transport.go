package http

import (
	"context"
	"crypto/tls"
	"errors"
	"net"
	nethttp "net/http"
	"time"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
)

// Keep-alive (RFC 9112 §9.3): a Client keeps the connections its
// requests opened, once a reply has been read whole, for the next
// request to the same server of the same access.Client, instead of
// opening one per request. net/http's Transport keeps and reuses them;
// the Client keeps one Transport per access.Client and route (direct,
// or through one proxy), so that a connection opened under one
// Client's policy, dialer, deadlines and recorder, or to a proxy, is
// never lent to a request of another Client or of another route.
// Within a route net/http keeps them apart by scheme and address: an
// http connection per host:port (or per proxy), an https one per
// host:port with the Client's TLSConfig (one per Client), a tunnel's
// per server through its proxy.
//
// Before each request the Client applies local policy to the address
// it would connect to (access.Request.Allow), as access.Request.Dial
// does, whether a kept connection is taken or a new one opened: a kept
// connection lets no request past the host policy or RFC 1738 §6's
// port rule.

// Bounds on the connections kept idle: per server (host:port, or proxy),
// and in all, for one access.Client and route. Past them a connection
// is closed when its reply is read, as without keep-alive.
const (
	maxIdlePerServer = 8
	maxIdle          = 64
)

// A route says which requests may share connections: those of one
// access.Client, directly (proxy "") or through one proxy. The probes
// of a Client that records keep theirs apart (probe): a probe is not
// recorded, and its connections are not tapped (access.Capture.Conn)
// as a recorded request's must be from the start.
type route struct {
	client *access.Client
	proxy  string // the proxy's host:port
	probe  bool
}

// dialKey is the key of the request's dialInfo in its context, whose
// values net/http keeps in the context it dials with.
type dialKey struct{}

// dialInfo is what the Transport's dialers need of the request that
// asks for a new connection.
type dialInfo struct {
	req    *access.Request
	u      *locator.URL
	tunnel *Request // the CONNECT to send the proxy, nil for none
	proxy  string   // the proxy's host:port, "" direct
	cap    *access.Capture
}

// transport returns the Transport of req's access.Client through proxy
// ("" direct), for a probe or a retrieval, made on its first request.
func (c *Client) transport(req *access.Request, proxy string, probe bool) *nethttp.Transport {
	k := route{client: req.Client, proxy: proxy, probe: probe && req.Client.Recorder != nil}
	c.mu.Lock()
	defer c.mu.Unlock()
	if tr := c.routes[k]; tr != nil {
		return tr
	}
	idle := req.IdleTimeout()
	tr := &nethttp.Transport{
		Proxy:                  nil, // never from the environment: req.Proxy or the URL's host
		DialContext:            c.dialPlain,
		DialTLSContext:         c.dialTLS,
		ResponseHeaderTimeout:  idle,
		IdleConnTimeout:        idle,
		MaxIdleConnsPerHost:    maxIdlePerServer,
		MaxIdleConns:           maxIdle,
		DisableCompression:     true, // the octets as the server has them
		MaxResponseHeaderBytes: int64(req.MaxLine()) * 16,
		ForceAttemptHTTP2:      false,
	}
	if c.routes == nil {
		c.routes = map[route]*nethttp.Transport{}
	}
	c.routes[k] = tr
	return tr
}

// CloseIdle closes the connections c keeps idle for later requests
// (access.Client.CloseIdle calls it), of every access.Client it serves.
// A connection in use is closed when its reply is read.
func (c *Client) CloseIdle() {
	c.mu.Lock()
	routes := c.routes
	c.routes = nil
	c.mu.Unlock()
	for _, tr := range routes {
		tr.CloseIdleConnections()
	}
}

// kept reports whether tr is still a Transport c keeps (CloseIdle has
// not dropped it).
func (c *Client) kept(tr *nethttp.Transport) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, t := range c.routes {
		if t == tr {
			return true
		}
	}
	return false
}

// allow applies local policy to the address a request connects to (the
// server, or the proxy) before a connection is taken for it, kept or
// new.
func allow(req *access.Request, plan *Request, proxy string) error {
	a := plan.Addr
	if proxy != "" {
		a = proxy
	}
	host, port, err := splitAddr(a)
	if err != nil {
		return err
	}
	if err := req.Allow(host, port); err != nil {
		if proxy != "" {
			return &ProxyError{Proxy: proxy, Err: err}
		}
		return err
	}
	return nil
}

func infoOf(ctx context.Context) (*dialInfo, error) {
	d, _ := ctx.Value(dialKey{}).(*dialInfo)
	if d == nil {
		return nil, errors.New("http: a connection asked for outside a request of the Client")
	}
	return d, nil
}

// dialPlain opens an http connection: to the server at addr, or to the
// proxy. Each connection the dialers open is a headTap, above a
// recording's tap, so that a reply's head can be shown as it came.
func (c *Client) dialPlain(ctx context.Context, _, addr string) (net.Conn, error) {
	d, err := infoOf(ctx)
	if err != nil {
		return nil, err
	}
	if d.proxy != "" {
		d.req.Notef("proxy %s: the whole URL as the request target (RFC 1945 §5.1.2)", d.proxy)
		addr = d.proxy
	}
	host, port, err := splitAddr(addr)
	if err != nil {
		return nil, err
	}
	conn, err := keep(ctx, d.req, host, port)
	if err != nil {
		if d.proxy != "" {
			return nil, &ProxyError{Proxy: d.proxy, Err: err}
		}
		return nil, err
	}
	return &headTap{Conn: d.cap.Conn(conn)}, nil
}

// dialTLS opens an https connection to the server at addr, directly or
// through a tunnel its proxy opens, and sets up TLS in it (RFC 2818 §2)
// with the Client's TLSConfig; the server name is addr's host unless
// TLSConfig names one. A recording taps the connection above TLS.
func (c *Client) dialTLS(ctx context.Context, _, addr string) (net.Conn, error) {
	d, err := infoOf(ctx)
	if err != nil {
		return nil, err
	}
	var raw net.Conn
	if d.tunnel != nil {
		raw, err = c.connect(ctx, d.u, d.req, d.tunnel, d.proxy)
	} else {
		host, port, serr := splitAddr(addr)
		if serr != nil {
			return nil, serr
		}
		raw, err = keep(ctx, d.req, host, port)
	}
	if err != nil {
		return nil, err
	}
	cfg := c.TLSConfig.Clone()
	if cfg == nil {
		cfg = &tls.Config{}
	}
	if cfg.ServerName == "" {
		host, _, _ := net.SplitHostPort(addr)
		cfg.ServerName = host
	}
	cfg.NextProtos = nil // HTTP/1.1 only: no h2 by ALPN
	tc := tls.Client(raw, cfg)
	if err := tc.HandshakeContext(ctx); err != nil {
		raw.Close()
		return nil, err
	}
	st := tc.ConnectionState()
	note := tls.VersionName(st.Version) + " established"
	if st.ServerName != "" {
		note += " with " + st.ServerName
	}
	d.req.Notef("%s", note)
	return &headTap{Conn: d.cap.Conn(tc)}, nil
}

// keep connects to host:port through req.Dial (local policy, the
// connect timeout, the idle deadline on each read and write, the note
// in the dialogue) for a connection that may outlive req: ctx's end
// interrupts the connecting only; net/http closes the connection when
// the context of the request using it ends.
func keep(ctx context.Context, req *access.Request, host string, port int) (net.Conn, error) {
	dctx, release := context.WithCancel(context.WithoutCancel(ctx))
	stop := context.AfterFunc(ctx, release)
	conn, err := req.Dial(dctx, host, port)
	if !stop() && err == nil {
		conn.Close()
		err = ctx.Err()
	}
	if err != nil {
		release()
		return nil, err
	}
	return &keptConn{Conn: conn, idle: req.IdleTimeout(), release: release}, nil
}

// A keptConn is a connection that serves one request after another.
type keptConn struct {
	net.Conn
	idle    time.Duration
	release context.CancelFunc
}

// Write writes p and moves the deadline of the read under way past
// the reply's idle timeout: net/http reads a kept connection all the
// time, from when it was last idle, under the deadline its read began
// with, and sends one request at a time, then waits for its reply (no
// pipelining). The reply's head is bounded by the Transport's
// ResponseHeaderTimeout, the idle timeout from the request's end,
// which net/http reports as it is; this deadline, twice as far, only
// backs it up, since net/http takes a read that fails on a kept
// connection for the connection's end and sends the request again on
// another, which would give a stalled server a second idle timeout.
// Each read of the body has the idle deadline again (access.Request.Dial).
func (k *keptConn) Write(p []byte) (int, error) {
	n, err := k.Conn.Write(p)
	if err == nil {
		k.Conn.SetReadDeadline(time.Now().Add(2 * k.idle))
	}
	return n, err
}

func (k *keptConn) Close() error {
	err := k.Conn.Close()
	k.release()
	return err
}
