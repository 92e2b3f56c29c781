package main

import (
	"bufio"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/term"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/internal/netrc"
	"github.com/rfc1738/locator/internal/printable"
	"github.com/rfc1738/locator/mailto"
)

func init() {
	register(&command{
		name: "send",
		args: "[flags] MAILTO-URL (the body on stdin, or in $EDITOR on a terminal)",
		summary: "compose the message a mailto URL asks for and submit it over SMTP (or --dry-run: print it); " +
			"exit 0 sent, 1 refused by the server, 2 usage or bad input, 3 network or protocol failure, 4 refused by local policy",
		flags: sendFlags,
	})
}

func sendFlags(fs *flag.FlagSet) func(*env, []string) int {
	o := sendOptions{limits: limits{connect: access.DefaultConnectTimeout, idle: access.DefaultIdleTimeout}, maxBody: 10 << 20}
	fs.StringVar(&o.from, "from", "", "your address, an RFC 5322 addr-spec (default $EMAIL)")
	fs.StringVar(&o.server, "smtp", "", "the submission server HOST:PORT (default $SMTP_SERVER)")
	fs.StringVar(&o.user, "smtp-user", "", "authenticate (AUTH PLAIN or LOGIN) as this user; the password from $SMTP_PASSWORD or asked on the terminal")
	fs.StringVar(&o.hello, "hello", "", "the name this machine gives in EHLO (default its host name)")
	fs.BoolVar(&o.requireTLS, "require-tls", false, "refuse to send unless the server offers STARTTLS")
	fs.StringVar(&o.caFile, "smtp-ca", "", "PEM file of the certificate authorities that STARTTLS trusts (default: the system's)")
	fs.BoolVar(&o.dryRun, "dry-run", false, "print the message to standard output instead of sending it")
	fs.BoolVar(&o.yes, "yes", false, "send without showing the message and asking first (asked only on a terminal)")
	limitFlags(fs, &o.limits, sendBounds)
	note(fs, "max-time", "here the submission: connecting, STARTTLS, authentication and the SMTP dialogue (the editor and the question before sending are not counted)")
	fs.Var((*sizeFlag)(&o.maxBody), "max-body", "bound on the body read from standard input, e.g. 512K, 10M")
	fs.BoolVar(&o.verbose, "v", false, "the SMTP dialogue on standard error, credentials masked")
	netrcFlags(fs, &o.netrc)
	return func(e *env, args []string) int { return runSend(e, args, &o) }
}

// sendBounds are the limits send takes.
const sendBounds = boundMaxTime | boundTimeouts

type sendOptions struct {
	from, server, user, hello string
	caFile                    string
	requireTLS, dryRun, yes   bool
	verbose                   bool
	limits                    // --max-time, --connect-timeout, --idle-timeout
	maxBody                   int64
	netrc                     netrcOptions // the SMTP server's login (SendOptions.Login)
	terminal                  *os.File     // tests: the terminal to use; nil: stdin when it is one
}

func runSend(e *env, args []string, o *sendOptions) int {
	u, usage := o.validate(args)
	if usage != "" {
		return usageError(e, "send", usage)
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(e.stderr, "locator send: %s\n", printable.String(fmt.Sprintf(format, a...)))
		return exitTrouble
	}
	from, server, usage := o.endpoints()
	if usage != "" {
		return usageError(e, "send", usage)
	}
	var err error
	if from, err = mailto.ParseAddrSpec(from); err != nil {
		return fail("--from %q: %v", o.fromText(), err)
	}
	logins, err := o.netrc.load(e, "send")
	if err != nil {
		return usageError(e, "send", message(err))
	}

	m, dropped, err := mailto.Compose(u)
	if err != nil {
		fmt.Fprintf(e.stderr, "locator send: %s\n", printable.String(err.Error()))
		var pe *access.PolicyError
		if errors.As(err, &pe) {
			return exitRefused // header injection: nothing is sent
		}
		return exitTrouble
	}
	// RFC 6068 §7: nothing the URL asks for is dropped silently.
	for _, d := range dropped {
		fmt.Fprintf(e.stderr, "locator send: %s\n", printable.String(fmt.Sprintf("dropped the URL's header field %s=%q (offset %d): %s", d.Name, d.Value, d.Offset, d.Reason)))
	}
	m.From = from
	m.Date = time.Now()
	m.MessageID = mailto.NewMessageID(from)

	tty := o.terminal
	if tty == nil {
		if f, ok := e.stdin.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
			tty = f
		}
	}
	if err := o.readBody(e, tty, m); err != nil {
		return fail("%v", err)
	}

	if o.dryRun {
		msg, _, err := m.Bytes(false)
		if err != nil {
			return fail("%v", err)
		}
		e.stdout.Write(msg)
		return exitOK
	}
	if tty != nil && !o.yes {
		ok, err := approved(e, tty, m, server)
		if err != nil {
			return fail("%v", err)
		}
		if !ok {
			fmt.Fprintln(e.stderr, "locator send: not sent")
			return exitTrouble
		}
	}

	so, err := o.submission(e, server, tty, logins)
	if err != nil {
		return fail("%v", err)
	}
	return o.submit(e, m, so)
}

// submit sends m as so says and reports the outcome, returning the exit
// status. --max-time is one deadline over the submission, which every
// read and write on the connection observes (access.Request.Dial).
func (o *sendOptions) submit(e *env, m *mailto.Message, so mailto.SendOptions) int {
	ctx, cancel := o.withMaxTime(context.Background())
	defer cancel()
	rc, err := mailto.Send(ctx, m, so)
	if err != nil {
		msg := err.Error()
		switch {
		case expired(ctx):
			msg = fmt.Sprintf("the submission through %s exceeded its maximum time (--max-time %v)", so.Server, o.maxTime)
		case access.Timeout(err):
			msg += fmt.Sprintf(" (the server was silent for --idle-timeout %v, or did not accept within --connect-timeout %v)", o.idle, o.connect)
		}
		fmt.Fprintf(e.stderr, "locator send: %s; nothing was sent\n", printable.String(msg))
		var se *locator.SchemeError
		if errors.As(err, &se) {
			return exitTrouble // a bad --smtp, or a message Bytes refuses
		}
		return exitStatus(access.Classify(err))
	}
	fmt.Fprintf(e.stderr, "locator send: %s\n", printable.String(fmt.Sprintf("sent %s to %s through %s: %s (%s)", m.MessageID, strings.Join(rc.Recipients, ", "), rc.Server, rc.Reply, strings.Join(rc.Notes, "; "))))
	return exitOK
}

// validate reads the one mailto URL of args and checks the flags; the
// string is the usage error, "" for none.
func (o *sendOptions) validate(args []string) (*locator.URL, string) {
	if len(args) != 1 {
		return nil, fmt.Sprintf("want one mailto URL, got %d arguments", len(args))
	}
	if msg := o.invalid(sendBounds); msg != "" {
		return nil, msg
	}
	if o.maxBody <= 0 {
		return nil, "--max-body must be positive"
	}
	u, err := locator.Parse(args[0])
	if err != nil {
		return nil, message(err)
	}
	if u.Scheme() != "mailto" {
		return nil, fmt.Sprintf("%s is a %s URL; send takes a mailto URL (RFC 6068)", access.Masked(u), u.Scheme())
	}
	return u, ""
}

// endpoints returns the sender (--from, or $EMAIL) and the SMTP server
// (--smtp, or $SMTP_SERVER), or the usage error of a missing one.
func (o *sendOptions) endpoints() (from, server, usage string) {
	from = o.from
	if from == "" {
		from = os.Getenv("EMAIL")
	}
	if from == "" {
		return "", "", "no sender: give --from ADDRESS or set $EMAIL"
	}
	server = o.server
	if server == "" {
		server = os.Getenv("SMTP_SERVER")
	}
	if server == "" && !o.dryRun {
		return "", "", "no SMTP server: give --smtp HOST:PORT or set $SMTP_SERVER (or --dry-run)"
	}
	return from, server, ""
}

// approved shows m on the terminal tty and asks whether to send it
// through server. RFC 6068 §7: "a mail client SHOULD NOT send a message
// based on a 'mailto' URI without first disclosing and showing to the
// user the full message that will be sent ... and asking the user for
// approval".
func approved(e *env, tty *os.File, m *mailto.Message, server string) (bool, error) {
	msg, _, err := m.Bytes(false)
	if err != nil {
		return false, err
	}
	fmt.Fprintf(e.stderr, "%s\nSend this message as electronic mail through %s? [y/N] ", showMessage(msg), printable.String(server))
	answer, _ := bufio.NewReader(tty).ReadString('\n')
	a := strings.ToLower(strings.TrimSpace(answer))
	return a == "y" || a == "yes", nil
}

// readBody sets m's body: edited on the terminal tty, or read from
// standard input (at most --max-body octets; none: the URL's, RFC 6068
// §2).
func (o *sendOptions) readBody(e *env, tty *os.File, m *mailto.Message) error {
	if tty != nil {
		body, err := editBody(e, tty, m.Body)
		if err != nil {
			return err
		}
		m.Body = body
		return nil
	}
	b, err := io.ReadAll(io.LimitReader(e.stdin, o.maxBody+1))
	if err != nil {
		return fmt.Errorf("reading the body from standard input: %v", err)
	}
	if int64(len(b)) > o.maxBody {
		return fmt.Errorf("the body on standard input is longer than --max-body %d octets", o.maxBody)
	}
	if len(b) > 0 {
		m.Body = string(b)
	}
	return nil
}

// submission returns the flags' mailto.SendOptions for server: the
// login (--user, .netrc), the dialogue (-v), --smtp-ca's roots.
func (o *sendOptions) submission(e *env, server string, tty *os.File, logins *netrc.File) (mailto.SendOptions, error) {
	so := mailto.SendOptions{
		Server:         server,
		Hello:          o.hello,
		User:           o.user,
		RequireTLS:     o.requireTLS,
		ConnectTimeout: o.connect,
		IdleTimeout:    o.idle,
	}
	if logins != nil {
		so.Login = logins.Find
	}
	if o.verbose {
		so.Dialogue = e.stderr
	}
	if o.caFile != "" {
		pem, err := os.ReadFile(o.caFile)
		if err != nil {
			return so, fmt.Errorf("--smtp-ca: %v", err)
		}
		roots := x509.NewCertPool()
		if !roots.AppendCertsFromPEM(pem) {
			return so, fmt.Errorf("--smtp-ca %s: no PEM certificate in it", o.caFile)
		}
		host, _, _ := net.SplitHostPort(server)
		so.TLSConfig = &tls.Config{RootCAs: roots, ServerName: host}
	}
	if o.user != "" {
		so.Password = password(e, tty)
	}
	return so, nil
}

// showMessage is the message as it is shown for approval: one line of
// the terminal a line of the message (CR LF as LF), every line made
// printable, for the URL's header fields and body reach the terminal
// here (RFC 6068 §7: the full message is disclosed, not acted out).
func showMessage(msg []byte) string {
	lines := strings.Split(strings.ReplaceAll(string(msg), "\r\n", "\n"), "\n")
	for i, l := range lines {
		lines[i] = printable.String(l)
	}
	return strings.Join(lines, "\n")
}

func (o *sendOptions) fromText() string {
	if o.from != "" {
		return o.from
	}
	return os.Getenv("EMAIL")
}

// password returns the SMTP password: $SMTP_PASSWORD, else asked without
// echo on the terminal (standard input when it is one, else /dev/tty),
// else access.ErrNoPassword. It is called only when AUTH is used.
func password(e *env, tty *os.File) func() (string, error) {
	return func() (string, error) {
		if p, ok := os.LookupEnv("SMTP_PASSWORD"); ok {
			return p, nil
		}
		f := tty
		if f == nil {
			t, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
			if err != nil {
				return "", access.ErrNoPassword
			}
			defer t.Close()
			f = t
		}
		if !term.IsTerminal(int(f.Fd())) {
			return "", access.ErrNoPassword
		}
		fmt.Fprint(e.stderr, "SMTP password: ")
		b, err := term.ReadPassword(int(f.Fd()))
		fmt.Fprintln(e.stderr)
		return string(b), err
	}
}

// editBody lets the person at the terminal write the body: in $VISUAL
// or $EDITOR, started on a file that holds the URL's body (the default,
// RFC 6068 §2), or without an editor by typing it up to end of file
// (Ctrl-D); an empty text keeps the URL's body.
func editBody(e *env, tty *os.File, initial string) (string, error) {
	editor := os.Getenv("VISUAL")
	if editor == "" {
		editor = os.Getenv("EDITOR")
	}
	if editor == "" {
		fmt.Fprintln(e.stderr, "locator send: type the body, then Ctrl-D on a line of its own (no $EDITOR; empty: the URL's body)")
		b, err := io.ReadAll(tty)
		if err != nil {
			return "", err
		}
		if len(b) == 0 {
			return initial, nil
		}
		return string(b), nil
	}
	return runEditor(editor, initial, tty, e.stderr)
}

// runEditor runs the shell command editor on a temporary file holding
// initial (its line ends LF) and returns what the file holds after.
func runEditor(editor, initial string, tty *os.File, stderr io.Writer) (string, error) {
	dir, err := os.MkdirTemp("", "locator-send-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(dir)
	name := filepath.Join(dir, "body.txt")
	if err := os.WriteFile(name, []byte(strings.ReplaceAll(initial, "\r\n", "\n")), 0o600); err != nil {
		return "", err
	}
	// $EDITOR is a command line ("emacs -nw"): the shell splits it, and
	// the file name goes as "$1", never through the shell's parsing.
	cmd := exec.Command("/bin/sh", "-c", editor+` "$1"`, "editor", name)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, stderr
	if tty == nil {
		cmd.Stdout = stderr
	}
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("the editor %q: %v; nothing was sent", editor, err)
	}
	b, err := os.ReadFile(name)
	return string(b), err
}
