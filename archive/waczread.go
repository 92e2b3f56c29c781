package archive

import (
	"archive/zip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path"
	"strings"
)

// What a WACZ reader reads into memory or through is bounded: a ZIP of a
// small size may claim (or inflate to) gigabytes.
const (
	// maxDatapackage bounds datapackage.json and datapackage-digest.json.
	maxDatapackage = 16 << 20
	// maxWACZIndex bounds a CDXJ index inside a WACZ (about 3 million
	// captures), whose lines are kept in memory.
	maxWACZIndex = 1 << 30
	// maxWACZPages bounds pages/*.jsonl, which is read through to check
	// its hash.
	maxWACZPages = 1 << 30
	// maxWACZEntries bounds the entries of a WACZ's central directory.
	maxWACZEntries = 1 << 20
)

// A WACZError says a WACZ file cannot be read: it is not well formed, or
// an entry's octets are not those its datapackage.json says (WACZ 1.2
// §datapackage.json), and nothing of it is served.
type WACZError struct {
	File  string
	Entry string // the ZIP entry, "" for the file as a whole
	Msg   string
}

func (e *WACZError) Error() string {
	if e.Entry == "" {
		return "archive: " + e.File + ": " + e.Msg
	}
	return fmt.Sprintf("archive: %s: entry %q: %s", e.File, e.Entry, e.Msg)
}

// isWACZ tells a WACZ from a WARC file: by its name (NAME.wacz, or
// NAME.warc, NAME.warc.gz for a WARC file, read as one whatever it
// holds), else by the ZIP local-file-header magic a WARC file (gzip or
// "WARC/") cannot start with.
func isWACZ(name string, f io.ReaderAt) bool {
	lower := strings.ToLower(name)
	if strings.HasSuffix(lower, ".wacz") {
		return true
	}
	if strings.HasSuffix(lower, ".warc") || strings.HasSuffix(lower, ".warc.gz") {
		return false
	}
	var magic [4]byte
	n, _ := f.ReadAt(magic[:], 0)
	return n == 4 && string(magic[:]) == "PK\x03\x04"
}

// A wacz is a WACZ file checked: its WARC files, as sections of the ZIP
// file, and its CDXJ indexes.
type wacz struct {
	path    string
	warcs   map[string]*warcFile // by name in archive/ ("data.warc.gz")
	order   []string             // the names of warcs, in the ZIP's order
	indexes []*zip.File          // indexes/*.cdxj and *.cdx, uncompressed CDXJ
}

type datapackage struct {
	Profile   string `json:"profile"`
	Resources []struct {
		Path  string `json:"path"`
		Hash  string `json:"hash"`
		Bytes *int64 `json:"bytes"`
	} `json:"resources"`
}

// readWACZ checks the WACZ file f (size octets) and returns what it
// holds. The checks:
//   - the ZIP's central directory reads, and every entry's octets lie
//     within the file;
//   - every entry is under archive/, indexes/ or pages/, or is
//     datapackage.json or datapackage-digest.json (WACZ 1.2
//     §Directories and Files); no name holds "..", a backslash or a
//     leading "/", and none is repeated;
//   - a WARC file (archive/) is stored, not compressed (§Zip
//     Compression: it is read by ranges);
//   - datapackage.json is present and lists every entry but itself and
//     its digest, each with the "sha256:" hash and size of its octets
//     (checked by reading each through, the WARC files included), and
//     datapackage-digest.json, when present, holds datapackage.json's
//     hash;
//   - datapackage.json, the indexes and the pages are read up to
//     constant sizes (a ZIP bomb is refused by its sizes, not inflated).
func readWACZ(name string, f io.ReaderAt, size int64) (*wacz, error) {
	fail := func(entry, format string, a ...any) error {
		return &WACZError{File: name, Entry: entry, Msg: fmt.Sprintf(format, a...)}
	}
	zr, err := zip.NewReader(f, size)
	if err != nil {
		return nil, fail("", "not a ZIP file: %v", err)
	}
	if len(zr.File) > maxWACZEntries {
		return nil, fail("", "%d entries, over the limit of %d", len(zr.File), maxWACZEntries)
	}
	w := &wacz{path: name, warcs: map[string]*warcFile{}}
	entries := map[string]*zip.File{}
	var pkg, pkgDigest *zip.File
	for _, zf := range zr.File {
		n := zf.Name
		if n == "" || strings.HasPrefix(n, "/") || strings.Contains(n, "\\") || strings.Contains(n, "\x00") {
			return nil, fail(n, "not a relative path")
		}
		for _, seg := range strings.Split(strings.TrimSuffix(n, "/"), "/") {
			if seg == ".." || seg == "." || seg == "" {
				return nil, fail(n, "a path segment %q", seg)
			}
		}
		if _, dup := entries[n]; dup {
			return nil, fail(n, "the name is repeated")
		}
		entries[n] = zf
		off, err := zf.DataOffset()
		if err != nil {
			return nil, fail(n, "its local header does not read: %v", err)
		}
		if zf.CompressedSize64 > uint64(size) || off < 0 || off > size-int64(zf.CompressedSize64) {
			return nil, fail(n, "its %d octets at offset %d lie past the end of the file (%d octets)", zf.CompressedSize64, off, size)
		}
		if zf.Flags&1 != 0 {
			return nil, fail(n, "encrypted")
		}
		dir := strings.HasSuffix(n, "/")
		top, rest, _ := strings.Cut(n, "/")
		switch {
		case n == "datapackage.json":
			pkg = zf
		case n == "datapackage-digest.json":
			pkgDigest = zf
		case top == "archive" && (dir && rest == ""):
		case top == "indexes" && (dir && rest == ""):
		case top == "pages" && (dir && rest == ""):
		case dir:
			return nil, fail(n, "a directory other than archive/, indexes/ and pages/")
		case top == "archive" && rest != "":
			if zf.Method != zip.Store || zf.CompressedSize64 != zf.UncompressedSize64 {
				return nil, fail(n, "a WARC file stored compressed (method %d): WACZ 1.2 §Zip Compression wants it stored, to be read by ranges", zf.Method)
			}
			w.warcs[rest] = &warcFile{path: name + "#" + n, f: io.NewSectionReader(f, off, int64(zf.UncompressedSize64)), size: int64(zf.UncompressedSize64)}
			w.order = append(w.order, rest)
		case top == "indexes" && rest != "":
			if ext := path.Ext(n); ext == ".cdxj" || ext == ".cdx" {
				if zf.UncompressedSize64 > maxWACZIndex {
					return nil, fail(n, "an index of %d octets, over the limit of %d", zf.UncompressedSize64, maxWACZIndex)
				}
				w.indexes = append(w.indexes, zf)
			}
		case top == "pages" && rest != "":
			if zf.UncompressedSize64 > maxWACZPages {
				return nil, fail(n, "%d octets, over the limit of %d", zf.UncompressedSize64, maxWACZPages)
			}
		default:
			return nil, fail(n, "an entry outside archive/, indexes/ and pages/")
		}
	}
	if pkg == nil {
		return nil, fail("", "no datapackage.json (WACZ 1.2 §datapackage.json: it MUST be present)")
	}
	pkgOctets, err := readEntry(pkg, maxDatapackage)
	if err != nil {
		return nil, fail(pkg.Name, "%v", err)
	}
	if pkgDigest != nil {
		b, err := readEntry(pkgDigest, maxDatapackage)
		if err != nil {
			return nil, fail(pkgDigest.Name, "%v", err)
		}
		var d struct{ Path, Hash string }
		if err := json.Unmarshal(b, &d); err != nil {
			return nil, fail(pkgDigest.Name, "bad JSON: %v", err)
		}
		sum := sha256.Sum256(pkgOctets)
		if d.Path != "datapackage.json" || !strings.EqualFold(d.Hash, "sha256:"+hex.EncodeToString(sum[:])) {
			return nil, fail(pkgDigest.Name, "names %q with hash %q, where datapackage.json's is sha256:%x", d.Path, d.Hash, sum)
		}
	}
	var dp datapackage
	if err := json.Unmarshal(pkgOctets, &dp); err != nil {
		return nil, fail(pkg.Name, "bad JSON: %v", err)
	}
	listed := map[string]bool{}
	for _, res := range dp.Resources {
		zf := entries[res.Path]
		if zf == nil || strings.HasSuffix(res.Path, "/") {
			return nil, fail(pkg.Name, "lists %q, which the ZIP does not hold", res.Path)
		}
		if listed[res.Path] {
			return nil, fail(pkg.Name, "lists %q twice", res.Path)
		}
		listed[res.Path] = true
		want, ok := strings.CutPrefix(strings.ToLower(res.Hash), "sha256:")
		if !ok || len(want) != 64 {
			return nil, fail(res.Path, "datapackage.json gives it the hash %q, not a sha256: one", res.Hash)
		}
		if res.Bytes != nil && uint64(*res.Bytes) != zf.UncompressedSize64 {
			return nil, fail(res.Path, "%d octets, where datapackage.json says %d", zf.UncompressedSize64, *res.Bytes)
		}
		got, err := entryHash(zf)
		if err != nil {
			return nil, fail(res.Path, "%v", err)
		}
		if got != want {
			return nil, fail(res.Path, "its octets' hash is sha256:%s, where datapackage.json says sha256:%s: the file was altered or damaged", got, want)
		}
	}
	for n, zf := range entries {
		if !listed[n] && n != "datapackage.json" && n != "datapackage-digest.json" && !strings.HasSuffix(n, "/") {
			return nil, fail(zf.Name, "not listed in datapackage.json, so its octets cannot be checked")
		}
	}
	return w, nil
}

// readEntry reads zf whole, refusing one of more than max octets, by
// its header's size and by what it inflates to.
func readEntry(zf *zip.File, max int64) ([]byte, error) {
	if zf.UncompressedSize64 > uint64(max) {
		return nil, fmt.Errorf("%d octets, over the limit of %d", zf.UncompressedSize64, max)
	}
	rc, err := zf.Open()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	b, err := io.ReadAll(io.LimitReader(rc, max+1))
	if err != nil {
		return nil, fmt.Errorf("does not read: %v", err)
	}
	if int64(len(b)) > max {
		return nil, fmt.Errorf("inflates past the limit of %d octets", max)
	}
	return b, nil
}

// entryHash is the hex SHA-256 of zf's octets, read through (no more
// than its header says: archive/zip fails a longer or shorter one, and
// one whose CRC-32 is wrong).
func entryHash(zf *zip.File) (string, error) {
	rc, err := zf.Open()
	if err != nil {
		return "", err
	}
	defer rc.Close()
	h := sha256.New()
	if _, err := io.Copy(h, io.LimitReader(rc, int64(min(zf.UncompressedSize64, 1<<62))+1)); err != nil {
		return "", fmt.Errorf("does not read: %v", err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// eachEntry calls fn with each line of w's CDXJ indexes and the WARC
// file it names (a name in archive/). A line that does not read, or
// names a file the WACZ does not hold, is an *IndexError.
func (w *wacz) eachEntry(fn func(entry, *warcFile)) error {
	for _, zf := range w.indexes {
		rc, err := zf.Open()
		if err != nil {
			return &IndexError{File: w.path + "#" + zf.Name, Line: 0, Msg: err.Error()}
		}
		name := w.path + "#" + zf.Name
		var bad error
		n := 0
		err = scanIndex(name, io.LimitReader(rc, maxWACZIndex), func(e entry) {
			n++
			if bad != nil {
				return
			}
			wf := w.warcs[strings.TrimPrefix(e.Filename, "archive/")]
			if wf == nil {
				bad = &IndexError{File: name, Line: n, Msg: fmt.Sprintf("names the file %q, which is not in archive/", e.Filename)}
				return
			}
			fn(e, wf)
		})
		rc.Close()
		if err == nil {
			err = bad
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// openWACZ adds the captures of the WACZ file f to r: through its CDXJ
// indexes when they read whole and name only its WARC files, else by
// reading its WARC files through.
func (r *Reader) openWACZ(name string, f io.ReaderAt, size int64) error {
	w, err := readWACZ(name, f, size)
	if err != nil {
		return err
	}
	for _, n := range w.order {
		r.files = append(r.files, w.warcs[n])
	}
	// The captures are added once the indexes read whole: else the
	// files are read through instead.
	type keyed struct {
		key string
		c   *capture
	}
	var caps []keyed
	end := map[*warcFile]int64{}
	var probs []error
	err = w.eachEntry(func(e entry, wf *warcFile) {
		c := &capture{file: wf, off: int64(e.Offset), length: int64(e.Length), url: e.URL, t: e.time(),
			revisit: e.Mime == "warc/revisit", digest: e.Digest}
		if c.off+c.length > wf.size || c.length <= 0 {
			probs = append(probs, &FormatError{File: wf.path, Offset: c.off, Msg: "the record the index names is cut off by the end of the file"})
			end[wf] = wf.size
			return
		}
		end[wf] = max(end[wf], c.off+c.length)
		if e.Derived != "" { // a page drawn for players, not a capture: never replayed (derive.go)
			return
		}
		caps = append(caps, keyed{e.key, c})
	})
	if err == nil && len(w.indexes) > 0 {
		for _, k := range caps {
			r.add(k.key, k.c)
		}
		r.problems = append(r.problems, probs...)
		for _, n := range w.order {
			if wf := w.warcs[n]; end[wf] < wf.size {
				r.scan(wf, end[wf])
			}
		}
		return nil
	}
	if err != nil {
		r.problems = append(r.problems, err)
	}
	for _, n := range w.order {
		r.scan(w.warcs[n], 0)
	}
	return nil
}

// readWACZIndex calls fn with each line of the CDXJ indexes of the WACZ
// file at path, once the WACZ is checked (readWACZ).
func readWACZIndex(path string, fn func(entry)) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	w, err := readWACZ(path, f, st.Size())
	if err != nil {
		return err
	}
	if len(w.indexes) == 0 {
		return &WACZError{File: path, Msg: "no CDXJ index in indexes/"}
	}
	return w.eachEntry(func(e entry, _ *warcFile) { fn(e) })
}

// looksWACZ reports whether the file at path is a WACZ file (isWACZ).
func looksWACZ(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	return isWACZ(path, f)
}
