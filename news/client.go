package news

import (
	"context"
	"errors"
	"io"
	"net"
	"strconv"
	"strings"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/internal/newsreader"
	"github.com/rfc1738/locator/nntp"
)

func init() {
	access.Register("news", access.Info{DefaultPort: defaultPort, Methods: nntp.Methods}, func() access.Fetcher { return new(Client) })
}

// Client follows news URLs for package access, over NNTP (RFC 977, RFC
// 3977). A news URL names no server (RFC 1738 §3.6: the article or group
// is fetched from "the configured" news server), so the server is
// Client.Server (host[:port], port 119 by default), unless the URL is
// draft-gilman's news://host[:port]/..., which names its own.
//
//	news:<message-id>     ARTICLE <message-id>: the article's octets
//	news:<group>          GROUP, then the overview (OVER, XOVER, or
//	                      HEAD and NEXT; Client.Method): a listing of
//	                      news:<message-id> URLs named by subject
//	news:<group>/<n>      draft-gilman: GROUP, ARTICLE n
//	news:<group>/<n>-<m>  draft-gilman: the overview of n to m
//	news:*                LIST ACTIVE: a listing of news:<group> URLs
//	news:comp.*           draft-gilman's wildcard: LIST ACTIVE comp.*
//
// MODE READER is sent first (RFC 3977 §5.3). snews (TLS) has no client
// yet.
//
// A Client keeps the connections of probes for the next probe of the
// same server (CloseIdle ends them). Its zero value is ready, though it
// follows only news://host/ URLs without a Server; it is safe for
// concurrent use, and its fields must not be changed once it is in use.
type Client struct {
	// Method is how a group's index is read (nntp.Methods); "" is
	// nntp.MethodOver.
	Method string
	// Server is the configured news server, host[:port] (SplitServer),
	// asked for every news URL but draft-gilman's news://host/.
	Server string
	// Auth answers a server that requires authentication (480); when
	// it is empty, the login access.Client.Login knows for the server
	// asked (the URL's host, or Server's) does.
	Auth nntp.Auth

	sessions newsreader.Pool
}

var (
	_ access.Prober        = (*Client)(nil)
	_ access.IdleCloser    = (*Client)(nil)
	_ access.Destinationer = (*Client)(nil)
)

// Destination returns the host of c.Server for a news URL that names no
// server (RFC 1738 §3.6: it is asked of the configured news server), ""
// when none is configured or Server is not host[:port] (Check then
// refuses the URL); ok is false for a URL that names its server.
func (c *Client) Destination(u *locator.URL) (host string, ok bool) {
	if u.Host() != "" {
		return "", false
	}
	if c.Server == "" {
		return "", true
	}
	h, _, err := SplitServer(c.Server)
	if err != nil {
		return "", true
	}
	return h, true
}

// server returns the news server to ask for u: draft-gilman's host in
// the URL, else c.Server.
func (c *Client) server(u *locator.URL, n *URL) (host string, port int, err error) {
	if n.HasHost && n.Host != "" {
		port = defaultPort
		if n.Port != "" {
			port, err = strconv.Atoi(n.Port)
			if err != nil || port < 1 || port > 65535 {
				return "", 0, &access.PolicyError{URL: access.Masked(u), Offset: u.Offset(locator.PortComponent), Rule: "port", Reason: "port " + strconv.Quote(n.Port) + " is not a number from 1 to 65535"}
			}
		}
		return n.Host, port, nil
	}
	s := c.Server
	if s == "" {
		return "", 0, &access.PolicyError{URL: access.Masked(u), Rule: "RFC 1738 §3.6", Reason: "a news URL names no server and no news server is configured (news.Client.Server; the command's --nntp-server or NNTPSERVER)"}
	}
	return SplitServer(s)
}

// SplitServer reads a configured news server, host[:port]: a name, an
// IPv4 address, or an IPv6 address (in brackets when a port follows);
// the port is 119 when none is given.
func SplitServer(s string) (host string, port int, err error) {
	bad := func(why string) (string, int, error) {
		return "", 0, &access.PolicyError{Rule: "server", Reason: "the configured news server " + strconv.Quote(s) + " is not host[:port]: " + why}
	}
	host, port = s, defaultPort
	switch {
	case strings.HasPrefix(s, "[") && strings.HasSuffix(s, "]"):
		host = s[1 : len(s)-1]
	case strings.HasPrefix(s, "[") || strings.Count(s, ":") == 1:
		h, p, err := net.SplitHostPort(s)
		if err != nil {
			return bad(err.Error())
		}
		host = h
		port, err = strconv.Atoi(p)
		if err != nil || port < 1 || port > 65535 {
			return bad("the port is a number from 1 to 65535")
		}
	}
	if host == "" || strings.ContainsAny(host, "\r\n\x00 \t/@[]") {
		return bad("no host, or an octet no host has")
	}
	return host, port, nil
}

// Check refuses, before any connection, a news URL that cannot be
// followed: no server to ask (see server; a replay asks none), a message-id or group that,
// decoded, holds CR, LF or NUL (RFC 1738 §6), a space or TAB (it would
// split the command's argument, RFC 3977 §3.1), or, in a message-id, "<"
// or ">" (RFC 5536 §3.1.3: they delimit it), and message numbers that
// are not draft-gilman's messageno [ "-" messageno ].
func (c *Client) Check(u *locator.URL, req *access.Request) error {
	n, err := From(u)
	if err != nil {
		return &access.PolicyError{URL: access.Masked(u), Rule: "newsurl", Reason: err.Error()}
	}
	// A replay asks no server: what a record holds is read back with no
	// connection (access.Client.Archive), so a news: URL's capture is
	// followed without one configured.
	if req == nil || req.Client == nil || req.Client.Archive == nil {
		if _, _, err := c.server(u, n); err != nil {
			return err
		}
	}
	base := u.Offset(locator.PathComponent)
	p := u.Path()
	switch {
	case n.Article != "":
		from, to := 0, len(p)
		if l, r := angle(p); l > 0 {
			from, to = l, len(p)-r
		}
		if i := newsreader.ArgOffset(p[from:to], "<>"); i >= 0 {
			c := decoded(p[from:to], i)
			if c == '<' || c == '>' {
				return &access.PolicyError{URL: access.Masked(u), Offset: base + from + i, Rule: "RFC 5536 §3.1.3", Reason: "a message-id holds no \"<\" or \">\" inside its brackets"}
			}
			return newsreader.ArgPolicyError(u, base+from+i, c)
		}
	case n.Group != "":
		g, rest, found := strings.Cut(p, "/")
		if i := newsreader.ArgOffset(g, ""); i >= 0 {
			return newsreader.ArgPolicyError(u, base+i, decoded(g, i))
		}
		if found {
			if i, msg := checkRange(rest); i >= 0 {
				return &access.PolicyError{URL: access.Masked(u), Offset: base + len(g) + 1 + i, Rule: "refbygroup", Reason: msg}
			}
		}
	}
	return nil
}

func decoded(enc string, i int) byte {
	c, _ := octet(enc, i)
	return c
}

// Fetch asks the news server for what u names (see the table above).
// 411, 423, 430 and other refusals are *access.ServerError.
func (c *Client) Fetch(ctx context.Context, u *locator.URL, req *access.Request) (*access.Resource, error) {
	method, err := req.Method(c.Method)
	if err != nil {
		return nil, err
	}
	n, err := From(u)
	if err != nil {
		return nil, err
	}
	host, port, err := c.server(u, n)
	if err != nil {
		return nil, err
	}
	var conn *newsreader.Conn
	leased := req.Client.Recorder == nil
	if !leased {
		// A record is the whole exchange from the greeting: a
		// connection of its own.
		conn, err = newsreader.Dial(ctx, req, host, port, newsreader.Auth(c.Auth))
	} else {
		// A session an earlier request left (RFC 3977 §5.3: one reader
		// session serves any number of commands), given back when
		// the reply is read to its end.
		conn, err = c.sessions.Lease(ctx, req, host, port, newsreader.Auth(c.Auth))
	}
	if err != nil {
		return nil, err
	}
	res, err := fetch(conn, n, req, method)
	var se *access.ServerError
	switch {
	case err != nil && leased && errors.As(err, &se):
		conn.Quit() // the server's answer: still in step, kept
	case err != nil:
		conn.Close()
	}
	return res, err
}

var _ access.Replayer = (*Client)(nil)

// Replay reads response, the recorded exchange of u's Fetch (the
// greeting and every reply, protocol "nntp"), as Fetch reads a live
// session: the same steps each take the next recorded reply (see
// nntp.Client.Replay). The configured server is not asked (Check still
// refuses a news URL when none is configured, replayed or not).
func (c *Client) Replay(ctx context.Context, u *locator.URL, req *access.Request, response io.Reader) (*access.Resource, error) {
	method, err := req.Method(c.Method)
	if err != nil {
		return nil, err
	}
	n, err := From(u)
	if err != nil {
		return nil, &access.ProtocolError{URL: access.Masked(u), Msg: err.Error()}
	}
	conn, err := newsreader.Replay(req, response)
	if err != nil {
		return nil, err
	}
	res, err := fetch(conn, n, req, method)
	if err != nil {
		conn.Close()
	}
	return res, err
}

func fetch(c *newsreader.Conn, n *URL, req *access.Request, method string) (*access.Resource, error) {
	if err := c.ModeReader(); err != nil {
		return nil, err
	}
	switch {
	case n.Article != "":
		a := n.Article
		if len(a) >= 2 && a[0] == '<' && a[len(a)-1] == '>' {
			a = a[1 : len(a)-1]
		}
		d, err := c.Article("<" + a + ">")
		if err != nil {
			return nil, err
		}
		return &access.Resource{Body: req.Limit(c.Body(d)), Size: -1}, nil
	case n.Group != "" && !strings.ContainsAny(n.Group, "*?"):
		g, err := c.Group(n.Group)
		if err != nil {
			return nil, err
		}
		lo, hi := g.Low, g.High
		if n.Range != "" {
			first, last, isRange := strings.Cut(n.Range, "-")
			if !isRange {
				d, err := c.Article(first)
				if err != nil {
					return nil, err
				}
				return &access.Resource{Body: req.Limit(c.Body(d)), Size: -1}, nil
			}
			lo, _ = strconv.ParseInt(first, 10, 64)
			hi, _ = strconv.ParseInt(last, 10, 64)
			lo, hi = max(lo, g.Low), min(hi, g.High)
		}
		next, err := c.OverviewStream(g, lo, hi, method)
		if err != nil {
			return nil, err
		}
		l := c.Listing(func() (access.Entry, error) {
			o, err := next()
			if err != nil {
				return access.Entry{}, err
			}
			e := newsreader.Entry(o)
			e.URL, _ = (&URL{Article: o.MessageID}).Build()
			return e, nil
		})
		return &access.Resource{Listing: l, Size: -1}, nil
	}
	// "*", draft-gilman's wildcard, or news://host/ with neither.
	next, err := c.ActiveStream(n.Group)
	if err != nil {
		return nil, err
	}
	l := c.Listing(func() (access.Entry, error) {
		a, err := next()
		if err != nil {
			return access.Entry{}, err
		}
		e := access.Entry{Name: a.Group, Type: access.TypeGroup, Size: -1,
			Parts: map[string]any{"high": a.High, "low": a.Low, "status": a.Status}}
		e.URL, _ = (&URL{Group: a.Group}).Build()
		return e, nil
	})
	return &access.Resource{Listing: l, Size: -1}, nil
}
