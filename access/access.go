// Package access follows URLs: Get dispatches a URL by its scheme to the
// client that scheme's package registered and returns the object the URL
// names (RFC 1738 §2: "the algorithms that turn such a name into the
// object").
//
// The package knows no protocol. It holds what every scheme shares: the
// registry (Register, Lookup), the caller's Options and local Policy
// (RFC 1738 §6: ports, hosts, decoded delimiters), the dialogue log,
// deadlines and size limits on every connection, redirection between
// schemes, and the outcome of an attempt as a typed error (ServerError,
// PolicyError, ProtocolError) that a program maps to its exit status.
// Each scheme package (ftp, http, file, gopher, ...) implements Fetcher
// and calls Register from its init function, as it registers its rules
// with the core; a program links them all in with
// import _ "github.com/rfc1738/locator/schemes".
//
// The split follows net/http's Client and Transport: policy and dispatch
// here, each protocol behind the small Fetcher interface.
package access

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/rfc1738/locator"
)

// A Fetcher retrieves the objects of one scheme.
type Fetcher interface {
	// Check reports, before any connection is made, why u cannot be
	// followed: a *PolicyError when a decoded CR, LF or NUL would reach
	// the protocol as a delimiter (RFC 1738 §6), or when the URL names
	// nothing this client can fetch (no host, a typecode it cannot
	// carry out). It must not touch the network.
	Check(u *locator.URL, req *Request) error

	// Fetch retrieves the object u names. It opens connections only
	// through req.Dial (so that policy, deadlines and the dialogue log
	// apply), bounds every read (req.Options.MaxSize for the body,
	// MaxLine for a reply line, MaxEntries for a listing), and returns a
	// Resource, or an error: a *ServerError when the server says the
	// object does not exist or refuses it, a *ProtocolError for a
	// malformed or oversized reply, a *Redirect to have Get follow
	// another URL, or the network error.
	Fetch(ctx context.Context, u *locator.URL, req *Request) (*Resource, error)
}

// Info is what a scheme package says of its client when it registers it.
type Info struct {
	// DefaultPort is the scheme's port when the URL gives none; 0 for a
	// scheme that makes no connection (file).
	DefaultPort int
	// Methods lists the retrieval methods the client offers, the first
	// the default (Options.Method picks one); nil when there is one way.
	Methods []string
}

type entry struct {
	f    Fetcher
	info Info
}

var (
	mu       sync.RWMutex
	fetchers = map[string]entry{}
)

// Register makes f the client for scheme (lower case). It panics when a
// client is registered twice for one scheme, as a programming error.
func Register(scheme string, info Info, f Fetcher) {
	mu.Lock()
	defer mu.Unlock()
	if _, dup := fetchers[scheme]; dup {
		panic("access: Register called twice for scheme " + scheme)
	}
	fetchers[scheme] = entry{f, info}
}

// Lookup returns the client registered for scheme and what it said of
// itself, or ok false.
func Lookup(scheme string) (f Fetcher, info Info, ok bool) {
	mu.RLock()
	defer mu.RUnlock()
	e, ok := fetchers[scheme]
	return e.f, e.info, ok
}

// Schemes returns the schemes that have a client, sorted.
func Schemes() []string {
	mu.RLock()
	defer mu.RUnlock()
	s := make([]string, 0, len(fetchers))
	for k := range fetchers {
		s = append(s, k)
	}
	sort.Strings(s)
	return s
}

// Defaults of Options' zero fields.
const (
	DefaultConnectTimeout = 30 * time.Second
	DefaultIdleTimeout    = 60 * time.Second
	DefaultMaxLine        = 64 << 10
	DefaultMaxEntries     = 1 << 20
	DefaultMaxRedirects   = 10
)

// Options says how Get follows a URL. The zero value is usable: each
// zero field takes the default named beside it.
type Options struct {
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
	// MaxRedirects bounds how many times Get follows a Redirect
	// (DefaultMaxRedirects); negative means none is followed.
	MaxRedirects int
	// RedirectSchemes lists the schemes a redirect may lead into; nil
	// means every scheme whose client makes a connection (Info's
	// DefaultPort is not 0). Whatever the list says, a redirect never
	// leads into a scheme that makes no connection (file) unless the
	// URL given to Get was of such a scheme: what a server sends may
	// not name a file of the machine that follows it (RFC 1738 §3.10,
	// §6), as curl's CURLOPT_REDIR_PROTOCOLS keeps file out.
	RedirectSchemes []string
	// CheckRedirect, when not nil, is asked before each redirect is
	// followed, after the rules above and before any connection to next:
	// via holds the URLs followed so far, the first given to Get. Its
	// error ends Get with that error (net/http's Client.CheckRedirect).
	CheckRedirect func(next *locator.URL, via []*locator.URL) error

	// UserAddress is the end user's Internet e-mail address, given where
	// a protocol asks for it: as the password of anonymous FTP (RFC 1738
	// §3.2.1). Empty: the client uses its own neutral address.
	UserAddress string
	// Password asks the person for a password the URL does not give
	// (RFC 1738 §3.2.1: the client "should request one from the user"),
	// without echo. Nil means there is nobody to ask: the fetch fails
	// with a clear error instead.
	Password func(prompt string) (string, error)
	// Method picks one of the retrieval methods the scheme's client
	// offers (Info.Methods); empty is the first, the texts' own.
	Method string
	// Search gives the search words for a URL that names a search
	// service without them (a Gopher type 7 item, a WAIS database).
	Search string
	// View asks for one representation of the object among those the
	// server offers (a Gopher+ view such as "text/plain En_US", a WAIS
	// document type); empty is the server's default.
	View string
	// Server names the server to ask when the URL names none, as
	// host[:port] (RFC 1738 §3.6: news URLs are read from "the
	// configured" news server); empty is the client's own default.
	Server string
	// Answers fills in a form a server asks the person to fill (a
	// Gopher+ ASK block), by the question's name or prompt; Ask, when
	// not nil, asks the person for what Answers does not give.
	Answers map[string]string
	Ask     func(q Question) (string, error)

	// Policy is local policy, applied before any connection.
	Policy Policy

	// Dialogue, when not nil, receives the protocol dialogue, one line
	// per command and reply ("> USER anonymous", "< 230 Login
	// successful."), and notes ("* connect 127.0.0.1:21"); passwords
	// are masked.
	Dialogue io.Writer

	// Dial, when not nil, replaces the network dialer (tests, proxies).
	Dial DialFunc
}

func (o *Options) connectTimeout() time.Duration {
	if o.ConnectTimeout > 0 {
		return o.ConnectTimeout
	}
	return DefaultConnectTimeout
}

func (o *Options) idleTimeout() time.Duration {
	if o.IdleTimeout > 0 {
		return o.IdleTimeout
	}
	return DefaultIdleTimeout
}

func (o *Options) maxLine() int {
	if o.MaxLine > 0 {
		return o.MaxLine
	}
	return DefaultMaxLine
}

func (o *Options) maxEntries() int {
	if o.MaxEntries > 0 {
		return o.MaxEntries
	}
	return DefaultMaxEntries
}

func (o *Options) maxRedirects() int {
	switch {
	case o.MaxRedirects < 0:
		return 0
	case o.MaxRedirects == 0:
		return DefaultMaxRedirects
	}
	return o.MaxRedirects
}

// A Resource is the object a URL names, as retrieved.
type Resource struct {
	// URL is the URL the object was retrieved from: the one given to Get,
	// or the last one followed through redirects.
	URL *locator.URL
	// Body streams the object's octets, exactly as the server sent them
	// once the protocol's own framing is undone (FTP ASCII line ends,
	// Gopher and NNTP dot-stuffing); nil for a listing. It is bounded by
	// Options.MaxSize and every read by Options.IdleTimeout. The caller
	// must Close it; Close ends the transfer (and tells the server).
	Body io.ReadCloser
	// MediaType is the object's media type, from the protocol when it
	// says one, else guessed from the name; "" when unknown.
	MediaType string
	// Size is the object's size in octets when the server says it, or
	// -1.
	Size int64
	// Modified is the object's modification time when the server says
	// it, or the zero time.
	Modified time.Time
	// Listing is set when the object is a collection (a directory, a
	// menu, a group, search results); Body is then nil.
	Listing *Listing
}

// Close closes r's Body or Listing, if any.
func (r *Resource) Close() error {
	if r != nil && r.Listing != nil {
		return r.Listing.Close()
	}
	if r == nil || r.Body == nil {
		return nil
	}
	return r.Body.Close()
}

// Get retrieves the object u names: it applies opts.Policy and the
// client's own Check before any connection, then fetches through the
// client registered for u's scheme, following a Redirect (to a URL of
// any scheme, checked anew) at most opts.MaxRedirects times.
//
// The error, when not nil, is a *PolicyError (refused before
// connecting), a *ServerError (the server says the object does not exist
// or refuses it), a *ProtocolError (a malformed or oversized reply),
// ErrTooLarge, context.DeadlineExceeded or a network error; Outcome
// classifies it.
func Get(ctx context.Context, u *locator.URL, opts Options) (*Resource, error) {
	if u == nil {
		return nil, &PolicyError{Rule: "url", Reason: "no URL"}
	}
	var via []*locator.URL
	for hops := 0; ; hops++ {
		req := &Request{Options: &opts, URL: u, hop: hops}
		f, info, ok := Lookup(u.Scheme())
		if !ok {
			return nil, &UnsupportedError{Scheme: u.Scheme()}
		}
		req.info = info
		if err := opts.Policy.check(u, info); err != nil {
			return nil, err
		}
		if err := f.Check(u, req); err != nil {
			return nil, err
		}
		res, err := f.Fetch(ctx, u, req)
		var rd *Redirect
		if !errors.As(err, &rd) {
			if res != nil && res.URL == nil {
				res.URL = u
			}
			return res, err
		}
		via = append(via, u)
		next, err := opts.redirect(req, via, rd)
		if err != nil {
			return nil, err
		}
		u = next
	}
}

// redirect is the one rule by which Get and Probe follow rd, the
// Redirect that fetching the last URL of via returned: the bound on
// hops, the location read as a URL (or a reference resolved against the
// URL that sent it), the schemes a redirect may reach, and the caller's
// CheckRedirect. The next URL's own policy is applied by the loop, as
// for the first.
func (o *Options) redirect(req *Request, via []*locator.URL, rd *Redirect) (*locator.URL, error) {
	u := via[len(via)-1]
	hops := len(via) - 1
	if o.MaxRedirects < 0 {
		return nil, &ProtocolError{URL: Masked(u), Msg: fmt.Sprintf("redirected (%s) to %s, and following redirections is off", rd.Code, maskedRef(rd.Location))}
	}
	if hops >= o.maxRedirects() {
		return nil, &ProtocolError{URL: Masked(u), Msg: fmt.Sprintf("more than %d redirections; the last to %s", o.maxRedirects(), maskedRef(rd.Location))}
	}
	next, perr := locator.Parse(rd.Location)
	if perr != nil {
		next, perr = locator.Resolve(u, rd.Location, locator.RFC3986)
	}
	if perr != nil {
		return nil, &ProtocolError{URL: Masked(u), Msg: "redirection to a location that is not a URL: " + perr.Error()}
	}
	req.Notef("redirect %d to %s", hops+1, Masked(next))
	if err := o.redirectScheme(via[0], u, next); err != nil {
		return nil, err
	}
	if o.CheckRedirect != nil {
		if err := o.CheckRedirect(next, via); err != nil {
			return nil, err
		}
	}
	return next, nil
}

// redirectScheme says whether a redirect from u (the first URL followed
// being first) may lead to next's scheme.
func (o *Options) redirectScheme(first, u, next *locator.URL) error {
	scheme := next.Scheme()
	_, info, ok := Lookup(scheme)
	if !ok {
		return &UnsupportedError{Scheme: scheme}
	}
	refuse := func(why string) error {
		return &PolicyError{URL: Masked(next), Rule: "redirect", Reason: "the server of " + Masked(u) + " redirects to a " + scheme + " URL: " + why}
	}
	if info.DefaultPort == 0 {
		if _, fi, _ := Lookup(first.Scheme()); fi.DefaultPort != 0 {
			return refuse(scheme + " makes no connection: it names something of this machine, and only a URL given by the user may do that")
		}
	}
	if o.RedirectSchemes == nil {
		return nil
	}
	for _, s := range o.RedirectSchemes {
		if strings.EqualFold(s, scheme) {
			return nil
		}
	}
	return refuse("local policy lets a redirect reach only " + strings.Join(o.RedirectSchemes, ", "))
}

// maskedRef is a redirect's location as messages show it: the
// password of a URL removed, any other text as it is.
func maskedRef(loc string) string {
	if u, err := locator.Parse(loc); err == nil {
		return Masked(u)
	}
	return loc
}

// A Redirect, returned by a Fetcher, asks Get to follow Location
// instead (an HTTP 3xx, a Gopher "h" item with a URL: selector).
type Redirect struct {
	Location string // an absolute URL, or a reference resolved against the URL fetched
	Code     string // the protocol's own code ("301")
}

func (r *Redirect) Error() string { return "redirected (" + r.Code + ") to " + r.Location }

// An UnsupportedError says no client is registered for a scheme.
type UnsupportedError struct{ Scheme string }

func (e *UnsupportedError) Error() string {
	return "access: no client for scheme " + quote(e.Scheme) + " (clients: " + strings.Join(Schemes(), ", ") + ")"
}

func quote(s string) string { return fmt.Sprintf("%q", s) }

// A Question is one field of a form a server asks the person to fill
// (a Gopher+ ASK block), handed to Options.Ask.
type Question struct {
	// Kind is the field's kind in the protocol's own words ("Ask",
	// "AskP", "AskL", "Choose", "Select", "Note").
	Kind    string
	Prompt  string
	Default string   // the default answer, or ""
	Choices []string // the answers to choose from, or nil
	Secret  bool     // the answer must not be echoed (a password)
	Lines   bool     // the answer may have several lines
}
