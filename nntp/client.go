package nntp

import (
	"context"
	"io"
	"strconv"
	"strings"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/internal/newsreader"
)

// The ways of reading a group's index, as Client.Method names them:
// MethodOver, the default, asks OVER (RFC 3977 §8.3), then XOVER (RFC
// 2980 §2.8) when the server does not know OVER, then walks the group
// with HEAD and NEXT (RFC 977 §3.1.2, §3.5) when it knows neither;
// MethodXover starts at XOVER; MethodHead walks with HEAD alone. The
// news client offers the same.
const (
	MethodOver  = "over"
	MethodXover = "xover"
	MethodHead  = "head"
)

// Methods lists the methods, the default first.
var Methods = []string{MethodOver, MethodXover, MethodHead}

// Auth is a user name and password for AUTHINFO USER/PASS (RFC 4643
// §2.3), sent only when the server asks for them (480). An nntp URL has
// no user or password (RFC 1738 §3.7) and a news URL names no server at
// all (§3.6), so the credentials come from the reader's configuration,
// never from the URL: the caller (a command, reading its own
// configuration) puts them in the nntp and news clients. An empty User
// is no credentials: the clients then answer a 480 with the login the
// access.Client's Login (a .netrc) knows for the server, if any.
type Auth struct {
	User, Password string
}

func init() {
	access.Register("nntp", access.Info{DefaultPort: 119, Methods: Methods}, func() access.Fetcher { return new(Client) })
}

// Client follows nntp URLs for package access (RFC 1738 §3.7):
// nntp://host:port/group/n is GROUP then ARTICLE n (RFC 977 §3.2.1,
// §3.1.1) and delivers the article; nntp://host:port/group is GROUP and
// the group's overview, a listing whose entries are the articles' nntp
// URLs. MODE READER is sent first (RFC 3977 §5.3).
//
// When the access.Client records, a Fetch's record is the session's
// exchange (access.RecordExchange, protocol "nntp"): the commands as
// sent, AUTHINFO PASS's password masked, and the replies from the
// greeting on (newsreader.Dial); Replay reads it back.
//
// A Client keeps the connections of probes for the next probe of the
// same server (CloseIdle ends them). Its zero value is ready; it is safe
// for concurrent use, and its fields must not be changed once it is in
// use.
type Client struct {
	// Method is how a group's index is read (Methods); "" is MethodOver.
	Method string
	// Auth answers a server that requires authentication (480); when
	// it is empty, the login access.Client.Login knows for the URL's
	// host does (Request.Login).
	Auth Auth

	sessions newsreader.Pool
}

var (
	_ access.Prober     = (*Client)(nil)
	_ access.IdleCloser = (*Client)(nil)
)

// Check refuses, before any connection, an nntp URL with no host (§3.7:
// nntp URLs name their server), no group, an article number that is not
// digits or anything after it, and a group that, decoded, holds CR, LF,
// NUL (§6), a space or a TAB (RFC 3977 §3.1): it would break the GROUP
// command line.
func (*Client) Check(u *locator.URL, req *access.Request) error {
	if !u.HasAuthority() || u.Host() == "" {
		return &access.PolicyError{URL: access.Masked(u), Offset: u.Offset(locator.HostComponent), Rule: "RFC 1738 §3.7", Reason: "an nntp URL names the server to connect to: nntp://<host>:<port>/<group>/<article>"}
	}
	base := u.Offset(locator.PathComponent)
	g, rest, found := strings.Cut(u.Path(), "/")
	if g == "" {
		return &access.PolicyError{URL: access.Masked(u), Offset: base, Rule: "nntpurl", Reason: "an nntp URL names a newsgroup after the host (RFC 1738 §3.7)"}
	}
	if i := newsreader.ArgOffset(g, ""); i >= 0 {
		return newsreader.ArgPolicyError(u, base+i, newsreader.DecodedAt(g, i))
	}
	if found {
		num, _, more := strings.Cut(rest, "/")
		if !isDigits(num) || more {
			return &access.PolicyError{URL: access.Masked(u), Offset: base + len(g) + 1, Rule: "nntpurl", Reason: "an article is named by its number alone: nntp://<host>:<port>/<group>/<article-number> (RFC 1738 §5 nntpurl); found " + strconv.Quote(rest)}
		}
	}
	return nil
}

// Fetch connects, sends MODE READER and GROUP, then ARTICLE n (the
// article's octets, dot-stuffing undone) or reads the group's overview
// (a listing of nntp URLs, read line by line as the caller asks). 411,
// 423 and other refusals are *access.ServerError.
func (c *Client) Fetch(ctx context.Context, u *locator.URL, req *access.Request) (*access.Resource, error) {
	method, err := req.Method(c.Method)
	if err != nil {
		return nil, err
	}
	a := split(u)
	conn, err := newsreader.Dial(ctx, req, u.Host(), u.EffectivePort(), newsreader.Auth(c.Auth))
	if err != nil {
		return nil, err
	}
	res, err := fetch(conn, u, req, a, method)
	if err != nil {
		conn.Close()
	}
	return res, err
}

var _ access.Replayer = (*Client)(nil)

// Replay reads response, the recorded exchange of u's Fetch (the
// greeting and every reply, see newsreader.Dial), as Fetch reads a
// live session: the same steps (MODE READER, GROUP, then ARTICLE or
// the overview by c.Method, with the same fallbacks) each take the next
// recorded reply, so that an article is its octets, dot-stuffing
// undone, a group the listing of its overview, and a refusal the
// *access.ServerError it was. A record that breaks off or is not NNTP
// is an *access.ProtocolError.
func (c *Client) Replay(ctx context.Context, u *locator.URL, req *access.Request, response io.Reader) (*access.Resource, error) {
	method, err := req.Method(c.Method)
	if err != nil {
		return nil, err
	}
	conn, err := newsreader.Replay(req, response)
	if err != nil {
		return nil, err
	}
	res, err := fetch(conn, u, req, split(u), method)
	if err != nil {
		conn.Close()
	}
	return res, err
}

func fetch(c *newsreader.Conn, u *locator.URL, req *access.Request, a Article, method string) (*access.Resource, error) {
	if err := c.ModeReader(); err != nil {
		return nil, err
	}
	g, err := c.Group(a.Group)
	if err != nil {
		return nil, err
	}
	if a.HasNumber {
		d, err := c.Article(a.Number)
		if err != nil {
			return nil, err
		}
		return &access.Resource{Body: req.Limit(c.Body(d)), Size: -1}, nil
	}
	next, err := c.OverviewStream(g, g.Low, g.High, method)
	if err != nil {
		return nil, err
	}
	l := c.Listing(func() (access.Entry, error) {
		o, err := next()
		if err != nil {
			return access.Entry{}, err
		}
		e := newsreader.Entry(o)
		e.URL, _ = (&URL{Host: u.Host(), Port: u.Port(), Article: Article{Group: a.Group, Number: strconv.FormatInt(o.Number, 10), HasNumber: true}}).Build()
		return e, nil
	})
	return &access.Resource{Listing: l, Size: -1}, nil
}

// Probe says whether the group or article u names is there without
// transferring it: MODE READER, GROUP (RFC 3977 §6.1.1), and for an
// article STAT n (§6.2.4: "223 n message-id" when it exists). 211 and
// 223 are StateOK (a group as a listing); 411 (no such group), 423 (no
// article with that number) and 430 (no article with that message-id)
// StateGone; other 4xx and 5xx answers (480 authentication required, 502
// not permitted) StateRefused, 400 (service temporarily unavailable)
// Transient. The connection is kept, without QUIT, for the next probe of
// the same server by c, and ended when left idle a few seconds or by
// CloseIdle.
func (c *Client) Probe(ctx context.Context, u *locator.URL, req *access.Request) (st *access.Status, err error) {
	a := split(u)
	conn, release, err := c.sessions.Session(ctx, req, u.Host(), u.EffectivePort(), newsreader.Auth(c.Auth))
	if err != nil {
		return newsreader.ServerStatus(err)
	}
	defer func() { release(err) }()
	g, err := conn.Group(a.Group)
	if err != nil {
		return newsreader.ServerStatus(err)
	}
	if !a.HasNumber {
		return &access.Status{State: access.StateOK, Code: "211", Text: strconv.FormatInt(g.Count, 10) + " " + strconv.FormatInt(g.Low, 10) + " " + strconv.FormatInt(g.High, 10) + " " + g.Name, Command: "GROUP " + a.Group, Size: -1, Listing: true}, nil
	}
	return newsreader.ProbeStat(conn, a.Number)
}

// CloseIdle ends the connections kept for probes with QUIT (RFC 3977
// §5.4).
func (c *Client) CloseIdle() { c.sessions.CloseIdle() }
