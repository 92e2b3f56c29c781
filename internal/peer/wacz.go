package peer

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A ZipEntry is what Python's zipfile reads of one entry of a ZIP file.
type ZipEntry struct {
	Name     string `json:"name"`
	Compress int    `json:"compress"` // 0: stored, 8: deflated
	Size     int64  `json:"size"`
}

// ZipEntries has programs no one here wrote read the ZIP file at path:
// Python's zipfile lists its entries and checks every CRC-32 (testzip),
// and `unzip -t` tests it. It returns zipfile's entries, nil when
// /usr/bin/python3 is absent; it fails t when either refuses the file.
func ZipEntries(t testing.TB, path string) []ZipEntry {
	t.Helper()
	var entries []ZipEntry
	if _, err := os.Stat("/usr/bin/python3"); err == nil {
		out, err := exec.Command("/usr/bin/python3", "-c", `
import json, sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
bad = z.testzip()
if bad is not None:
    sys.exit("bad CRC: " + bad)
for i in z.infolist():
    print(json.dumps({"name": i.filename, "compress": i.compress_type, "size": i.file_size}))
`, path).CombinedOutput()
		if err != nil {
			t.Fatalf("python3 zipfile %s: %v\n%s", path, err, out)
		}
		for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			var e ZipEntry
			if err := json.Unmarshal([]byte(l), &e); err != nil {
				t.Fatalf("python3 printed %q", l)
			}
			entries = append(entries, e)
		}
	} else {
		t.Logf("/usr/bin/python3 is absent: %s is not read by zipfile", path)
	}
	if unzip, err := exec.LookPath("unzip"); err == nil {
		if out, err := exec.Command(unzip, "-t", path).CombinedOutput(); err != nil || !bytes.Contains(out, []byte("No errors detected")) {
			t.Errorf("unzip -t %s: %v\n%s", path, err, out)
		}
	}
	return entries
}

// WarcioWACZ has warcio (Warcio, with script) read every WARC file
// stored under archive/ in the WACZ file at path, each a copy taken out
// of it into a temporary directory under its own base name.
func WarcioWACZ(t testing.TB, script, path string) []WarcioRecord {
	t.Helper()
	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	dir := t.TempDir()
	var files []string
	for _, f := range zr.File {
		if !strings.HasPrefix(f.Name, "archive/") || strings.HasSuffix(f.Name, "/") {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		dst := filepath.Join(dir, filepath.Base(f.Name))
		out, err := os.Create(dst)
		if err != nil {
			t.Fatal(err)
		}
		_, err = io.Copy(out, rc)
		rc.Close()
		if cerr := out.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, dst)
	}
	if len(files) == 0 {
		t.Fatalf("%s stores no WARC file under archive/", path)
	}
	return Warcio(t, script, files...)
}
