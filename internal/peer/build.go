package peer

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/rfc1738/locator/internal/loctest"
)

var (
	buildMu sync.Mutex
	builds  = map[string]*built{}
)

type built struct {
	dir, skip string
	err       error
}

// BuildShared builds the peer shared/peers/NAME with its build.sh into
// <os.UserCacheDir()>/locator-peers/NAME-<hash>, where hash is a short
// SHA-256 of the folder's build.sh, src.tar.gz and patches/* (build.sh
// only checks that the binaries exist, so a changed patch needs a new
// directory), and returns that directory. It
// skips t with build.sh's one-line reason when build.sh exits 2 (a
// missing prerequisite) and fails t when the build fails. A test binary
// builds each peer once.
func BuildShared(t testing.TB, name string) string {
	t.Helper()
	src := loctest.SharedPath(t, "peers", name)
	buildMu.Lock()
	b, ok := builds[name]
	if !ok {
		b = build(src, name)
		builds[name] = b
	}
	buildMu.Unlock()
	if b.skip != "" {
		t.Skip(b.skip)
	}
	if b.err != nil {
		t.Fatal(b.err)
	}
	return b.dir
}

func build(src, name string) *built {
	files := []string{filepath.Join(src, "build.sh"), filepath.Join(src, "src.tar.gz")}
	patches, _ := filepath.Glob(filepath.Join(src, "patches", "*"))
	sort.Strings(patches)
	h := sha256.New()
	for _, f := range append(files, patches...) {
		b, err := os.ReadFile(f)
		if err != nil {
			return &built{err: fmt.Errorf("peer %s: %v", name, err)}
		}
		fmt.Fprintf(h, "%s %d\n", filepath.Base(f), len(b))
		h.Write(b)
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		return &built{err: fmt.Errorf("peer %s: %v", name, err)}
	}
	dir := filepath.Join(cache, "locator-peers", name+"-"+hex.EncodeToString(h.Sum(nil))[:12])
	out, err := exec.Command("sh", filepath.Join(src, "build.sh"), dir).CombinedOutput()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee) && ee.ExitCode() == 2:
		return &built{skip: strings.TrimSpace(string(out))}
	case err != nil:
		return &built{err: fmt.Errorf("peer %s: build.sh %s: %v\n%s", name, dir, err, out)}
	}
	return &built{dir: dir}
}
