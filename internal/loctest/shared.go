package loctest

import (
	"bufio"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// SharedDir returns the folder shared/ beside the repository (the
// conformance vectors, corpora, spec texts and peers), found from this
// source file's place so that every package's tests agree on it.
func SharedDir() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return filepath.Join("..", "..", "shared")
	}
	// file is <repo>/internal/loctest/shared.go.
	return filepath.Join(filepath.Dir(file), "..", "..", "..", "shared")
}

// SharedPath returns the path of rel under shared/. When shared/ is
// absent (a clone on its own) the test is skipped with a one-line reason;
// when shared/ exists but rel does not, the test fails: CI always has
// shared/, so a missing vector file there is a broken test, not a skip.
func SharedPath(t testing.TB, rel ...string) string {
	t.Helper()
	dir := SharedDir()
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("shared/ is not beside the repository (%s): %s not checked", dir, filepath.Join(rel...))
	}
	p := filepath.Join(append([]string{dir}, rel...)...)
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("shared/ is present but %s is not: %v", filepath.Join(rel...), err)
	}
	return p
}

// ReadTSV returns the data rows of a TSV file under shared/conformance/
// (rel is relative to it): blank lines and lines starting with "#" are
// dropped, the header row is kept as the first row when it is not a
// comment. Lines may be up to 1 MiB. A read error fails the test.
func ReadTSV(t testing.TB, rel ...string) [][]string {
	t.Helper()
	p := SharedPath(t, append([]string{"conformance"}, rel...)...)
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows [][]string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := strings.TrimSuffix(sc.Text(), "\r")
		if line == "" || line[0] == '#' {
			continue
		}
		rows = append(rows, strings.Split(line, "\t"))
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("reading %s: %v", p, err)
	}
	return rows
}
