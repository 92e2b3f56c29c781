package main

import (
	"encoding/json"
	"runtime/debug"
	"strings"
	"testing"
)

// TestVersionOf: the module holding cmd/locator is found as the main
// module (built in the repository, or by go install ...@version) or as a
// dependency (built from another module, perhaps replaced by a local
// path), and the VCS stamp is read when present.
func TestVersionOf(t *testing.T) {
	const mod = "github.com/rfc1738/locator"
	tests := []struct {
		name string
		bi   debug.BuildInfo
		want buildVersion
	}{
		{"go install @version", debug.BuildInfo{GoVersion: "go1.26.0", Path: mod + "/cmd/locator", Main: debug.Module{Path: mod, Version: "v1.2.3"}},
			buildVersion{Module: mod, Version: "v1.2.3", Go: "go1.26.0"}},
		{"checkout", debug.BuildInfo{GoVersion: "go1.26.0", Path: mod + "/cmd/locator", Main: debug.Module{Path: mod, Version: "(devel)"},
			Settings: []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: "abc123"}, {Key: "vcs.time", Value: "2026-11-23T05:00:00Z"}, {Key: "vcs.modified", Value: "false"}}},
			buildVersion{Module: mod, Version: "(devel)", Go: "go1.26.0", Revision: "abc123", Time: "2026-11-23T05:00:00Z", Modified: new(bool)}},
		{"replaced dependency", debug.BuildInfo{GoVersion: "go1.26.0", Path: mod + "/cmd/locator", Main: debug.Module{Path: "example.com/tmp"},
			Deps: []*debug.Module{{Path: "golang.org/x/text", Version: "v0.1.0"}, {Path: mod, Version: "v0.0.0", Replace: &debug.Module{Path: "/work/wt-cli"}}}},
			buildVersion{Module: mod, Version: "v0.0.0", ReplacedBy: "/work/wt-cli", Go: "go1.26.0"}},
		{"a module whose path is a prefix of ours is not ours", debug.BuildInfo{Path: mod + "/cmd/locator", Main: debug.Module{Path: mod, Version: "v1.0.0"},
			Deps: []*debug.Module{{Path: "github.com/rfc1738/loc", Version: "v9.0.0"}}},
			buildVersion{Module: mod, Version: "v1.0.0"}},
	}
	for _, tt := range tests {
		got := versionOf(&tt.bi)
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(&tt.want)
		if string(g) != string(w) {
			t.Errorf("%s: %s, want %s", tt.name, g, w)
		}
	}
	var b strings.Builder
	versionOf(&tests[1].bi).write(&b)
	want := "locator (devel)\n  module    github.com/rfc1738/locator\n  go        go1.26.0\n  revision  abc123\n  time      2026-11-23T05:00:00Z\n  modified  false\n"
	if b.String() != want {
		t.Errorf("write:\n%s\nwant:\n%s", b.String(), want)
	}
}

// TestVersionCommand: `locator version` and `locator --version` print
// the same report, beginning "locator "; --json gives the object.
func TestVersionCommand(t *testing.T) {
	c1, out1, _ := runCLI(t, "", "version")
	c2, out2, _ := runCLI(t, "", "--version")
	if c1 != 0 || c2 != 0 || out1 != out2 || !strings.HasPrefix(out1, "locator ") || !strings.Contains(out1, "\n  go        go1.") {
		t.Errorf("version: exit %d %q; --version: exit %d %q", c1, out1, c2, out2)
	}
	code, out, _ := runCLI(t, "", "version", "--json")
	var v buildVersion
	if err := json.Unmarshal([]byte(out), &v); err != nil || code != 0 || !strings.HasPrefix(v.Go, "go1.") {
		t.Errorf("version --json: exit %d, %q (%v)", code, out, err)
	}
}
