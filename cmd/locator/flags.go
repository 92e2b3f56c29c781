package main

// The flags the commands that connect share (get, probe, send, telnet,
// gateway), declared here once so that one name always means one thing.
// Where curl has a name for a bound, the flag takes curl's name and
// curl's meaning: --max-time, --connect-timeout, --max-filesize,
// --max-redirs. A flag renamed keeps its old name for one release
// (renames), which still works and says on standard error what to use.

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
)

// limits are the bounds a command sets on what it does. A command
// declares those it takes with limitFlags; the values held when it does
// are the flags' defaults.
type limits struct {
	maxTime     time.Duration // --max-time: the whole operation; 0 none
	connect     time.Duration // --connect-timeout: establishing each connection
	idle        time.Duration // --idle-timeout: each read and write
	maxFilesize int64         // --max-filesize: the object's octets; 0 none
	maxRedirs   int           // --max-redirs: redirections followed; 0 none
	maxEntries  int           // --max-entries: a listing's entries
}

// A bound names the limits a command takes (limitFlags).
type bound uint

const (
	boundMaxTime bound = 1 << iota
	boundConnect
	boundIdle
	boundFilesize
	boundRedirs
	boundEntries

	// boundTimeouts are the two every connection has.
	boundTimeouts = boundConnect | boundIdle
)

// limitFlags declares on fs the flags of the limits which names, each
// writing its field of l, whose value now is the default.
func limitFlags(fs *flag.FlagSet, l *limits, which bound) {
	if which&boundMaxTime != 0 {
		fs.DurationVar(&l.maxTime, "max-time", l.maxTime,
			"bound on the whole operation: connecting, the dialogue, redirections and the transfer, as curl's --max-time (0: none)")
	}
	if which&boundConnect != 0 {
		fs.DurationVar(&l.connect, "connect-timeout", l.connect, "bound on establishing each connection")
	}
	if which&boundIdle != 0 {
		fs.DurationVar(&l.idle, "idle-timeout", l.idle, "bound on each read and write: a server silent this long is cut off")
	}
	if which&boundFilesize != 0 {
		fs.Var((*sizeFlag)(&l.maxFilesize), "max-filesize", "bound on the object's octets, e.g. 1048576, 512K, 10M, 2G (0: no bound)")
	}
	if which&boundRedirs != 0 {
		fs.IntVar(&l.maxRedirs, "max-redirs", l.maxRedirs, "redirections followed at most (0: none is followed, as curl's)")
	}
	if which&boundEntries != 0 {
		fs.IntVar(&l.maxEntries, "max-entries", l.maxEntries, "bound on a listing's entries")
	}
}

// invalid returns the usage message when a limit which names is out of
// range (a timeout or --max-entries not positive, another bound
// negative), or "". The message names every limit which names, as the
// help does, so that it says the rule and not only the mistake.
func (l *limits) invalid(which bound) string {
	var positive, notNegative []string
	bad := false
	check := func(b bound, name string, mustBePositive bool, v int64) {
		switch {
		case which&b == 0:
		case mustBePositive:
			positive = append(positive, name)
			bad = bad || v <= 0
		default:
			notNegative = append(notNegative, name)
			bad = bad || v < 0
		}
	}
	check(boundConnect, "--connect-timeout", true, int64(l.connect))
	check(boundIdle, "--idle-timeout", true, int64(l.idle))
	check(boundEntries, "--max-entries", true, int64(l.maxEntries))
	check(boundRedirs, "--max-redirs", false, int64(l.maxRedirs))
	check(boundFilesize, "--max-filesize", false, l.maxFilesize)
	check(boundMaxTime, "--max-time", false, int64(l.maxTime))
	if !bad {
		return ""
	}
	var msg []string
	if len(positive) > 0 {
		msg = append(msg, list(positive)+" must be positive")
	}
	if len(notNegative) > 0 {
		msg = append(msg, list(notNegative)+" not negative")
	}
	if len(positive) == 0 {
		return list(notNegative) + " must not be negative"
	}
	return strings.Join(msg, ", ")
}

// list writes names as an English list: "a", "a and b", "a, b and c".
func list(names []string) string {
	if len(names) == 1 {
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// apply sets c's generic bounds from l: --max-redirs 0 is a negative
// MaxRedirects (none followed), for the Client's 0 is its default.
// --max-time is not the Client's: it is the context's (withMaxTime).
func (l *limits) apply(c *access.Client) {
	c.ConnectTimeout = l.connect
	c.IdleTimeout = l.idle
	c.MaxSize = l.maxFilesize
	c.MaxEntries = l.maxEntries
	c.MaxRedirects = l.maxRedirs
	if l.maxRedirs == 0 {
		c.MaxRedirects = -1
	}
}

// withMaxTime returns ctx bounded by --max-time when it is set: one
// deadline over the whole operation, which every connection's reads
// and writes observe too (access.Request.Dial).
func (l *limits) withMaxTime(ctx context.Context) (context.Context, context.CancelFunc) {
	if l.maxTime > 0 {
		return context.WithTimeout(ctx, l.maxTime)
	}
	return context.WithCancel(ctx)
}

// policy is local policy as the flags give it (RFC 1738 §6): the same
// rules, read by the same code (access.ParseRule, access.Policy), in
// every command and the gateway.
type policy struct {
	allowPorts  intList
	allow, deny ruleList
	protoRedir  string // --proto-redir; "" for access.DefaultRedirectSchemes
}

// policyFlags declares on fs --allow-port, --allow-host and --deny-host,
// whose values are rules (access.Rule), and, with redirects, --proto-redir.
func policyFlags(fs *flag.FlagSet, p *policy, redirects bool) {
	fs.Var(&p.allowPorts, "allow-port", "a port of another service that may be used all the same (RFC 1738 §6); repeatable or a comma list")
	fs.Var(&p.allow, "allow-host", "destinations allowed: HOST, .DOMAIN, ADDRESS, NETWORK/BITS, each with :PORT or :LOW-HIGH, or :PORT alone, matched on every address connected to; "+
		"when given, only these; a loopback, private or link-local address a server names (a redirection, a link) only when a rule naming hosts allows it (repeatable or a comma list)")
	fs.Var(&p.deny, "deny-host", "destinations refused, written as for --allow-host, matched on every address connected to (repeatable or a comma list)")
	if redirects {
		fs.StringVar(&p.protoRedir, "proto-redir", "", "the schemes a redirection may lead into, a comma list, or all (every scheme that connects to a server); default http,https,ftp and the redirecting URL's own scheme, as curl's. Never file")
	}
}

// access returns p as package access's Policy.
func (p *policy) access() access.Policy {
	return access.Policy{AllowPorts: p.allowPorts, Allow: p.allow, Deny: p.deny}
}

// redirectSchemes returns --proto-redir as Client.RedirectSchemes.
func (p *policy) redirectSchemes() []string {
	switch p.protoRedir {
	case "":
		return nil
	case "all":
		return access.Schemes()
	}
	var out []string
	for _, s := range strings.Split(p.protoRedir, ",") {
		if s = strings.TrimSpace(strings.ToLower(s)); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// ruleList is a list of access.Rule, each read when the flag is given,
// so that a rule that could never match is a usage error.
type ruleList []access.Rule

func (l *ruleList) String() string {
	var s []string
	for _, r := range *l {
		s = append(s, r.String())
	}
	return strings.Join(s, ",")
}

func (l *ruleList) Set(v string) error {
	for _, f := range strings.Split(v, ",") {
		r, err := access.ParseRule(strings.TrimSpace(f))
		if err != nil {
			return err
		}
		*l = append(*l, r)
	}
	return nil
}

// schemeOptions are the settings of the scheme clients the flags give.
type schemeOptions struct {
	method      string // --method: the URL's own scheme client's Method
	userAddress string // --user-address: ftp.Client.UserAddress
	nntpServer  string // --nntp-server: news.Client.Server
	ftpASCII    bool   // --ftp-ascii (get): ftp.Client.ASCII
}

// serverFlags declares on fs --user-address and --nntp-server, which
// say what a URL leaves to the client: the anonymous FTP password and
// the news server.
func serverFlags(fs *flag.FlagSet, s *schemeOptions) {
	fs.StringVar(&s.userAddress, "user-address", "", "your e-mail address, the anonymous FTP password (RFC 1738 §3.2.1)")
	fs.StringVar(&s.nntpServer, "nntp-server", os.Getenv("NNTPSERVER"), "the news server asked for news: URLs, which name none (RFC 1738 §3.6), as HOST[:PORT]; default $NNTPSERVER")
}

// methodFlag declares on fs --method.
func methodFlag(fs *flag.FlagSet, s *schemeOptions) {
	fs.StringVar(&s.method, "method", "", "the retrieval method of the URL's own scheme client: ftp rfc1738 (the default), singlecwd, nocwd, direct, metadata; "+
		"news and nntp over, xover, head; empty: the texts' own")
}

// note adds text to the help of fs's flag name, for what the flag's one
// meaning comes to in one command.
func note(fs *flag.FlagSet, name, text string) {
	fs.Lookup(name).Usage += "; " + text
}

// renames are the flags renamed in this release, by command: each old
// name still sets the flag it became, with one warning line on standard
// error, until the next release removes it. gateway's --timeout was its
// bound on a whole request, which is --max-time.
var renames = map[string][]struct{ old, now string }{
	"get":     {{"timeout", "idle-timeout"}, {"max-size", "max-filesize"}, {"max-redirects", "max-redirs"}, {"ftp-method", "method"}},
	"probe":   {{"deadline", "max-time"}, {"timeout", "idle-timeout"}, {"max-redirects", "max-redirs"}, {"ftp-method", "method"}},
	"send":    {{"timeout", "idle-timeout"}, {"max-size", "max-body"}},
	"telnet":  {{"timeout", "idle-timeout"}},
	"gateway": {{"timeout", "max-time"}, {"allow", "allow-host"}, {"deny", "deny-host"}, {"max-size", "max-filesize"}},
}

// oldNames declares on fs the old names of command's renamed flags
// (renames). An old name the command still declares itself, or whose
// new flag it does not declare, is left as it is.
func oldNames(fs *flag.FlagSet, command string) {
	for _, r := range renames[command] {
		now := fs.Lookup(r.now)
		if now == nil || fs.Lookup(r.old) != nil {
			continue
		}
		usage := "deprecated: the old name of --" + r.now
		if arg, _ := flag.UnquoteUsage(now); arg != "" {
			usage += " (same argument: `" + arg + "`)" // shown in the help as the new flag's
		}
		fs.Var(&oldName{Value: now.Value, now: r.now}, r.old, usage)
	}
}

// An oldName is a renamed flag's old name: it sets the new flag's value.
type oldName struct {
	flag.Value
	now string
}

func (o *oldName) IsBoolFlag() bool {
	b, ok := o.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// deprecated returns f's new name when f is an old name, else "".
func deprecated(f *flag.Flag) string {
	if o, ok := f.Value.(*oldName); ok {
		return o.now
	}
	return ""
}

// warnOldNames writes one line on w for each old name set on fs.
func warnOldNames(w io.Writer, fs *flag.FlagSet) {
	fs.Visit(func(f *flag.Flag) {
		if now := deprecated(f); now != "" {
			fmt.Fprintf(w, "locator: --%s is deprecated; use --%s\n", f.Name, now)
		}
	})
}

// The exit statuses of the commands that follow URLs, beside main's
// exitOK, exitNegative and exitTrouble.
const (
	exitFailed  = 3 // network or protocol failure
	exitRefused = 4 // refused by local policy
)

// exitStatus is the exit status of an outcome of package access, as
// get, probe, send, telnet and gateway's messages use them: 0 delivered,
// 1 the server says absent or refuses, 3 network or protocol failure, 4
// refused by local policy (2, trouble, is the command's own).
func exitStatus(o access.Outcome) int {
	switch o {
	case access.Delivered:
		return exitOK
	case access.Absent:
		return exitNegative
	case access.Forbidden:
		return exitRefused
	}
	return exitFailed
}

// sizeFlag is an octet count with an optional K, M or G (powers of 1024).
type sizeFlag int64

func (s *sizeFlag) String() string {
	n := int64(*s)
	for _, u := range []struct {
		suffix string
		mult   int64
	}{{"G", 1 << 30}, {"M", 1 << 20}, {"K", 1 << 10}} {
		if n != 0 && n%u.mult == 0 {
			return strconv.FormatInt(n/u.mult, 10) + u.suffix
		}
	}
	return strconv.FormatInt(n, 10)
}

func (s *sizeFlag) Set(v string) error {
	mult := int64(1)
	switch {
	case strings.HasSuffix(v, "K"), strings.HasSuffix(v, "k"):
		mult = 1 << 10
	case strings.HasSuffix(v, "M"), strings.HasSuffix(v, "m"):
		mult = 1 << 20
	case strings.HasSuffix(v, "G"), strings.HasSuffix(v, "g"):
		mult = 1 << 30
	}
	if mult > 1 {
		v = v[:len(v)-1]
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 0 || n > (1<<62)/mult {
		return errors.New("not a size: octets, or a number with K, M or G")
	}
	*s = sizeFlag(n * mult)
	return nil
}

// intList is a repeatable flag of ports, each also a comma list.
type intList []int

func (l *intList) String() string {
	s := make([]string, len(*l))
	for i, n := range *l {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, ",")
}

func (l *intList) Set(v string) error {
	for _, f := range strings.Split(v, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 || n > 65535 {
			return fmt.Errorf("not a port: %q", f)
		}
		*l = append(*l, n)
	}
	return nil
}

// stringList is a repeatable flag of names, each also a comma list.
type stringList []string

func (l *stringList) String() string { return strings.Join(*l, ",") }

func (l *stringList) Set(v string) error {
	for _, f := range strings.Split(v, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			return errors.New("an empty host name")
		}
		*l = append(*l, f)
	}
	return nil
}

// proxyOptions are curl's -x/--proxy and --noproxy over the proxies of
// the environment (access.ProxyFromEnvironment: http_proxy,
// gopher_proxy, ftp_proxy, ..., all_proxy, no_proxy), which a command
// that takes them follows by default, as curl, wget and Lynx do.
type proxyOptions struct {
	proxy, noProxy       string
	proxySet, noProxySet bool
}

// proxyFlags declares on fs -x, --proxy and --noproxy.
func proxyFlags(fs *flag.FlagSet, p *proxyOptions) {
	set := func(v string) error {
		if v != "" {
			if _, err := proxyURL(v); err != nil {
				return err
			}
		}
		p.proxy, p.proxySet = v, true
		return nil
	}
	x := "send every URL of a scheme that connects through the HTTP proxy `URL` (http://HOST:PORT; HOST:PORT is the same), " +
		"instead of the environment's <scheme>_proxy and all_proxy; \"\": no proxy at all"
	fs.Func("x", x, set)
	fs.Func("proxy", x+" (the same as -x)", set)
	fs.Func("noproxy", "the hosts reached without a proxy, a comma `LIST` of names (each covers the names under it), addresses and ADDRESS/BITS networks, or * for all; "+
		"instead of the environment's no_proxy", func(v string) error {
		p.noProxy, p.noProxySet = v, true
		return nil
	})
}

// proxyURL reads a proxy as ProxyConfig does: a URL with a host, http
// when it names no scheme.
func proxyURL(v string) (*locator.URL, error) {
	s := v
	if !strings.Contains(s, "://") {
		s = "http://" + s
	}
	u, err := locator.Parse(s)
	if err != nil || u.Host() == "" {
		return nil, fmt.Errorf("not a proxy URL with a host: %q", v)
	}
	return u, nil
}

// config returns the proxies p says: the environment's, but for what
// the flags replace.
func (p *proxyOptions) config() access.ProxyConfig {
	pc := access.ProxyFromEnvironment()
	if p.proxySet {
		pc.Proxies = map[string]string{}
		if p.proxy != "" {
			pc.Proxies["*"] = p.proxy
		}
	}
	if p.noProxySet {
		pc.NoProxy = nil
		for _, h := range strings.Split(p.noProxy, ",") {
			if h = strings.TrimSpace(h); h != "" {
				pc.NoProxy = append(pc.NoProxy, h)
			}
		}
	}
	return pc
}

// apply sets c's Proxy (ProxyConfig.ProxyFunc: a URL of a scheme that
// makes no connection, a file URL, never goes to a proxy, whatever
// all_proxy or -x says).
func (p *proxyOptions) apply(c *access.Client) {
	if pc := p.config(); len(pc.Proxies) > 0 {
		c.Proxy = pc.ProxyFunc()
	}
}
