package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"syscall"

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
	limits                // --connect-timeout, --idle-timeout
	policy                // --allow-port, --allow-host, --deny-host
	verbose, showPassword bool
}

// sessionBounds are the limits telnet takes: a session has no end but
// the person's.
const sessionBounds = boundTimeouts

func telnetFlags(fs *flag.FlagSet) func(*env, []string) int {
	o := sessionOptions{limits: limits{connect: access.DefaultConnectTimeout, idle: access.DefaultIdleTimeout}}
	limitFlags(fs, &o.limits, sessionBounds)
	note(fs, "idle-timeout", "in a session, where a person may sit idle, silence this long is met with keep-alive probes, 4 unanswered 15 s apart give the connection up, and a write blocked this long fails")
	policyFlags(fs, &o.policy, false)
	fs.BoolVar(&o.verbose, "v", false, "the option negotiation on standard error (> IAC WILL NAWS, < IAC DO ECHO)")
	fs.BoolVar(&o.showPassword, "show-password", false, "show the password the URL suggests at the start (otherwise: ^] then p)")
	return func(e *env, args []string) int {
		if len(args) != 1 {
			return usageError(e, "telnet", fmt.Sprintf("want one URL, got %d arguments", len(args)))
		}
		if msg := o.invalid(sessionBounds); msg != "" {
			return usageError(e, "telnet", msg)
		}
		u, err := locator.Parse(args[0])
		if err != nil {
			return usageError(e, "telnet", err.Error())
		}
		return runSession(e, "telnet", u, o)
	}
}

// runSession hands the person over to the interactive session u
// designates (access.Client.Interact) and returns the exit status: 0 the
// session ended (the service closed it, or ^] q), 2 writing standard
// output failed, 3 a network failure, 4 refused by policy or a scheme
// whose sessions are not supported (rlogin, tn3270: the message says
// what to use), 128+N ended by signal N after the terminal was
// restored.
func runSession(e *env, name string, u *locator.URL, o sessionOptions) int {
	c := &access.Client{ConnectTimeout: o.connect, IdleTimeout: o.idle, Policy: o.policy.access()}
	if o.verbose {
		c.Dialogue = e.stderr
	}
	t := access.Terminal{In: e.stdin, Out: e.stdout, Msg: e.stderr, ShowPassword: o.showPassword}
	err := c.Interact(context.Background(), u, t)
	if err == nil {
		return exitOK
	}
	if e.writeFailed() != nil {
		return exitTrouble // run reports the failed standard output once
	}
	var pe *access.PolicyError
	if errors.As(err, &pe) && pe.Rule == "session" {
		fmt.Fprintf(e.stderr, "locator %s: %s; use locator get\n", name, printable.String(err.Error()))
		return exitRefused
	}
	fmt.Fprintf(e.stderr, "locator %s: %s\n", name, printable.String(err.Error()))
	var se *telnet.SignalError
	if errors.As(err, &se) {
		if n, ok := se.Signal.(syscall.Signal); ok {
			return 128 + int(n)
		}
		return 128
	}
	return exitStatus(access.Classify(err))
}
