// Command locator reads, judges, relates, finds and follows URLs as
// RFC 1738 and the 1993–94 URL drafts describe them.
//
// Each subcommand lives in its own file and registers itself; run
// "locator help" for the list and "locator CMD --help" for each.
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// A command is one subcommand of locator.
type command struct {
	name    string
	args    string // synopsis after the name, e.g. "[--json] URL..."
	summary string // one line for the list
	// flags declares the command's flags on fs and returns the function
	// that runs it with the positional arguments. It returns the exit
	// status: 0 success, 1 a negative result or bad input, 2 usage.
	flags func(fs *flag.FlagSet) func(env *env, args []string) int
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

func run(args []string, e *env) int {
	if len(args) == 0 {
		usage(e.stderr)
		return 2
	}
	name := args[0]
	switch name {
	case "help", "-h", "-help", "--help":
		if len(args) > 1 {
			if c := commands[args[1]]; c != nil {
				return runCommand(c, []string{"--help"}, e)
			}
		}
		usage(e.stdout)
		return 0
	}
	c := commands[name]
	if c == nil {
		fmt.Fprintf(e.stderr, "locator: unknown command %q\n", name)
		usage(e.stderr)
		return 2
	}
	return runCommand(c, args[1:], e)
}

func runCommand(c *command, args []string, e *env) int {
	fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	do := c.flags(fs)
	pos, err := parseInterspersed(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		commandHelp(e.stdout, c, fs)
		return 0
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "locator %s: %v\nusage: locator %s %s\n", c.name, err, c.name, c.args)
		return 2
	}
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
}

func commandHelp(w io.Writer, c *command, fs *flag.FlagSet) {
	fmt.Fprintf(w, "usage: locator %s %s\n\n%s\n", c.name, c.args, c.summary)
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	if n > 0 {
		fmt.Fprintln(w, "\nflags:")
		fs.SetOutput(w)
		fs.PrintDefaults()
	}
}

// usageError reports a usage mistake and returns exit status 2.
func usageError(e *env, c string, msg string) int {
	fmt.Fprintf(e.stderr, "locator %s: %s\nusage: locator %s %s\n", c, msg, c, commands[c].args)
	return 2
}

// maxLine bounds one line of standard input: a URL, or a reference, is
// never this long, and a hostile stream must not be held whole.
const maxLine = 1 << 20

// eachInput calls fn for every argument, and for "-" for every line of
// standard input (without its line ending), in order. It streams: stdin
// is never held in memory whole, and a line longer than maxLine stops it
// with an error naming the line.
func eachInput(e *env, args []string, fn func(string) error) error {
	for _, a := range args {
		if a != "-" {
			if err := fn(a); err != nil {
				return err
			}
			continue
		}
		r := bufio.NewReaderSize(e.stdin, 64<<10)
		var long []byte
		for n := 1; ; n++ {
			chunk, err := r.ReadSlice('\n')
			if err == bufio.ErrBufferFull {
				long = append(long, chunk...)
				if len(long) > maxLine {
					return fmt.Errorf("standard input, line %d: longer than %d bytes", n, maxLine)
				}
				n--
				continue
			}
			line := chunk
			if long != nil {
				line = append(long, chunk...)
				long = nil
				if len(line) > maxLine {
					return fmt.Errorf("standard input, line %d: longer than %d bytes", n, maxLine)
				}
			}
			if len(line) > 0 {
				s := strings.TrimSuffix(string(line), "\n")
				s = strings.TrimSuffix(s, "\r")
				if ferr := fn(s); ferr != nil {
					return ferr
				}
			}
			if err == io.EOF {
				break
			}
			if err != nil {
				return err
			}
		}
	}
	return nil
}
