package crawl

// The crawl one page at a time: what a program that keeps its own
// frontier needs (a crawl in rounds over a crawl database, partitioned
// by server, as bulk/crawljob runs it on Apache Beam), with the same
// fetch, robots.txt, politeness, scope and links as Crawl.

import (
	"context"
	"iter"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/internal/dest"
	"github.com/rfc1738/locator/linkcheck"
)

// A Session fetches pages one at a time as a Crawl from the same seeds
// would: the Crawler's Client and policy (an address of a special
// network only when a seed names it), its robots.txt (read once per
// service in the Session), its politeness (PerHost and Delay per
// server, Crawl-delay, Retries), its scope and depth. It keeps no
// frontier: the caller says what to fetch, and which URLs were seen.
// Its methods are safe for concurrent use; Close ends its sessions.
type Session struct {
	cr     *crawl
	closed func()
}

// Session returns a Session for a crawl from seeds. Frontier, MaxURLs,
// MaxBytes and Check are not used: the caller keeps the URLs, and
// checks with Session.Check.
func (c *Crawler) Session(ctx context.Context, seeds []*locator.URL) (*Session, error) {
	cr := &crawl{c: c, client: c.Client, agent: c.Agent,
		robots: map[string]*robotsEntry{}}
	if cr.agent == "" {
		cr.agent = DefaultAgent
	}
	for _, s := range seeds {
		k, err := Key(s)
		if err != nil {
			return nil, err
		}
		cr.seeds = append(cr.seeds, k)
	}
	base := withHTTP(cr.client, cr.agent)
	base.Policy = namedPolicy(ctx, base, seeds)
	cr.check = base
	cr.client = withCheckRedirect(base, cr.checkRedirect)
	cr.limiter = dest.NewLimiter(max(c.PerHost, 1))
	return &Session{cr: cr, closed: func() { cr.client.CloseIdle(); base.CloseIdle() }}, nil
}

// Close ends the Session's connections (an FTP login, an NNTP session).
func (s *Session) Close() { s.closed() }

// Server returns the key the crawl's politeness is counted by for u:
// its host, any port, however the name is written (internal/dest), the
// server linkcheck counts a probe's destination by too.
func Server(u *locator.URL) string { return dest.Name(locator.Decode(u.Host())) }

// Fetch fetches it, as a Crawl fetches a URL it popped, and returns
// its page and links, each link judged as Crawl judges it (Reason:
// "policy", "scope", "exclude", "include", "session", "depth",
// "invalid") and Follow set on those to fetch; whether a URL was
// fetched already is the caller's to know (Crawl's "seen"), so Follow
// is set for every link in bounds and First for none. A page it could
// not fetch has its Err, as in Crawl; an error is returned only for
// ctx's end.
func (s *Session) Fetch(ctx context.Context, it Item) (*Page, []*Link, error) {
	r := s.cr.visit(ctx, it)
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	for _, l := range r.links {
		s.cr.judge(r.page, l)
		if l.URL != nil && l.Reason == "" {
			l.Follow = true
		}
	}
	return r.page, r.links, nil
}

// LinkDepth is the depth of the URL of a link l found on a page at depth
// page: one more, or the page's own for a redirect's target (the same
// page, found elsewhere).
func LinkDepth(page int, l *Link) int {
	if l.Place.Element == "redirect" {
		return page
	}
	return page + 1
}

// judge says why a link of page is not followed, in l.Reason: what a
// server sent may not name this machine's files (RFC 1738 §3.10, §6:
// "policy"), then scope, Include and Exclude, then Depth. A link that
// already has a Reason ("invalid") keeps it.
func (cr *crawl) judge(page *Page, l *Link) {
	if l.URL == nil || l.Reason != "" {
		return
	}
	if err := access.Sent(page.URL, l.URL); err != nil {
		l.Reason, l.Err = "policy", err
		return
	}
	l.Reason = cr.scope(l.URL)
	depth := cr.c.Depth
	if depth == 0 {
		depth = DefaultDepth
	}
	if l.Reason == "" && depth >= 0 && LinkDepth(page.Depth, l) > depth {
		l.Reason = "depth"
	}
}

// Checks reports whether a link of this Reason is one a Crawler with
// Check checks once the crawl is done: out of scope, excluded, not
// included, past Depth.
func Checks(reason string) bool {
	switch reason {
	case "scope", "exclude", "include", "depth":
		return true
	}
	return false
}

// Check probes urls, as a Crawler with Check probes the links it did
// not follow (package linkcheck, at most PerHost at once to one
// server, Delay between them), and calls emit with a *Checked for each.
func (s *Session) Check(ctx context.Context, urls iter.Seq[*locator.URL], emit func(*Checked) error) error {
	ck := &linkcheck.Checker{Client: s.cr.check, Jobs: s.cr.c.Jobs, PerDest: max(s.cr.c.PerHost, 1), Delay: max(s.cr.delay(), 0)}
	inputs := func(yield func(linkcheck.Input) bool) {
		for u := range urls {
			if !yield(linkcheck.Input{Text: u.String(), URL: u}) {
				return
			}
		}
	}
	return ck.Check(ctx, inputs, func(r linkcheck.Result) error {
		return emit(&Checked{URL: r.URL, Status: r.Status, Tries: r.Tries})
	})
}
