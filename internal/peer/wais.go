package peer

import (
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"testing"
)

// FreeWAIS indexes docs (file name → text) as the database "demo" with
// freeWAIS-sf's waisindex (built from the test data's peers/ on first
// use, BuildShared) and serves it with its waisserver on a free port of
// 127.0.0.1: a search is wais://ADDR/demo?WORDS.
func FreeWAIS(t testing.TB, docs map[string]string) *Server {
	t.Helper()
	bin := filepath.Join(BuildShared(t, "freewais-sf"), "bin")
	dir := t.TempDir()
	files := []string{}
	for name, text := range docs {
		p := filepath.Join(dir, "docs", name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	sort.Strings(files)
	if err := os.MkdirAll(filepath.Join(dir, "db"), 0o755); err != nil {
		t.Fatal(err)
	}
	idx := exec.Command(filepath.Join(bin, "waisindex"), append([]string{"-d", filepath.Join(dir, "db", "demo"), "-t", "text"}, files...)...)
	idx.Dir = dir
	if out, err := idx.CombinedOutput(); err != nil {
		t.Fatalf("waisindex: %v\n%s", err, out)
	}
	os.Remove("/tmp/INFO.lock") // waisserver's hard-coded lock; a crashed run's would make it skip INFO
	return Start(t, Spec{
		Name:    "waisserver",
		Program: filepath.Join(bin, "waisserver"),
		Args: func(port int) ([]string, error) {
			return []string{"-p", strconv.Itoa(port), "-d", filepath.Join(dir, "db"), "-e", filepath.Join(dir, "server.log")}, nil
		},
		Dir: dir,
		Env: []string{"WAIS_BIND_ADDR=127.0.0.1"},
	})
}
