package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/rfc1738/locator/internal/lines"
	"github.com/rfc1738/locator/internal/printable"
	"github.com/rfc1738/locator/urledit"
)

// locator url is a URL editor with trurl's command line over package
// urledit: its flags, its way of taking them ("-shost=x", "-g{path}"),
// its exit statuses, and its messages' words after "locator url: ". What
// it reads differently from trurl, and why, is in urledit's package
// comment and docs/cli.md.

func init() {
	register(&command{name: "url", args: urlSynopsis, summary: urlSummary, flags: urlCommand})
}

// urlSynopsis is the command's synopsis after its name.
const urlSynopsis = "[flags] [URL...]"

// urlSummary is the command's line in the list of commands.
const urlSummary = "edit URLs as trurl does: set, get, append, trim components; every result conforms to RFC 1738 or is refused with offset and rule"

// The exit statuses of locator url: trurl's.
const (
	urlExitFile    = 1  // a problem with --url-file
	urlExitAppend  = 2  // a problem with --append
	urlExitArg     = 3  // a flag misses its argument
	urlExitFlag    = 4  // a flag mistake or an illegal combination
	urlExitSet     = 5  // a problem with --set
	urlExitEmpty   = 7  // no URL could be made of the input
	urlExitTrim    = 8  // a problem with --trim
	urlExitBadURL  = 9  // --verify, and a URL that cannot be read or written
	urlExitGet     = 10 // a problem with --get
	urlExitIterate = 11 // a problem with --iterate
	urlExitReplace = 12 // a problem with --replace
)

// urlArgs is what locator url's command line says.
type urlArgs struct {
	ed        urledit.Editor
	urls      []string
	file      string
	hasFile   bool
	format    string
	hasFormat bool
	json      bool
	verify    bool
	quiet     bool
	urlencode bool
	punycode  bool
	asIDN     bool
	parts     bool
	noGuess   bool
	// fail is the first mistake the flags made, with its status; the
	// flags are read in order, so it is the one trurl reports.
	fail *urlFail
}

type urlFail struct {
	status int
	msg    string
}

func (a *urlArgs) failed(status int, msg string) error {
	if a.fail == nil {
		a.fail = &urlFail{status, msg}
	}
	return errors.New(msg)
}

// urlFlags declares locator url's flags on fs, trurl's names with their
// one-letter forms, and returns what they will hold once fs has parsed.
func urlFlags(fs *flag.FlagSet) *urlArgs {
	u := urlFlagSet{fs: fs, a: &urlArgs{}}
	u.urlInputFlags()
	u.urlEditFlags()
	u.urlQueryFlags()
	u.urlOutputFlags()
	return u.a
}

// urlFlagSet declares url's flags on fs, each filling a.
type urlFlagSet struct {
	fs *flag.FlagSet
	a  *urlArgs
}

// val declares the flag name, and its one-letter name short unless "",
// taking the argument usage names in backquotes, as the other
// commands' flags do (flag.UnquoteUsage).
func (u urlFlagSet) val(name, short, usage string, f func(string) error) {
	u.fs.Func(name, usage, f)
	if short != "" {
		u.fs.Func(short, "the same as --"+name, f)
	}
}

// sw declares the switch name; a value given it ("--json=false") is
// not read, as trurl has none.
func (u urlFlagSet) sw(name, usage string, f func() error) {
	u.fs.BoolFunc(name, usage, func(string) error { return f() })
}

// once refuses a second --name.
func (u urlFlagSet) once(has *bool, name string) error {
	if *has {
		return u.a.failed(urlExitFlag, "only one --"+name+" is supported")
	}
	*has = true
	return nil
}

// urlInputFlags declares the URLs worked on: --url, --url-file.
func (u urlFlagSet) urlInputFlags() {
	a := u.a
	u.val("url", "", "a `URL` to work on, as if given as an argument (one without a scheme is guessed unless --no-guess-scheme)", func(s string) error {
		a.urls = append(a.urls, s)
		return nil
	})
	u.val("url-file", "f", "read URLs from `FILE` (- for standard input), one a line; blank lines skipped, trailing spaces and tabs and a CR removed; --url and URL arguments are then ignored", func(s string) error {
		if err := u.once(&a.hasFile, "url-file"); err != nil {
			return err
		}
		a.file = s
		return nil
	})
}

// urlEditFlags declares the edits of components: --append, --set, --iterate, --max-urls, --redirect.
func (u urlFlagSet) urlEditFlags() {
	a := u.a
	u.val("append", "a", "append a path segment or a query pair, `path=SEG|query=PAIR`: SEG encoded, after a \"/\"; PAIR key=value, each side encoded", func(s string) error {
		switch {
		case strings.HasPrefix(s, "path="):
			a.ed.AppendPath = append(a.ed.AppendPath, s[5:])
		case strings.HasPrefix(s, "query="):
			a.ed.AppendQuery = append(a.ed.AppendQuery, s[6:])
		default:
			return a.failed(urlExitAppend, "--append unsupported component: "+s)
		}
		return nil
	})
	u.val("set", "s", "`COMPONENT[?][:]=VALUE` sets a component (scheme, user, password, options, host, port, path, query, fragment, zoneid) or a scheme's own part (typecode, selector, group, ...): = encodes VALUE, := takes it encoded, ?= sets it only when absent; an empty VALUE removes it", func(s string) error {
		st, err := urledit.ParseSet(s)
		if err != nil {
			return a.failed(urlExitSet, err.Error())
		}
		a.ed.Sets = append(a.ed.Sets, st)
		return nil
	})
	u.val("iterate", "", "`COMPONENT[:]=V1 V2...` writes the URL once with COMPONENT set to each value (separated by single spaces); several make every combination", func(s string) error {
		it, err := urledit.ParseIterate(s)
		if err != nil {
			return a.failed(urlExitIterate, err.Error())
		}
		a.ed.Iterate = append(a.ed.Iterate, it)
		return nil
	})
	u.val("max-urls", "", "at most `N` combinations of --iterate's values for each URL (10000, as get's globs; 0 is the default): more is refused, with status 11, before any URL is written", func(s string) error {
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			return a.failed(urlExitFlag, "--max-urls takes a number, not "+strconv.Quote(s))
		}
		a.ed.MaxCombinations = n
		return nil
	})
	u.val("redirect", "", "resolve `REF` against each URL (RFC 3986 §5) before the other edits", func(s string) error {
		if a.ed.Redirect != "" {
			return a.failed(urlExitFlag, "only one --redirect is supported")
		}
		a.ed.Redirect = s
		return nil
	})
}

// urlQueryFlags declares the edits of the query: --query-separator, --trim, --replace.
func (u urlFlagSet) urlQueryFlags() {
	a := u.a
	hasSep := false
	u.val("query-separator", "", "the octet `C` that separates query pairs (default &)", func(s string) error {
		if err := u.once(&hasSep, "query-separator"); err != nil {
			return err
		}
		if len(s) != 1 {
			return a.failed(urlExitFlag, "only single-letter query separators are supported")
		}
		a.ed.Separator = s[0]
		return nil
	})
	u.val("trim", "", "`query=KEY` removes the query pairs of KEY (without regard to case; KEY* a prefix, \\* a star)", func(s string) error {
		if !strings.HasPrefix(s, "query=") {
			return a.failed(urlExitTrim, "Unsupported trim component: "+s)
		}
		a.ed.Trim = append(a.ed.Trim, s[6:])
		return nil
	})
	u.val("qtrim", "", "remove the query pairs of `KEY`, as --trim query=KEY does", func(s string) error {
		a.ed.Trim = append(a.ed.Trim, s)
		return nil
	})
	u.val("replace", "", "`KEY[=VALUE]` replaces the first query pair of KEY (the others of KEY go); both sides encoded", func(s string) error {
		a.ed.Replace = append(a.ed.Replace, s)
		return nil
	})
	u.val("replace-append", "", "`KEY[=VALUE]`: as --replace, and append the pair when the query has no KEY", func(s string) error {
		a.ed.Replace, a.ed.ReplaceAppend = append(a.ed.Replace, s), true
		return nil
	})
}

// urlOutputFlags declares what is written, and how: --get, --json and the switches.
func (u urlFlagSet) urlOutputFlags() {
	a := u.a
	u.val("get", "g", "write `FORMAT` for each URL, {component} or [component] replaced (modifiers url: or :, default:, puny:, idn:, strict:, must:; {query:KEY}, {query-all:KEY}, {parts.NAME}; \\n \\t \\r \\\\ \\{ \\[)", func(s string) error {
		if err := u.once(&a.hasFormat, "get"); err != nil {
			return err
		}
		if a.json {
			return a.failed(urlExitFlag, "--get is mutually exclusive with --json")
		}
		a.format = s
		return nil
	})
	u.sw("json", "write a JSON array: for each URL an object of url, parts (decoded unless --urlencode) and params (the query's pairs)", func() error {
		if a.hasFormat {
			return a.failed(urlExitFlag, "--json is mutually exclusive with --get")
		}
		a.json = true
		return nil
	})
	u.sw("parts", "with --json, add each URL's scheme_parts: its scheme's own structure (RFC 1738 §3), as locator parse --json shows it", func() error { a.parts = true; return nil })
	u.sw("verify", "stop, with status 9, at the first URL that cannot be read or written", func() error { a.verify = true; return nil })
	u.sw("accept-space", "encode a space in the input as data (%20, + in a query) instead of refusing it", func() error { a.ed.AcceptSpace = true; return nil })
	u.sw("curl", "accept only schemes the library has rules for (RFC 1738 §3 and §4, https)", func() error { a.ed.KnownSchemes = true; return nil })
	u.sw("default-port", "write the scheme's default port where none is written", func() error { a.ed.DefaultPort = true; return nil })
	u.sw("keep-port", "keep a port that is the scheme's default", func() error { a.ed.KeepPort = true; return nil })
	u.sw("no-guess-scheme", "refuse an input without a scheme instead of guessing it (http, or ftp for ftp.*, as curl does)", func() error { a.noGuess = true; return nil })
	u.sw("sort-query", "sort the query pairs, without regard to case", func() error { a.ed.SortQuery = true; return nil })
	u.sw("urlencode", "show components as written (encoded) in --get and --json", func() error { a.urlencode = true; return nil })
	u.sw("quiet", "write no notes (what could not be shown as asked)", func() error { a.quiet = true; return nil })
	u.sw("punycode", "show hosts with A-labels (ASCII), as every URL written holds them anyway", func() error {
		if a.asIDN {
			return a.failed(urlExitFlag, "--punycode is mutually exclusive with --as-idn")
		}
		a.punycode = true
		return nil
	})
	u.sw("as-idn", "show hosts with U-labels (Unicode), for reading: such a URL is not one of RFC 1738", func() error {
		if a.punycode {
			return a.failed(urlExitFlag, "--as-idn is mutually exclusive with --punycode")
		}
		a.asIDN = true
		return nil
	})
}

// urlSplitArgs writes trurl's one-letter flags with their value attached
// ("-shost=x", "-g{path}") as two arguments, for package flag, and
// keeps the value after a flag of fs that takes one as it is, even when
// it begins with "-".
func urlSplitArgs(fs *flag.FlagSet, args []string) []string {
	out := make([]string, 0, len(args)+4)
	for i := 0; i < len(args); i++ {
		s := args[i]
		if s == "--" {
			return append(out, args[i:]...)
		}
		if len(s) > 2 && s[0] == '-' && strings.IndexByte("sgaf", s[1]) >= 0 {
			out = append(out, s[:2], s[2:])
			continue
		}
		out = append(out, s)
		name := strings.TrimLeft(s, "-")
		if f := fs.Lookup(name); len(s) > 1 && s[0] == '-' && f != nil && !isBool(f) && i+1 < len(args) {
			out = append(out, args[i+1]) // its value, taken as it is
			i++
		}
	}
	return out
}

// runURL runs locator url with args (those after "url") and returns
// its exit status, trurl's (see the urlExit constants).
func runURL(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("url", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	a := urlFlags(fs)
	pos, err := parseInterspersed(fs, urlSplitArgs(fs, args))
	switch {
	case errors.Is(err, flag.ErrHelp):
		commandHelp(stdout, commands["url"], fs)
		return exitOK
	case a.fail != nil:
		return urlError(stderr, a.fail.status, a.fail.msg)
	case err != nil:
		return urlFlagError(stderr, err, args)
	}
	return a.run(pos, stdin, stdout, stderr)
}

// urlCommand declares locator url's flags on fs for the command table
// (the list of commands, --help, docs/cli.md's check) and returns the
// function that runs it on the URLs left once fs has parsed the flags.
// The command line is best given whole to runURL, which reads trurl's
// one-letter flags with their value attached ("-shost=x", "-g{path}")
// and answers a flag mistake with trurl's exit status.
func urlCommand(fs *flag.FlagSet) func(*env, []string) int {
	a := urlFlags(fs)
	return func(e *env, pos []string) int {
		return a.run(pos, e.stdin, e.stdout, e.stderr)
	}
}

// run edits the URLs the flags and pos give and writes the results.
func (a *urlArgs) run(pos []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if a.fail != nil {
		return urlError(stderr, a.fail.status, a.fail.msg)
	}
	a.urls = append(a.urls, pos...)
	a.ed.Guess = !a.noGuess
	if err := a.ed.Check(); err != nil {
		msg := err.Error()
		if _, ok := a.ed.Combinations(); !ok && urlStatus(err) == urlExitIterate {
			msg += " (--max-urls N raises it)"
		}
		return urlError(stderr, urlStatus(err), msg)
	}
	out := bufio.NewWriter(stdout)
	r := &urlRun{a: a, out: out, stderr: stderr,
		view: urledit.View{Encoded: a.urlencode, Unicode: a.asIDN, DefaultPort: a.ed.DefaultPort}}
	status := r.all(stdin)
	if a.json {
		if r.n > 0 {
			out.WriteString("\n")
		}
		out.WriteString("]\n")
	}
	if err := out.Flush(); err != nil && status == exitOK {
		fmt.Fprintf(stderr, "locator url: writing standard output: %s\n", printable.String(err.Error()))
		return exitTrouble
	}
	return status
}

// urlRun is one run of locator url over its inputs.
type urlRun struct {
	a      *urlArgs
	out    *bufio.Writer
	stderr io.Writer
	view   urledit.View
	n      int // JSON records written
}

// all edits every input: the lines of --url-file, else the URLs given,
// else the URL the components set make. It returns the exit status.
func (r *urlRun) all(stdin io.Reader) int {
	a := r.a
	if a.json {
		r.out.WriteString("[")
	}
	switch {
	case a.hasFile:
		in := stdin
		if a.file != "-" {
			f, err := os.Open(a.file)
			if err != nil {
				return r.fatal(urlExitFile, "--url-file "+a.file+" not found")
			}
			defer f.Close()
			in = f
		}
		return r.lines(in)
	case len(a.urls) > 0:
		for _, u := range a.urls {
			if st := r.one(u, false); st != exitOK {
				return st
			}
		}
		return exitOK
	}
	// No URL: the components set make one, and if they cannot, that is
	// the command's failure (trurl's --verify is implied).
	a.verify = true
	return r.one("", true)
}

// lines edits each line of in as a URL, trurl's way: a CR before the
// line's end and trailing spaces and tabs removed, empty lines skipped,
// a line longer than maxLine (1 MiB) skipped with a note.
func (r *urlRun) lines(in io.Reader) int {
	sc := lines.NewScanner(in, maxLine)
	for sc.Scan() {
		l := sc.Line()
		if l.TooLong {
			r.note(fmt.Sprintf("url-file line %d: longer than %d bytes; skipped", l.N, maxLine))
		} else if s := strings.TrimRight(l.Text, " \t"); s != "" {
			if st := r.one(s, false); st != exitOK {
				return st
			}
		}
	}
	if err := sc.Err(); err != nil {
		return r.fatal(urlExitFile, "reading --url-file: "+err.Error())
	}
	return exitOK
}

// one edits one input (none: build) and writes what it gives, each
// combination of --iterate as it is made; it returns exitOK to go on,
// another status to stop with.
func (r *urlRun) one(input string, build bool) int {
	results := r.a.ed.Results(input)
	if build {
		results = r.a.ed.Built()
	}
	for res, err := range results {
		if err != nil {
			if st := r.failed(err); st != exitOK {
				return st
			}
			continue
		}
		if st := r.write(res); st != exitOK {
			return st
		}
	}
	return exitOK
}

// failed reports the error of one URL: a note, and on with the next
// one; with --verify, or an edit that no URL can make, the end.
func (r *urlRun) failed(err error) int {
	st := urlStatus(err)
	if st == urlExitBadURL && !r.a.verify {
		fmt.Fprintf(r.stderr, "locator url: note: %s\n", printable.String(err.Error()))
		return exitOK
	}
	return r.fatal(st, err.Error())
}

// write writes one URL as the flags say. One that does not conform to
// RFC 1738 is written all the same, as trurl writes it, with a note
// naming the offset and rule it breaks; --verify stops at it instead.
func (r *urlRun) write(res *urledit.Result) int {
	a := r.a
	if v := res.Violations(); len(v) > 0 && a.verify {
		return r.fatal(urlExitBadURL, v[0].Error())
	}
	var notes []urledit.Note
	switch {
	case a.json:
		rec, n := res.Record(r.view, a.parts)
		notes = n
		b, err := rec.MarshalJSON()
		if err != nil {
			return r.fatal(exitTrouble, err.Error())
		}
		var ind bytes.Buffer
		json.Indent(&ind, b, "  ", "  ") // b is valid JSON: no error
		if r.n > 0 {
			r.out.WriteString(",")
		}
		r.out.WriteString("\n  ")
		r.out.Write(ind.Bytes())
		r.n++
	case a.hasFormat:
		s, n, err := res.Expand(a.format, r.view)
		if err != nil {
			return r.fatal(urlStatus(err), err.Error())
		}
		notes = n
		r.out.WriteString(s)
		r.out.WriteString("\n")
	default:
		s, n := res.String(r.view)
		notes = n
		r.out.WriteString(s)
		r.out.WriteString("\n")
	}
	for _, v := range res.Violations() {
		r.note(v.Error())
	}
	for _, n := range notes {
		r.note(n.String())
	}
	if _, err := r.out.Write(nil); err != nil {
		// Standard output is gone (a full disk, a closed pipe): the
		// rest would be lost too.
		return r.fatal(exitTrouble, "writing standard output: "+err.Error())
	}
	return exitOK
}

func (r *urlRun) note(msg string) {
	if !r.a.quiet {
		r.out.Flush()
		fmt.Fprintf(r.stderr, "locator url: note: %s\n", printable.String(msg))
	}
}

// fatal ends the run with status and msg; a JSON array begun is closed
// by runURL.
func (r *urlRun) fatal(status int, msg string) int {
	r.out.Flush()
	return urlError(r.stderr, status, msg)
}

// urlStatus is the exit status for an error of package urledit.
func urlStatus(err error) int {
	var e *urledit.Error
	if !errors.As(err, &e) {
		return exitTrouble
	}
	switch e.Kind {
	case urledit.KindEmpty:
		return urlExitEmpty
	case urledit.KindSet:
		return urlExitSet
	case urledit.KindAppend:
		return urlExitAppend
	case urledit.KindTrim:
		return urlExitTrim
	case urledit.KindReplace:
		return urlExitReplace
	case urledit.KindIterate:
		return urlExitIterate
	case urledit.KindGet:
		return urlExitGet
	}
	return urlExitBadURL
}

func urlError(w io.Writer, status int, msg string) int {
	fmt.Fprintf(w, "locator url: %s\n", printable.String(msg))
	return status
}

// urlFlagError reports a mistake package flag found in args, with
// trurl's status and words.
func urlFlagError(w io.Writer, err error, args []string) int {
	s := err.Error()
	if name, ok := strings.CutPrefix(s, "flag needs an argument: -"); ok {
		name = strings.TrimPrefix(name, "-")
		if name == "replace" || name == "replace-append" {
			return urlError(w, urlExitReplace, "No data passed to replace component")
		}
		dash := "--"
		if len(name) == 1 {
			dash = "-"
		}
		return urlError(w, urlExitArg, "Missing argument for "+dash+name)
	}
	if name, ok := strings.CutPrefix(s, "flag provided but not defined: -"); ok {
		// As it was written: "-x" or "--x", without "=" and a value.
		given := "-" + name
		for _, a := range args {
			if b, _, _ := strings.Cut(a, "="); strings.HasPrefix(b, "-") && strings.TrimLeft(b, "-") == name {
				given = b
				break
			}
		}
		return urlError(w, urlExitFlag, "unknown option: "+given)
	}
	return urlError(w, urlExitFlag, s)
}
