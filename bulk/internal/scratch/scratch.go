// Package scratch is the scratch directory of the bulk module's tests:
// where prism's LOOPBACK workers leave their files (TMPDIR: Beam leaves
// an empty beamloopbackworker-* file a run), where t.TempDir makes the
// trees that servers running as nobody must reach, and where the
// programs the tests build are kept, each built once per test binary.
package scratch

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// Dir is the directory, set by Main.
var Dir string

// Main runs a package's tests (run: m.Run, or ptest.MainRet(m) for
// prism) with Dir a new directory open to every user (0755) and TMPDIR
// naming it, removes it, and returns run's exit code (2 when no
// directory could be made).
func Main(prefix string, run func() int) int {
	dir, err := os.MkdirTemp("", prefix)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	Dir = dir
	os.Chmod(dir, 0o755)
	os.Setenv("TMPDIR", dir)
	code := run()
	os.RemoveAll(dir)
	return code
}

var (
	mu    sync.Mutex
	built = map[string]string{}
)

// Build builds pkg (a path relative to dir, or an import path) into
// Dir/bin once per test binary and returns the executable's path.
func Build(t testing.TB, dir, pkg string) string {
	t.Helper()
	mu.Lock()
	defer mu.Unlock()
	if p, ok := built[pkg]; ok {
		return p
	}
	out := filepath.Join(Dir, "bin", filepath.Base(pkg))
	cmd := exec.Command("go", "build", "-o", out, pkg)
	cmd.Dir = dir
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", pkg, err, b)
	}
	built[pkg] = out
	return out
}
