package main

import (
	"flag"
	"fmt"
	"io"
	"runtime/debug"
	"strings"
)

func init() {
	register(&command{
		name:    "version",
		args:    "[--json] (also: locator --version)",
		summary: "the module, version and source revision this locator was built from",
		flags: func(fs *flag.FlagSet) func(*env, []string) int {
			asJSON := fs.Bool("json", false, "a JSON object: module, version, replaced_by, go, revision, time, modified")
			return func(e *env, args []string) int {
				if len(args) != 0 {
					return usageError(e, "version", "no arguments are taken")
				}
				bi, ok := debug.ReadBuildInfo()
				if !ok {
					fmt.Fprintln(e.stderr, "locator version: the binary carries no build information")
					return exitTrouble
				}
				v := versionOf(bi)
				if *asJSON {
					writeJSON(e.stdout, v) // a write error is seen by run
				} else {
					v.write(e.stdout)
				}
				return exitOK
			}
		},
	})
}

// buildVersion is what `locator version` reports.
type buildVersion struct {
	Module     string `json:"module"`                // the module holding the locator command
	Version    string `json:"version"`               // its version: a tag, a pseudo-version or "(devel)"
	ReplacedBy string `json:"replaced_by,omitempty"` // a replace directive's target (a path, or module@version)
	Go         string `json:"go"`                    // the Go toolchain that built it
	Revision   string `json:"revision,omitempty"`    // vcs.revision, when built in a checkout
	Time       string `json:"time,omitempty"`        // vcs.time
	Modified   *bool  `json:"modified,omitempty"`    // vcs.modified: uncommitted changes
}

// versionOf reads bi: the module that holds the main package (the main
// module when built inside this repository or by "go install
// ...@version"; a dependency, perhaps replaced, when built from another
// module), and the VCS stamp the go command writes when it builds in a
// checkout.
func versionOf(bi *debug.BuildInfo) *buildVersion {
	v := &buildVersion{Go: bi.GoVersion}
	m := &bi.Main
	for _, d := range bi.Deps {
		if inModule(bi.Path, d.Path) && !inModule(bi.Path, m.Path) {
			m = d
		}
	}
	v.Module, v.Version = m.Path, m.Version
	if m.Replace != nil {
		v.ReplacedBy = m.Replace.Path
		if m.Replace.Version != "" && m.Replace.Version != "(devel)" {
			v.ReplacedBy += "@" + m.Replace.Version
		}
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			v.Revision = s.Value
		case "vcs.time":
			v.Time = s.Value
		case "vcs.modified":
			mod := s.Value == "true"
			v.Modified = &mod
		}
	}
	return v
}

// inModule reports whether the package path pkg lies in module mod.
func inModule(pkg, mod string) bool {
	return mod != "" && (pkg == mod || strings.HasPrefix(pkg, mod+"/"))
}

func (v *buildVersion) write(w io.Writer) {
	fmt.Fprintf(w, "locator %s\n", v.Version)
	fmt.Fprintf(w, "  module    %s\n", v.Module)
	if v.ReplacedBy != "" {
		fmt.Fprintf(w, "  replaced  %s\n", v.ReplacedBy)
	}
	fmt.Fprintf(w, "  go        %s\n", v.Go)
	if v.Revision != "" {
		fmt.Fprintf(w, "  revision  %s\n", v.Revision)
	}
	if v.Time != "" {
		fmt.Fprintf(w, "  time      %s\n", v.Time)
	}
	if v.Modified != nil {
		fmt.Fprintf(w, "  modified  %v\n", *v.Modified)
	}
}
