package access

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/netip"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/internal/dest"
)

// The registry of scheme clients: what each scheme package registers
// from its init function, read by every Client. It is the package's only
// mutable state, written before main runs.
var (
	mu       sync.RWMutex
	registry = map[string]registered{}
)

type registered struct {
	info    Info
	newFunc func() Fetcher
}

// Register makes newClient the constructor of scheme's client (scheme in
// lower case): a Client that is not given a configured client for the
// scheme (Client.Schemes) makes one with it, once, and keeps it, so that
// the connections the scheme client keeps belong to that Client. It
// panics when a scheme is registered twice, as a programming error.
func Register(scheme string, info Info, newClient func() Fetcher) {
	mu.Lock()
	defer mu.Unlock()
	if _, dup := registry[scheme]; dup {
		panic("access: Register called twice for scheme " + scheme)
	}
	registry[scheme] = registered{info, newClient}
}

// Lookup returns what scheme's client said of itself when it was
// registered, or ok false when no client is registered for scheme.
func Lookup(scheme string) (info Info, ok bool) {
	mu.RLock()
	defer mu.RUnlock()
	r, ok := registry[scheme]
	return r.info, ok
}

// Schemes returns the schemes that have a client, sorted.
func Schemes() []string {
	mu.RLock()
	defer mu.RUnlock()
	s := make([]string, 0, len(registry))
	for k := range registry {
		s = append(s, k)
	}
	sort.Strings(s)
	return s
}

// IsSession reports whether scheme's client is a Sessioner: its URLs
// are opened as interactive sessions (Client.Interact), not retrieved.
func IsSession(scheme string) bool {
	mu.RLock()
	r, ok := registry[scheme]
	mu.RUnlock()
	if !ok {
		return false
	}
	_, ok = r.newFunc().(Sessioner)
	return ok
}

// Defaults of a Client's zero fields.
const (
	DefaultConnectTimeout = 30 * time.Second
	DefaultIdleTimeout    = 60 * time.Second
	DefaultMaxLine        = 64 << 10
	DefaultMaxEntries     = 1 << 20
	DefaultMaxRedirects   = 10
)

// A Client follows URLs of every registered scheme under one set of
// rules: local policy, limits and deadlines, the redirect rule and the
// dialogue log, each protocol carried out by the scheme's own client
// (Schemes). The zero value is usable, each zero field taking the
// default named beside it.
//
// A Client keeps connections open between requests where a protocol
// allows it (an FTP login, an NNTP session), so it should be made once
// and reused; it is safe for concurrent use by several goroutines. Its
// fields must not be changed once it is in use.
type Client struct {
	// ConnectTimeout bounds each connection's establishment
	// (DefaultConnectTimeout).
	ConnectTimeout time.Duration
	// IdleTimeout bounds each read and write on a connection: a server
	// that sends nothing for this long is cut off (DefaultIdleTimeout).
	IdleTimeout time.Duration
	// MaxSize bounds the object's octets; 0 means no limit. An object
	// larger than this fails with ErrTooLarge while it is read.
	MaxSize int64
	// MaxLine bounds one line of a protocol's replies (DefaultMaxLine).
	MaxLine int
	// MaxEntries bounds the entries of a listing (DefaultMaxEntries).
	MaxEntries int
	// MaxRedirects bounds how many redirects are followed
	// (DefaultMaxRedirects); negative means none is followed.
	MaxRedirects int
	// RedirectSchemes lists the schemes a redirect may lead into; nil
	// means DefaultRedirectSchemes and the scheme of the URL that
	// redirects (a gemini server's redirection to gemini, a Prospero
	// server's forwarding). Whatever the list says, a redirect never
	// leads into a scheme that makes no connection (file) unless the
	// URL the Client was given is of such a scheme: what a server sends
	// may not name a file of the machine that follows it (RFC 1738
	// §3.10, §6), as curl's CURLOPT_REDIR_PROTOCOLS keeps file out.
	RedirectSchemes []string
	// CheckRedirect, when not nil, is asked before each redirect is
	// followed, after the rules above and before any connection to next:
	// via holds the URLs followed so far, the first the one given. Its
	// error ends the request with that error (net/http's
	// Client.CheckRedirect).
	CheckRedirect func(next *locator.URL, via []*locator.URL) error

	// Policy is local policy, applied before any connection and to every
	// address a connection is made to.
	Policy Policy

	// Password asks the person for a password the URL does not give
	// (RFC 1738 §3.2.1: the client "should request one from the user"),
	// without echo. Nil means there is nobody to ask: the request fails
	// with ErrNoPassword instead.
	Password func(prompt string) (string, error)

	// Dialogue, when not nil, receives the protocol dialogue, one line
	// per command and reply ("> USER anonymous", "< 230 Login
	// successful."), and notes ("* connect 127.0.0.1:21"); passwords
	// are masked. Lines of concurrent requests are not interleaved
	// within a line.
	Dialogue io.Writer

	// Login, when not nil, gives the login for a server a URL names
	// without a password (a .netrc file): given the server's host name
	// (decoded, in lower case), and the URL's user ("" when it names none), it
	// returns the user and password to log in with, or ok false when it
	// knows none. A scheme client asks it (Request.Login) before it
	// asks the person (Password), and, for a URL with no user, before
	// it logs in anonymously (RFC 1738 §3.2.1).
	Login func(host, user string) (login, password string, ok bool)

	// Proxy, when not nil, returns the proxy to send u through, or nil
	// to connect to u's server directly (net/http's Transport.Proxy;
	// ProxyConfig.ProxyFunc reads the environment's). The proxy's
	// scheme must have a ProxyFetcher (an HTTP gateway); the URL, its
	// policy applied as to any, goes to that Fetcher with Request.Proxy
	// set, and the port policy applies to the proxy's port as one of
	// the proxy's scheme. An error refuses the URL.
	Proxy func(u *locator.URL) (*locator.URL, error)

	// Recorder, when not nil, is handed what each Get exchanged with a
	// server (Record): an archive of what was followed.
	Recorder Recorder

	// Archive, when not nil, is where Get finds objects instead of the
	// network: a URL it holds no record of fails with a
	// *NotArchivedError, and no connection is ever made. A recorded
	// exchange is read back by its scheme's client (Replayer).
	Archive Archive

	// Dial, when not nil, replaces the network dialer: it is given an
	// address the policy allowed ("192.0.2.1:70"), never a name.
	Dial DialFunc

	// Resolver looks a host's name up before each connection (nil:
	// net.DefaultResolver), once: its addresses are checked and dialled.
	Resolver Resolver

	// Schemes holds configured scheme clients by scheme, in lower case
	// (&ftp.Client{UserAddress: "me@example.org"}). A scheme it does not
	// name is followed by a client made with the constructor its package
	// registered, once for this Client.
	Schemes map[string]Fetcher

	mu    sync.Mutex
	made  map[string]Fetcher
	logMu sync.Mutex // one dialogue line at a time
}

// A Resolver looks names up; net.DefaultResolver is one.
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// A PortResolver is a Resolver that may answer differently for each
// port (curl's --resolve HOST:PORT:ADDRESS, -4, -6): Client.Resolver's
// LookupPort is asked instead of LookupNetIP when it has one.
type PortResolver interface {
	Resolver
	LookupPort(ctx context.Context, host string, port int) ([]netip.Addr, error)
}

// atPort is a PortResolver's answer for one port, as a Resolver.
type atPort struct {
	r    PortResolver
	port int
}

func (a atPort) LookupNetIP(ctx context.Context, _, host string) ([]netip.Addr, error) {
	return a.r.LookupPort(ctx, host, a.port)
}

// DefaultRedirectSchemes are the schemes a redirection may lead into
// when Client.RedirectSchemes is nil, beside the scheme of the URL that
// redirects: curl's default (http, https, ftp). A server on the web
// that redirects to gopher://127.0.0.1:6379/ would otherwise have the
// client write its selector to another service (RFC 1738 §6).
var DefaultRedirectSchemes = []string{"http", "https", "ftp"}

func (c *Client) resolver() Resolver {
	if c.Resolver != nil {
		return c.Resolver
	}
	return net.DefaultResolver
}

// DefaultClient is the Client with every default.
var DefaultClient = &Client{}

func (c *Client) connectTimeout() time.Duration {
	if c.ConnectTimeout > 0 {
		return c.ConnectTimeout
	}
	return DefaultConnectTimeout
}

func (c *Client) idleTimeout() time.Duration {
	if c.IdleTimeout > 0 {
		return c.IdleTimeout
	}
	return DefaultIdleTimeout
}

func (c *Client) maxLine() int {
	if c.MaxLine > 0 {
		return c.MaxLine
	}
	return DefaultMaxLine
}

func (c *Client) maxEntries() int {
	if c.MaxEntries > 0 {
		return c.MaxEntries
	}
	return DefaultMaxEntries
}

func (c *Client) maxRedirects() int {
	switch {
	case c.MaxRedirects < 0:
		return 0
	case c.MaxRedirects == 0:
		return DefaultMaxRedirects
	}
	return c.MaxRedirects
}

// fetcher returns the scheme client c follows scheme's URLs with: the
// configured one, or the one c made with the registered constructor.
func (c *Client) fetcher(scheme string) (Fetcher, Info, error) {
	mu.RLock()
	r, ok := registry[scheme]
	mu.RUnlock()
	if !ok {
		return nil, Info{}, &UnsupportedError{Scheme: scheme}
	}
	if f, ok := c.Schemes[scheme]; ok && f != nil {
		return f, r.info, nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	f, ok := c.made[scheme]
	if !ok {
		if c.made == nil {
			c.made = map[string]Fetcher{}
		}
		f = r.newFunc()
		c.made[scheme] = f
	}
	return f, r.info, nil
}

// start makes the Request for one hop to u, and applies the policy and
// the scheme client's Check before any connection.
//
// opts are the request's own values (nil: none); its Offset, when not
// 0, is where the object is to begin (GetFrom), and only a scheme whose
// Info says Resume may take one.
func (c *Client) start(u *locator.URL, hop int, opts *Options) (Fetcher, *Request, error) {
	if opts == nil {
		opts = &Options{}
	}
	offset := opts.Offset
	if u == nil {
		return nil, nil, &PolicyError{Rule: "url", Reason: "no URL"}
	}
	f, info, err := c.fetcher(u.Scheme())
	if err != nil {
		return nil, nil, err
	}
	req := &Request{Client: c, URL: u, info: info, hop: hop, offset: offset, opts: opts}
	if err := c.Policy.check(u, info); err != nil {
		return nil, nil, err
	}
	if offset > 0 && !info.Resume {
		return nil, nil, &PolicyError{URL: Masked(u), Rule: "resume",
			Reason: "the " + u.Scheme() + " client has no way to begin an object at an offset: fetch it whole"}
	}
	if err := f.Check(u, req); err != nil {
		return nil, nil, err
	}
	return f, req, nil
}

// viaProxy returns the Fetcher that follows req's URL: f, or, when
// Client.Proxy names a proxy for it, the ProxyFetcher of the proxy's
// scheme, req.Proxy set. The proxy's scheme client checks the URL.
func (c *Client) viaProxy(f Fetcher, req *Request) (Fetcher, error) {
	if c.Proxy == nil {
		return f, nil
	}
	u := req.URL
	p, err := c.Proxy(u)
	if err != nil || p == nil {
		return f, err
	}
	pf, pinfo, err := c.fetcher(p.Scheme())
	if err != nil {
		return nil, err
	}
	ppf, ok := pf.(ProxyFetcher)
	if !ok {
		return nil, &PolicyError{URL: Masked(u), Rule: "proxy",
			Reason: "the proxy " + Masked(p) + " is of scheme " + p.Scheme() + ", whose client cannot carry URLs of other schemes (an http proxy can)"}
	}
	req.Proxy, req.info = p, pinfo
	req.Notef("proxy %s for %s", Masked(p), Masked(u))
	if err := ppf.Check(u, req); err != nil {
		return nil, err
	}
	return ppf, nil
}

// follow runs do for u and for each URL a redirect leads to, under the
// one redirect rule (redirect), until do returns something other than a
// *Redirect.
func follow[T any](c *Client, u *locator.URL, opts *Options, do func(f Fetcher, u *locator.URL, req *Request) (T, error)) (T, *locator.URL, error) {
	var via []*locator.URL
	var zero T
	fromServer := false
	for hop := 0; ; hop++ {
		f, req, err := c.start(u, hop, opts)
		if err == nil {
			req.fromServer = fromServer
			err = c.checkSentHost(req)
		}
		if err == nil {
			f, err = c.viaProxy(f, req)
		}
		if err != nil {
			return zero, u, err
		}
		v, err := do(f, u, req)
		var rd *Redirect
		if !errors.As(err, &rd) {
			return v, u, err
		}
		// What the server that redirects may lead to depends on where it
		// is (SpecialGiven): the address reached, or, through a proxy,
		// the host its URL names.
		switch {
		case req.Proxy != nil:
			fromServer = !localHost(u.Host())
		case req.connected:
			fromServer = req.public
		}
		via = append(via, u)
		next, err := c.redirect(req, via, rd)
		if err != nil {
			return zero, u, err
		}
		u = next
	}
}

// Get retrieves the object u names: it applies the Policy and the
// scheme client's own Check before any connection, then fetches through
// the scheme's client, following a Redirect (to a URL of any scheme,
// checked anew) at most MaxRedirects times.
//
// The error, when not nil, is a *PolicyError (refused before
// connecting), a *ServerError (the server says the object does not exist
// or refuses it), a *ProtocolError (a malformed or oversized reply),
// ErrTooLarge, context.DeadlineExceeded or a network error; Classify
// gives its Outcome.
func (c *Client) Get(ctx context.Context, u *locator.URL) (*Resource, error) {
	return c.GetFrom(ctx, u, 0)
}

// GetFrom is Get for the object's octets from offset on: to resume a
// transfer cut short (curl's --continue-at), by the protocol's own means
// (FTP REST, RFC 959 §4.1.3; an HTTP Range, RFC 9110 §14.2; a WAIS
// retrieval's chunk offset). A scheme whose Info does not say Resume is
// refused before any connection with a *PolicyError (rule "resume"),
// as is a listing. The Resource's Offset is offset, and its Size the
// whole object's when the server says it; an offset at the end of the
// object gives an empty Body. An offset past the end is a failure (the
// octets kept are not the beginning of this object: curl's "offset past
// end"): the scheme client's own error where the protocol says it
// (ftp's SIZE, a WAIS diagnostic), else an *OffsetError when the size
// is known. A server that would send the object from another octet than
// offset (an HTTP server that ignores Range) is a *ProtocolError, so
// that nothing is written twice.
func (c *Client) GetFrom(ctx context.Context, u *locator.URL, offset int64) (*Resource, error) {
	return c.get(ctx, u, &Options{Offset: offset})
}

func (c *Client) get(ctx context.Context, u *locator.URL, opts *Options) (*Resource, error) {
	offset := opts.Offset
	if offset < 0 {
		return nil, &PolicyError{URL: Masked(u), Rule: "resume", Reason: "a negative offset"}
	}
	res, last, err := follow(c, u, opts, func(f Fetcher, u *locator.URL, req *Request) (*Resource, error) {
		if c.Archive != nil {
			return c.replay(ctx, f, u, req)
		}
		return req.recorded(f.Fetch(ctx, u, req))
	})
	if res != nil && res.URL == nil {
		res.URL = last
	}
	if err == nil && offset > 0 {
		switch {
		case res.Listing != nil:
			res.Close()
			return nil, &PolicyError{URL: Masked(last), Rule: "resume", Reason: "the URL names a listing, which cannot be resumed"}
		case res.Size >= 0 && offset > res.Size:
			res.Close()
			return nil, &OffsetError{URL: Masked(last), Offset: offset, Size: res.Size}
		case res.Offset != offset:
			res.Close()
			return nil, &ProtocolError{URL: Masked(last), Msg: fmt.Sprintf("asked for the object from octet %d, the server would send it from octet %d: it cannot resume this transfer", offset, res.Offset)}
		}
	}
	return res, err
}

// redirect is the one rule by which a Client follows rd, the Redirect
// that fetching the last URL of via returned: the bound on hops, the
// location read as a URL (or a reference resolved against the URL that
// sent it), the schemes a redirect may reach, and CheckRedirect. The
// next URL's own policy is applied as for the first.
func (c *Client) redirect(req *Request, via []*locator.URL, rd *Redirect) (*locator.URL, error) {
	u := via[len(via)-1]
	hops := len(via) - 1
	if c.MaxRedirects < 0 {
		return nil, &ProtocolError{URL: Masked(u), Msg: fmt.Sprintf("redirected (%s) to %s, and following redirections is off", rd.Code, maskedRef(rd.Location))}
	}
	if hops >= c.maxRedirects() {
		return nil, &ProtocolError{URL: Masked(u), Msg: fmt.Sprintf("more than %d redirections; the last to %s", c.maxRedirects(), maskedRef(rd.Location))}
	}
	next, perr := locator.Parse(rd.Location)
	if perr != nil {
		next, perr = locator.Resolve(u, rd.Location, locator.RFC3986)
	}
	if perr != nil {
		return nil, &ProtocolError{URL: Masked(u), Msg: "redirection to a location that is not a URL: " + perr.Error()}
	}
	req.Notef("redirect %d to %s", hops+1, Masked(next))
	if err := c.redirectScheme(via[0], u, next); err != nil {
		return nil, err
	}
	if c.CheckRedirect != nil {
		if err := c.CheckRedirect(next, via); err != nil {
			return nil, err
		}
	}
	return next, nil
}

// redirectScheme says whether a redirect from u (first being the URL
// the Client was given) may lead to next's scheme.
func (c *Client) redirectScheme(first, u, next *locator.URL) error {
	scheme := next.Scheme()
	if _, ok := Lookup(scheme); !ok {
		return &UnsupportedError{Scheme: scheme}
	}
	refuse := func(why string) error {
		return &PolicyError{URL: Masked(next), Rule: "redirect", Reason: "the server of " + Masked(u) + " redirects to a " + scheme + " URL: " + why}
	}
	if noConnection(scheme) && !noConnection(first.Scheme()) {
		return refuse(scheme + " makes no connection: it names something of this machine, and only a URL given by the user may do that")
	}
	list := c.RedirectSchemes
	if list == nil {
		if strings.EqualFold(u.Scheme(), scheme) {
			return nil
		}
		list = DefaultRedirectSchemes
	}
	for _, s := range list {
		if strings.EqualFold(s, scheme) {
			return nil
		}
	}
	return refuse("local policy lets a redirect reach only " + strings.Join(list, ", ") + " (--proto-redir)")
}

// Sent checks u, a URL that a server sent while from was followed (a
// redirection's location; a link in the page from names, its base, a
// menu item, a listing's entry), by the rule a redirection follows: it
// may not be of a scheme whose URLs name this machine's objects
// (Info.Local: file) unless from is of such a scheme, for what a server sends may not name a file of the
// machine that follows it (RFC 1738 §3.10, §6). A crawl that began at
// a file URL may walk file URLs. The error is a *PolicyError (rule
// "sent").
func Sent(from, u *locator.URL) error {
	if from == nil || u == nil || !local(u.Scheme()) || local(from.Scheme()) {
		return nil
	}
	return &PolicyError{URL: Masked(u), Rule: "sent", Reason: "a " + u.Scheme() + " URL names something of this machine, and " + Masked(from) + " comes from a server: only a URL given by the user may lead there"}
}

// local says whether scheme's URLs name objects of this machine
// (Info.Local: file).
func local(scheme string) bool {
	info, ok := Lookup(scheme)
	return ok && info.Local
}

// noConnection says whether scheme's client makes no connection (its
// Info's DefaultPort is 0: file).
func noConnection(scheme string) bool {
	info, ok := Lookup(scheme)
	return ok && info.DefaultPort == 0
}

// localHost says whether h, a URL's host, names this machine or a
// special network without a lookup (an address, or localhost).
func localHost(h string) bool {
	name := dest.Name(h)
	if a, err := netip.ParseAddr(strings.Trim(name, "[]")); err == nil {
		return Special(a) != ""
	}
	return name == "localhost" || strings.HasSuffix(name, ".localhost")
}

// checkSentHost applies, before any connection through a proxy, what
// can be known of the rule of SpecialGiven: the proxy looks the name up,
// so an address written, or localhost, is all there is to check.
func (c *Client) checkSentHost(req *Request) error {
	if !req.fromServer || c.Proxy == nil || req.URL.Host() == "" {
		return nil
	}
	if p, err := c.Proxy(req.URL); err != nil || p == nil {
		return nil
	}
	if localHost(req.URL.Host()) && !c.Policy.allowsHostByRule(req.URL.Host()) {
		return &PolicyError{URL: Masked(req.URL), Offset: req.URL.Offset(locator.HostComponent), Rule: "destination",
			Reason: "host " + strconv.Quote(req.URL.Host()) + " is on this machine or a special network, and a server on the open Internet named it: only a URL given, or an allow rule, may lead there"}
	}
	return nil
}

// maskedRef is a redirect's location as messages show it: the
// password of a URL removed, any other text as it is.
func maskedRef(loc string) string {
	if u, err := locator.Parse(loc); err == nil {
		return Masked(u)
	}
	return loc
}

// Views returns the representations the server offers of the object u
// names, in the server's order (the first its preferred one). Policy
// and the scheme client's Check apply as for Get. A scheme with no
// client fails with an *UnsupportedError, one whose client is not a
// Describer with a *PolicyError (rule "views"): both are refused before
// connecting.
func (c *Client) Views(ctx context.Context, u *locator.URL) ([]View, error) {
	return c.ViewsWith(ctx, u, nil)
}

// ViewsWith is Views with the request's own values opts (nil: none).
func (c *Client) ViewsWith(ctx context.Context, u *locator.URL, opts *Options) ([]View, error) {
	if opts != nil && opts.Offset != 0 {
		opts = &Options{Search: opts.Search, View: opts.View, Answers: opts.Answers, Ask: opts.Ask, Password: opts.Password}
	}
	f, req, err := c.start(u, 0, opts)
	if err != nil {
		return nil, err
	}
	d, ok := f.(Describer)
	if !ok {
		return nil, &PolicyError{URL: Masked(u), Rule: "views", Reason: "the " + u.Scheme() + " client cannot say which representations a server offers"}
	}
	return d.Views(ctx, u, req)
}

// Interact opens the interactive session u designates on t: it applies
// the Policy and the scheme client's Check, as Get does, before any
// connection, then runs the client's Session. A scheme without a client
// is an *UnsupportedError; a scheme whose client retrieves objects
// rather than holding sessions is a *PolicyError (rule "session")
// pointing to Get.
func (c *Client) Interact(ctx context.Context, u *locator.URL, t Terminal) error {
	if u != nil {
		if f, _, err := c.fetcher(u.Scheme()); err == nil {
			if _, ok := f.(Sessioner); !ok {
				return &PolicyError{URL: Masked(u), Rule: "session",
					Reason: u.Scheme() + " URLs designate objects to retrieve, not interactive sessions (follow it with Get)"}
			}
		}
	}
	f, req, err := c.start(u, 0, nil)
	if err != nil {
		return err
	}
	if t.Msg == nil {
		t.Msg = t.Out
	}
	return f.(Sessioner).Session(ctx, u, req, t)
}

// CloseIdle ends the sessions c's scheme clients keep open between
// requests (IdleCloser): an FTP login, an NNTP session.
func (c *Client) CloseIdle() {
	c.mu.Lock()
	var cs []IdleCloser
	for _, f := range c.made {
		if ic, ok := f.(IdleCloser); ok {
			cs = append(cs, ic)
		}
	}
	c.mu.Unlock()
	for _, f := range c.Schemes {
		if ic, ok := f.(IdleCloser); ok {
			cs = append(cs, ic)
		}
	}
	for _, ic := range cs {
		ic.CloseIdle()
	}
}
