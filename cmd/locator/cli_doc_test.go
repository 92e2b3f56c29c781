package main

import (
	"bufio"
	"flag"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// docOption is one entry of a command's OPTIONS in docs/cli.md.
type docOption struct {
	dashes string // "-" or "--", as written
	line   string // the entry's first line
}

// readCLIDoc reads docs/cli.md: each command section ("### locator
// NAME") with the options listed under its "#### OPTIONS" ("- `--name
// ARG` — ..."), and the rows of the renamed flags' table.
func readCLIDoc(t *testing.T) (sections map[string]map[string]docOption, renamedRows []string) {
	t.Helper()
	f, err := os.Open("../../docs/cli.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	heading := regexp.MustCompile("^### locator ([a-z]+)$")
	entry := regexp.MustCompile("^- `(-{1,2})([a-zA-Z0-9][a-z0-9-]*)[ `]")
	sections = map[string]map[string]docOption{}
	var cmd string
	inOptions, inRenamed := false, false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := sc.Text()
		switch {
		case heading.MatchString(l):
			cmd = heading.FindStringSubmatch(l)[1]
			if sections[cmd] != nil {
				t.Errorf("docs/cli.md: two sections for %s", cmd)
			}
			sections[cmd] = map[string]docOption{}
			inOptions = false
			continue
		case strings.HasPrefix(l, "## "), strings.HasPrefix(l, "### "):
			cmd, inOptions = "", false
		case strings.HasPrefix(l, "#### "):
			inOptions = cmd != "" && l == "#### OPTIONS"
		}
		if strings.HasPrefix(l, "#### ") || strings.HasPrefix(l, "## ") {
			inRenamed = l == "#### Renamed flags"
		}
		if inRenamed && strings.HasPrefix(l, "| ") {
			renamedRows = append(renamedRows, l)
		}
		if !inOptions {
			continue
		}
		if m := entry.FindStringSubmatch(l); m != nil {
			if _, dup := sections[cmd][m[2]]; dup {
				t.Errorf("docs/cli.md: %s documents %s%s twice", cmd, m[1], m[2])
			}
			sections[cmd][m[2]] = docOption{dashes: m[1], line: l}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return sections, renamedRows
}

// TestCLIDocumented: docs/cli.md documents every flag of every command,
// the old names of renamed flags marked deprecated with the new name,
// and no flag a command does not have; so the reference and the command
// cannot drift apart.
func TestCLIDocumented(t *testing.T) {
	sections, renamedRows := readCLIDoc(t)
	var names []string
	for name := range commands {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		doc, ok := sections[name]
		if !ok {
			t.Errorf("docs/cli.md: no section \"### locator %s\"", name)
			continue
		}
		fs, _ := newFlagSet(commands[name])
		fs.VisitAll(func(f *flag.Flag) {
			d, ok := doc[f.Name]
			if !ok {
				t.Errorf("docs/cli.md: locator %s: --%s is not documented", name, f.Name)
				return
			}
			if want := dashes(f.Name); d.dashes != want {
				t.Errorf("docs/cli.md: locator %s: write %s%s, as the synopsis does", name, want, f.Name)
			}
			now := deprecated(f)
			marked := strings.Contains(d.line, "deprecated")
			switch {
			case now != "" && (!marked || !strings.Contains(d.line, "`--"+now+"`")):
				t.Errorf("docs/cli.md: locator %s: --%s is an old name of --%s, and must be marked deprecated with the new name: %q", name, f.Name, now, d.line)
			case now == "" && marked:
				t.Errorf("docs/cli.md: locator %s: --%s is marked deprecated, and is not", name, f.Name)
			}
			if now != "" && !renamedRow(renamedRows, name, f.Name, now) {
				t.Errorf("docs/cli.md: the renamed flags' table has no row for locator %s --%s → --%s", name, f.Name, now)
			}
		})
		for opt := range doc {
			if fs.Lookup(opt) == nil {
				t.Errorf("docs/cli.md: locator %s documents %s%s, which it does not have", name, doc[opt].dashes, opt)
			}
		}
	}
	for name := range sections {
		if commands[name] == nil {
			t.Errorf("docs/cli.md: a section for locator %s, which is no command", name)
		}
	}
}

// dashes is how the synopsis writes a flag: -o, -v, --json.
func dashes(name string) string {
	if len(name) == 1 {
		return "-"
	}
	return "--"
}

// renamedRow reports whether a row of the renamed flags' table names
// command (alone or in a list), the old name and the new.
func renamedRow(rows []string, command, old, now string) bool {
	for _, r := range rows {
		cells := strings.Split(r, "|")
		if len(cells) < 4 {
			continue
		}
		cmds := strings.Split(cells[1], ",")
		for _, c := range cmds {
			if strings.TrimSpace(c) == command && strings.Contains(cells[2], "`--"+old+"`") && strings.Contains(cells[3], "`--"+now+"`") {
				return true
			}
		}
	}
	return false
}

// TestOldFlagNames: each renamed flag's old name sets the new flag and
// says once on standard error what to use instead; the new name says
// nothing.
func TestOldFlagNames(t *testing.T) {
	for cmd, list := range renames {
		for _, r := range list {
			fs, _ := newFlagSet(commands[cmd])
			now := fs.Lookup(r.now)
			if now == nil {
				t.Errorf("locator %s: no flag --%s (the new name of --%s)", cmd, r.now, r.old)
				continue
			}
			old := fs.Lookup(r.old)
			if old == nil || deprecated(old) != r.now {
				t.Errorf("locator %s: --%s is not an old name of --%s", cmd, r.old, r.now)
				continue
			}
			v := oldFlagValue(r.now)
			if err := fs.Parse([]string{"--" + r.old, v}); err != nil {
				t.Errorf("locator %s --%s %s: %v", cmd, r.old, v, err)
				continue
			}
			if got := now.Value.String(); got != v {
				t.Errorf("locator %s --%s %s: --%s is %q", cmd, r.old, v, r.now, got)
			}
			var b strings.Builder
			warnOldNames(&b, fs)
			if want := "locator: --" + r.old + " is deprecated; use --" + r.now + "\n"; b.String() != want {
				t.Errorf("locator %s --%s: stderr %q, want %q", cmd, r.old, b.String(), want)
			}
		}
	}
	// Through the command: the warning, then the command as if the new
	// name had been given.
	code, _, errs := runCLI(t, "", "telnet", "--timeout", "0", "telnet://h/")
	if code != 2 || !strings.HasPrefix(errs, "locator: --timeout is deprecated; use --idle-timeout\nlocator telnet: --connect-timeout and --idle-timeout must be positive\n") {
		t.Errorf("telnet --timeout 0: exit %d, stderr %q", code, errs)
	}
	code, _, errs = runCLI(t, "", "telnet", "--idle-timeout", "0", "telnet://h/")
	if code != 2 || strings.Contains(errs, "deprecated") {
		t.Errorf("telnet --idle-timeout 0: exit %d, stderr %q", code, errs)
	}
}

// oldFlagValue is a value for the flag now that its String writes back
// as given.
func oldFlagValue(now string) string {
	switch now {
	case "idle-timeout", "max-time":
		return "7s"
	case "max-filesize", "max-body":
		return "3K"
	case "max-redirs":
		return "3"
	case "method":
		return "nocwd"
	case "allow-host", "deny-host":
		return "h.example"
	}
	return "x"
}
