package archive

import (
	"context"
	"iter"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rfc1738/locator/access"
)

// TestPackWACZ: two WARC files written by two Writers (a pipeline's
// bundles) and their merged index packed as one WACZ (WACZ 1.2
// §Directories and Files): read by this package, Python's zipfile and
// warcio (CheckWACZ), every capture of both files found, the pages as
// given.
func TestPackWACZ(t *testing.T) {
	dir := t.TempDir()
	recs := sampleRecords(t)
	half := len(recs) / 2
	var files []IndexFile
	var warcs []string
	for i, part := range [][]*access.Record{recs[:half], recs[half:]} {
		path := filepath.Join(dir, []string{"a.warc.gz", "b.warc.gz"}[i])
		w, err := Create(path, Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, rec := range part {
			if err := w.Record(rec); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		warcs = append(warcs, path)
		files = append(files, IndexFile{Path: path + ".cdxj", Filename: filepath.Base(path)})
	}
	index := filepath.Join(dir, "index.cdxj")
	f, err := os.Create(index)
	if err != nil {
		t.Fatal(err)
	}
	if err := MergeIndexes(f, files); err != nil {
		t.Fatal(err)
	}
	f.Close()
	pages := func(yield func(Page, error) bool) {
		for _, r := range recs {
			if !yield(Page{URL: r.URL, Title: "t"}, nil) {
				return
			}
		}
	}
	path := filepath.Join(dir, "all.wacz")
	if err := PackWACZ(path, warcs, index, pages, WACZOptions{Title: "packed"}); err != nil {
		t.Fatal(err)
	}
	_, entries := CheckWACZ(t, path)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name)
	}
	if want := "archive/a.warc.gz archive/b.warc.gz indexes/index.cdxj pages/pages.jsonl datapackage.json datapackage-digest.json"; strings.Join(names, " ") != want {
		t.Errorf("entries %v, want %s", names, want)
	}
	a, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	for _, r := range recs {
		if _, err := a.Lookup(context.Background(), r.URL); err != nil {
			t.Errorf("%s: %v", r.URL, err)
		}
	}

	// An error of the pages ends it, and the WACZ is left as it was.
	before, _ := os.ReadFile(path)
	bad := iter.Seq2[Page, error](func(yield func(Page, error) bool) { yield(Page{}, os.ErrInvalid) })
	if err := PackWACZ(path, warcs, index, bad, WACZOptions{}); err == nil {
		t.Error("a failing pages sequence: no error")
	}
	if after, _ := os.ReadFile(path); string(after) != string(before) {
		t.Error("a failed PackWACZ changed the WACZ")
	}
	left, _ := filepath.Glob(filepath.Join(dir, ".*"))
	if len(left) != 0 {
		t.Errorf("temporaries left: %v", left)
	}
	// Two WARC files of one base name cannot both be under archive/.
	if err := PackWACZ(path, []string{warcs[0], warcs[0]}, index, pages, WACZOptions{}); err == nil {
		t.Error("two WARC files named alike: no error")
	}
}
