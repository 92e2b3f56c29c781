// Package vectors finds the folder shared/ beside the repository (the
// conformance vectors, corpora, spec texts and peers) and reads its TSV
// files. It imports nothing of the module, so that the core's own
// (package locator) tests can use it as well as every scheme package's;
// package loctest re-exports it.
package vectors

import (
	"bufio"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// Dir returns the folder shared/ beside the repository, found from this
// source file's place so that every package's tests agree on it.
func Dir() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return filepath.Join("..", "..", "..", "shared")
	}
	// file is <repo>/internal/loctest/vectors/vectors.go.
	return filepath.Join(filepath.Dir(file), "..", "..", "..", "..", "shared")
}

// Path returns the path of rel under shared/. When shared/ is absent (a
// clone on its own) the test is skipped with a one-line reason; when
// shared/ exists but rel does not, the test fails: CI always has shared/,
// so a missing vector file there is a broken test, not a skip.
func Path(t testing.TB, rel ...string) string {
	t.Helper()
	dir := Dir()
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("shared/ is not beside the repository (%s): %s not checked", dir, filepath.Join(rel...))
	}
	p := filepath.Join(append([]string{dir}, rel...)...)
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("shared/ is present but %s is not: %v", filepath.Join(rel...), err)
	}
	return p
}

// ReadFile returns the content of rel under shared/ (as Path: skipped
// without shared/, failed when the file is missing or unreadable).
func ReadFile(t testing.TB, rel ...string) []byte {
	t.Helper()
	p := Path(t, rel...)
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("reading %s: %v", p, err)
	}
	return data
}

// ReadLines returns every line of rel under shared/ (a corpus: one URL a
// line, nothing dropped but a trailing "\r"). Lines may be up to 1 MiB; a
// read error fails the test.
func ReadLines(t testing.TB, rel ...string) []string {
	t.Helper()
	var lines []string
	scan(t, Path(t, rel...), func(line string) { lines = append(lines, line) })
	return lines
}

// ReadTSV returns the data rows of a TSV file under shared/conformance/
// (rel is relative to it): blank lines and lines starting with "#" are
// dropped, the header row is kept as the first row when it is not a
// comment. Lines may be up to 1 MiB. A read error, or a file without a
// single row, fails the test.
func ReadTSV(t testing.TB, rel ...string) [][]string {
	t.Helper()
	p := Path(t, append([]string{"conformance"}, rel...)...)
	var rows [][]string
	scan(t, p, func(line string) {
		if line == "" || line[0] == '#' {
			return
		}
		rows = append(rows, strings.Split(line, "\t"))
	})
	if len(rows) == 0 {
		t.Fatalf("%s: no rows", p)
	}
	return rows
}

// scan calls fn for each line of the file at p, failing t when it cannot
// be opened or read to its end (bufio.Scanner.Err: a line over 1 MiB).
func scan(t testing.TB, p string, fn func(string)) {
	t.Helper()
	f, err := os.Open(p)
	if err != nil {
		t.Fatalf("opening %s: %v", p, err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		fn(strings.TrimSuffix(sc.Text(), "\r"))
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("reading %s: %v", p, err)
	}
}
