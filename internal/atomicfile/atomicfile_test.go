package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// files lists dir's names.
func files(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

// Write replaces the file whole, with perm; a failed write leaves the
// old file as it was and no new file beside it.
func TestWrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f")
	if err := os.WriteFile(path, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	oops := errors.New("oops")
	err := Write(path, 0o600, func(w io.Writer) error {
		io.WriteString(w, strings.Repeat("half", 10000))
		return oops
	})
	if err != oops {
		t.Errorf("Write = %v, want write's own error", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "old\n" {
		t.Errorf("after a failed write: %q", b)
	}
	if names := files(t, dir); len(names) != 1 {
		t.Errorf("after a failed write: %v", names)
	}
	if err := Write(path, 0o600, func(w io.Writer) error { _, err := io.WriteString(w, "new\n"); return err }); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Lstat(path)
	if b, _ := os.ReadFile(path); err != nil || string(b) != "new\n" || fi.Mode().Perm() != 0o600 {
		t.Errorf("written: %q, %v, %v", b, fi.Mode(), err)
	}
	if names := files(t, dir); len(names) != 1 {
		t.Errorf("after a write: %v", names)
	}
}

// A symbolic link where the file is named is replaced by the file, and
// its target is left as it was; ReadFile refuses to read through one.
func TestSymlink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(t.TempDir(), "precious")
	if err := os.WriteFile(target, []byte("precious\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "f")
	if err := os.Symlink(target, path); err != nil {
		t.Fatal(err)
	}
	if b, err := ReadFile(path, 100); NoFollow != 0 && err == nil {
		t.Errorf("ReadFile through a link: %q", b)
	}
	if err := Write(path, 0o600, func(w io.Writer) error { _, err := io.WriteString(w, "x\n"); return err }); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(target); string(b) != "precious\n" {
		t.Errorf("the link's target now holds %q", b)
	}
	if fi, err := os.Lstat(path); err != nil || !fi.Mode().IsRegular() {
		t.Errorf("%s: %v, %v: want a file of its own", path, fi.Mode(), err)
	}
}

// ReadFile reads at most max octets: a longer file is an error naming
// it.
func TestReadFileMax(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, []byte("12345"), 0o600); err != nil {
		t.Fatal(err)
	}
	if b, err := ReadFile(path, 5); err != nil || string(b) != "12345" {
		t.Errorf("ReadFile(5) = %q, %v", b, err)
	}
	if _, err := ReadFile(path, 4); err == nil || !strings.Contains(err.Error(), "more than 4 octets") {
		t.Errorf("ReadFile(4) = %v", err)
	}
}
