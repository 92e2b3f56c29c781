// Package crawl follows the links of what it fetches, from seed URLs,
// politely, and reports each page fetched and each link found with the
// place it stood, so that a program can say which links are broken and
// where.
//
// A Crawler fetches through an access.Client, so that every scheme with a
// client is crawled the same way, and reads links out of:
//
//   - HTML, from any scheme that serves text/html: the URL-valued
//     attributes of its elements (a href, img src, form action, ...),
//     resolved against the page's URL or its <base href> (RFC 3986 §5);
//   - collections (access.Listing): Gopher menus (RFC 1436 §3.8), every
//     item type, an "h" item with a "URL:" selector giving its URL, and
//     of a Gopher+ menu the alternative views of its items (their
//     +VIEWS attributes, Gopher+ A3.0, read with one "$" request);
//     FTP directory listings; news group overviews; Prospero
//     directories;
//   - CSS style sheets (text/css), and those of HTML's <style> elements
//     and style attributes: url() and @import (CSS Syntax Level 3 §4,
//     package internal/csslinks);
//   - text/gemini documents, from their link lines (Gemini §5.4.2:
//     "=>" URL and name; package gemini's Links);
//   - plain text, with FollowText (package text's URLs of running
//     text).
//
// A link is followed when it is in scope (Scope, Include, Exclude) and
// within the bounds (Depth, MaxURLs, MaxBytes); a link to a session
// (telnet, tn3270: a Gopher 8 or T item) is recorded and never followed.
// With Check, a link that is not followed is checked instead (package
// linkcheck) once the crawl is done.
//
// Politeness: at most PerHost requests are under way to one server (by
// name, any port: internal/dest), each begun at least Delay after the one
// before it ended; robots.txt (RFC 9309) is read for http, https and ftp
// (§2.3: "scheme:[//authority]/robots.txt") and, by the convention of
// Gopher crawlers (Veronica-2), as the selector "robots.txt" of a Gopher
// server (gopher://host:port/0robots.txt), and obeyed, its Crawl-delay
// too. A server that says it is busy — HTTP 429 (RFC 6585 §4) or 503
// (RFC 9110 §15.6.4), FTP 421 (RFC 959 §4.2.1: "Service not available,
// closing control connection"), NNTP 400 or 502 (RFC 3977 §3.2.1:
// service discontinued, or unavailable) — is asked again after Backoff,
// then twice as long, Retries times, or after the wait its Retry-After
// asks for (access.ServerError.RetryAfter) when that is longer.
//
// A redirect is followed within the fetch (Client.MaxRedirects) when its
// target is in scope, of the same server (its PerHost slot is the one
// held) and allowed by that service's robots.txt; the links of what it
// gives are then read against the URL it came from (Page.Final). Any
// other redirect is not followed within the fetch: the page reports it
// (Page.Redirect) and a *Link of Place "redirect" names its target, which
// is followed, or checked, as any link (its own server's slot, its
// robots.txt), at the page's depth.
package crawl

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"mime"
	"net"
	"net/http"
	"net/netip"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/internal/csslinks"
	"github.com/rfc1738/locator/internal/dest"
	"github.com/rfc1738/locator/internal/htmllinks"
	"github.com/rfc1738/locator/internal/robots"
	"github.com/rfc1738/locator/linkcheck"
	"github.com/rfc1738/locator/text"
)

// Defaults of a Crawler's zero fields.
const (
	DefaultDepth    = 5
	DefaultDelay    = time.Second
	DefaultJobs     = 4
	DefaultMaxLinks = 1 << 14
	DefaultPageSize = 8 << 20
	DefaultRetries  = 2
	DefaultBackoff  = 5 * time.Second
	// DefaultAgent is the product token a Crawler names itself by in
	// robots.txt (RFC 9309 §2.2.1) and in its User-Agent.
	DefaultAgent = "locator"
)

// NoDelay, as Crawler.Delay, begins each request to a server as soon as
// one of its PerHost slots is free.
const NoDelay time.Duration = -1

// A Scope says which links are followed, by their URL and the seeds'.
type Scope int

const (
	// ScopePrefix follows a URL of a seed's host (any scheme, any port)
	// whose path begins with the seed's path up to its last "/".
	ScopePrefix Scope = iota
	// ScopeHost follows every URL of a seed's host.
	ScopeHost
	// ScopeDomain follows every URL of a seed's domain: its host
	// without the first label when the host has three labels or more
	// (www.example.org: example.org and every name under it), else the
	// host; an address is its own domain.
	ScopeDomain
	// ScopeAny follows every link.
	ScopeAny
)

var scopeNames = []string{"prefix", "host", "domain", "any"}

func (s Scope) String() string {
	if int(s) < len(scopeNames) && s >= 0 {
		return scopeNames[s]
	}
	return fmt.Sprintf("Scope(%d)", int(s))
}

// ParseScope returns the Scope name names: "prefix", "host", "domain" or
// "any".
func ParseScope(name string) (Scope, error) {
	for i, n := range scopeNames {
		if strings.EqualFold(n, name) {
			return Scope(i), nil
		}
	}
	return 0, fmt.Errorf("crawl: unknown scope %q (prefix, host, domain, any)", name)
}

// A Crawler crawls as the package comment says. The zero value is
// usable: each zero field takes the default named beside it. Its fields
// must not change while it crawls.
type Crawler struct {
	// Client fetches (nil: a Client with the defaults). Its http and
	// https requests name the crawler (userAgent(Agent)) unless its
	// Schemes name a client of their own for http or https.
	Client *access.Client
	// Agent is the product token matched against robots.txt's
	// user-agent lines (letters, '_' and '-'); "" is DefaultAgent.
	Agent string
	// Scope says which links are followed (ScopePrefix).
	Scope Scope
	// Include, when not empty, lists patterns one of which a URL must
	// match to be followed; Exclude lists patterns none of which it may
	// match. Each is matched against the URL as fetched (normalized,
	// without its fragment).
	Include, Exclude []*regexp.Regexp
	// Depth bounds the links followed from a seed to a page fetched
	// (DefaultDepth); negative: no bound. A link from a page at Depth
	// is not followed (it is checked, with Check).
	Depth int
	// MaxURLs bounds the URLs fetched, the seeds included; 0: no bound.
	// A link past it is not pushed (Link.Reason "max-urls"), except
	// into a Frontier given here (Frontier), which may outlive the
	// crawl: every link is pushed there, and the bound is on the Items
	// this Crawl pops, so that the rest waits for the next Crawl on it.
	MaxURLs int
	// MaxBytes bounds the octets read in all; 0: no bound. The crawl
	// ends with a *LimitError once they are read.
	MaxBytes int64
	// MaxPage bounds the octets of one page read for its links
	// (DefaultPageSize); the rest is not read.
	MaxPage int64
	// MaxLinks bounds the links taken from one page or listing
	// (DefaultMaxLinks): a news group's overview, a long directory.
	MaxLinks int
	// Jobs bounds the requests under way in all (DefaultJobs).
	Jobs int
	// PerHost bounds the requests under way to one server (1).
	PerHost int
	// Delay is the least time between the end of a request to a server
	// and the beginning of the next (DefaultDelay; NoDelay for none); a
	// robots.txt Crawl-delay that is longer replaces it for that
	// service, unless DelayFixed. With PerHost above 1, the requests
	// that wait for one server begin together once the time has come.
	Delay time.Duration
	// DelayFixed keeps Delay, NoDelay too, whatever a robots.txt's
	// Crawl-delay says: a delay a person chose, where the default
	// yields to the site's.
	DelayFixed bool
	// IgnoreRobots neither reads nor obeys robots.txt (nor its
	// Crawl-delay): for a site's owner checking their own site, as
	// wget's "-e robots=off".
	IgnoreRobots bool
	// Retries and Backoff answer a 429 or 503: the request is made
	// again after Backoff, then twice as long, Retries times
	// (DefaultRetries, DefaultBackoff; negative Retries: none).
	Retries int
	Backoff time.Duration
	// FollowText reads the URLs of plain-text objects (text/plain, a
	// message: message/*, or an object of no type whose octets look like
	// text) as links (package text).
	FollowText bool
	// Check probes, once the crawl is done, each distinct link that was
	// not followed (out of scope, excluded, past Depth), with
	// linkcheck, and reports a *Checked for each.
	Check bool
	// Frontier holds the URLs to fetch; nil: a frontier of the
	// crawl's own, in memory up to a constant number of URLs and past
	// them in a temporary file of TempDir. A Frontier given here may outlive the crawl
	// (BoltFrontier): a Crawl on one that holds URLs goes on from them,
	// its seeds pushed again only when they were never pushed. MaxURLs
	// then counts the URLs popped by this Crawl.
	Frontier Frontier
	// TempDir is the directory of the temporary file of the crawl's
	// own frontier (Frontier nil); "" is os.TempDir.
	TempDir string
}

// An Event is what Crawl reports: a *Page, a *Link or a *Checked.
type Event interface{ event() }

// A Page is one URL the crawl fetched, or meant to and did not.
type Page struct {
	URL   *locator.URL // as fetched (normalized, no fragment)
	Depth int
	// From is the page the URL was first found on; nil for a seed.
	From *locator.URL
	// Final is the URL the object came from, after redirects.
	Final *locator.URL
	// Redirect is the target of a redirect that was not followed within
	// the fetch (the package comment says when); the page's one Link,
	// of Place "redirect", names it.
	Redirect *locator.URL
	// Err is why the object could not be fetched (access.Classify
	// gives its Outcome); nil when it was.
	Err error
	// Skipped, when not "", says why the URL was not fetched: "robots"
	// (the service's robots.txt disallows it). Err is set too when the
	// robots.txt could not be reached (RFC 9309 §2.3.1.4: "complete
	// disallow").
	Skipped string
	// MediaType is the object's media type, without parameters.
	MediaType string
	// Size is the object's size when the server says it, else the
	// octets read, else -1; Read is the octets read.
	Size, Read int64
	// Listing is true for a collection (a menu, a directory, a group).
	Listing bool
	// Links counts the links found in it.
	Links int
	// Tries counts the requests made (more than 1 after a server said
	// it was busy).
	Tries int
}

// A Link is one link found on a page.
type Link struct {
	From  *locator.URL // the page (as fetched)
	Place Place
	// Ref is the link as written; URL the URL it names (normalized, no
	// fragment), nil when it names none (Err says why).
	Ref string
	URL *locator.URL
	Err error
	// Follow is true when the crawl fetches the URL (it is in scope
	// and within the bounds; once, whichever link names it first);
	// Reason says why not otherwise: "scope", "exclude", "include",
	// "depth", "max-urls", "session" (telnet: an interactive session,
	// never fetched), "invalid", "policy" (Err says why: a file URL in
	// a page a server sent, access.Sent).
	Follow bool
	Reason string
	// First is true for the link that had the crawl follow its URL:
	// the first found to name it.
	First bool
}

// A Place is where a link stood on its page.
type Place struct {
	// Element and Attr name an HTML link's element and attribute ("a",
	// "href"); Element is "entry" for a listing's entry (Line its
	// number, from 1, and Name its name), "+VIEWS" for an alternative
	// view of a Gopher+ menu's item (Line the item's entry, Name the
	// view), "text" for a URL of plain text, "=>" for a link line of a
	// text/gemini document (Line and Name) and "redirect" for a
	// redirect's target (Page.Redirect).
	Element, Attr string
	Name          string
	Line, Column  int
}

// String writes p as a person reads it: `<a href> line 3 column 9`,
// `entry 4 "name"`, `text line 2 column 5`.
func (p Place) String() string {
	switch p.Element {
	case "entry":
		return fmt.Sprintf("entry %d %q", p.Line, p.Name)
	case "text":
		return fmt.Sprintf("text line %d column %d", p.Line, p.Column)
	case "redirect":
		return "redirect"
	case "=>":
		return fmt.Sprintf("=> line %d %q", p.Line, p.Name)
	case "+VIEWS":
		return fmt.Sprintf("entry %d +VIEWS %q", p.Line, p.Name)
	case "css":
		return fmt.Sprintf("css %s line %d column %d", p.Attr, p.Line, p.Column)
	}
	return fmt.Sprintf("<%s %s> line %d column %d", p.Element, p.Attr, p.Line, p.Column)
}

// A Checked is the answer of a link checked (Crawler.Check): a URL not
// followed, probed once however many links name it.
type Checked struct {
	URL    *locator.URL
	Status *access.Status
	Tries  int
}

func (*Page) event()    {}
func (*Link) event()    {}
func (*Checked) event() {}

// A LimitError ends a crawl that reached MaxBytes.
type LimitError struct {
	Limit string // "max-bytes"
	Max   int64
}

func (e *LimitError) Error() string {
	return fmt.Sprintf("crawl: %s reached (%d)", e.Limit, e.Max)
}

// Key returns the URL u is fetched and counted as: normalized
// (locator.Normalize), its fragment removed (a fragment names a place in
// the object, not another object).
func Key(u *locator.URL) (*locator.URL, error) {
	n := locator.Normalize(u)
	if !n.HasFragment() {
		return n, nil
	}
	s := n.String()
	return locator.Parse(s[:len(s)-len(n.Fragment())-1])
}

// crawl is one Crawl's state.
type crawl struct {
	c      *Crawler
	client *access.Client // fetches, its CheckRedirect the crawl's
	check  *access.Client // checks (linkcheck)
	agent  string
	front  Frontier
	emit   func(Event) error
	seeds  []*locator.URL

	limiter *dest.Limiter
	mu      sync.Mutex
	pace    dest.Pace               // per server: when its next request may begin
	robots  map[string]*robotsEntry // per service (scheme://host:port)
	read    atomic.Int64            // octets read in all
	cut     atomic.Bool             // a body was cut short at MaxBytes
	fetched int                     // URLs popped to fetch
	pushed  int                     // URLs pushed, seeds included
	checks  checkSet                // links to check
	visits  sync.Map                // URL being fetched → *visitState
}

// visitState is what the redirect hook knows of a fetch under way.
type visitState struct {
	ctx    context.Context
	server string // the server whose slot is held
}

// redirectStop ends a fetch at a redirect the crawl follows as a link.
type redirectStop struct{ next *locator.URL }

func (e *redirectStop) Error() string {
	return "crawl: a redirect to " + access.Masked(e.next) + " followed as a link"
}

type robotsEntry struct {
	once  sync.Once
	rules *robots.Rules
	err   error
}

// result is what a visit returns to the crawl's goroutine.
type result struct {
	item  string // the Item's URL
	page  *Page
	links []*Link
	err   error // ends the crawl (a MaxBytes)
}

// Crawl fetches seeds and what their links lead to, as the Crawler says,
// and calls emit with each Event from the goroutine that called Crawl: a
// *Page after each URL fetched (or skipped), followed by a *Link for each
// link found on it, in page order; then, with Check, a *Checked for each
// link not followed. emit's error, ctx's, or a Frontier's ends the crawl
// and is returned; a crawl that reached MaxBytes returns a *LimitError.
func (c *Crawler) Crawl(ctx context.Context, seeds []*locator.URL, emit func(Event) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	cr := &crawl{c: c, emit: emit, client: c.Client, agent: c.Agent, front: c.Frontier,
		robots: map[string]*robotsEntry{}}
	if cr.agent == "" {
		cr.agent = DefaultAgent
	}
	base := withHTTP(cr.client, cr.agent)
	base.Policy = namedPolicy(ctx, base, seeds)
	cr.check = base
	cr.client = withCheckRedirect(base, cr.checkRedirect)
	defer cr.client.CloseIdle() // its sessions are the crawl's own
	defer base.CloseIdle()
	if cr.front == nil {
		sf := &spillFrontier{dir: c.TempDir}
		defer sf.close()
		cr.front = sf
	}
	if err := cr.checks.init(cr.front); err != nil {
		return err
	}
	per := c.PerHost
	if per < 1 {
		per = 1
	}
	cr.limiter = dest.NewLimiter(per)
	for _, s := range seeds {
		k, err := Key(s)
		if err != nil {
			return err
		}
		cr.seeds = append(cr.seeds, k)
		if _, err := cr.push(Item{URL: k.String()}); err != nil {
			return err
		}
	}
	jobs := c.Jobs
	if jobs < 1 {
		jobs = DefaultJobs
	}
	results := make(chan result)
	inflight := 0
	var stop error
	for {
		for stop == nil && inflight < jobs {
			if c.Frontier != nil && c.MaxURLs > 0 && cr.fetched >= c.MaxURLs {
				break // the rest waits in the Frontier
			}
			it, ok, err := cr.front.Pop()
			if err != nil {
				stop = err
				break
			}
			if !ok {
				break
			}
			if c.MaxBytes > 0 && cr.read.Load() >= c.MaxBytes {
				stop = &LimitError{Limit: "max-bytes", Max: c.MaxBytes}
				break
			}
			inflight++
			cr.fetched++
			go func(it Item) {
				r := cr.visit(ctx, it)
				r.item = it.URL
				results <- r
			}(it)
		}
		if inflight == 0 {
			break
		}
		r := <-results
		inflight--
		if stop == nil && ctx.Err() != nil {
			// A page cut short by the end of ctx is not reported
			// (nor done): it was not fetched, and a Frontier that
			// outlives the crawl pops it again.
			stop = ctx.Err()
		}
		if stop != nil {
			continue // drain: the crawl is ending
		}
		if r.err != nil {
			stop = r.err
			cancel()
			continue
		}
		if err := cr.handle(r); err != nil {
			stop = err
			cancel()
			continue
		}
		if err := cr.front.Done(r.item); err != nil {
			stop = err
			cancel()
		}
	}
	if stop == nil {
		stop = ctx.Err()
	}
	if stop == nil && cr.cut.Load() {
		// The last pages were cut short at MaxBytes, with nothing
		// left to pop after them.
		stop = &LimitError{Limit: "max-bytes", Max: c.MaxBytes}
	}
	if stop != nil {
		return stop
	}
	if c.Check && cr.checks.n > 0 {
		return cr.checkLinks(ctx)
	}
	return nil
}

// namedPolicy returns c's policy for a crawl from seeds: an address of
// a special network (loopback, private, link-local: access.Special) is
// reached only when the person named it, a seed's host is that address
// or resolves to it, or the proxy a seed goes through is there, or an
// Allow rule admits it (access.SpecialNamed), for a page is written by
// whoever runs its server, and a link in it to http://127.0.0.1:8080/admin
// would have the crawler reach places the person never pointed it at.
// A policy stricter than that (SpecialNever) is kept.
func namedPolicy(ctx context.Context, c *access.Client, seeds []*locator.URL) access.Policy {
	p := c.Policy
	if p.Special == access.SpecialNever {
		return p
	}
	p.Special = access.SpecialNamed
	p.Named = append([]netip.Addr(nil), p.Named...)
	var hosts []string
	for _, u := range seeds {
		hosts = append(hosts, u.Host())
		if c.Proxy != nil {
			if pu, err := c.Proxy(u); err == nil && pu != nil {
				hosts = append(hosts, pu.Host())
			}
		}
	}
	var res access.Resolver = net.DefaultResolver
	if c.Resolver != nil {
		res = c.Resolver
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	for _, h := range hosts {
		if h == "" {
			continue
		}
		if _, addrs, err := dest.Addrs(ctx, res, h); err == nil {
			p.Named = append(p.Named, addrs...) // else the connection will say why
		}
	}
	return p
}

// UserAgent returns the User-Agent a Crawler's HTTP requests send:
// its product token agent (RFC 9309 §2.2.1: the token robots.txt is
// matched against "SHOULD be a substring" of it) and what it is.
func userAgent(agent string) string {
	if agent == "" {
		agent = DefaultAgent
	}
	return agent + " (RFC 1738 crawler)"
}

// copyClient returns a Client with c's settings: its exported fields
// (the scheme clients, the policy, the limits), the Schemes map its
// own.
func copyClient(c *access.Client) *access.Client {
	n := &access.Client{}
	src, dst := reflect.ValueOf(c).Elem(), reflect.ValueOf(n).Elem()
	for i := 0; i < src.NumField(); i++ {
		if src.Type().Field(i).IsExported() {
			dst.Field(i).Set(src.Field(i))
		}
	}
	n.Schemes = make(map[string]access.Fetcher, len(c.Schemes)+2)
	for k, v := range c.Schemes {
		n.Schemes[k] = v
	}
	return n
}

// withHTTP returns a Client with c's settings (nil: the defaults) whose
// requests name the crawler (userAgent) where a scheme's client can name
// the program that makes them (access.AgentNamer: http and https), unless
// c names a client of its own for that scheme: the one place a crawl's
// User-Agent is set, which a program replaces by giving its own client.
func withHTTP(c *access.Client, agent string) *access.Client {
	if c == nil {
		c = &access.Client{}
	}
	n := copyClient(c)
	for _, s := range access.Schemes() {
		if n.Schemes[s] != nil {
			continue
		}
		if f, err := n.Fetcher(s); err == nil {
			if a, ok := f.(access.AgentNamer); ok {
				n.Schemes[s] = a.WithAgent(userAgent(agent))
			}
		}
	}
	return n
}

// withCheckRedirect returns a Client with c's settings whose
// CheckRedirect asks c's, then hook.
func withCheckRedirect(c *access.Client, hook func(*locator.URL, []*locator.URL) error) *access.Client {
	n := copyClient(c)
	prev := c.CheckRedirect
	n.CheckRedirect = func(next *locator.URL, via []*locator.URL) error {
		if prev != nil {
			if err := prev(next, via); err != nil {
				return err
			}
		}
		return hook(next, via)
	}
	return n
}

// checkRedirect is the crawl's Client.CheckRedirect: a redirect of a
// page's fetch is followed within it only when its target is in scope,
// of the server whose slot the fetch holds, and allowed by its service's
// robots.txt; otherwise the fetch ends with a *redirectStop, and the
// target is followed as a link. A redirect of another request (a
// robots.txt: RFC 9309 §2.3.1.2 follows them) is the Client's to follow.
func (cr *crawl) checkRedirect(next *locator.URL, via []*locator.URL) error {
	v, ok := cr.visits.Load(via[0].String())
	if !ok {
		return nil
	}
	vs := v.(*visitState)
	k, err := Key(next)
	if err != nil {
		return err
	}
	stop := &redirectStop{next: k}
	if cr.scope(k) != "" || dest.Name(locator.Decode(k.Host())) != vs.server {
		return stop
	}
	if rules, err := cr.rules(vs.ctx, k, vs.server); err != nil || !rules.Allowed(cr.robotsPath(k)) {
		return stop
	}
	return nil
}

// push adds it to the frontier.
func (cr *crawl) push(it Item) (bool, error) {
	ok, err := cr.front.Push(it)
	if ok {
		cr.pushed++
	}
	return ok, err
}

// handle reports a visit's page and links and pushes the links to follow.
func (cr *crawl) handle(r result) error {
	if err := cr.emit(r.page); err != nil {
		return err
	}
	c := cr.c
	from := ""
	for _, l := range r.links {
		judged := l.URL != nil && l.Reason == ""
		cr.judge(r.page, l) // page.go
		if judged && l.Reason != "policy" {
			d := LinkDepth(r.page.Depth, l)
			if l.Reason == "" {
				key := l.URL.String()
				seen, err := cr.front.Seen(key)
				if err != nil {
					return err
				}
				switch {
				case seen:
					l.Follow = true // fetched once, for the first link
				case c.Frontier == nil && c.MaxURLs > 0 && cr.pushed >= c.MaxURLs:
					l.Reason = "max-urls"
				default:
					if from == "" {
						// One copy for all the page's links (a
						// URL's String may share the octets of
						// the whole parsed URL).
						from = strings.Clone(r.page.URL.String())
					}
					if _, err := cr.push(Item{URL: key, Depth: d, From: from}); err != nil {
						return err
					}
					l.Follow, l.First = true, true
				}
			}
			if c.Check && Checks(l.Reason) {
				if err := cr.checks.add(l.URL); err != nil {
					return err
				}
			}
		}
		if err := cr.emit(l); err != nil {
			return err
		}
	}
	return nil
}

// checkLinks probes the links not followed, with linkcheck, as politely
// as the crawl fetches: PerHost at once to a server, Delay between.
func (cr *crawl) checkLinks(ctx context.Context) error {
	ck := &linkcheck.Checker{Client: cr.check, Jobs: cr.c.Jobs, PerDest: cr.c.PerHost, Delay: max(cr.delay(), 0)}
	if ck.PerDest < 1 {
		ck.PerDest = 1
	}
	var ierr error
	inputs := iter.Seq[linkcheck.Input](func(yield func(linkcheck.Input) bool) {
		ierr = cr.checks.each(func(s string) bool {
			u, err := locator.Parse(s)
			if err != nil {
				return true
			}
			return yield(linkcheck.Input{Text: s, URL: u})
		})
	})
	err := ck.Check(ctx, inputs, func(r linkcheck.Result) error {
		return cr.emit(&Checked{URL: r.URL, Status: r.Status, Tries: r.Tries})
	})
	if err == nil {
		err = ierr
	}
	return err
}

// scope returns why u is not followed ("scope", "exclude", "include",
// "session"), or "".
func (cr *crawl) scope(u *locator.URL) string {
	if access.IsSession(u.Scheme()) {
		return "session"
	}
	c := cr.c
	in := c.Scope == ScopeAny
	host := dest.Name(locator.Decode(u.Host()))
	for _, s := range cr.seeds {
		if in {
			break
		}
		sh := dest.Name(locator.Decode(s.Host()))
		switch c.Scope {
		case ScopeHost:
			in = host == sh
		case ScopeDomain:
			d := domainOf(sh)
			in = host == d || strings.HasSuffix(host, "."+d)
		default:
			p := cr.scopePath(s)
			if i := strings.LastIndexByte(p, '/'); i >= 0 {
				p = p[:i+1]
			} else {
				p = ""
			}
			in = host == sh && strings.HasPrefix(cr.scopePath(u), p)
		}
	}
	if !in {
		return "scope"
	}
	k := u.String()
	for _, re := range c.Exclude {
		if re.MatchString(k) {
			return "exclude"
		}
	}
	if len(c.Include) > 0 {
		for _, re := range c.Include {
			if re.MatchString(k) {
				return ""
			}
		}
		return "include"
	}
	return ""
}

// scopePath returns the path of u that ScopePrefix compares: the path
// with its first "/", or the object path its scheme's client says
// (access.Pather: a Gopher URL's selector, which the gophertype
// precedes in the URL, RFC 1738 §3.4: "/1/dir/" and "/0/dir/file" are
// of one directory), made to begin with "/".
func (cr *crawl) scopePath(u *locator.URL) string {
	p := "/" + u.Path()
	if op, ok := cr.objectPath(u); ok {
		p = op
	}
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	return p
}

// objectPath returns what u's scheme's client says is the path of u's
// object (access.Pather), ok false when it says nothing or is no Pather.
func (cr *crawl) objectPath(u *locator.URL) (string, bool) {
	if p, ok := cr.fetcher(u.Scheme()).(access.Pather); ok {
		return p.ObjectPath(u)
	}
	return "", false
}

// fetcher returns the client of scheme the crawl's Client follows its
// URLs with, asked what it can do (access's capabilities); nil when
// the scheme has none.
func (cr *crawl) fetcher(scheme string) access.Fetcher {
	c := cr.client
	if c == nil {
		c = access.DefaultClient
	}
	f, _ := c.Fetcher(scheme)
	return f
}

// domainOf returns the domain of host for ScopeDomain.
func domainOf(host string) string {
	if strings.Count(host, ".") < 2 || strings.Contains(host, ":") || isAddress(host) {
		return host
	}
	return host[strings.IndexByte(host, '.')+1:]
}

func isAddress(h string) bool {
	for i := 0; i < len(h); i++ {
		if (h[i] < '0' || h[i] > '9') && h[i] != '.' {
			return false
		}
	}
	return true
}

// visit fetches one URL, politely, and reads its links.
func (cr *crawl) visit(ctx context.Context, it Item) result {
	u, err := locator.Parse(it.URL)
	page := &Page{URL: u, Depth: it.Depth, Size: -1}
	if it.From != "" {
		page.From, _ = locator.Parse(it.From)
	}
	if err != nil {
		page.Err = err
		return result{page: page}
	}
	server := dest.Name(locator.Decode(u.Host()))
	if err := cr.limiter.Acquire(ctx, server); err != nil {
		page.Err = err
		return result{page: page}
	}
	defer cr.limiter.Release(server)
	if err := ctx.Err(); err != nil {
		// The slot came as the crawl ended: nothing is asked.
		page.Err = err
		return result{page: page}
	}

	rules, rerr := cr.rules(ctx, u, server)
	if rerr != nil || !rules.Allowed(cr.robotsPath(u)) {
		page.Skipped, page.Err = "robots", rerr
		return result{page: page}
	}
	delay := cr.delay()
	if rules.HasDelay && rules.CrawlDelay > delay && !cr.c.DelayFixed {
		delay = rules.CrawlDelay
	}
	// The next request to the server waits from the end of this one
	// (the body read or closed), before the slot is given back.
	defer func() { cr.ended(server, delay) }()
	retries, backoff := cr.c.Retries, cr.c.Backoff
	if retries == 0 {
		retries = DefaultRetries
	}
	if backoff <= 0 {
		backoff = DefaultBackoff
	}
	var res *access.Resource
	cr.visits.Store(it.URL, &visitState{ctx: ctx, server: server})
	defer cr.visits.Delete(it.URL)
	for {
		if err := cr.wait(ctx, server); err != nil {
			page.Err = err
			return result{page: page}
		}
		page.Tries++
		res, err = cr.client.Get(ctx, u)
		var se *access.ServerError
		_, isBusy := busy(u.Scheme(), err)
		if !isBusy && errors.As(err, &se) && u.Scheme() == "ftp" && u.Path() != "" && !strings.HasSuffix(u.Path(), "/") {
			// RFC 1738 §3.2.2 lets a client that cannot tell a file
			// from a directory try the other: a link whose target is
			// a directory (a symbolic link in a listing) is one.
			if d, perr := locator.Parse(u.String() + "/"); perr == nil {
				page.Tries++
				if r2, err2 := cr.client.Get(ctx, d); err2 == nil {
					res, err = r2, nil
				}
			}
		}
		after, isBusy := busy(u.Scheme(), err)
		if !isBusy || page.Tries > retries {
			break
		}
		// A server that is busy is left alone for a while: as long
		// as it asked, or the crawler's own wait when longer.
		cr.ended(server, max(delay, backoff, after))
		backoff *= 2
	}
	var rs *redirectStop
	if errors.As(err, &rs) {
		page.Redirect = rs.next
		page.Links = 1
		return result{page: page, links: []*Link{{From: u, Ref: rs.next.String(), URL: rs.next, Place: Place{Element: "redirect"}}}}
	}
	if err != nil {
		page.Err = err
		return result{page: page}
	}
	defer res.Close()
	page.Final = res.URL
	page.Size = res.Size
	if mt, _, err := mime.ParseMediaType(res.MediaType); err == nil {
		page.MediaType = mt
	} else {
		page.MediaType = strings.ToLower(strings.TrimSpace(strings.SplitN(res.MediaType, ";", 2)[0]))
	}
	base := res.URL
	if base == nil {
		base = u
	}
	maxLinks := cr.c.MaxLinks
	if maxLinks <= 0 {
		maxLinks = DefaultMaxLinks
	}
	var links []*Link
	add := func(l *Link) {
		l.From = u
		if l.URL != nil {
			k, err := Key(l.URL)
			if err != nil {
				l.URL, l.Err = nil, err
			} else {
				l.URL = k
			}
		}
		if l.URL == nil && l.Reason == "" {
			l.Reason = "invalid"
		}
		links = append(links, l)
	}
	f := cr.fetcher(u.Scheme())
	if res.Listing != nil {
		page.Listing = true
		var plus map[string]int // a Gopher+ menu's items: URL → line
		vl, _ := f.(access.ViewLister)
		var viewsURL *locator.URL
		if vl != nil {
			viewsURL = vl.ViewsURL(u)
		}
		for n := 1; len(links) < maxLinks; n++ {
			e, err := res.Listing.Next()
			if err != nil {
				if err != io.EOF {
					page.Err = err
				}
				break
			}
			if e.URL == "" {
				continue // an information line
			}
			if p, _ := e.Parts["plus"].(string); p != "" && viewsURL != nil {
				if plus == nil {
					plus = map[string]int{}
				}
				plus[e.URL] = n
			}
			l := &Link{Ref: e.URL, Place: Place{Element: "entry", Name: e.Name, Line: n}}
			l.URL, l.Err = locator.Parse(e.URL)
			if t, ok := e.Parts["link"].(string); ok && t != "" && e.Type == access.TypeLink && u.Scheme() == "ftp" {
				// A symbolic link of an FTP directory is followed to
				// its target, read against the directory, so that a
				// link to "." or ".." is a URL seen already: a loop of
				// links ends there rather than at Depth.
				if tu, err := locator.Resolve(base, t, locator.RFC3986); err == nil && tu.Scheme() == "ftp" && tu.Host() == base.Host() {
					l.Ref, l.URL, l.Err = t, tu, nil
				}
			}
			add(l)
		}
		if plus != nil && len(links) < maxLinks && page.Err == nil {
			// One more request to the server: it waits its turn.
			cr.ended(server, delay)
			if err := cr.wait(ctx, server); err == nil {
				cr.viewLinks(ctx, vl, viewsURL, plus, func(l *Link) bool {
					add(l)
					return len(links) < maxLinks
				})
			}
		}
		page.Links = len(links)
		return result{page: page, links: links}
	}
	if res.Body == nil {
		return result{page: page}
	}
	// Every octet of the body is read within MaxBytes, counted as it
	// is read, whatever reads it.
	var in io.Reader = &budgetReader{r: res.Body, cr: cr, page: page}
	if bc, ok := f.(access.BodyChecker); ok {
		br := bufio.NewReaderSize(in, 512)
		if se := bc.CheckBody(u, br); se != nil {
			page.Err = se
			return result{page: page}
		}
		in = br
	}
	mt := page.MediaType
	if mt == "" {
		// A protocol that says no type (an NNTP article, a Gopher item
		// of a type that names none): the octets say it, as a browser
		// sniffs them (net/http.DetectContentType, the WHATWG MIME
		// Sniffing standard).
		br := bufio.NewReaderSize(in, 512)
		head, _ := br.Peek(512)
		mt, _, _ = mime.ParseMediaType(http.DetectContentType(head))
		in = br
	}
	isHTML := mt == "text/html" || mt == "application/xhtml+xml"
	lines := access.Lines(mt) // a line-oriented format's (text/gemini)
	isCSS := mt == "text/css"
	isText := cr.c.FollowText && (mt == "text/plain" || strings.HasPrefix(mt, "message/"))
	if !isHTML && !isText && lines == nil && !isCSS {
		if cr.client.Recorder != nil {
			// An archive keeps the whole object, not the octets a
			// crawl that finds no links in it would have read.
			cr.drain(in, page)
		}
		return result{page: page}
	}
	max := cr.c.MaxPage
	if max <= 0 {
		max = DefaultPageSize
	}
	body, err := io.ReadAll(io.LimitReader(in, max))
	if err != nil {
		page.Err = err
	} else if cr.client.Recorder != nil && int64(len(body)) == max {
		cr.drain(in, page)
	}
	if page.Size < 0 {
		page.Size = page.Read
	}
	if isHTML {
		hl, _ := htmllinks.Links(bytes.NewReader(body), base)
		for _, h := range hl {
			if len(links) >= maxLinks {
				break
			}
			add(&Link{Ref: h.Ref, URL: h.URL, Err: h.Err,
				Place: Place{Element: h.Element, Attr: h.Attr, Line: h.Line, Column: h.Column}})
		}
	} else if isCSS {
		// A style sheet's url()s and @imports (CSS Syntax Level 3 §4),
		// read against the sheet's own URL (CSS Values 4 §4.5.1).
		csslinks.Links(bytes.NewReader(body), func(c csslinks.Link) error {
			if len(links) >= maxLinks {
				return errEnough
			}
			l := &Link{Ref: c.Ref, Place: Place{Element: "css", Attr: "url", Line: c.Line, Column: c.Column}}
			if c.Import {
				l.Place.Attr = "@import"
			}
			l.URL, l.Err = locator.Resolve(base, c.Ref, locator.RFC3986)
			if l.Err != nil {
				l.URL = nil
			}
			add(l)
			return nil
		})
	} else if lines != nil {
		lines(bytes.NewReader(body), base, func(l access.Line) error {
			if l.Kind != access.LinkLine {
				return nil
			}
			if len(links) >= maxLinks {
				return errEnough
			}
			add(&Link{Ref: l.Ref, URL: l.URL, Err: l.Err, Place: Place{Element: l.Markup, Name: l.Text, Line: l.Number}})
			return nil
		})
	} else {
		s := text.NewScanner(bytes.NewReader(body), &text.Options{Base: base})
		for s.Scan() && len(links) < maxLinks {
			m := s.Match()
			l := &Link{Ref: m.URL, Place: Place{Element: "text", Line: m.Line, Column: m.Column}}
			if m.Ref != "" {
				l.Ref = m.Ref
			}
			l.URL, l.Err = locator.Parse(m.URL)
			add(l)
		}
	}
	page.Links = len(links)
	return result{page: page, links: links}
}

// menuViews bounds the views of one item taken as links.
const menuViews = 16

// viewLinks reads the views of every item of the listing u (its
// ViewsURL au, one request for all: a Gopher+ menu's attributes, RFC
// 1738 §3.4.6, Gopher+ §2.7) and gives add, as a link of Place
// "+VIEWS", each alternative view an item's views name (Gopher+ A3.0)
// as the URL that asks for it (vl.ViewURL; §3.4.8: the Gopher+ string
// "+view%20language"): the first view, the item's default, is its
// entry's own URL, and a directory's menu views are the menu. line
// gives the listing line of each item by its URL. A server that gives
// no attributes gives no links: the listing was read.
func (cr *crawl) viewLinks(ctx context.Context, vl access.ViewLister, au *locator.URL, line map[string]int, add func(*Link) bool) {
	res, err := cr.client.Get(ctx, au)
	if err != nil {
		return
	}
	defer res.Close()
	if res.Listing == nil {
		return
	}
	for {
		e, err := res.Listing.Next()
		if err != nil {
			return
		}
		views, _ := e.Parts["views"].([]map[string]any)
		n, ok := line[e.URL]
		if !ok || len(views) < 2 {
			continue
		}
		item, err := locator.Parse(e.URL)
		if err != nil || item.Scheme() != au.Scheme() {
			continue // an item of another scheme: its views are not the client's to ask
		}
		for _, v := range views[1:min(len(views), menuViews)] {
			name, _ := v["name"].(string)
			t, _, _ := strings.Cut(strings.ToLower(name), " ")
			if name == "" || t == "application/gopher-menu" || t == "application/gopher+-menu" {
				continue
			}
			vs, err := vl.ViewURL(item, name)
			l := &Link{Ref: vs, Place: Place{Element: "+VIEWS", Line: n, Name: name}}
			if err != nil {
				l.Ref, l.Err = name, err
			} else {
				l.URL, l.Err = locator.Parse(vs)
			}
			if !add(l) {
				return
			}
		}
	}
}

// errEnough ends a reading of links at MaxLinks.
var errEnough = errors.New("crawl: enough links")

// busy reports whether err says that the server is busy (the package
// comment's codes, by scheme), and the wait it asked for.
func busy(scheme string, err error) (time.Duration, bool) {
	var se *access.ServerError
	if err == nil || !errors.As(err, &se) {
		return 0, false
	}
	switch scheme {
	case "http", "https":
		return se.RetryAfter, se.Code == "429" || se.Code == "503"
	case "ftp":
		return se.RetryAfter, se.Code == "421"
	case "news", "nntp":
		return se.RetryAfter, se.Code == "400" || se.Code == "502"
	}
	return 0, false
}

// delay returns the Crawler's Delay, or its default.
func (cr *crawl) delay() time.Duration {
	if cr.c.Delay == 0 {
		return DefaultDelay
	}
	return cr.c.Delay
}

// wait waits until a request to server may begin (ended).
func (cr *crawl) wait(ctx context.Context, server string) error {
	return cr.pace.Wait(ctx, server)
}

// ended says that a request to server ended now: the next may begin
// delay later (dest.Pace), or later when another said so.
func (cr *crawl) ended(server string, delay time.Duration) {
	cr.pace.Ended(server, delay)
}

// robotsURL returns the URL of the robots.txt of u's service, or nil
// when its scheme has none.
func robotsURL(u *locator.URL) string {
	switch u.Scheme() {
	case "http", "https", "ftp":
		return u.Scheme() + "://" + u.Hostport() + "/robots.txt"
	case "gopher":
		return "gopher://" + u.Hostport() + "/0robots.txt"
	}
	return ""
}

// robotsPath returns what robots.txt rules are matched against for u:
// the path and query (RFC 9309 §2.2.2), or the object path its scheme's
// client says (access.Pather: a Gopher URL's selector).
func (cr *crawl) robotsPath(u *locator.URL) string {
	if pa, ok := cr.fetcher(u.Scheme()).(access.Pather); ok {
		p, ok := pa.ObjectPath(u)
		if !ok {
			return "/"
		}
		if !strings.HasPrefix(p, "/") {
			return "/" + p
		}
		return p
	}
	p := "/" + u.Path()
	if u.HasSearch() {
		p += "?" + u.Search()
	}
	return p
}

// rules returns the robots.txt rules of u's service, fetching them once,
// within the server's slot (the fetch is one of the server's requests).
func (cr *crawl) rules(ctx context.Context, u *locator.URL, server string) (*robots.Rules, error) {
	ru := robotsURL(u)
	if ru == "" || cr.c.IgnoreRobots {
		return robots.AllowAll, nil
	}
	cr.mu.Lock()
	e := cr.robots[ru]
	if e == nil {
		e = &robotsEntry{}
		cr.robots[ru] = e
	}
	cr.mu.Unlock()
	e.once.Do(func() {
		e.rules, e.err = cr.fetchRobots(ctx, ru, server)
	})
	return e.rules, e.err
}

func (cr *crawl) fetchRobots(ctx context.Context, ru, server string) (*robots.Rules, error) {
	u, err := locator.Parse(ru)
	if err != nil {
		return robots.AllowAll, nil
	}
	delay := cr.delay()
	if err := cr.wait(ctx, server); err != nil {
		return robots.DisallowAllRules, err
	}
	defer func() { cr.ended(server, delay) }()
	res, err := cr.client.Get(ctx, u)
	if err != nil {
		var se *access.ServerError
		if errors.As(err, &se) {
			// §2.3.1.3: a 4xx (and a refusal of another protocol:
			// FTP 550, a Gopher error item) is "unavailable", and
			// allows all; §2.3.1.4: a 5xx is "unreachable".
			if (u.Scheme() == "http" || u.Scheme() == "https") && strings.HasPrefix(se.Code, "5") {
				return robots.DisallowAllRules, err
			}
			return robots.AllowAll, nil
		}
		var pe *access.PolicyError
		if errors.As(err, &pe) {
			return robots.AllowAll, nil // refused here, not by the server: the page's own fetch says so
		}
		return robots.DisallowAllRules, err
	}
	defer res.Close()
	if res.Body == nil {
		return robots.AllowAll, nil
	}
	b, err := io.ReadAll(io.LimitReader(res.Body, robots.MaxSize))
	cr.read.Add(int64(len(b)))
	if err != nil && len(b) == 0 {
		return robots.DisallowAllRules, err
	}
	rules := robots.Parse(b).For(cr.agent)
	if rules.HasDelay && rules.CrawlDelay > delay && !cr.c.DelayFixed {
		delay = rules.CrawlDelay
	}
	return rules, nil
}

// drain reads the rest of an object for the Client's Recorder: in, a
// budgetReader, stops at MaxBytes.
func (cr *crawl) drain(in io.Reader, page *Page) {
	_, err := io.Copy(io.Discard, in)
	if page.Size < 0 {
		page.Size = page.Read
	}
	if err != nil && page.Err == nil {
		page.Err = err
	}
}

// budgetReader reads a page's body within what MaxBytes leaves of the
// octets the whole crawl reads, counting what it reads as read (the
// crawl's and the page's). Each read takes its share of what is left
// before it is made and gives back what it did not use, so that the
// pages read together never read past MaxBytes between them (a drain
// for the WARC file that first asked how much was left, then read that
// much, read past it with each page under way).
type budgetReader struct {
	r    io.Reader
	cr   *crawl
	page *Page
}

func (b *budgetReader) Read(p []byte) (int, error) {
	max := b.cr.c.MaxBytes
	if max <= 0 {
		n, err := b.r.Read(p)
		b.cr.read.Add(int64(n))
		b.page.Read += int64(n)
		return n, err
	}
	var took int64
	for {
		used := b.cr.read.Load()
		if used >= max {
			b.cr.cut.Store(true)
			return 0, io.EOF // the rest is not read: MaxBytes ends the crawl
		}
		took = min(int64(len(p)), max-used)
		if b.cr.read.CompareAndSwap(used, used+took) {
			break
		}
	}
	n, err := b.r.Read(p[:took])
	b.cr.read.Add(int64(n) - took)
	b.page.Read += int64(n)
	return n, err
}
