// Command locator reads, judges, relates, finds and follows URLs as
// RFC 1738 and the 1993–94 URL drafts describe them.
//
// Each subcommand lives in its own file (or files) and registers itself; run
// "locator help" for the list and "locator CMD --help" for each.
//
// Exit status: 0 success (or "yes"); 1 a negative answer (not a URL,
// not conforming, not equal, nothing found; for a command that connects,
// the server says the object is absent or refuses it, or a link is
// broken); 2 trouble (usage, an unreadable input, a write error, input
// that could not be judged such as an unparsable base or a line over the
// stdin limit). The commands that connect add 3, a network or protocol
// failure (get, send, telnet) or a crawl that failed itself (crawl), and
// 4, refused by local policy (get, send, telnet); telnet exits 128+N when
// signal N ended its session, and url keeps trurl's statuses, 1 to 12.
// Each command's are in docs/cli.md, EXIT STATUS.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/rfc1738/locator/internal/lines"
	"github.com/rfc1738/locator/internal/printable"
)

// Exit statuses (see the package comment and docs/cli.md, EXIT STATUS).
const (
	exitOK       = 0
	exitNegative = 1
	exitTrouble  = 2
)

// A command is one subcommand of locator.
type command struct {
	name    string
	args    string // synopsis after the name, e.g. "[--json] URL..."
	summary string // one line for the list
	// flags declares the command's flags on fs and returns the function
	// that runs it with the positional arguments. It returns the exit
	// status: exitOK, exitNegative or exitTrouble.
	flags func(fs *flag.FlagSet) func(env *env, args []string) int
	// foreign, when set, reads arguments the flags could not parse as
	// another program's (crawl: wget's) and, when it finds that
	// program's flags, says what the command's own are and returns true.
	foreign func(e *env, args []string) bool
}

// env is what a command reads and writes.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
}

var commands = map[string]*command{}

func register(c *command) { commands[c.name] = c }

func main() {
	os.Exit(run(os.Args[1:], &env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr}))
}

// outWriter is standard output as commands see it: it keeps the first
// write error, so that a full disk or a closed pipe ends the command with
// exitTrouble however little was written, and later writes fail at once.
type outWriter struct {
	w   io.Writer
	err error
}

func (o *outWriter) Write(p []byte) (int, error) {
	if o.err != nil {
		return 0, o.err
	}
	n, err := o.w.Write(p)
	if err == nil && n < len(p) {
		err = io.ErrShortWrite
	}
	if err != nil {
		o.err = err
	}
	return n, err
}

// writeFailed returns the write error standard output has met, if any.
func (e *env) writeFailed() error {
	if o, ok := e.stdout.(*outWriter); ok {
		return o.err
	}
	return nil
}

// run runs one locator command line and returns its exit status. A
// failed write to standard output, at any point, gives exitTrouble.
func run(args []string, e *env) int {
	out := &outWriter{w: e.stdout}
	inner := *e
	inner.stdout = out
	name, code := dispatch(args, &inner)
	if out.err != nil {
		fmt.Fprintf(e.stderr, "%s: writing standard output: %s\n", prefix(name), printable.String(out.err.Error()))
		return exitTrouble
	}
	return code
}

// prefix is how messages of the named subcommand begin: "locator parse".
func prefix(name string) string {
	if name == "" {
		return "locator"
	}
	return "locator " + name
}

func dispatch(args []string, e *env) (string, int) {
	if len(args) == 0 {
		usage(e.stderr)
		return "", exitTrouble
	}
	name := args[0]
	switch name {
	case "help", "-h", "-help", "--help":
		if len(args) > 1 {
			c := commands[args[1]]
			if c == nil {
				fmt.Fprintf(e.stderr, "locator help: unknown command %s\n", printable.String(strconv.Quote(args[1])))
				usage(e.stderr)
				return "help", exitTrouble
			}
			return c.name, runCommand(c, []string{"--help"}, e)
		}
		usage(e.stdout)
		return "help", exitOK
	case "--version", "-version":
		name = "version"
	case "url":
		// url reads its flags as trurl does (-shost=x, -g{path}), which
		// the flag package cannot, exits with trurl's statuses, and
		// reports a failed write to standard output itself.
		w := e.stdout
		if o, ok := w.(*outWriter); ok {
			w = o.w
		}
		return name, runURL(args[1:], e.stdin, w, e.stderr)
	}
	c := commands[name]
	if c == nil {
		fmt.Fprintf(e.stderr, "locator: unknown command %s\n", printable.String(strconv.Quote(name)))
		usage(e.stderr)
		return "", exitTrouble
	}
	return c.name, runCommand(c, args[1:], e)
}

// newFlagSet declares c's flags, their old names included (renames),
// on a new FlagSet and returns it with the function that runs c.
func newFlagSet(c *command) (*flag.FlagSet, func(*env, []string) int) {
	fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	do := c.flags(fs)
	oldNames(fs, c.name)
	return fs, do
}

func runCommand(c *command, args []string, e *env) int {
	fs, do := newFlagSet(c)
	pos, err := parseFlags(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		commandHelp(e.stdout, c, fs)
		return exitOK
	}
	if err != nil {
		if c.foreign != nil && c.foreign(e, args) {
			return exitTrouble
		}
		return usageError(e, c.name, flagError(err))
	}
	warnOldNames(e.stderr, fs)
	return do(e, pos)
}

// parseInterspersed lets flags appear before, between or after the
// positional arguments; "--" ends the flags.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if len(args) > len(rest) && args[len(args)-len(rest)-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: locator COMMAND [flags] [args]\n\ncommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w, "\nRun \"locator COMMAND --help\" for a command's flags.")
	fmt.Fprintln(w, "Exit status: 0 success, 1 a negative answer, 2 trouble (usage, I/O, input that could not be judged).")
}

func commandHelp(w io.Writer, c *command, fs *flag.FlagSet) {
	fmt.Fprintf(w, "usage: locator %s %s\n\n%s\n", c.name, c.args, c.summary)
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	if n > 0 {
		fmt.Fprintln(w, "\nflags:")
		printFlags(w, fs)
	}
}

// usageError reports a usage mistake and returns exitTrouble. msg is
// made printable: it may quote an argument.
func usageError(e *env, c string, msg string) int {
	fmt.Fprintf(e.stderr, "locator %s: %s\nusage: locator %s %s\n", c, printable.String(msg), c, commands[c].args)
	return exitTrouble
}

// message is err's text without the library's own "locator: " prefix, so
// that a command's message names the command once ("locator resolve:
// resolve ...", not "locator resolve: locator: resolve ...").
func message(err error) string {
	return strings.TrimPrefix(err.Error(), "locator: ")
}

// maxLine bounds one line of standard input: a URL, or a reference, is
// never this long, and a hostile stream must not be held whole.
const maxLine = lines.Max

// An item is one input: a command-line argument, or one line of
// standard input without its line ending.
type item struct {
	text string
	line int // 1-based line number on standard input; 0 for an argument
}

// where names the item for a message: "standard input, line 3: " for a
// line, "" for an argument (whose text the message quotes).
func (it item) where() string {
	if it.line == 0 {
		return ""
	}
	return fmt.Sprintf("standard input, line %d: ", it.line)
}

// eachInput calls fn for every argument, and for "-" for every line of
// standard input, in order. It streams: stdin is never held in memory
// whole. A blank line (nothing but spaces and tabs) is no input; a line
// longer than maxLine is reported on standard error with its line number
// and skipped, and the stream goes on. For either, gap (when not nil) is
// called instead of fn, so that a line-per-line command can keep its
// output lines aligned with its input lines. eachInput returns
// exitTrouble when it skipped a line for its length (else exitOK), and
// the first error of fn, of reading, or of writing standard output.
func eachInput(e *env, name string, args []string, fn, gap func(item) error) (int, error) {
	status := exitOK
	call := func(f func(item) error, it item) error {
		if err := e.writeFailed(); err != nil {
			return err
		}
		if f == nil {
			return nil
		}
		return f(it)
	}
	for _, a := range args {
		if a != "-" {
			if err := call(fn, item{text: a}); err != nil {
				return status, err
			}
			continue
		}
		sc := lines.NewScanner(e.stdin, maxLine)
		for sc.Scan() {
			l := sc.Line()
			f, it := fn, item{text: l.Text, line: l.N}
			switch {
			case l.TooLong:
				fmt.Fprintf(e.stderr, "%s: standard input, line %d: longer than %d bytes; skipped\n", prefix(name), l.N, maxLine)
				status = exitTrouble
				f, it = gap, item{line: l.N}
			case l.Blank():
				f = gap
			}
			if err := call(f, it); err != nil {
				return status, err
			}
		}
		if err := sc.Err(); err != nil {
			return status, fmt.Errorf("reading standard input: %w", err)
		}
	}
	return status, nil
}

// finish ends a command that read its inputs with eachInput: an error
// is reported (a write error by run, which sees it too) and gives
// exitTrouble; otherwise the worst status wins.
func finish(e *env, name string, status, streamStatus int, err error) int {
	if err != nil {
		if e.writeFailed() == nil {
			fmt.Fprintf(e.stderr, "%s: %s\n", prefix(name), printable.String(message(err)))
		}
		return exitTrouble
	}
	return max(status, streamStatus)
}
