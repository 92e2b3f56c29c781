// Package gateway is an HTTP/1.1 server that follows URLs of every scheme
// for ordinary web clients: the drafts' gateway, or "proxy" (URL draft
// 03, HTTP: "when an http server is being used as a gateway (or "proxy")
// then the entire URI ... is passed on the HTTP command line").
//
// It takes a URL in two forms:
//
//   - the proxy form, an absolute URL of any scheme as the request
//     target (RFC 9112 §3.2.2, absolute-form), as clients send it to
//     their gopher_proxy, ftp_proxy, news_proxy or wais_proxy:
//     "GET gopher://host/1/ HTTP/1.0";
//   - the path form, for browsers that speak only http:
//     http://GATEWAY/gopher://host/1/ .
//
// The URL is taken from the raw request target, never from a decoded
// path, so that its escapes (%2F, %09) reach the scheme's client as
// written. It is followed with package access; a listing (a menu, a
// directory, a group) is rendered as HTML whose links lead back through
// the gateway, a text/gemini document (Gemini §5) is rendered as HTML
// whose links do the same, another document is streamed with its media
// type and length, a search service (a Gopher type 7 item, a WAIS
// database), a Gopher+ ASK item and a Gemini request for input (status
// 1x, Gemini §3.2.1) become HTML forms.
//
// A gateway is an open door, so the defaults are shut: Server listens
// where it is told (the command's default is loopback), connects only to
// destinations its Policy allows (private, loopback and link-local
// networks refused unless a rule allows them, on the resolved address),
// keeps RFC 1738 §6's port rule, bounds connections, request and
// response sizes and time, never shows a password back, and refuses what
// a browser asks on its own (CONNECT, web requests, requests for other
// hosts' names).
package gateway

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/internal/dest"
	"github.com/rfc1738/locator/internal/hex"
	"github.com/rfc1738/locator/internal/printable"
)

// Defaults of Config's zero fields.
const (
	DefaultMaxConns     = 256
	DefaultMaxPerDest   = 16
	DefaultMaxPerClient = 32
	DefaultMaxTarget    = 8 << 10
	DefaultMaxForm      = 64 << 10
	DefaultMaxSize      = 1 << 30
	DefaultMaxEntries   = 100000
	DefaultTimeout      = 10 * time.Minute
	DefaultConnect      = 20 * time.Second
	DefaultIdle         = 60 * time.Second
	defaultMaxRedirects = 5 // the gateway's Client: not a Config field
)

// Bounds on a client's connection (HTTPServer): the request head must
// arrive within headerTimeout of the connection's first octet (or of the
// end of the previous request), and a connection idle between two
// requests longer than keepAliveTimeout is closed, so that neither a
// slow head nor a silent keep-alive connection holds a slot for long.
const (
	headerTimeout    = 5 * time.Second
	keepAliveTimeout = 15 * time.Second
)

// Config says how a Server behaves. The zero value is usable: each zero
// field takes the default named beside it.
type Config struct {
	// Policy limits the destinations: its Allow and Deny rules, checked
	// on every address a request connects to. Its Special is taken as
	// access.SpecialNever whatever it says: loopback, private and
	// link-local networks are reached only when an Allow rule naming
	// hosts admits them, for a gateway serves other people.
	Policy access.Policy
	// AllowPorts lists ports of other services that may be used all the
	// same (RFC 1738 §6; access.Policy.AllowPorts).
	AllowPorts []int

	// MaxConns bounds the requests served at once (DefaultMaxConns); one
	// more is answered 503 at once. A connection waiting for its request
	// head, or idle between requests, is not counted (LimitListener
	// bounds those).
	MaxConns int
	// MaxPerDest bounds the connections open to one destination, the
	// address and port actually connected to, whatever URL or
	// redirection led there and whichever request opened them
	// (DefaultMaxPerDest); a request that would open one more is
	// answered 503.
	MaxPerDest int
	// MaxPerClient bounds the connections open from one client address
	// (an IPv4 address, an IPv6 /64) when the listener is LimitListener's
	// (DefaultMaxPerClient).
	MaxPerClient int
	// MaxTarget bounds the request target's octets (DefaultMaxTarget);
	// the request head as a whole is bounded at 4 × MaxTarget.
	MaxTarget int
	// MaxForm bounds a submitted form's octets (DefaultMaxForm).
	MaxForm int64
	// MaxSize bounds an object's octets (DefaultMaxSize), MaxEntries a
	// listing's entries (DefaultMaxEntries).
	MaxSize    int64
	MaxEntries int
	// Timeout bounds one request from its arrival to its last octet
	// (DefaultTimeout); ConnectTimeout and IdleTimeout each connection
	// to a server (DefaultConnect, DefaultIdle).
	Timeout, ConnectTimeout, IdleTimeout time.Duration

	// Schemes holds the scheme clients the program configures, by
	// scheme (access.Client.Schemes): an ftp client's anonymous password
	// (RFC 1738 §3.2.1), the news server of news URLs that name none
	// (§3.6), where a gemini client keeps the certificates it trusts on
	// first use. A scheme it does not name is followed by its package's
	// default client. Every client that would keep what it learns of
	// servers in the operator's own files (access.Confiner: a gemini
	// client given no known-hosts file or store) keeps it in memory
	// instead, while the Server runs: requests from others must neither
	// fill nor decide them (Gemini §4.2).
	Schemes map[string]access.Fetcher

	// Names are the host names (host[:port]) by which clients may reach
	// the gateway in the path form, beside the address a connection
	// arrived at and "localhost": a page of another site whose name
	// resolves to the gateway (DNS rebinding) is refused.
	Names []string

	// Log receives one line per request (an access log), passwords
	// removed; nil: no log.
	Log io.Writer

	// Resolver looks names up (nil: net.DefaultResolver).
	Resolver Resolver

	// Archive, when not nil, is where the gateway finds objects instead
	// of the network (access.Client.Archive, an archive.Reader of WARC
	// files): what was captured is served through the same rendering,
	// http, https and file URLs included (they are the archive's, not the
	// web's or the gateway's disk), and a URL it holds no capture of is
	// answered 404, saying so.
	Archive access.Archive
	// ArchiveFallback fetches a URL the Archive holds no capture of from
	// the network, as the gateway does without one (an http URL is passed
	// to the browser, a file URL still refused).
	ArchiveFallback bool
	// ArchiveFileURLs serves the Archive's captures of file URLs. They
	// are refused (403) by default: a file URL names a file of the
	// machine that interprets it (RFC 1738 §3.10), and a capture of one
	// is a file of the machine that made the archive, which a crawl led
	// by a hostile page may have read (file:///etc/passwd).
	ArchiveFileURLs bool
	// Wayback, when not nil, is the index of Archive's captures, served
	// under /Collection/ in pywb's URL layout (CDX API, Memento;
	// wayback.go). Collection "" is DefaultCollection.
	Wayback    *WaybackIndex
	Collection string
}

// A Server is the gateway, an http.Handler.
type Server struct {
	cfg   Config
	conns chan struct{}
	dests *dest.Limiter // connections open per destination (dest.Addr)
	idle  *idleConns
	logMu sync.Mutex
	csrf  *http.CrossOriginProtection
	dial  func(ctx context.Context, network, addr string) (net.Conn, error)
	// live follows every request, shared (newClient); archived, when
	// Config.Archive is set, every request first, from the archive.
	live, archived *access.Client
}

// New returns a Server with cfg (defaults filled in).
func New(cfg Config) *Server {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&cfg.MaxConns, DefaultMaxConns)
	def(&cfg.MaxPerDest, DefaultMaxPerDest)
	def(&cfg.MaxPerClient, DefaultMaxPerClient)
	def(&cfg.MaxTarget, DefaultMaxTarget)
	def(&cfg.MaxEntries, DefaultMaxEntries)
	if cfg.MaxForm <= 0 {
		cfg.MaxForm = DefaultMaxForm
	}
	if cfg.MaxSize <= 0 {
		cfg.MaxSize = DefaultMaxSize
	}
	for _, d := range []struct {
		v *time.Duration
		d time.Duration
	}{{&cfg.Timeout, DefaultTimeout}, {&cfg.ConnectTimeout, DefaultConnect}, {&cfg.IdleTimeout, DefaultIdle}} {
		if *d.v <= 0 {
			*d.v = d.d
		}
	}
	cfg.Schemes = confined(cfg.Schemes)
	if cfg.Resolver == nil {
		cfg.Resolver = net.DefaultResolver
	}
	s := &Server{cfg: cfg, conns: make(chan struct{}, cfg.MaxConns), dests: dest.NewLimiter(cfg.MaxPerDest), idle: newIdleConns(), csrf: http.NewCrossOriginProtection()}
	s.dial = func(ctx context.Context, network, addr string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, network, addr)
	}
	s.live = s.newClient(nil)
	s.archived = s.live
	if cfg.Archive != nil {
		s.archived = s.newClient(cfg.Archive)
	}
	return s
}

// A BusyError is the refusal of a connection to a destination that
// already has Config.MaxPerDest connections open (HTTP 503).
type BusyError struct {
	Addr string // the address and port
	Max  int
}

func (e *BusyError) Error() string {
	return "the gateway already has " + strconv.Itoa(e.Max) + " connections open to " + e.Addr + "; try again shortly"
}

// connect opens a connection to addr, an address the policy allowed
// (dest.Addr: the address and port dialled),
// holding one of its MaxPerDest slots until the connection is closed:
// every connection of every request, redirections and FTP data
// connections included, is counted where it goes.
func (s *Server) connect(ctx context.Context, network, addr string) (net.Conn, error) {
	if !s.dests.TryAcquire(addr) {
		return nil, &BusyError{Addr: addr, Max: s.cfg.MaxPerDest}
	}
	c, err := s.dial(ctx, network, addr)
	if err != nil {
		s.dests.Release(addr)
		return nil, err
	}
	return &limitConn{Conn: c, release: func() { s.dests.Release(addr) }}, nil
}

// HTTPServer returns an http.Server for s on addr with its bounds on
// the request head and on time (headerTimeout, keepAliveTimeout); serve
// it on s.LimitListener, which it tells which connections are idle.
func (s *Server) HTTPServer(addr string) *http.Server {
	return &http.Server{
		Addr:              addr,
		Handler:           s,
		MaxHeaderBytes:    4 * s.cfg.MaxTarget,
		ReadHeaderTimeout: headerTimeout,
		ReadTimeout:       time.Minute,
		IdleTimeout:       keepAliveTimeout,
		ConnState:         s.idle.state,
	}
}

// mode is how a request named its URL.
type mode int

const (
	proxyForm mode = iota // the absolute URL as the request target
	pathForm              // http://GATEWAY/<url>
	queryForm             // http://GATEWAY/-/get?url=<url> (the start page's form)
)

// exchange is one request being served.
type exchange struct {
	s      *Server
	w      *statusWriter
	r      *http.Request
	mode   mode
	prefix string // what a link to the gateway begins with: "" or "http://ADDR"
	u      *locator.URL
	shown  string // the URL without its password, as links write it
	// shownText is shown as a page's text shows it (its title, heading
	// and header): the password of a URL inside it (a Gopher hURL:
	// selector's) masked too.
	shownText string
	// pwGiven is set when the HTTP client's password was handed to the
	// scheme's client.
	pwGiven bool
	// replayed is set when the object is the Archive's, not the
	// network's (document's Content-Security-Policy).
	replayed bool
	// memento, when a memento is replayed, is what its page's links
	// begin with: "/web/TIMESTAMP/" (wayback.go).
	memento string
}

// ServeHTTP serves one request.
func (s *Server) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
	start := time.Now()
	w := &statusWriter{ResponseWriter: rw}
	x := &exchange{s: s, w: w, r: r}
	defer func() {
		logged := r.RequestURI
		if x.u != nil {
			logged = access.Masked(x.u)
		}
		s.logLine(r, logged, w, time.Since(start))
	}()
	h := w.Header()
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Content-Type-Options", "nosniff")
	// No page of another site may frame the gateway's pages (a click
	// on them would be a request of the gateway's own origin).
	h.Set("X-Frame-Options", "DENY")
	select {
	case s.conns <- struct{}{}:
		defer func() { <-s.conns }()
	default:
		w.Header().Set("Retry-After", "5")
		x.fail(http.StatusServiceUnavailable, "The gateway is serving as many requests as it may at once; try again shortly.")
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), s.cfg.Timeout)
	defer cancel()
	x.r = r.WithContext(ctx)
	x.serve()
}

func (x *exchange) serve() {
	r, s := x.r, x.s
	target := r.RequestURI
	switch {
	case r.Method == http.MethodConnect:
		// A browser's tunnel (its updates, telemetry, any https site):
		// a gateway of URLs opens none.
		x.fail(http.StatusMethodNotAllowed, "This gateway does not open tunnels (CONNECT): it follows URLs named on the request line.")
		return
	case r.Method != http.MethodGet && r.Method != http.MethodHead && r.Method != http.MethodPost:
		x.w.Header().Set("Allow", "GET, HEAD, POST")
		x.fail(http.StatusMethodNotAllowed, "The gateway answers GET, HEAD and POST.")
		return
	case len(target) > s.cfg.MaxTarget:
		x.fail(http.StatusRequestURITooLong, "The URL is longer than the gateway takes ("+strconv.Itoa(s.cfg.MaxTarget)+" octets).")
		return
	}
	if !strings.HasPrefix(target, "/") {
		x.mode = proxyForm
		x.prefix = "http://" + x.localAddr()
		x.follow(target, "")
		return
	}
	// Origin form: the gateway's own pages and the path form. The Host
	// must be one of the gateway's names (a page whose name was made to
	// resolve to the gateway gets nothing).
	if !x.ourHost() {
		x.fail(http.StatusMisdirectedRequest, "This gateway does not answer to the name "+strconvQuote(r.Host)+".")
		return
	}
	rest := target[1:]
	switch {
	case x.isWayback(rest):
		x.wayback()
	case rest == "":
		x.startPage()
	case rest == "-/get" || strings.HasPrefix(rest, "-/get?"):
		x.mode = queryForm
		q := r.URL.Query()
		if q.Get("url") == "" {
			x.startPage()
			return
		}
		x.follow(strings.TrimSpace(q.Get("url")), "")
	case rest == "-/search" || strings.HasPrefix(rest, "-/search?"):
		x.mode = queryForm
		q := r.URL.Query()
		x.follow(strings.TrimSpace(q.Get("url")), q.Get("q"))
	case hasScheme(rest):
		x.mode = pathForm
		x.follow(rest, "")
	case x.replayReferred():
		// A root-relative URL of a replayed page: sent on to its site.
	default:
		// favicon.ico, robots.txt and whatever else a browser asks of
		// a site on its own.
		x.fail(http.StatusNotFound, "Nothing here: the gateway serves /<URL> and its start page.")
	}
}

// hasScheme says whether s begins with a URL scheme and ":".
func hasScheme(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		case i > 0 && (c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.'):
		case c == ':' && i > 0:
			return true
		default:
			return false
		}
	}
	return false
}

// localAddr is the address the request's connection arrived at.
func (x *exchange) localAddr() string {
	if a, ok := x.r.Context().Value(http.LocalAddrContextKey).(net.Addr); ok {
		return a.String()
	}
	return x.r.Host
}

// ourHost says whether the request's Host names the gateway: the
// address the connection arrived at, localhost on its port, or one of
// Config.Names.
func (x *exchange) ourHost() bool {
	h := strings.ToLower(x.r.Host)
	local := x.localAddr()
	if h == strings.ToLower(local) {
		return true
	}
	_, port, _ := net.SplitHostPort(local)
	if h == "localhost:"+port || h == "localhost.:"+port {
		return true
	}
	if ap, err := netip.ParseAddrPort(h); err == nil && strconv.Itoa(int(ap.Port())) == port && ap.Addr().IsLoopback() {
		if la, err := netip.ParseAddrPort(local); err == nil && la.Addr().IsLoopback() {
			return true
		}
	}
	for _, n := range x.s.cfg.Names {
		n = strings.ToLower(n)
		if h == n || !strings.Contains(n, ":") && strings.TrimSuffix(h, ":"+port) == n {
			return true
		}
	}
	return false
}

// follow follows raw (with search words q for a search service) and
// writes the object, a listing, a form or the failure.
func (x *exchange) follow(raw, q string) {
	s := x.s
	if x.mode == proxyForm && len(raw) > 0 {
		raw = lynxSearch(raw)
	}
	if x.mode != proxyForm {
		if why := crossSite(x.r); why != "" {
			x.fail(http.StatusForbidden, "A page of another site asked the gateway for this URL ("+why+"). The gateway follows a URL only when it is typed in, or followed from one of its own pages; a page of another site could otherwise make it connect where its rules allow, on that page's behalf. Open the URL from the gateway's start page.")
			return
		}
	}
	u, err := locator.Parse(raw)
	if err != nil {
		x.fail(http.StatusBadRequest, "Not a URL: "+maskURLs(err.Error()))
		return
	}
	if u.HasFragment() {
		// "The fragmentid part is not sent with the request" (1993 draft).
		p := u.Parts()
		p.HasFragment, p.Fragment = false, ""
		u, _ = p.URL()
	}
	x.u = u
	x.shown = shown(u)
	x.shownText = maskURLs(x.shown)
	archived := s.cfg.Archive != nil && (u.Scheme() == "http" || u.Scheme() == "https" || u.Scheme() == "file")
	switch u.Scheme() {
	case "http", "https":
		if archived {
			break // the archive's capture, not the web
		}
		if x.mode == proxyForm {
			x.fail(http.StatusForbidden, "This gateway is not a web proxy: it does not fetch "+u.Scheme()+" URLs for clients that can fetch them themselves.")
			return
		}
		// Passed through: the browser fetches the web itself.
		if u.HasUser() {
			x.fail(http.StatusForbidden, "An "+u.Scheme()+" URL with a user name is not passed on (RFC 1738 §3.3 allows none).")
			return
		}
		http.Redirect(x.w, x.r, u.String(), http.StatusFound)
		return
	}
	if u.Scheme() == "file" && !archived {
		// RFC 1738 §3.10: a file URL names a file of "the machine from
		// which the URL is being interpreted": the gateway's own disk,
		// which it does not open to its clients.
		x.fail(http.StatusForbidden, "A file URL names a file of the machine that interprets it (RFC 1738 §3.10): the gateway does not serve its own files.")
		return
	}
	if u.Scheme() == "file" && !s.cfg.ArchiveFileURLs {
		// The archive's capture of a file URL is a file of the machine
		// that made the archive: served only when asked for.
		x.fail(http.StatusForbidden, "A file URL names a file of the machine that interprets it (RFC 1738 §3.10): the archive's captures of file URLs are files of the machine that made it, which the gateway does not serve unless it is told to (--warc-serve-file).")
		return
	}
	if _, ok := access.Lookup(u.Scheme()); !ok {
		x.fail(http.StatusNotImplemented, "The gateway has no client for "+strconvQuote(u.Scheme())+" URLs (it has: "+strings.Join(access.Schemes(), ", ")+").")
		return
	}
	c := s.live
	if s.cfg.Archive != nil {
		c = s.archived
	}
	if q == "" && x.r.Method != http.MethodPost && needsSearch(u, c) {
		x.searchForm(u)
		return
	}
	opts := x.options(u, q)
	if x.r.Method == http.MethodPost {
		if err := s.csrf.Check(x.r); err != nil {
			x.fail(http.StatusForbidden, "A form of another site may not be submitted through the gateway.")
			return
		}
		x.r.Body = http.MaxBytesReader(x.w, x.r.Body, s.cfg.MaxForm)
		if err := x.r.ParseForm(); err != nil {
			x.fail(http.StatusRequestEntityTooLarge, "The form could not be read: "+err.Error())
			return
		}
		answers := map[string]string{}
		for k, v := range x.r.PostForm {
			if n, ok := strings.CutPrefix(k, "a"); ok && len(v) > 0 {
				answers[n] = strings.ReplaceAll(v[0], "\r\n", "\n")
			}
		}
		opts.Answers = answers
	}
	ctx := x.r.Context()
	form := &formState{}
	if opts.Answers == nil {
		// Not a submission: a form the server asks to be filled is
		// collected (each question answered with its default so that
		// all are seen) and shown; no connection is made after the
		// first question (the Server's dialer reads formState from the
		// context), so the form is never submitted.
		opts.Ask = form.ask
		ctx = context.WithValue(ctx, formKey{}, form)
	}

	res, err := c.Do(ctx, u, opts)
	x.replayed = c.Archive != nil
	var nae *access.NotArchivedError
	if errors.As(err, &nae) {
		x.replayed = false
		if !s.cfg.ArchiveFallback {
			x.fail(http.StatusNotFound, "This URL is not in the archive the gateway serves (its WARC files hold no capture of it), and the gateway fetches nothing from the network.")
			return
		}
		if why := pageMade(x.r); why != "" && x.mode != proxyForm {
			x.fail(http.StatusNotFound, "This URL is not in the archive the gateway serves, and a page asked for it on its own ("+why+"): the gateway fetches from the network only what a person asks for.")
			return
		}
		switch u.Scheme() {
		case "http", "https":
			if u.HasUser() {
				x.fail(http.StatusForbidden, "An "+u.Scheme()+" URL with a user name is not passed on (RFC 1738 §3.3 allows none).")
				return
			}
			http.Redirect(x.w, x.r, u.String(), http.StatusFound)
			return
		case "file":
			x.fail(http.StatusForbidden, "This file URL is not in the archive; a file URL names a file of the machine that interprets it (RFC 1738 §3.10): the gateway does not serve its own files.")
			return
		}
		// Fetched live: the Server's second Client, the one it uses
		// without an archive.
		res, err = s.live.Do(ctx, u, opts)
	}
	asked := form.questions()
	if err != nil {
		switch {
		case len(asked) > 0 && (errors.Is(err, errFormShown) || access.Classify(err) == access.Forbidden):
			x.askForm(u, asked)
		case errors.Is(err, errNeedPassword), errors.Is(err, access.ErrNoPassword), x.pwGiven && loginRefused(err):
			x.challenge(u)
		default:
			x.failErr(err)
		}
		return
	}
	defer res.Close()
	if res.Listing != nil {
		x.listing(res)
		return
	}
	if isGemtext(res.MediaType) {
		x.gemtext(res)
		return
	}
	x.document(res)
}

// loginRefused says whether err is the server's refusal of a password
// (its reply to PASS).
func loginRefused(err error) bool {
	var se *access.ServerError
	return errors.As(err, &se) && strings.HasPrefix(se.Command, "PASS")
}

// errFormShown stops a fetch once the server has asked its questions.
var errFormShown = errors.New("gateway: the form is shown to the person first")

// errNeedPassword asks the HTTP client for a password (401).
var errNeedPassword = errors.New("gateway: the server asks for a password: the HTTP client is asked for it")

// placeholder is an answer that FillForm accepts, so that every
// question of a form is seen.
func placeholder(q access.Question) string {
	if q.Default != "" {
		return q.Default
	}
	if len(q.Choices) > 0 {
		return q.Choices[0]
	}
	return ""
}

// newClient returns the access.Client that follows every request of
// s, made once from its Config with the scheme clients it holds: made
// once and shared, as net/http's Client is, so that what a protocol
// keeps between requests (an FTP login, an NNTP session) serves the
// next request; what belongs to one request (its search words, form
// answers, password) travels with it (options). archive, when not nil,
// is where it finds objects instead of the network. Its dialer counts
// every connection against MaxPerDest while it is open, a session kept
// idle included. A redirection may lead into any scheme whose client
// connects to a server (RedirectSchemes nil): never to a file of the
// gateway's machine (RFC 1738 §3.10), as the gateway follows no file
// URL in the first place.
func (s *Server) newClient(archive access.Archive) *access.Client {
	c := &access.Client{
		ConnectTimeout: s.cfg.ConnectTimeout,
		IdleTimeout:    s.cfg.IdleTimeout,
		MaxSize:        s.cfg.MaxSize,
		MaxEntries:     s.cfg.MaxEntries,
		MaxRedirects:   defaultMaxRedirects,
		Policy:         s.policy(),
		Resolver:       s.cfg.Resolver,
		Archive:        archive,
		Schemes:        s.cfg.Schemes,
	}
	c.Dial = s.dialer
	return c
}

// confined returns the scheme clients the gateway follows URLs with:
// those configured, each Confiner's confined client in its place, and,
// for a registered scheme that configures none, its default client's
// when it is a Confiner.
func confined(configured map[string]access.Fetcher) map[string]access.Fetcher {
	m := make(map[string]access.Fetcher, len(configured))
	for k, f := range configured {
		m[k] = f
	}
	defaults := &access.Client{}
	for _, k := range access.Schemes() {
		f := m[k]
		if f == nil {
			f, _ = defaults.Fetcher(k)
		}
		if cf, ok := f.(access.Confiner); ok {
			m[k] = cf.Confined()
		}
	}
	return m
}

// options returns the values of this request, u with the search words
// q: a password the URL does not give comes from the HTTP client's
// Authorization (Basic) for the URL's user, asked for with a 401 (as
// Apache's mod_proxy_ftp does); it is never shown or logged.
func (x *exchange) options(u *locator.URL, q string) *access.Options {
	return &access.Options{
		Search: q,
		Password: func(string) (string, error) {
			user, pass, ok := basicAuth(x.r)
			if ok && u.HasUser() && user == locator.Decode(u.User()) {
				x.pwGiven = true
				return pass, nil
			}
			return "", errNeedPassword
		},
	}
}

// formState collects the questions of a form a request shows (a
// Gopher+ ASK block, a Gemini request for input) instead of submitting it.
type formState struct {
	mu    sync.Mutex
	asked []access.Question
}

// formKey is the context key of a request's *formState.
type formKey struct{}

func (f *formState) ask(q access.Question) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.asked = append(f.asked, q)
	return placeholder(q), nil
}

func (f *formState) questions() []access.Question {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.asked
}

// dialer is the DialFunc of s's Clients: connect, on an address
// access's policy already allowed (Config.Policy, with SpecialNever,
// applied by the access.Client to every connection, a second one such
// as FTP's data connection, RFC 959 §3.2, included), unless the request
// has been asked a form's questions (formState), after which it makes
// no connection. A destination whose MaxPerDest slots are all taken has
// the sessions kept idle ended first (an FTP login, an NNTP session may
// hold slots between requests), and is asked once more.
func (s *Server) dialer(ctx context.Context, network, addr string) (net.Conn, error) {
	if f, ok := ctx.Value(formKey{}).(*formState); ok && len(f.questions()) > 0 {
		return nil, errFormShown
	}
	c, err := s.connect(ctx, network, addr)
	var be *BusyError
	if errors.As(err, &be) {
		s.CloseIdle()
		c, err = s.connect(ctx, network, addr)
	}
	return c, err
}

// CloseIdle ends the sessions s's Clients keep open between requests
// (an FTP login, an NNTP session), each with its protocol's goodbye.
func (s *Server) CloseIdle() {
	s.live.CloseIdle()
	s.archived.CloseIdle()
}

// basicAuth reads an Authorization: Basic header.
func basicAuth(r *http.Request) (user, pass string, ok bool) {
	h := r.Header.Get("Authorization")
	b, found := strings.CutPrefix(h, "Basic ")
	if !found {
		return "", "", false
	}
	dec, err := base64.StdEncoding.DecodeString(strings.TrimSpace(b))
	if err != nil {
		return "", "", false
	}
	user, pass, ok = strings.Cut(string(dec), ":")
	return
}

// needsSearch says whether u names a search service without its words
// (a Gopher type 7 item, a WAIS database): the scheme's client refuses
// it as it stands and accepts it with words. Nothing is fetched: only
// the Client's Check is asked, which touches no network.
func needsSearch(u *locator.URL, c *access.Client) bool {
	return c.Check(u, nil) != nil && c.Check(u, &access.Options{Search: "words"}) == nil
}

// lynxSearch undoes Lynx's rewriting of a Gopher search: Lynx sends
// gopher://h/7sel%09words to its gopher_proxy as gopher://h/7sel?words
// (Debian's Lynx, as TestLynx runs it). A gopher URL of type 7 with a
// "?" and no %09 is read with the "?" as the %09 it stood for.
func lynxSearch(raw string) string {
	const p = "gopher://"
	if len(raw) < len(p) || !strings.EqualFold(raw[:len(p)], p) {
		return raw
	}
	rest := raw[len(p):]
	slash := strings.IndexByte(rest, '/')
	if slash < 0 || !strings.HasPrefix(rest[slash+1:], "7") {
		return raw
	}
	path := rest[slash+1:]
	if strings.Contains(strings.ToLower(path), "%09") {
		return raw
	}
	i := strings.IndexByte(path, '?')
	if i < 0 {
		return raw
	}
	return raw[:len(p)+slash+1] + path[:i] + "%09" + path[i+1:]
}

// shown is u as pages show it: without its password.
func shown(u *locator.URL) string {
	if !u.HasPassword() {
		return u.String()
	}
	p := u.Parts()
	p.HasPassword, p.Password = false, ""
	return p.String()
}

// maskURLs masks the password of every URL s carries, whatever its
// form, for the access log and messages: "scheme://user:****@host".
//
// A URL is found by its "://", written as it is or with escapes, once
// or twice encoded (a URL in the start page's query, "%3A%2F%2F"; inside
// it, "%253A"), or mixed ("URL:ftp%3A//"); the deepest encoding of the
// three octets is the URL's level. Within the URL, only an octet encoded
// no deeper than its level delimits: its authority runs to the next
// such "/" (an escaped slash of a deeper level is a user's or a
// password's octet, RFC 1738 §3.1), and its password is what lies
// between the first such ":" and the last such "@". Where that
// over-reads (an authority that is not one, a message going on after
// it), more is masked, never less; s need not parse as a URL.
func maskURLs(s string) string {
	var b strings.Builder
	last := 0
	for i := 0; i < len(s); {
		c, n, l0 := logicalOctet(s, i)
		if c != ':' {
			i += n
			continue
		}
		j := i + n
		c1, n1, l1 := logicalOctet(s, j)
		c2, n2, l2 := logicalOctet(s, j+n1)
		if c1 != '/' || c2 != '/' {
			i += n
			continue
		}
		level := max(l0, l1, l2)
		start := j + n1 + n2
		end, colon, colonEnd, at := start, -1, -1, -1
		for end < len(s) {
			c, n, l := logicalOctet(s, end)
			if l <= level {
				if c == '/' {
					break
				}
				if c == ':' && colon < 0 {
					colon, colonEnd = end, end+n
				}
				if c == '@' {
					at = end
				}
			}
			end += n
		}
		if colon >= 0 && at > colon {
			b.WriteString(s[last:colonEnd])
			b.WriteString("****")
			last = at
			i = at
			continue
		}
		// No password: another URL may begin within this one's
		// authority ("a://b://u:pw@h").
		i += n
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// logicalOctet returns the octet s holds at i, its length there, and
// how deep it is encoded: 0 as it is, 1 a "%" hex hex escape, 2 an
// escaped "%" followed by hex hex ("%253A").
func logicalOctet(s string, i int) (c byte, n, level int) {
	if i >= len(s) {
		return 0, 1, 0
	}
	if s[i] != '%' || i+2 >= len(s) || !locator.IsHex(s[i+1]) || !locator.IsHex(s[i+2]) {
		return s[i], 1, 0
	}
	c = hex.Decode(s[i+1], s[i+2])
	if c == '%' && i+4 < len(s) && locator.IsHex(s[i+3]) && locator.IsHex(s[i+4]) {
		return hex.Decode(s[i+3], s[i+4]), 5, 2
	}
	return c, 3, 1
}

// crossSite says why r was made by a page of another site, or "". The
// browser says so in Sec-Fetch-Site (Fetch Metadata): "cross-site", or
// "same-site" (another origin of the same site, which on loopback is any
// other port of 127.0.0.1); "same-origin" (a link or form of the
// gateway's own pages) and "none" (typed in, a bookmark) are the
// person's own. A browser without Fetch Metadata is judged by Origin, or
// by a Referer (the gateway's own pages send none: Referrer-Policy
// no-referrer), naming another host than the request's Host.
func crossSite(r *http.Request) string {
	switch site := strings.ToLower(strings.TrimSpace(r.Header.Get("Sec-Fetch-Site"))); site {
	case "cross-site", "same-site":
		return "Sec-Fetch-Site: " + site
	}
	for _, h := range []string{"Origin", "Referer"} {
		v := r.Header.Get(h)
		if v == "" {
			continue
		}
		if !sameHost(v, r.Host) {
			return h + ": " + printable.String(maskURLs(v))
		}
	}
	return ""
}

// sameHost says whether the origin or URL v names host (a Host header's
// host[:port]); "null", an opaque origin, names none.
func sameHost(v, host string) bool {
	rest, ok := strings.CutPrefix(strings.ToLower(v), "http://")
	if !ok {
		if rest, ok = strings.CutPrefix(strings.ToLower(v), "https://"); !ok {
			return false
		}
	}
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		rest = rest[:i]
	}
	if i := strings.LastIndexByte(rest, '@'); i >= 0 {
		rest = rest[i+1:]
	}
	h := strings.ToLower(host)
	trim := func(s string) string { return strings.TrimSuffix(strings.TrimSuffix(s, ":80"), ":443") }
	return rest == h || trim(rest) == trim(h)
}

// document streams res's octets with its media type and, when the
// server said it, its length. A failure before the first octet is an
// error page; after it, the connection is cut, so that a client never
// takes a truncated object for a whole one.
func (x *exchange) document(res *access.Resource) {
	h := x.w.Header()
	mt := res.MediaType
	if mt == "" {
		mt = "application/octet-stream"
	}
	h.Set("Content-Type", mt)
	// The object is the server's, not the gateway's: it runs no script
	// in the gateway's origin. A replayed object loads nothing from
	// outside the archive either (replayCSP).
	if x.replayed {
		h.Set("Content-Security-Policy", x.replayCSP())
	} else {
		h.Set("Content-Security-Policy", "sandbox")
	}
	if !res.Modified.IsZero() {
		h.Set("Last-Modified", res.Modified.UTC().Format(http.TimeFormat))
	}
	if x.replayed && x.mode != proxyForm {
		// Its requests name it to the gateway alone (replayReferred);
		// it may be a frame of another replayed page.
		h.Set("Referrer-Policy", "same-origin")
		h.Set("X-Frame-Options", "SAMEORIGIN")
		if x.replayRewrite(res) {
			return
		}
	}
	// HEAD reads as far as GET does before its header is sent, so that
	// its header fields are GET's (RFC 9110 §9.3.2): a Content-Length
	// the server does not say is known when the object fits the first
	// buffer.
	buf := make([]byte, 32<<10)
	n, err := io.ReadFull(res.Body, buf)
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		h.Del("Content-Security-Policy")
		x.failErr(err)
		return
	}
	if res.Size >= 0 {
		h.Set("Content-Length", strconv.FormatInt(res.Size, 10))
	} else if err != nil {
		h.Set("Content-Length", strconv.Itoa(n)) // the whole object is in buf
	}
	x.w.WriteHeader(http.StatusOK)
	if x.r.Method == http.MethodHead {
		return
	}
	if _, werr := x.w.Write(buf[:n]); werr != nil || err != nil {
		return
	}
	if _, err := io.CopyBuffer(x.w, res.Body, buf); err != nil {
		x.s.logNote(x.r, "transfer of "+access.Masked(x.u)+" cut: "+x.hideSecrets(err))
		panic(http.ErrAbortHandler)
	}
}

// replayCSP is the Content-Security-Policy of an object replayed from
// the Archive: what it loads (images, styles, fonts, media, frames) may
// come only from the gateway, which serves it from the archive too,
// and from data: URLs, so that a page viewed in the archive never makes
// the browser reach the live server it was captured from (CSP 3
// §6.1.3, default-src). 'self' is the page's own origin: the gateway's
// in the path form, the captured site's in the proxy form, whose every
// request the browser sends to the gateway; the gateway's address is
// named as well, for a browser that does not match 'self' in a
// sandboxed (opaque-origin) document. Its scripts are not run
// (sandbox), and its forms are not sent (form-action 'none'). In the
// path and query forms it keeps the gateway's origin (allow-same-origin)
// so that its requests, rewritten to the gateway (rewrite.go), are
// same-origin and served from the archive.
func (x *exchange) replayCSP() string {
	gw := x.prefix
	if gw == "" {
		gw = "http://" + x.r.Host
	}
	src := "'self' " + gw
	sandbox, ancestors := "sandbox", "'none'"
	if x.mode != proxyForm {
		// A replayed page's frames are replayed pages: framed by their
		// own origin only (rewrite.go).
		sandbox, ancestors = "sandbox allow-same-origin", "'self'"
	}
	return sandbox + "; default-src " + src + " data: blob:; style-src " + src + " 'unsafe-inline' data:; script-src 'none'; object-src 'none'; form-action 'none'; base-uri 'none'; frame-ancestors " + ancestors
}

// statusCode maps an access outcome to an HTTP status.
func statusCode(err error) int {
	var se *access.ServerError
	var ue *access.UnsupportedError
	switch {
	case errors.As(err, &se), errors.As(err, new(*access.NotArchivedError)):
		return http.StatusNotFound
	case errors.As(err, &ue):
		return http.StatusNotImplemented
	case errors.As(err, new(*BusyError)):
		return http.StatusServiceUnavailable
	case errors.Is(err, access.ErrTooLarge):
		return http.StatusBadGateway
	case access.Classify(err) == access.Forbidden:
		return http.StatusForbidden
	case access.Timeout(err):
		return http.StatusGatewayTimeout
	}
	return http.StatusBadGateway
}

func (x *exchange) failErr(err error) {
	code := statusCode(err)
	if code == http.StatusServiceUnavailable {
		x.w.Header().Set("Retry-After", "5")
	}
	x.fail(code, x.hideSecrets(err))
}

// hideSecrets is err's message as a page or the log shows it: the
// password of every URL in it masked (maskURLs), and the passwords the
// request carries (the URL's, the HTTP client's Authorization) masked
// where a server's own text echoes them (access.ServerError.Text,
// access.ProtocolError.Msg: there, wherever it is), field by field as
// access masks a dialogue's PASS, never by looking for a password's
// text in the whole message: a password "p" would garble every "p" of
// the gateway's own words ("ft****://", "local ****olicy") and show
// where its letters are.
func (x *exchange) hideSecrets(err error) string {
	msg := err.Error()
	var secrets []string
	if x.u != nil && x.u.HasPassword() && x.u.Password() != "" {
		secrets = append(secrets, x.u.Password(), locator.Decode(x.u.Password()))
	}
	if _, p, ok := basicAuth(x.r); ok && p != "" {
		secrets = append(secrets, p)
	}
	var se *access.ServerError
	var pe *access.ProtocolError
	mask := func(t string) string {
		for _, p := range secrets {
			if p != "" {
				t = strings.ReplaceAll(t, p, "****")
			}
		}
		return t
	}
	// The error's own message is replaced by that of a copy whose
	// server text is masked: only that part of msg changes.
	if errors.As(err, &se) && se.Text != "" {
		c := *se
		c.Text = mask(se.Text)
		msg = strings.Replace(msg, se.Error(), c.Error(), 1)
	}
	if errors.As(err, &pe) && pe.Msg != "" {
		c := *pe
		c.Msg = mask(pe.Msg)
		msg = strings.Replace(msg, pe.Error(), c.Error(), 1)
	}
	return maskURLs(msg)
}

// challenge asks the HTTP client for the user's password (401), as
// Apache's mod_proxy_ftp does.
func (x *exchange) challenge(u *locator.URL) {
	realm := locator.Decode(u.User()) + "@" + u.Hostport()
	x.w.Header().Set("WWW-Authenticate", `Basic realm=`+strconv.Quote(sanitizeRealm(realm))+`, charset="UTF-8"`)
	msg := "The server asks for the password of " + strconvQuote(locator.Decode(u.User())) + "; the URL gives none."
	if _, _, ok := basicAuth(x.r); ok {
		msg = "The server refused the password given, or it was for another user."
	}
	x.fail(http.StatusUnauthorized, msg)
}

// sanitizeRealm makes s fit for the realm, a quoted-string of an HTTP
// header (RFC 9110 §5.6.4, §11.6.1): a character that is not printable
// by package internal/printable's rule becomes one '?' (printable.Columns),
// and so do the quoted-string's own delimiters, '"' and '\', which
// clients do not all unescape.
func sanitizeRealm(s string) string {
	return realmDelims.Replace(printable.Columns(s))
}

var realmDelims = strings.NewReplacer(`"`, "?", `\`, "?")

func strconvQuote(s string) string { return strconv.Quote(s) }

// statusWriter records the status and octets written, for the log.
type statusWriter struct {
	http.ResponseWriter
	status int
	n      int64
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(p []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	n, err := w.ResponseWriter.Write(p)
	w.n += int64(n)
	return n, err
}

func (w *statusWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// logLine writes one access-log line: time, client, method, the URL
// (password masked), status, octets, duration. The Authorization header
// is never logged; control octets are escaped.
func (s *Server) logLine(r *http.Request, target string, w *statusWriter, d time.Duration) {
	if s.cfg.Log == nil {
		return
	}
	st := w.status
	if st == 0 {
		st = http.StatusOK
	}
	line := fmt.Sprintf("%s %s %s %s %d %d %dms\n", time.Now().UTC().Format(time.RFC3339), r.RemoteAddr, logField(r.Method), logField(maskURLs(target)), st, w.n, d.Milliseconds())
	s.logMu.Lock()
	defer s.logMu.Unlock()
	io.WriteString(s.cfg.Log, line)
}

func (s *Server) logNote(r *http.Request, note string) {
	if s.cfg.Log == nil {
		return
	}
	s.logMu.Lock()
	defer s.logMu.Unlock()
	fmt.Fprintf(s.cfg.Log, "%s %s * %s\n", time.Now().UTC().Format(time.RFC3339), r.RemoteAddr, printable.String(maskURLs(note)))
}

// logField makes s one field of a log line: printable (package
// internal/printable's rule) and without a space.
func logField(s string) string {
	return strings.ReplaceAll(printable.String(s), " ", `\x20`)
}
