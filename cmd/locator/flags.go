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
	"math"
	"os"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/internal/printable"
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
		durationVar(fs, &l.maxTime, "max-time", l.maxTime,
			"bound on the whole operation: connecting, the dialogue, redirections and the transfer, as curl's --max-time: seconds (2, 0.5) or 1m30s (0: none)")
	}
	if which&boundConnect != 0 {
		durationVar(fs, &l.connect, "connect-timeout", l.connect, "bound on establishing each connection: seconds (5, 0.5) or 500ms")
	}
	if which&boundIdle != 0 {
		durationVar(fs, &l.idle, "idle-timeout", l.idle, "bound on each read and write: a server silent this long is cut off: seconds (30, 0.5) or 2m")
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

// The command line's flags, read by one framework for every command but
// url (whose trurl syntax is its own): Go's flag package, with what
// curl's and wget's users type besides. A flag is written -x when its
// name is one letter, --name otherwise (the flag package takes either
// number of dashes for both); one-letter flags may be grouped behind
// one dash as getopt groups them (-fsSL, -sLo FILE, -ofile); flags and
// positional arguments mix, and "--" ends the flags.

// parseFlags parses args on fs and returns the positional arguments.
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	args, err := ungroup(fs, args)
	if err != nil {
		return nil, err
	}
	return parseInterspersed(fs, args)
}

// ungroup rewrites each group of one-letter flags in args as the flags
// one by one, "-fsSL" as "-f -s -S -L", as POSIX getopt reads it
// (XBD §12.2, guideline 5): every letter a flag, those before the last
// taking no argument; a letter that takes one takes the rest of the
// group ("-ofile", "-C-"), or the next argument when it is last. An
// argument that names a flag itself (-max-time, -o=FILE) is left as it
// is, and so is one whose first letter is no flag (for the flag
// package's message); a value, and everything after "--", is never
// read as flags.
func ungroup(fs *flag.FlagSet, args []string) ([]string, error) {
	out := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(out, args[i:]...), nil
		}
		if len(a) < 2 || a[0] != '-' {
			out = append(out, a)
			continue
		}
		name := strings.TrimPrefix(a[1:], "-")
		name, _, hasValue := strings.Cut(name, "=")
		f := fs.Lookup(name)
		if f == nil && a[1] != '-' && fs.Lookup(a[1:2]) != nil {
			group, wantsValue, err := ungroupOne(fs, a)
			if err != nil {
				return nil, err
			}
			out = append(out, group...)
			if wantsValue && i+1 < len(args) {
				i++
				out = append(out, args[i])
			}
			continue
		}
		out = append(out, a)
		if f != nil && !hasValue && !isBool(f) && i+1 < len(args) {
			i++
			out = append(out, args[i]) // the flag's value, whatever it looks like
		}
	}
	return out, nil
}

// ungroupOne splits one group "-abc" into its flags, the last "-x=VALUE"
// when a letter takes the rest of the group as its value; wantsValue
// is true when the last letter takes the next argument as its own.
func ungroupOne(fs *flag.FlagSet, a string) (group []string, wantsValue bool, err error) {
	for k := 1; k < len(a); k++ {
		letter := a[k : k+1]
		f := fs.Lookup(letter)
		if f == nil {
			return nil, false, fmt.Errorf("unknown flag -%s in %s", printable.String(letter), printable.String(a))
		}
		if !isBool(f) {
			if k+1 < len(a) {
				return append(group, "-"+letter+"="+a[k+1:]), false, nil
			}
			return append(group, "-"+letter), true, nil
		}
		group = append(group, "-"+letter)
	}
	return group, false, nil
}

// isBool reports whether f takes no argument.
func isBool(f *flag.Flag) bool {
	if f == nil {
		return false
	}
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// dashed writes a flag's name as the help and the messages do: -o, --output.
func dashed(name string) string {
	if utf8.RuneCountInString(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// flagErrors are the flag package's messages (its interface: it has
// no error types), with the flag's name as the first %s, reworded.
var flagErrors = []struct{ prefix, format string }{
	{"flag provided but not defined: -", "unknown flag %s"},
	{"flag needs an argument: -", "flag %s needs an argument"},
}

// flagError rewords the flag package's messages with the flag written
// as the help writes it (dashed): "-L", "--max-time".
func flagError(err error) string {
	s := err.Error()
	for _, m := range flagErrors {
		if rest, ok := strings.CutPrefix(s, m.prefix); ok {
			return fmt.Sprintf(m.format, dashed(strings.TrimPrefix(rest, "-")))
		}
	}
	// "invalid value "x" for flag -name: ...", "invalid boolean value
	// "x" for -name: ...".
	for _, m := range []string{" for flag -", " for -"} {
		if i := strings.Index(s, m); i >= 0 && strings.HasPrefix(s, "invalid ") {
			rest := s[i+len(m):]
			name, why, _ := strings.Cut(rest, ": ")
			return s[:i] + " for " + dashed(name) + ": " + why
		}
	}
	return s
}

// sameAs matches the help's way of saying a flag is another name of
// one: "... (the same as -o)", or the whole help "the same as --head".
var sameAs = regexp.MustCompile(`^(?:(.*) \()?the same as --?([A-Za-z0-9][A-Za-z0-9-]*)\)?$`)

// A helpEntry is one flag in the help, with its other names.
type helpEntry struct {
	f     *flag.Flag
	names []string // one-letter names first
	usage string
}

// helpEntries gathers fs's flags for the help: a flag and its other
// name (sameAs) are one entry; the old names of renamed flags none.
func helpEntries(fs *flag.FlagSet) []*helpEntry {
	byName := map[string]*helpEntry{}
	var entries []*helpEntry
	fs.VisitAll(func(f *flag.Flag) {
		if deprecated(f) != "" {
			return
		}
		usage, other := f.Usage, ""
		if m := sameAs.FindStringSubmatch(f.Usage); m != nil && fs.Lookup(m[2]) != nil && m[2] != f.Name {
			usage, other = m[1], m[2]
		}
		e := byName[f.Name]
		if e == nil && other != "" {
			e = byName[other]
		}
		if e == nil {
			e = &helpEntry{f: f}
			entries = append(entries, e)
		}
		e.names = append(e.names, f.Name)
		byName[f.Name] = e
		if other != "" {
			byName[other] = e
		}
		if usage != "" && (e.usage == "" || len(f.Name) > 1) {
			e.usage, e.f = usage, f // the long name's words and argument
		}
	})
	for _, e := range entries {
		sort.Slice(e.names, func(i, j int) bool { return len(e.names[i]) < len(e.names[j]) })
	}
	sort.SliceStable(entries, func(i, j int) bool {
		a, b := entries[i].names[len(entries[i].names)-1], entries[j].names[len(entries[j].names)-1]
		return strings.ToLower(a) < strings.ToLower(b)
	})
	return entries
}

// printFlags lists fs's flags for the help: each once, with its other
// name ("-o, --output FILE"), its argument, what it does, and its
// default when that is not the zero value.
func printFlags(w io.Writer, fs *flag.FlagSet) {
	for _, e := range helpEntries(fs) {
		var b strings.Builder
		b.WriteString("  ")
		for i, n := range e.names {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(dashed(n))
		}
		if arg := argName(e.f); arg != "" {
			b.WriteString(" " + arg)
		}
		_, usage := flag.UnquoteUsage(&flag.Flag{Name: e.f.Name, Usage: e.usage, Value: e.f.Value})
		fmt.Fprintf(&b, "\n      %s", usage)
		if !zeroDefault(e.f) {
			fmt.Fprintf(&b, " (default %q)", e.f.DefValue)
		}
		fmt.Fprintln(w, b.String())
	}
}

// argName is the name of f's argument in the help: the word its usage
// puts in backquotes, else one its type suggests, as flag.UnquoteUsage
// says it; "" for a flag that takes none.
func argName(f *flag.Flag) string {
	if isBool(f) {
		return ""
	}
	arg, _ := flag.UnquoteUsage(f)
	if strings.Contains(f.Usage, "`") {
		return arg
	}
	switch f.Value.(type) {
	case *durationFlag:
		return "seconds"
	case *sizeFlag:
		return "size"
	}
	return arg
}

// zeroDefault reports whether f's default is its type's zero value
// (false, 0, "", an empty list), which the help leaves unsaid, as
// flag.PrintDefaults does.
func zeroDefault(f *flag.Flag) (zero bool) {
	switch f.DefValue {
	case "", "false", "0", "[]", "0s":
		return true
	}
	t := reflect.TypeOf(f.Value)
	if t.Kind() != reflect.Pointer {
		return false
	}
	defer func() {
		if recover() != nil {
			zero = false // a String that needs more than its zero value
		}
	}()
	v, ok := reflect.New(t.Elem()).Interface().(flag.Value)
	return ok && v.String() == f.DefValue
}

// durationFlag is a span of time as curl and wget write one, seconds
// with a fraction allowed ("2", "0.5"), or as Go writes one ("1m30s",
// "500ms").
type durationFlag time.Duration

func (d *durationFlag) String() string { return time.Duration(*d).String() }

func (d *durationFlag) Set(v string) error {
	if seconds(v) {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || math.Abs(f) > float64(math.MaxInt64)/float64(time.Second) {
			return errors.New("too long a time")
		}
		*d = durationFlag(math.Round(f * float64(time.Second)))
		return nil
	}
	t, err := time.ParseDuration(v)
	if err != nil {
		return errors.New("not a time: seconds (2, 0.5) or a number with a unit (500ms, 1m30s)")
	}
	*d = durationFlag(t)
	return nil
}

// seconds reports whether v is a number of seconds as curl reads one:
// digits with at most one decimal point, a sign allowed.
func seconds(v string) bool {
	v = strings.TrimPrefix(strings.TrimPrefix(v, "-"), "+")
	whole, frac, _ := strings.Cut(v, ".")
	return whole+frac != "" && strings.Trim(whole, "0123456789") == "" && strings.Trim(frac, "0123456789") == ""
}

// durationVar declares on fs the flag name of a span of time
// (durationFlag), whose value is p's and default value.
func durationVar(fs *flag.FlagSet, p *time.Duration, name string, value time.Duration, usage string) {
	*p = value
	fs.Var((*durationFlag)(p), name, usage)
}
