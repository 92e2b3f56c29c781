package archive

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestIndexTmpSymlink: a symbolic link planted beside the WARC file at
// the name its index was once sorted through ("NAME.warc.gz.cdxj.tmp")
// is not written through: its target keeps its octets, and the index
// is sorted all the same (CDXJ: lines in the order of their keys).
func TestIndexTmpSymlink(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "crawl.warc.gz")
	target := filepath.Join(t.TempDir(), "precious")
	if err := os.WriteFile(target, []byte("precious\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, path+".cdxj.tmp"); err != nil {
		t.Fatal(err)
	}
	// Written in an order that is not the index's, so that it is
	// sorted when the file ends.
	recs := sampleRecords(t)
	slices.Reverse(recs)
	writeAll(t, path, Options{}, recs)
	if b, _ := os.ReadFile(target); string(b) != "precious\n" {
		t.Errorf("the link's target now holds %q", b)
	}
	idx, err := os.ReadFile(path + ".cdxj")
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(bytes.TrimSuffix(idx, []byte("\n")), []byte("\n"))
	if len(lines) < len(recs) || !slices.IsSortedFunc(lines, bytes.Compare) {
		t.Errorf("index of %d lines, sorted %v:\n%s", len(lines), slices.IsSortedFunc(lines, bytes.Compare), idx)
	}
	left, _ := filepath.Glob(filepath.Join(dir, ".*.tmp"))
	if len(left) != 0 {
		t.Errorf("left behind: %v", left)
	}
}
