package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"

	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/ftp"
	"github.com/rfc1738/locator/gateway"
	"github.com/rfc1738/locator/gemini"
	"github.com/rfc1738/locator/news"
	_ "github.com/rfc1738/locator/schemes" // each scheme's rules and client
	"github.com/rfc1738/locator/wayback"
)

func init() {
	register(&command{
		name: "gateway",
		args: "[--listen ADDR] [--allow-host RULE] [--deny-host RULE] [flags]",
		summary: "serve every scheme to HTTP clients (the drafts' \"proxy\"): the absolute URL on the request line, " +
			"or http://ADDR/<url> for browsers; listings as HTML; loopback and private networks refused unless --allow-host names them",
		flags: gatewayFlags,
	})
}

type gatewayOptions struct {
	listen        string
	limits        // --max-time (a request), timeouts, --max-filesize, --max-entries
	policy        // rules (access.ParseRule) and --allow-port
	schemeOptions // --user-address, --nntp-server
	names         stringList
	knownHosts    string // --known-hosts: the gemini client's KnownHosts
	cfg           gateway.Config
	log           string
	warc          fileList // --warc: serve from these WARC files
	collection    string   // --collection: their pywb URL layout's name
}

// gatewayBounds are the limits the gateway takes.
const gatewayBounds = boundMaxTime | boundTimeouts | boundFilesize | boundEntries

func gatewayFlags(fs *flag.FlagSet) func(*env, []string) int {
	var o gatewayOptions
	declareGatewayFlags(fs, &o)
	return func(e *env, args []string) int { return runGateway(e, args, &o) }
}

// newGatewayFlagSet declares the flags on a new FlagSet (tests), their
// old names included.
func newGatewayFlagSet(o *gatewayOptions) *flag.FlagSet {
	fs := flag.NewFlagSet("gateway", flag.ContinueOnError)
	declareGatewayFlags(fs, o)
	oldNames(fs, "gateway")
	return fs
}

func declareGatewayFlags(fs *flag.FlagSet, o *gatewayOptions) {
	o.limits = limits{
		maxTime:     gateway.DefaultTimeout,
		connect:     gateway.DefaultConnect,
		idle:        gateway.DefaultIdle,
		maxFilesize: gateway.DefaultMaxSize,
		maxEntries:  gateway.DefaultMaxEntries,
	}
	fs.StringVar(&o.listen, "listen", "127.0.0.1:8080", "the address to listen on (a gateway is an open door: keep it on loopback unless you mean otherwise)")
	policyFlags(fs, &o.policy, false)
	fs.Var(&o.names, "name", "a host name (HOST[:PORT]) by which clients reach the gateway, beside its address and localhost (repeatable)")
	fs.StringVar(&o.knownHosts, "known-hosts", "", "gemini: keep the certificates trusted on first use in `FILE`; without it they are kept in memory while the gateway runs, never in your own ~/.config/locator/known_hosts")
	fs.IntVar(&o.cfg.MaxConns, "max-conns", gateway.DefaultMaxConns, "requests served at once (twice as many connections may be open; idle ones are closed first)")
	fs.IntVar(&o.cfg.MaxPerDest, "max-per-dest", gateway.DefaultMaxPerDest, "connections open to one destination address:port, whatever URL or redirection led there (503 beyond)")
	fs.IntVar(&o.cfg.MaxPerClient, "max-per-client", gateway.DefaultMaxPerClient, "connections open from one client address (an IPv6 client's /64); one more is closed at once")
	limitFlags(fs, &o.limits, gatewayBounds)
	note(fs, "max-time", "here one request, from its arrival to its last octet")
	serverFlags(fs, &o.schemeOptions)
	fs.StringVar(&o.log, "log", "-", "the access log (passwords removed): a file, or - for standard error, or none")
	fs.Var(&o.warc, "warc", "serve what this WARC `FILE` (or WACZ file, read by ranges, its hashes checked first) holds (repeatable; its FILE.cdxj index used when present) instead of the network, http and https URLs included (file URLs with --warc-serve-file); a URL it holds no capture of is answered 404, an object over --max-filesize 502 without being decompressed")
	fs.StringVar(&o.collection, "collection", gateway.DefaultCollection, "with --warc, also answer pywb's and the Wayback Machine's URL layout under /`NAME`/: the CDX server API (/NAME/cdx?url=U), mementos (/NAME/TIMESTAMP/U, RFC 7089), a TimeGate (/NAME/U), TimeMaps (/NAME/timemap/link/U) and a list of every capture (/NAME/*/U)")
	fs.BoolVar(&o.cfg.ArchiveFallback, "warc-fallback", false, "with --warc, fetch a URL the archive holds no capture of from the network instead of answering 404")
	fs.BoolVar(&o.cfg.ArchiveFileURLs, "warc-serve-file", false, "with --warc, serve the archive's captures of file URLs, which are refused (403) by default: each is a file of the machine that made the archive (RFC 1738 §3.10), which a hostile page may have led a crawl to read")
}

func runGateway(e *env, args []string, o *gatewayOptions) int {
	if len(args) != 0 {
		return usageError(e, "gateway", fmt.Sprintf("takes no arguments, got %d", len(args)))
	}
	if msg := o.invalid(gatewayBounds); msg != "" {
		return usageError(e, "gateway", msg)
	}
	o.cfg.Policy.Allow, o.cfg.Policy.Deny = o.allow, o.deny
	if !wayback.ValidCollection(o.collection) {
		return usageError(e, "gateway", "--collection: "+strconv.Quote(o.collection)+" is not a name of letters, digits, _ and -")
	}
	if (o.cfg.ArchiveFallback || o.cfg.ArchiveFileURLs) && len(o.warc) == 0 {
		return usageError(e, "gateway", "--warc-fallback and --warc-serve-file go with --warc FILE")
	}
	closeWARC, code := o.openWARC(e)
	if code != exitOK {
		return code
	}
	defer closeWARC()
	switch o.log {
	case "-":
		o.cfg.Log = e.stderr
	case "none", "":
	default:
		f, err := os.OpenFile(o.log, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
		if err != nil {
			fmt.Fprintf(e.stderr, "locator gateway: %v\n", err)
			return exitTrouble
		}
		defer f.Close()
		o.cfg.Log = f
	}
	l, err := net.Listen("tcp", o.listen)
	if err != nil {
		fmt.Fprintf(e.stderr, "locator gateway: %v\n", err)
		return exitTrouble
	}
	return serveGateway(e, l, o, nil)
}

// openWARC opens the WARC files of --warc as the Config's Archive,
// reporting each record that cannot be read (its file and offset): the
// others are served. It returns what closes them.
func (o *gatewayOptions) openWARC(e *env) (func(), int) {
	if len(o.warc) == 0 {
		return func() {}, exitOK
	}
	rd, err := openArchive(e, "gateway", o.warc, o.maxFilesize)
	if err != nil {
		fmt.Fprintf(e.stderr, "locator gateway: --warc: %v\n", err)
		return nil, exitTrouble
	}
	o.cfg.Archive = rd
	ix, err := openWayback(o.warc)
	if err != nil {
		rd.Close()
		fmt.Fprintf(e.stderr, "locator gateway: --warc: %v\n", err)
		return nil, exitTrouble
	}
	o.cfg.Wayback, o.cfg.Collection = ix, o.collection
	return func() { rd.Close(); ix.Close() }, exitOK
}

// config is the gateway's Config: what the flags set directly, with
// the shared flags' limits, ports, names and scheme settings. A bound
// of 0 is none, as everywhere (the Config's own 0 is its default).
func (o *gatewayOptions) config() gateway.Config {
	cfg := o.cfg
	cfg.AllowPorts = o.allowPorts
	cfg.Names = o.names
	cfg.Timeout, cfg.ConnectTimeout, cfg.IdleTimeout = o.maxTime, o.connect, o.idle
	if cfg.Timeout == 0 {
		cfg.Timeout = math.MaxInt64
	}
	cfg.MaxSize, cfg.MaxEntries = o.maxFilesize, o.maxEntries
	if cfg.MaxSize == 0 {
		cfg.MaxSize = 1 << 62 // room for a reader's one more octet
	}
	// The scheme clients the flags configure; a gemini client given no
	// --known-hosts keeps its certificates in memory (the gateway asks
	// every client for its confined form, access.Confiner).
	cfg.Schemes = map[string]access.Fetcher{
		"ftp":    &ftp.Client{UserAddress: o.userAddress},
		"news":   &news.Client{Server: o.nntpServer},
		"gemini": &gemini.Client{KnownHosts: o.knownHosts},
	}
	return cfg
}

// serveGateway serves on l until SIGINT or SIGTERM (or stop closes),
// then lets the requests under way end, for at most 10 s.
func serveGateway(e *env, l net.Listener, o *gatewayOptions, stop <-chan struct{}) int {
	g := gateway.New(o.config())
	srv := g.HTTPServer(l.Addr().String())
	addr := l.Addr()
	l = g.LimitListener(l, 0)
	if tcp, ok := addr.(*net.TCPAddr); ok && !tcp.IP.IsLoopback() {
		fmt.Fprintf(e.stderr, "locator gateway: listening on %s, which is not loopback: anyone who reaches it may use the gateway\n", addr)
	}
	fmt.Fprintf(e.stdout, "locator gateway: serving on http://%s/ (Ctrl-C ends)\n", addr)
	if err := e.writeFailed(); err != nil {
		l.Close()
		return exitTrouble
	}
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGINT, syscall.SIGTERM)
	defer signal.Stop(sig)
	done := make(chan error, 1)
	go func() { done <- srv.Serve(l) }()
	select {
	case err := <-done:
		if !errors.Is(err, http.ErrServerClosed) {
			fmt.Fprintf(e.stderr, "locator gateway: %v\n", err)
			return exitTrouble
		}
		return exitOK
	case <-sig:
	case <-stop:
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	srv.Shutdown(ctx)
	<-done
	g.CloseIdle() // the FTP logins and NNTP sessions kept end with QUIT
	return exitOK
}
