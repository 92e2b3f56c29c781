package main

// wget's crawl flags given to locator crawl: each is named with the
// flag of locator crawl's own that does what it does (or why none is
// needed), and the whole command line is written again with them, so
// that a wget command is made a crawl in one step.

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/rfc1738/locator/internal/printable"
)

// A wgetFlag is one of wget's crawl flags: its names (one letter: a
// short option), whether it takes an argument, and what locator crawl
// does instead: the flags to give (none: drop it) and why.
type wgetFlag struct {
	names []string
	arg   bool
	to    func(arg string) (args []string, why string)
}

var wgetFlags = []wgetFlag{
	{[]string{"r", "recursive"}, false, func(string) ([]string, string) {
		return nil, "drop it: crawl always follows links"
	}},
	{[]string{"m", "mirror"}, false, func(string) ([]string, string) {
		return []string{"--depth", "0"}, "no bound on the depth; crawl keeps no copies, --warc FILE archives what it fetches"
	}},
	{[]string{"l", "level"}, true, func(a string) ([]string, string) {
		if a == "inf" || a == "0" {
			return []string{"--depth", "0"}, "no bound, as wget's -l inf"
		}
		return []string{"--depth", a}, "the same meaning; the default is 5 in both"
	}},
	{[]string{"np", "no-parent"}, false, func(string) ([]string, string) {
		return nil, "drop it: --scope prefix, the default, never goes above the seed's directory"
	}},
	{[]string{"w", "wait"}, true, func(a string) ([]string, string) {
		return []string{"--delay", a}, "seconds when bare, as wget's; given, it holds whatever robots.txt's Crawl-delay says"
	}},
	{[]string{"A", "accept"}, true, func(a string) ([]string, string) {
		return []string{"--include", wgetList(a)}, "but a page --include does not match is not read for its links, where wget reads the HTML pages it rejects; --exclude of the rest suits a crawl better"
	}},
	{[]string{"R", "reject"}, true, func(a string) ([]string, string) {
		return []string{"--exclude", wgetList(a)}, "a URL matched is neither fetched nor read for its links (--check still probes it)"
	}},
	{[]string{"spider"}, false, func(string) ([]string, string) {
		return nil, "drop it: crawl never keeps what it fetches"
	}},
	{[]string{"q", "quiet"}, false, func(string) ([]string, string) {
		return nil, "drop it: crawl writes the broken links on standard output and a few summary lines on standard error, which 2>/dev/null silences"
	}},
	{[]string{"nv", "no-verbose"}, false, func(string) ([]string, string) {
		return nil, "drop it: crawl writes a line a broken target, not a line a request"
	}},
	{[]string{"P", "directory-prefix"}, true, func(string) ([]string, string) {
		return nil, "drop it: crawl keeps no files; --warc FILE archives what it fetches"
	}},
	{[]string{"e", "execute"}, true, func(a string) ([]string, string) {
		if strings.EqualFold(strings.ReplaceAll(a, " ", ""), "robots=off") {
			return []string{"--no-robots"}, "for a site's own owner: robots.txt is neither read nor obeyed"
		}
		return nil, "no flag of locator crawl does what this wgetrc command does"
	}},
}

// wgetList makes wget's comma-separated list of suffixes or patterns
// (--accept pdf,*.html) a regular expression matched against the URL:
// a suffix ends the path; a pattern's "*" and "?" stand for octets of
// the file name.
func wgetList(list string) string {
	var alts []string
	for _, it := range strings.Split(list, ",") {
		it = strings.TrimSpace(it)
		if it == "" {
			continue
		}
		if strings.ContainsAny(it, "*?[") {
			q := regexp.QuoteMeta(it)
			q = strings.ReplaceAll(q, `\*`, `[^/]*`)
			q = strings.ReplaceAll(q, `\?`, `[^/]`)
			alts = append(alts, "/"+q)
		} else {
			alts = append(alts, `\.`+regexp.QuoteMeta(strings.TrimPrefix(it, ".")))
		}
	}
	return "(" + strings.Join(alts, "|") + ")$"
}

// lookupWget returns the wget flag a names ("-l3", "--level=3", "-np")
// and its argument when it is in a itself.
func lookupWget(a string) (f *wgetFlag, arg string, inline bool) {
	if long, ok := strings.CutPrefix(a, "--"); ok {
		name, v, has := strings.Cut(long, "=")
		for i := range wgetFlags {
			for _, n := range wgetFlags[i].names {
				if len(n) > 2 && n == name {
					return &wgetFlags[i], v, has
				}
			}
		}
		return nil, "", false
	}
	short, ok := strings.CutPrefix(a, "-")
	if !ok || short == "" {
		return nil, "", false
	}
	for i := range wgetFlags {
		for _, n := range wgetFlags[i].names {
			switch {
			case n == "np" || n == "nv":
				if short == n {
					return &wgetFlags[i], "", false
				}
			case len(n) != 1:
			case short == n:
				return &wgetFlags[i], "", false
			case wgetFlags[i].arg && strings.HasPrefix(short, n):
				return &wgetFlags[i], short[1:], true // -l3
			}
		}
	}
	return nil, "", false
}

// crawlForeign is crawl's command.foreign: args the flags could not
// parse are searched for wget's crawl flags; when there are some, each
// is said with what locator crawl does instead, and the command line is
// written again with locator crawl's flags.
func crawlForeign(e *env, args []string) bool {
	type found struct{ given, to, why string }
	var seen []found
	var line []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			line = append(line, args[i:]...)
			break
		}
		f, arg, inline := lookupWget(a)
		if f == nil {
			line = append(line, a)
			continue
		}
		given := a
		if f.arg && !inline {
			if i+1 >= len(args) {
				line = append(line, a)
				continue // the flag package says the argument is missing
			}
			i++
			arg = args[i]
			given += " " + arg
		}
		to, why := f.to(arg)
		line = append(line, to...)
		seen = append(seen, found{given, shellWords(to), why})
	}
	if len(seen) == 0 {
		return false
	}
	fmt.Fprintln(e.stderr, "locator crawl: wget's flags; locator crawl's own:")
	for _, s := range seen {
		if s.to == "" {
			fmt.Fprintf(e.stderr, "  %s: %s\n", printable.String(s.given), printable.String(s.why))
		} else {
			fmt.Fprintf(e.stderr, "  %s: %s (%s)\n", printable.String(s.given), printable.String(s.to), printable.String(s.why))
		}
	}
	fmt.Fprintf(e.stderr, "that is:\n  locator crawl %s\nusage: locator crawl %s\n", printable.String(shellWords(line)), commands["crawl"].args)
	return true
}

// shellWords writes args as a POSIX shell reads them back: a word of
// other octets than letters, digits and -_./:=@,+% in single quotes.
func shellWords(args []string) string {
	out := make([]string, len(args))
	for i, a := range args {
		plain := a != ""
		for _, c := range a {
			if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.ContainsRune("-_./:=@,+%", c)) {
				plain = false
				break
			}
		}
		if plain {
			out[i] = a
		} else {
			out[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
	}
	return strings.Join(out, " ")
}
