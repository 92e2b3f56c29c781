package archive

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMergeIndexes: sorted indexes merged into one sorted index, each
// line naming its WARC file by the name given for its index; a line
// that is no CDXJ line is an *IndexError naming its file and line.
func TestMergeIndexes(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a.cdxj")
	b := filepath.Join(dir, "b.cdxj")
	os.WriteFile(a, []byte(
		`org,example)/a 20261207190000 {"url":"http://example.org/a","length":"10","offset":"0","filename":".tmp-a.warc.gz"}`+"\n"+
			`org,example)/c 20261207190000 {"url":"http://example.org/c","length":"10","offset":"10","filename":".tmp-a.warc.gz"}`+"\n"), 0o644)
	os.WriteFile(b, []byte(
		`org,example)/b 20261207190000 {"url":"http://example.org/b","length":"10","offset":"0","filename":".tmp-b.warc.gz"}`+"\n"), 0o644)
	var out bytes.Buffer
	if err := MergeIndexes(&out, []IndexFile{{Path: a, Filename: "r-00000-of-00002.warc.gz"}, {Path: b, Filename: "r-00001-of-00002.warc.gz"}}); err != nil {
		t.Fatal(err)
	}
	want := `org,example)/a 20261207190000 {"url":"http://example.org/a","length":"10","offset":"0","filename":"r-00000-of-00002.warc.gz"}` + "\n" +
		`org,example)/b 20261207190000 {"url":"http://example.org/b","length":"10","offset":"0","filename":"r-00001-of-00002.warc.gz"}` + "\n" +
		`org,example)/c 20261207190000 {"url":"http://example.org/c","length":"10","offset":"10","filename":"r-00000-of-00002.warc.gz"}` + "\n"
	if out.String() != want {
		t.Errorf("merged:\n%s\nwant:\n%s", out.String(), want)
	}
	os.WriteFile(b, []byte("not a line\n"), 0o644)
	err := MergeIndexes(&out, []IndexFile{{Path: a}, {Path: b}})
	if ie, ok := err.(*IndexError); !ok || ie.File != b || ie.Line != 1 || !strings.Contains(ie.Msg, "timestamp") {
		t.Errorf("a bad line: %v", err)
	}
}
