package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/rfc1738/locator/gateway"
	_ "github.com/rfc1738/locator/schemes" // each scheme's rules and client
)

func init() {
	register(&command{
		name: "gateway",
		args: "[--listen ADDR] [--allow RULE] [--deny RULE] [flags]",
		summary: "serve every scheme to HTTP clients (the drafts' \"proxy\"): the absolute URL on the request line, " +
			"or http://ADDR/<url> for browsers; listings as HTML; loopback and private networks refused unless --allow names them",
		flags: gatewayFlags,
	})
}

type gatewayOptions struct {
	listen      string
	allow, deny stringList
	allowPorts  intList
	names       stringList
	cfg         gateway.Config
	log         string
}

func gatewayFlags(fs *flag.FlagSet) func(*env, []string) int {
	var o gatewayOptions
	declareGatewayFlags(fs, &o)
	return func(e *env, args []string) int { return runGateway(e, args, &o) }
}

// newGatewayFlagSet declares the flags on a new FlagSet (tests).
func newGatewayFlagSet(o *gatewayOptions) *flag.FlagSet {
	fs := flag.NewFlagSet("gateway", flag.ContinueOnError)
	declareGatewayFlags(fs, o)
	return fs
}

func declareGatewayFlags(fs *flag.FlagSet, o *gatewayOptions) {
	fs.StringVar(&o.listen, "listen", "127.0.0.1:8080", "the address to listen on (a gateway is an open door: keep it on loopback unless you mean otherwise)")
	fs.Var(&o.allow, "allow", "destinations allowed: HOST, .DOMAIN, ADDRESS, NETWORK/BITS, each with :PORT or :LOW-HIGH, or :PORT alone; "+
		"when given, only these; loopback, private and link-local networks only when a rule naming hosts allows them (repeatable or a comma list)")
	fs.Var(&o.deny, "deny", "destinations refused, written as for --allow (repeatable or a comma list)")
	fs.Var(&o.allowPorts, "allow-port", "a port of another service that may be used all the same (RFC 1738 §6); repeatable or a comma list")
	fs.Var(&o.names, "name", "a host name (HOST[:PORT]) by which clients reach the gateway, beside its address and localhost (repeatable)")
	fs.IntVar(&o.cfg.MaxConns, "max-conns", gateway.DefaultMaxConns, "requests served at once (twice as many connections may be open; idle ones are closed first)")
	fs.IntVar(&o.cfg.MaxPerDest, "max-per-dest", gateway.DefaultMaxPerDest, "connections open to one destination address:port, whatever URL or redirection led there (503 beyond)")
	fs.IntVar(&o.cfg.MaxPerClient, "max-per-client", gateway.DefaultMaxPerClient, "connections open from one client address (an IPv6 client's /64); one more is closed at once")
	fs.Var((*sizeFlag)(&o.cfg.MaxSize), "max-size", "bound on an object's octets, e.g. 512K, 10M, 2G (default 1G)")
	fs.IntVar(&o.cfg.MaxEntries, "max-entries", gateway.DefaultMaxEntries, "bound on a listing's entries")
	fs.DurationVar(&o.cfg.Timeout, "timeout", gateway.DefaultTimeout, "bound on one request, from its arrival to its last octet")
	fs.DurationVar(&o.cfg.ConnectTimeout, "connect-timeout", gateway.DefaultConnect, "bound on establishing each connection to a server")
	fs.DurationVar(&o.cfg.IdleTimeout, "idle-timeout", gateway.DefaultIdle, "bound on each read and write: a server silent this long is cut off")
	fs.StringVar(&o.cfg.UserAddress, "user-address", "", "the anonymous FTP password (RFC 1738 §3.2.1)")
	fs.StringVar(&o.cfg.NewsServer, "nntp-server", os.Getenv("NNTPSERVER"), "the news server for news: URLs (RFC 1738 §3.6), HOST[:PORT]; default $NNTPSERVER")
	fs.StringVar(&o.log, "log", "-", "the access log (passwords removed): a file, or - for standard error, or none")
}

func runGateway(e *env, args []string, o *gatewayOptions) int {
	if len(args) != 0 {
		return usageError(e, "gateway", fmt.Sprintf("takes no arguments, got %d", len(args)))
	}
	for _, list := range []struct {
		in  []string
		out *[]gateway.Rule
	}{{o.allow, &o.cfg.Policy.Allow}, {o.deny, &o.cfg.Policy.Deny}} {
		for _, s := range list.in {
			r, err := gateway.ParseRule(s)
			if err != nil {
				return usageError(e, "gateway", err.Error())
			}
			*list.out = append(*list.out, r)
		}
	}
	o.cfg.AllowPorts = o.allowPorts
	o.cfg.Names = o.names
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

// serveGateway serves on l until SIGINT or SIGTERM (or stop closes),
// then lets the requests under way end, for at most 10 s.
func serveGateway(e *env, l net.Listener, o *gatewayOptions, stop <-chan struct{}) int {
	g := gateway.New(o.cfg)
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
	return exitOK
}
