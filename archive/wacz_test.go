package archive

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/internal/peer"
)

const titledPage = "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: 63\r\n\r\n<html><head><title> A  page\n title</title></head><body>x</body>"

func writeWACZ(t testing.TB, path string, opt WACZOptions, recs []*access.Record) {
	t.Helper()
	w, err := CreateWACZ(path, opt)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if err := w.Record(r); err != nil {
			t.Fatal(err)
		}
		if err := w.AddPage(Page{URL: r.URL}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// CheckWACZ has programs no one here wrote read the WACZ at path:
// Python's zipfile and unzip test it (peer.ZipEntries), every WARC file
// under archive/ is stored, and warcio reads each (peer.WarcioWACZ),
// every record whole with its digests right, at the offsets of the
// WACZ's index. It returns what warcio read, and the WACZ's entries.
func CheckWACZ(t *testing.T, path string) ([]peer.WarcioRecord, []peer.ZipEntry) {
	t.Helper()
	entries := peer.ZipEntries(t, path)
	for _, e := range entries {
		if strings.HasPrefix(e.Name, "archive/") && e.Compress != int(zip.Store) {
			t.Errorf("python3 zipfile: %s is compressed (%d), want stored", e.Name, e.Compress)
		}
	}
	recs := peer.WarcioWACZ(t, "testdata/warccheck.cjs", path)
	offsets := map[string]bool{}
	for _, r := range recs {
		if r.Error != "" || r.BlockOK == nil || !*r.BlockOK || r.PayloadOK != nil && !*r.PayloadOK || r.Length != r.ContentLength {
			t.Errorf("warcio: %+v", r)
		}
		offsets[fmt.Sprintf("%s@%d", filepath.Base(r.File), r.Offset)] = true
	}
	n := 0
	if err := readWACZIndex(path, func(e entry) {
		n++
		if !offsets[fmt.Sprintf("%s@%d", e.Filename, e.Offset)] {
			t.Errorf("the index names %s@%d (%s), where warcio read no record", e.Filename, e.Offset, e.URL)
		}
	}); err != nil {
		t.Error(err)
	}
	if n == 0 {
		t.Error("the WACZ's index is empty")
	}
	return recs, entries
}

// TestWACZRoundTrip: WACZ 1.2 §Directories and Files, §datapackage.json,
// §pages.jsonl, §Zip Compression; read back by this package, by Python's
// zipfile, by unzip and by warcio.
func TestWACZRoundTrip(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "c.wacz")
	recs := append(sampleRecords(t), exchange(t, "http://127.0.0.1:8080/titled", "http/1.1", "GET /titled HTTP/1.1\r\n\r\n", titledPage))
	writeWACZ(t, path, WACZOptions{Title: "a test"}, recs)
	wr, entries := CheckWACZ(t, path)
	if n := countRecordTypes(wr); n["response"] != 5 || n["resource"] != 4 || n["warcinfo"] != 1 { // resource: an FTP file's, and a page drawn for players of the gopher menu and the gemini page (derive.go)
		t.Errorf("warcio read %v", n)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name)
	}
	if want := "archive/c.warc.gz indexes/index.cdxj pages/pages.jsonl datapackage.json datapackage-digest.json"; entries != nil && strings.Join(names, " ") != want {
		t.Errorf("entries %v, want %s", names, want)
	}

	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	read := func(name string) []byte {
		rc, err := zr.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		defer rc.Close()
		b, _ := io.ReadAll(rc)
		return b
	}
	var pkg struct {
		Profile, WACZVersion, Created, Software, Title string
		Resources                                      []struct {
			Name, Path, Hash string
			Bytes            int64
		}
		Relation any
	}
	pkgOctets := read("datapackage.json")
	if err := json.Unmarshal(bytes.ReplaceAll(pkgOctets, []byte("wacz_version"), []byte("WACZVersion")), &pkg); err != nil {
		t.Fatal(err)
	}
	if pkg.Profile != "data-package" || pkg.WACZVersion != "1.1.1" || pkg.Title != "a test" || pkg.Software != "locator" || pkg.Created == "" || pkg.Relation != nil {
		t.Errorf("datapackage.json: %s", pkgOctets)
	}
	if len(pkg.Resources) != 3 {
		t.Errorf("%d resources, want 3", len(pkg.Resources))
	}
	for _, r := range pkg.Resources {
		b := read(r.Path)
		sum := sha256.Sum256(b)
		if r.Hash != "sha256:"+hex.EncodeToString(sum[:]) || r.Bytes != int64(len(b)) {
			t.Errorf("%s: datapackage says %s %d, the entry is sha256:%x %d", r.Path, r.Hash, r.Bytes, sum, len(b))
		}
	}
	sum := sha256.Sum256(pkgOctets)
	if d := string(read("datapackage-digest.json")); !strings.Contains(d, `"hash": "sha256:`+hex.EncodeToString(sum[:])+`"`) || !strings.Contains(d, `"path": "datapackage.json"`) {
		t.Errorf("datapackage-digest.json: %s", d)
	}

	// pages.jsonl: the header line, then a line per page, with the
	// record's own time and the HTML page's title.
	lines := strings.Split(strings.TrimSpace(string(read("pages/pages.jsonl"))), "\n")
	if lines[0] != `{"format": "json-pages-1.0", "id": "pages", "title": "All Pages"}` || len(lines) != len(recs)+1 {
		t.Fatalf("pages.jsonl:\n%s", strings.Join(lines, "\n"))
	}
	for i, l := range lines[1:] {
		var p struct{ ID, URL, TS, Title string }
		if err := json.Unmarshal([]byte(l), &p); err != nil {
			t.Fatal(err)
		}
		if p.URL != access.Masked(recs[i].URL) || p.TS != warcDate(recs[i].Date) || p.ID == "" {
			t.Errorf("page %d: %s", i, l)
		}
		if want := map[bool]string{true: "A page title"}[strings.HasSuffix(p.URL, "/titled")]; p.Title != want {
			t.Errorf("page %s: title %q, want %q", p.URL, p.Title, want)
		}
	}

	// The WACZ read back by ranges: each capture as it was written.
	rd, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	if p := rd.Problems(); len(p) > 0 {
		t.Errorf("problems: %v", p)
	}
	for _, r := range recs {
		got, err := rd.Lookup(context.Background(), r.URL)
		if err != nil {
			t.Errorf("%s: %v", r.URL, err)
			continue
		}
		if a, b := readAll(t, got.Response), readAll(t, r.Response); a != b {
			t.Errorf("%s: read back %q, want %q", r.URL, a, b)
		}
		got.Close()
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatal(err)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*")); len(left) > 0 {
		t.Errorf("the temporary files are left: %v", left)
	}
	if _, err := CreateWACZ(path, WACZOptions{}); !errors.Is(err, os.ErrExist) {
		t.Errorf("a WACZ over an existing file: %v, want ErrExist", err)
	}
}

func countRecordTypes(recs []peer.WarcioRecord) map[string]int {
	m := map[string]int{}
	for _, r := range recs {
		m[r.Type]++
	}
	return m
}

// A zipPart is one entry of a ZIP made by hand.
type zipPart struct {
	name   string
	method uint16
	data   []byte
}

// makeZip writes parts as a ZIP and, unless a part is datapackage.json,
// a datapackage.json listing each with its right size and hash.
func makeZip(t testing.TB, parts ...zipPart) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	var res []pkgResource
	hasPkg := false
	for _, p := range parts {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: p.name, Method: p.method})
		if err != nil {
			t.Fatal(err)
		}
		w.Write(p.data)
		if p.name == "datapackage.json" {
			hasPkg = true
		}
		sum := sha256.Sum256(p.data)
		res = append(res, pkgResource{Name: p.name, Path: p.name, Hash: "sha256:" + hex.EncodeToString(sum[:]), Bytes: int64(len(p.data))})
	}
	if !hasPkg {
		b, _ := json.Marshal(map[string]any{"profile": "data-package", "resources": res})
		w, _ := zw.Create("datapackage.json")
		w.Write(b)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestWACZRefused: a WACZ that breaks WACZ 1.2's rules (§Directories and
// Files, §Zip Compression, §datapackage.json) or would cost unbounded
// memory is refused with an error naming the entry, and nothing of it is
// served.
func TestWACZRefused(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.wacz")
	writeWACZ(t, good, WACZOptions{}, sampleRecords(t)[:3])
	CheckWACZ(t, good)
	goodOctets, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	warc, _ := os.ReadFile(good) // the WARC file's octets, for the hand-made ZIPs
	if zr, err := zip.NewReader(bytes.NewReader(goodOctets), int64(len(goodOctets))); err == nil {
		rc, _ := zr.File[0].Open()
		warc, _ = io.ReadAll(rc)
		rc.Close()
	}
	// The stored WARC file's first record's octets altered after the
	// fact: the CRC-32 and the hash no longer match.
	altered := bytes.Clone(goodOctets)
	zr, _ := zip.NewReader(bytes.NewReader(goodOctets), int64(len(goodOctets)))
	off, _ := zr.File[0].DataOffset()
	altered[off+40] ^= 0x55
	// The central directory's entry of the WARC file claiming more
	// octets than the file holds.
	past := bytes.Clone(goodOctets)
	cd := -1 // the entry's header: its name follows at 46
	for i := bytes.Index(past, []byte("PK\x01\x02")); i >= 0; {
		if bytes.HasPrefix(past[i+46:], []byte("archive/")) {
			cd = i
			break
		}
		j := bytes.Index(past[i+4:], []byte("PK\x01\x02"))
		if j < 0 {
			break
		}
		i += 4 + j
	}
	if cd < 0 {
		t.Fatal("no central directory entry for archive/")
	}
	copy(past[cd+20:], []byte{0xff, 0xff, 0xff, 0x7f, 0xff, 0xff, 0xff, 0x7f})

	wrongHash := func() []byte {
		var buf bytes.Buffer
		zw := zip.NewWriter(&buf)
		w, _ := zw.CreateHeader(&zip.FileHeader{Name: "archive/a.warc.gz", Method: zip.Store})
		w.Write(warc)
		w, _ = zw.Create("datapackage.json")
		fmt.Fprintf(w, `{"profile":"data-package","resources":[{"path":"archive/a.warc.gz","hash":"sha256:%064x","bytes":%d}]}`, 1, len(warc))
		zw.Close()
		return buf.Bytes()
	}()
	badDigest := makeZip(t, zipPart{"archive/a.warc.gz", zip.Store, warc},
		zipPart{"datapackage-digest.json", zip.Deflate, []byte(`{"path":"datapackage.json","hash":"sha256:00"}`)})
	for _, tc := range []struct {
		name, entry, msg string
		data             []byte
	}{
		{"not a ZIP", "", "not a ZIP file", []byte("WARC/1.1\r\n")},
		{"outside", "evil.sh", "outside archive/", makeZip(t, zipPart{"archive/a.warc.gz", zip.Store, warc}, zipPart{"evil.sh", zip.Store, []byte("x")})},
		{"other directory", "bin/", "a directory other", makeZip(t, zipPart{"bin/", zip.Store, nil})},
		{"dot-dot", "archive/../../x.warc.gz", `segment ".."`, makeZip(t, zipPart{"archive/../../x.warc.gz", zip.Store, warc})},
		{"absolute", "/archive/a.warc.gz", "not a relative path", makeZip(t, zipPart{"/archive/a.warc.gz", zip.Store, warc})},
		{"compressed WARC", "archive/a.warc.gz", "stored compressed", makeZip(t, zipPart{"archive/a.warc.gz", zip.Deflate, warc})},
		{"no datapackage", "", "no datapackage.json", func() []byte {
			var buf bytes.Buffer
			zw := zip.NewWriter(&buf)
			w, _ := zw.CreateHeader(&zip.FileHeader{Name: "archive/a.warc.gz", Method: zip.Store})
			w.Write(warc)
			zw.Close()
			return buf.Bytes()
		}()},
		{"hash", "archive/a.warc.gz", "the file was altered", wrongHash},
		{"altered octets", "archive/good.warc.gz", "checksum", altered},
		{"past the end", "archive/good.warc.gz", "past the end", past},
		{"encrypted", "archive/a.warc.gz", "encrypted", func() []byte {
			b := makeZip(t, zipPart{"archive/a.warc.gz", zip.Store, warc})
			i := bytes.Index(b, []byte("PK\x01\x02"))
			b[i+8] |= 1 // the general purpose flag of the central directory's entry
			return b
		}()},
		{"digest of datapackage", "datapackage-digest.json", "where datapackage.json's is", badDigest},
		{"unlisted", "pages/extra.jsonl", "not listed", func() []byte {
			b := makeZip(t, zipPart{"archive/a.warc.gz", zip.Store, warc})
			var buf bytes.Buffer
			zw := zip.NewWriter(&buf)
			zr, _ := zip.NewReader(bytes.NewReader(b), int64(len(b)))
			for _, f := range zr.File {
				zw.Copy(f)
			}
			w, _ := zw.Create("pages/extra.jsonl")
			w.Write([]byte("{}\n"))
			zw.Close()
			return buf.Bytes()
		}()},
		// A ZIP bomb: 64 MiB of spaces, a few KiB deflated.
		{"bomb", "datapackage.json", "over the limit", makeZip(t, zipPart{"datapackage.json", zip.Deflate, bytes.Repeat([]byte(" "), 64<<20)})},
		{"index bomb", "indexes/index.cdxj", "over the limit", func() []byte {
			var buf bytes.Buffer
			zw := zip.NewWriter(&buf)
			w, _ := zw.CreateHeader(&zip.FileHeader{Name: "indexes/index.cdxj", Method: zip.Deflate, UncompressedSize64: 2 << 30})
			w.Write([]byte("x"))
			w, _ = zw.Create("datapackage.json")
			w.Write([]byte(`{"resources":[]}`))
			zw.Close()
			b := buf.Bytes()
			// the central directory's size of the index, made 2 GiB
			i := bytes.Index(b, []byte("PK\x01\x02"))
			copy(b[i+24:], []byte{0, 0, 0, 0x80})
			return b
		}()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "x.wacz")
			os.WriteFile(p, tc.data, 0o644)
			r, err := Open(p)
			if err == nil {
				r.Close()
				t.Fatalf("opened; want an error naming %q (%s)", tc.entry, tc.msg)
			}
			var we *WACZError
			if !errors.As(err, &we) || we.Entry != tc.entry || !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("%v (%#v), want a WACZError of entry %q saying %q", err, we, tc.entry, tc.msg)
			}
		})
	}
}

// FuzzWACZ: whatever a WACZ file holds, reading it neither panics nor
// reads past it nor inflates more than the limits: a capture it yields
// lies within a stored entry, and reads back or fails with an error.
func FuzzWACZ(f *testing.F) {
	dir := f.TempDir()
	path := filepath.Join(dir, "seed.wacz")
	// A small seed: the minimizer works on each input the fuzzer finds
	// new, and a WACZ's every octet is hashed.
	writeWACZ(f, path, WACZOptions{Options: Options{Dedup: true}}, []*access.Record{
		exchange(f, "http://127.0.0.1/", "http/1.1", "GET / HTTP/1.1\r\n\r\n", titledPage),
		exchange(f, "gopher://localhost/1/", "gopher", "/\r\n", gopherMenu),
		exchange(f, "gopher://localhost/1/again", "gopher", "/again\r\n", gopherMenu)})
	seed, err := os.ReadFile(path)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed)
	f.Add(seed[:len(seed)-30])
	f.Add(makeZip(f, zipPart{"archive/a.warc", zip.Store, []byte("WARC/1.1\r\nWARC-Type: resource\r\nWARC-Target-URI: file:///x\r\nContent-Length: 3\r\n\r\nabc\r\n\r\n")},
		zipPart{"indexes/index.cdxj", zip.Deflate, []byte("file:///x 20200101000000 {\"url\":\"file:///x\",\"length\":\"90\",\"offset\":\"0\",\"filename\":\"a.warc\"}\n")}))
	f.Fuzz(func(t *testing.T, data []byte) {
		r := &Reader{byKey: map[string][]*capture{}, byDigest: map[string]*capture{}, bad: map[*capture]bool{}}
		if err := r.openWACZ("f.wacz", bytes.NewReader(data), int64(len(data))); err != nil {
			var we *WACZError
			if !errors.As(err, &we) {
				t.Fatalf("an error that is no WACZError: %v", err)
			}
			return
		}
		n := 0
		for key, caps := range r.byKey {
			for _, c := range caps {
				if c.off < 0 || c.length <= 0 || c.off+c.length > c.file.size {
					t.Fatalf("%s: a capture at %d+%d in an entry of %d", key, c.off, c.length, c.file.size)
				}
				if n++; n > 50 {
					return
				}
				if rec, err := r.record(c); err == nil {
					rec.Close()
				}
			}
		}
	})
}

// TestWACZRollover: with MaxSize, a WACZ stores each WARC file under
// archive/ and one index of them all, in order (pywb's sort), whose
// lines name each record's own file; every capture reads back.
func TestWACZRollover(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.wacz")
	var recs []*access.Record
	for i := 0; i < 40; i++ {
		recs = append(recs, exchange(t, fmt.Sprintf("gopher://localhost/0/%02d", 39-i), "gopher", "/x\r\n", strings.Repeat(fmt.Sprint(i), 3000)))
	}
	writeWACZ(t, path, WACZOptions{Options: Options{MaxSize: 8 << 10}}, recs)
	wr, entries := CheckWACZ(t, path)
	warcs := 0
	for _, e := range entries {
		if strings.HasPrefix(e.Name, "archive/") {
			warcs++
		}
	}
	if entries != nil && warcs != 7 { // measured: 40 records of about 1 KiB, each with a page drawn for players (derive.go), a file rolled over past 8 KiB
		t.Errorf("%d WARC files stored, want 7: %v", warcs, entries)
	}
	if n := countRecordTypes(wr)["response"]; n != 40 {
		t.Errorf("warcio read %d responses, want 40", n)
	}
	var keys []string
	files := map[string]bool{}
	if err := readWACZIndex(path, func(e entry) { keys = append(keys, e.key+" "+e.ts); files[e.Filename] = true }); err != nil {
		t.Fatal(err)
	}
	if len(keys) != 80 || !slices.IsSorted(keys) || len(files) != warcs && entries != nil { // a capture's line and its page's
		t.Errorf("%d index lines (sorted: %v) naming %d files, want 80 naming %d", len(keys), slices.IsSorted(keys), len(files), warcs)
	}
	rd, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	for _, r := range recs {
		got, err := rd.Lookup(context.Background(), r.URL)
		if err != nil {
			t.Errorf("%s: %v", r.URL, err)
			continue
		}
		if a, b := readAll(t, got.Response), readAll(t, r.Response); a != b {
			t.Errorf("%s: read back %.20q, want %.20q", r.URL, a, b)
		}
		got.Close()
	}
}
