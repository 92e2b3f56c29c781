package main

// get's flags that curl's users type without a second thought: -s, -S,
// -L, -f, -i, -X, -A, --limit-rate, --resolve, -4, -6,
// --location-trusted, --retry-delay, each curl's meaning where locator
// has one (docs/cli.md, "curl and wget": which are the same, which
// differ and why).

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/netip"
	"os"
	"strconv"
	"strings"
	"time"

	"golang.org/x/term"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	lochttp "github.com/rfc1738/locator/http"
	"github.com/rfc1738/locator/internal/printable"
)

// curlOptions are get's flags of curlFlags.
type curlOptions struct {
	silent, showError bool          // -s, -S
	include           bool          // -i: the reply's head before the object
	request           string        // -X: the http method
	userAgent         *string       // -A: nil for the client's own
	limitRate         sizeFlag      // --limit-rate: octets a second; 0 none
	resolve           resolveList   // --resolve HOST:PORT:ADDRESS
	ipv4, ipv6        bool          // -4, -6
	locationTrusted   bool          // --location-trusted
	retryDelay        time.Duration // --retry-delay: 0 the doubling waits
	location, fail    bool          // -L, -f: what locator does anyway
}

func curlFlags(fs *flag.FlagSet, o *curlOptions) {
	both := func(short, long string, p *bool, usage string) {
		fs.BoolVar(p, long, false, usage)
		fs.BoolVar(p, short, false, usage+" (the same as --"+long+")")
	}
	both("s", "silent", &o.silent, "no progress bar, and no message on standard error when a URL fails (the exit status says it): curl's -s")
	both("S", "show-error", &o.showError, "with -s, the message of a URL that fails all the same: curl's -S")
	both("L", "location", &o.location, "follow redirections: what get does anyway, up to --max-redirs (curl's -L, accepted so that curl's command lines work)")
	both("f", "fail", &o.fail, "an http or https server's refusal (4xx, 5xx) fails, its page not written: what get does anyway, exit 1 where curl's -f exits 22 (--fail-with-body writes the page)")
	both("i", "include", &o.include, "write each http or https reply's status line and header fields, as the server sent them, to the output before the object (curl's -i); other schemes have none")
	x := "send `METHOD` in place of GET (or POST with -d) to an http or https URL, and to every redirection it leads to, as curl's -X; nothing else of the request changes"
	fs.StringVar(&o.request, "request", "", x)
	fs.StringVar(&o.request, "X", "", x+" (the same as --request)")
	a := "send `NAME` as the User-Agent of an http or https request (\"\": none), as curl's -A; -H User-Agent wins"
	ua := func(v string) error { o.userAgent = &v; return nil }
	fs.Func("user-agent", a, ua)
	fs.Func("A", a+" (the same as --user-agent)", ua)
	fs.Var(&o.limitRate, "limit-rate", "read the object at most this many octets a second on average, e.g. 100K, 1M (curl's --limit-rate; 0: no bound)")
	fs.Var(&o.resolve, "resolve", "connect to `HOST:PORT:ADDRESS[,ADDRESS]...` instead of the addresses the HOST's name has, for that PORT (curl's --resolve; HOST * for every host); repeatable")
	fs.BoolVar(&o.ipv4, "4", false, "connect over IPv4 only: a name's IPv4 addresses (curl's -4)")
	fs.BoolVar(&o.ipv6, "6", false, "connect over IPv6 only: a name's IPv6 addresses (curl's -6)")
	fs.BoolVar(&o.locationTrusted, "location-trusted", false, "send -u's password and -H's Authorization, Cookie and Proxy-Authorization to every server a redirection leads to, not only to the first URL's (curl's --location-trusted)")
	durationVar(fs, &o.retryDelay, "retry-delay", 0, "with --retry, wait this long before each retry (seconds, 0.5, or 2m) instead of 1s, 2s, 4s, ... (curl's --retry-delay)")
}

// curlInvalid returns the usage message when o's flags contradict each
// other, or "".
func (o *curlOptions) curlInvalid() string {
	switch {
	case o.ipv4 && o.ipv6:
		return "-4 and -6 contradict each other: give one"
	case o.retryDelay < 0:
		return "--retry-delay must not be negative"
	}
	return ""
}

// configure sets what the flags say on hc, the client of http and
// https URLs: -X, -A, --location-trusted (else every credential is kept
// to the origin of u, the first URL), and onReply.
func (o *curlOptions) configure(hc *lochttp.Client, u *locator.URL, onReply func(lochttp.Reply)) {
	hc.Method = o.request
	if o.userAgent != nil && hc.Header.Get("User-Agent") == "" {
		if hc.Header == nil {
			hc.Header = map[string][]string{}
		}
		hc.Header["User-Agent"] = []string{*o.userAgent}
	}
	hc.AuthOrigin = u
	if o.locationTrusted {
		hc.AuthOrigin = nil
	}
	hc.OnReply = onReply
}

// resolver returns the Resolver of -4, -6 and --resolve, or nil for the
// system's. access.Client checks and dials the addresses it gives, as
// any others.
func (o *curlOptions) resolver() access.Resolver {
	if !o.ipv4 && !o.ipv6 && len(o.resolve) == 0 {
		return nil
	}
	return curlResolver{o}
}

// dial returns the dialer of -4 or -6, which connects to an address of
// that family only (an address written in the URL too), or nil.
func (o *curlOptions) dial() access.DialFunc {
	family := ""
	switch {
	case o.ipv4:
		family = "4"
	case o.ipv6:
		family = "6"
	default:
		return nil
	}
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, network+family, addr)
	}
}

// curlResolver answers a name by --resolve's entry for its host and
// port, else by the system's resolver, keeping the addresses of -4's or
// -6's family only.
type curlResolver struct{ o *curlOptions }

func (r curlResolver) LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error) {
	return r.LookupPort(ctx, host, 0)
}

func (r curlResolver) LookupPort(ctx context.Context, host string, port int) ([]netip.Addr, error) {
	var addrs []netip.Addr
	if to := r.o.resolve.lookup(net.JoinHostPort(host, strconv.Itoa(port))); to != nil {
		for _, s := range to {
			a, err := netip.ParseAddr(strings.Trim(s, "[]"))
			if err != nil {
				return nil, fmt.Errorf("--resolve: %w", err)
			}
			addrs = append(addrs, a.Unmap())
		}
	} else {
		var err error
		if addrs, err = net.DefaultResolver.LookupNetIP(ctx, "ip", host); err != nil {
			return nil, err
		}
	}
	var out []netip.Addr
	for _, a := range addrs {
		a = a.Unmap()
		if r.o.ipv4 && !a.Is4() || r.o.ipv6 && a.Is4() {
			continue
		}
		out = append(out, a)
	}
	if len(out) == 0 {
		family := "4"
		if r.o.ipv6 {
			family = "6"
		}
		return nil, fmt.Errorf("%s has no IPv%s address", host, family)
	}
	return out, nil
}

// A resolveList is --resolve's entries, in order: the first that
// names a host and port is used.
type resolveList []resolveEntry

type resolveEntry struct {
	host  string // lower case, no brackets; "*" for every host
	port  string
	addrs []string
}

func (l *resolveList) String() string {
	var s []string
	for _, e := range *l {
		s = append(s, e.host+":"+e.port+":"+strings.Join(e.addrs, ","))
	}
	return strings.Join(s, " ")
}

// Set reads HOST:PORT:ADDRESS[,ADDRESS]..., an IPv6 address in
// brackets or not, as curl does.
func (l *resolveList) Set(v string) error {
	host, rest, ok1 := strings.Cut(v, ":")
	port, list, ok2 := strings.Cut(rest, ":")
	if !ok1 || !ok2 || host == "" || list == "" {
		return errors.New("want HOST:PORT:ADDRESS, or several addresses after PORT joined by commas")
	}
	if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
		return fmt.Errorf("not a port: %q", port)
	}
	e := resolveEntry{host: strings.ToLower(strings.Trim(host, "[]")), port: port}
	for _, a := range strings.Split(list, ",") {
		a = strings.Trim(strings.TrimSpace(a), "[]")
		if net.ParseIP(a) == nil {
			return fmt.Errorf("not an IP address: %q", a)
		}
		e.addrs = append(e.addrs, a)
	}
	*l = append(*l, e)
	return nil
}

// lookup returns the addresses --resolve gives addr (host:port), or nil.
func (l resolveList) lookup(addr string) []string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil
	}
	host = strings.ToLower(host)
	for _, e := range l {
		if e.port == port && (e.host == host || e.host == "*") {
			return e.addrs
		}
	}
	return nil
}

// A rateLimiter reads r at most rate octets a second on average since
// its first read (--limit-rate): after each read it sleeps until the
// octets read so far are due. Each read asks for at most an eighth of a
// second's octets, so that the waits stay short and even.
type rateLimiter struct {
	r     io.Reader
	rate  int64
	start time.Time
	n     int64
	now   func() time.Time
	sleep func(time.Duration)
}

func (l *rateLimiter) Read(p []byte) (int, error) {
	if l.start.IsZero() {
		l.start = l.now()
	}
	if max := max(l.rate/8, 1); int64(len(p)) > max {
		p = p[:max]
	}
	n, err := l.r.Read(p)
	l.n += int64(n)
	due := time.Duration(float64(l.n) / float64(l.rate) * float64(time.Second))
	if wait := due - l.now().Sub(l.start); wait > 0 {
		l.sleep(wait)
	}
	return n, err
}

// limited returns r bounded by --limit-rate, or r.
func (o *getOptions) limited(r io.Reader) io.Reader {
	if o.limitRate <= 0 {
		return r
	}
	now, sleep := time.Now, time.Sleep
	if o.clock != nil {
		now, sleep = o.clock.now, o.clock.sleep
	}
	return &rateLimiter{r: r, rate: int64(o.limitRate), now: now, sleep: sleep}
}

// A clock is the time --limit-rate reads and waits by.
type clock interface {
	now() time.Time
	sleep(time.Duration)
}

// askPassword completes -u USER, which gives no password, with one
// asked on the terminal as curl asks it; without a terminal to ask on
// it is a usage error.
func (o *getOptions) askPassword(e *env) error {
	if o.user == "" || strings.Contains(o.user, ":") {
		return nil
	}
	in, ok := e.stdin.(*os.File)
	if !ok || o.noPrompt || !term.IsTerminal(int(in.Fd())) {
		return errors.New("-u " + o.user + " gives no password, and there is no terminal to ask it on: want USER:PASSWORD")
	}
	fmt.Fprintf(e.stderr, "Enter host password for user '%s':", printable.String(o.user))
	b, err := term.ReadPassword(int(in.Fd()))
	fmt.Fprintln(e.stderr)
	if err != nil {
		return fmt.Errorf("-u: reading the password: %w", err)
	}
	o.user += ":" + string(b)
	return nil
}
