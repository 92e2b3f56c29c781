package news

import (
	"context"
	"strings"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/internal/newsreader"
)

// CloseIdle ends the connections kept for probes with QUIT (RFC 3977
// §5.4).
func (c *Client) CloseIdle() { c.sessions.CloseIdle() }

// Probe says whether the article or group u names is there without
// transferring it, on the news server Fetch would ask (RFC 1738 §3.6:
// the configured one; draft-gilman's news://host:port/): MODE READER,
// then STAT <message-id> for an article (RFC 3977 §6.2.4), GROUP for a
// group (and STAT n for draft-gilman's single article number), nothing
// more for news:* and a wildcard (the server answering is enough). 223
// and 211 are StateOK; 411 (no such group), 423 (no article with that
// number) and 430 (no article with that message-id) StateGone; other 4xx
// and 5xx answers StateRefused (400, service temporarily unavailable,
// Transient). The connection is kept, without QUIT, for the next probe
// of the same server by c, and ended when left idle a few seconds or by
// CloseIdle.
func (c *Client) Probe(ctx context.Context, u *locator.URL, req *access.Request) (st *access.Status, err error) {
	n, err := From(u)
	if err != nil {
		return nil, err
	}
	host, port, err := c.server(u, n)
	if err != nil {
		return nil, err
	}
	conn, release, err := c.sessions.Session(ctx, req, host, port, newsreader.Auth(c.Auth))
	if err != nil {
		return newsreader.ServerStatus(err)
	}
	defer func() { release(err) }()
	switch {
	case n.Article != "":
		a := n.Article
		if len(a) >= 2 && a[0] == '<' && a[len(a)-1] == '>' {
			a = a[1 : len(a)-1]
		}
		return newsreader.ProbeStat(conn, "<"+a+">")
	case n.Group != "" && !strings.ContainsAny(n.Group, "*?"):
		g, err := conn.Group(n.Group)
		if err != nil {
			return newsreader.ServerStatus(err)
		}
		if first, _, isRange := strings.Cut(n.Range, "-"); n.Range != "" && !isRange {
			return newsreader.ProbeStat(conn, first)
		}
		return &access.Status{State: access.StateOK, Code: "211", Command: "GROUP " + n.Group, Text: g.Name, Size: -1, Listing: true}, nil
	}
	return &access.Status{State: access.StateOK, Code: "200", Text: conn.Greeting.Text, Size: -1, Listing: true}, nil
}
