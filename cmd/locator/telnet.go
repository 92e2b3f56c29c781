package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"syscall"
	"time"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/internal/printable"
	"github.com/rfc1738/locator/telnet"
)

func init() {
	register(&command{
		name: "telnet",
		args: "[flags] URL",
		summary: "open the interactive session a telnet URL designates (RFC 1738 §3.8) on this terminal, ^] then q to quit; " +
			"without a terminal, relay stdin and stdout; rlogin: and tn3270: say what to use instead. " +
			"Exit 0 session ended, 2 usage, 3 network failure, 4 refused or not supported, 128+N ended by signal N",
		flags: telnetFlags,
	})
}

// sessionOptions are the flags of an interactive session, shared by
// locator telnet and locator get given a session URL.
type sessionOptions struct {
	connect, idle         time.Duration
	allowPorts            []int
	allowHosts, denyHosts []string
	verbose, showPassword bool
}

func telnetFlags(fs *flag.FlagSet) func(*env, []string) int {
	var o sessionOptions
	fs.DurationVar(&o.connect, "connect-timeout", access.DefaultConnectTimeout, "bound on establishing the connection")
	fs.DurationVar(&o.idle, "timeout", access.DefaultIdleTimeout,
		"a dead connection is given up after this long without traffic plus 4 unanswered keep-alive probes 15 s apart; a write blocked this long fails (reads have no deadline: a person may sit idle)")
	fs.Var((*intList)(&o.allowPorts), "allow-port", "a port of another service that may be used all the same (RFC 1738 §6); repeatable or a comma list")
	fs.Var((*stringList)(&o.allowHosts), "allow-host", "the only hosts that may be contacted (\".example.com\" for a domain); repeatable or a comma list")
	fs.Var((*stringList)(&o.denyHosts), "deny-host", "hosts that may not be contacted; repeatable or a comma list")
	fs.BoolVar(&o.verbose, "v", false, "the option negotiation on standard error (> IAC WILL NAWS, < IAC DO ECHO)")
	fs.BoolVar(&o.showPassword, "show-password", false, "show the password the URL suggests at the start (otherwise: ^] then p)")
	return func(e *env, args []string) int {
		if len(args) != 1 {
			return usageError(e, "telnet", fmt.Sprintf("want one URL, got %d arguments", len(args)))
		}
		if o.connect <= 0 || o.idle <= 0 {
			return usageError(e, "telnet", "--connect-timeout and --timeout must be positive")
		}
		u, err := locator.Parse(args[0])
		if err != nil {
			return usageError(e, "telnet", err.Error())
		}
		return runSession(e, "telnet", u, o)
	}
}

// runSession hands the person over to the interactive session u
// designates (access.Interact) and returns the exit status: 0 the
// session ended (the service closed it, or ^] q), 2 writing standard
// output failed, 3 a network failure, 4 refused by policy or a scheme
// whose sessions are not supported (rlogin, tn3270: the message says
// what to use), 128+N ended by signal N after the terminal was
// restored.
func runSession(e *env, name string, u *locator.URL, o sessionOptions) int {
	opts := access.Options{
		ConnectTimeout: o.connect,
		IdleTimeout:    o.idle,
		Policy:         access.Policy{AllowPorts: o.allowPorts, AllowHosts: o.allowHosts, DenyHosts: o.denyHosts},
	}
	if o.verbose {
		opts.Dialogue = e.stderr
	}
	t := access.Terminal{In: e.stdin, Out: e.stdout, Msg: e.stderr, ShowPassword: o.showPassword}
	err := access.Interact(context.Background(), u, opts, t)
	if err == nil {
		return exitOK
	}
	if e.writeFailed() != nil {
		return exitTrouble // run reports the failed standard output once
	}
	var pe *access.PolicyError
	if errors.As(err, &pe) && pe.Rule == "session" {
		fmt.Fprintf(e.stderr, "locator %s: %s; use locator get\n", name, printable.String(err.Error()))
		return int(access.Refused)
	}
	fmt.Fprintf(e.stderr, "locator %s: %s\n", name, printable.String(err.Error()))
	var se *telnet.SignalError
	if errors.As(err, &se) {
		if n, ok := se.Signal.(syscall.Signal); ok {
			return 128 + int(n)
		}
		return 128
	}
	return int(access.Classify(err))
}
