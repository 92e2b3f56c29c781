package news

import (
	"context"
	"strings"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/nntp"
)

var (
	_ access.Prober     = client{}
	_ access.IdleCloser = client{}
)

// CloseIdle ends the idle probe sessions (nntp.CloseIdleProbes).
func (client) CloseIdle() { nntp.CloseIdleProbes() }

// Probe says whether the article or group u names is there without
// transferring it, on the news server Fetch would ask (RFC 1738 §3.6:
// the configured one; draft-gilman's news://host:port/): MODE READER,
// then STAT <message-id> for an article (RFC 3977 §6.2.4), GROUP for a
// group (and STAT n for draft-gilman's single article number), nothing
// more for news:* and a wildcard (the server answering is enough). 223
// and 211 are Present; 411, 423 and 430 Gone; see nntp.ServerStatus for
// the rest. The connection is reused by the next probe of the same
// server (nntp.ProbeSession).
func (client) Probe(ctx context.Context, u *locator.URL, req *access.Request) (st *access.Status, err error) {
	n, err := From(u)
	if err != nil {
		return nil, err
	}
	host, port, err := server(u, n, req)
	if err != nil {
		return nil, err
	}
	c, release, err := nntp.ProbeSession(ctx, req, host, port)
	if err != nil {
		return nntp.ServerStatus(err)
	}
	defer func() { release(err) }()
	switch {
	case n.Article != "":
		a := n.Article
		if len(a) >= 2 && a[0] == '<' && a[len(a)-1] == '>' {
			a = a[1 : len(a)-1]
		}
		return nntp.ProbeStat(c, "<"+a+">")
	case n.Group != "" && !strings.ContainsAny(n.Group, "*?"):
		g, err := c.Group(n.Group)
		if err != nil {
			return nntp.ServerStatus(err)
		}
		if first, _, isRange := strings.Cut(n.Range, "-"); n.Range != "" && !isRange {
			return nntp.ProbeStat(c, first)
		}
		return &access.Status{State: access.Present, Code: "211", Command: "GROUP " + n.Group, Text: g.Name, Size: -1, Listing: true}, nil
	}
	return &access.Status{State: access.Present, Code: "200", Text: c.Greeting.Text, Size: -1, Listing: true}, nil
}
