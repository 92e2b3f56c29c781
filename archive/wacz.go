package archive

import (
	"archive/zip"
	"bufio"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"golang.org/x/net/html"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
)

// WACZOptions says how a WACZWriter writes.
type WACZOptions struct {
	// Options is how the WARC files inside are written (MaxSize,
	// Dedup, ...). A DedupIndex may name a WACZ file: its index is read
	// from inside it.
	Options
	// Title is datapackage.json's "title" ("" for none).
	Title string
	// Requires names the WACZ files this one's revisit records refer
	// to (datapackage.json's "relation": {"requires": [...]}, as
	// Browsertrix writes it): the base names of the WACZ files of
	// DedupIndex, when nil.
	Requires []string
}

// waczVersion is datapackage.json's "wacz_version": the version whose
// "profile": "data-package" the players read (docs/archive.md).
const waczVersion = "1.1.1"

// A Page is one line of pages/pages.jsonl (WACZ 1.2 §pages.jsonl): a
// page a person may start browsing at.
type Page struct {
	URL *locator.URL
	// Time is when it was fetched; zero: the time of the latest record
	// of its URL written, else now.
	Time time.Time
	// Title is its title; "": the <title> of the latest HTML response
	// of its URL written, if any.
	Title string
}

// A WACZWriter writes a WACZ file (WACZ 1.2): the WARC files a Writer
// writes, stored in the ZIP under archive/, their CDXJ index under
// indexes/index.cdxj, the pages under pages/pages.jsonl, and
// datapackage.json listing each with its size and SHA-256. It is an
// access.Recorder; its methods are safe for concurrent use.
//
// The WARC files and the pages are written to a temporary directory
// beside the WACZ file while records come; Close copies them into the
// ZIP in one pass, hashing them as they are copied, and removes them.
type WACZWriter struct {
	path string
	opt  WACZOptions
	out  *os.File // the WACZ file, made at CreateWACZ so that its name is ours
	dir  string   // the temporary directory
	w    *Writer

	mu       sync.Mutex
	pages    *os.File
	pagesBuf *bufio.Writer
	npages   int
	recent   map[string]pageInfo // Key of a URL recorded -> its latest record's time and title
	closed   bool
}

type pageInfo struct {
	date  string // its WARC-Date
	title string
}

// maxRecent bounds the URLs whose time and title are kept for AddPage:
// a crawl adds a page soon after it records it.
const maxRecent = 1 << 16

// maxTitle bounds a page's title, and titleScan the octets of an HTML
// page read to find it.
const (
	maxTitle  = 1 << 10
	titleScan = 256 << 10
)

// CreateWACZ starts a WACZ file at path ("crawl.wacz"), which must not
// exist, and its WARC file (archive/crawl.warc.gz) in a temporary
// directory beside it.
func CreateWACZ(path string, opt WACZOptions) (*WACZWriter, error) {
	out, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return nil, &WriteError{File: path, Err: err}
	}
	ww := &WACZWriter{path: path, opt: opt, out: out, recent: map[string]pageInfo{}}
	fail := func(err error) (*WACZWriter, error) {
		out.Close()
		os.Remove(path)
		if ww.dir != "" {
			os.RemoveAll(ww.dir)
		}
		return nil, err
	}
	base := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	if ww.dir, err = os.MkdirTemp(filepath.Dir(path), "."+base+"-*.tmp"); err != nil {
		return fail(&WriteError{File: path, Err: err})
	}
	if ww.pages, err = os.Create(filepath.Join(ww.dir, "pages.jsonl")); err != nil {
		return fail(&WriteError{File: path, Err: err})
	}
	ww.pagesBuf = bufio.NewWriter(ww.pages)
	ww.pagesBuf.WriteString(`{"format": "json-pages-1.0", "id": "pages", "title": "All Pages"}` + "\n")
	if ww.opt.Requires == nil {
		for _, p := range opt.DedupIndex {
			if looksWACZ(p) {
				ww.opt.Requires = append(ww.opt.Requires, filepath.Base(p))
			}
		}
	}
	if ww.w, err = Create(filepath.Join(ww.dir, base+".warc.gz"), opt.Options); err != nil {
		ww.pages.Close()
		return fail(err)
	}
	return ww, nil
}

// Record writes r into the WACZ's WARC file (Writer.Record), and keeps
// its time and, for an HTML page, its title, for AddPage.
func (w *WACZWriter) Record(r *access.Record) error {
	if r == nil || r.Response == nil || r.URL == nil {
		return nil
	}
	date := r.Date
	if date.IsZero() {
		date = time.Now()
		rc := *r
		rc.Date = date // the page's time and the record's are one
		r = &rc
	}
	info := pageInfo{date: warcDate(date)}
	if r.Kind == access.RecordExchange && protocolFamily(r.Protocol) == "http" {
		info.title = htmlTitle(r.Response)
	}
	w.mu.Lock()
	if len(w.recent) >= maxRecent {
		clear(w.recent) // URLs recorded and never added as pages (robots.txt)
	}
	w.recent[Key(r.URL)] = info
	w.mu.Unlock()
	return w.w.Record(r)
}

// htmlTitle returns the text of the <title> of an HTTP response of
// text/html, "" when it has none (or it is not found in the first
// titleScan octets of the body).
func htmlTitle(b block) string {
	head, _, mime, chunked := responseHead("http", b)
	if head < 0 || chunked || mime != "text/html" && mime != "application/xhtml+xml" {
		return ""
	}
	hb := readHeadOctets(b, head)
	if containsLower(hb, "content-encoding:") {
		return "" // compressed: not read here
	}
	z := html.NewTokenizer(io.NewSectionReader(b, head, min(b.Size()-head, titleScan)))
	for {
		switch z.Next() {
		case html.ErrorToken:
			return ""
		case html.StartTagToken:
			name, _ := z.TagName()
			if string(name) == "body" {
				return ""
			}
			if string(name) != "title" {
				continue
			}
			var t []byte
			for z.Next() == html.TextToken && len(t) < maxTitle {
				t = append(t, z.Text()...)
			}
			s := strings.Join(strings.Fields(string(t)), " ")
			if len(s) > maxTitle {
				s = strings.ToValidUTF8(s[:maxTitle], "")
			}
			return s
		}
	}
}

// AddPage adds p to pages/pages.jsonl.
func (w *WACZWriter) AddPage(p Page) error {
	if p.URL == nil {
		return nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return ErrClosed
	}
	key := Key(p.URL)
	info, ok := w.recent[key]
	delete(w.recent, key)
	ts := info.date
	if !p.Time.IsZero() || !ok {
		t := p.Time
		if t.IsZero() {
			t = time.Now()
		}
		ts = warcDate(t)
	}
	title := p.Title
	if title == "" {
		title = info.title
	}
	b, err := pageLine(p.URL, ts, title)
	if err != nil {
		return err
	}
	w.npages++
	if _, err := w.pagesBuf.Write(b); err != nil {
		return &WriteError{File: w.pages.Name(), Err: err}
	}
	return nil
}

// pageLine is the line of pages/pages.jsonl of a page of URL u fetched
// at ts (a WARC-Date), with its newline.
func pageLine(u *locator.URL, ts, title string) ([]byte, error) {
	url := access.Masked(u)
	id := sha1.Sum([]byte(url + " " + ts))
	line := struct {
		ID    string `json:"id"`
		URL   string `json:"url"`
		TS    string `json:"ts"`
		Title string `json:"title,omitempty"`
	}{hex.EncodeToString(id[:8]), url, ts, title}
	b, err := json.Marshal(line)
	return append(b, '\n'), err
}

// Files returns the WARC files written so far, in the temporary
// directory (archive/ in the WACZ once it is closed).
func (w *WACZWriter) Files() []string { return w.w.Files() }

// A pkgResource is one entry of datapackage.json.
type pkgResource struct {
	Name  string `json:"name"`
	Path  string `json:"path"`
	Hash  string `json:"hash"`
	Bytes int64  `json:"bytes"`
}

// Close ends the WARC files, and writes the WACZ: each WARC file stored
// (uncompressed, as WACZ 1.2 §Zip Compression asks, so that a record is
// read by its range), their indexes merged in order into
// indexes/index.cdxj, pages/pages.jsonl, datapackage.json and
// datapackage-digest.json. The temporary directory is removed; when the
// WACZ cannot be written, it is left with the WARC files, and the error
// names it.
func (w *WACZWriter) Close() error {
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		return nil
	}
	w.closed = true
	w.mu.Unlock()
	werr := w.w.Close()
	if err := w.pagesBuf.Flush(); err != nil {
		werr = errors.Join(werr, &WriteError{File: w.pages.Name(), Err: err})
	}
	w.pages.Close()
	if err := w.writeZip(); err != nil {
		w.out.Close()
		os.Remove(w.path)
		return errors.Join(werr, fmt.Errorf("archive: writing %s: %w (the WARC files are kept in %s)", w.path, err, w.dir))
	}
	if err := w.out.Close(); err != nil {
		return errors.Join(werr, &WriteError{File: w.path, Err: err})
	}
	os.RemoveAll(w.dir)
	return werr
}

// hashWriter counts and hashes what is written through it.
type hashWriter struct {
	w io.Writer
	h hash.Hash
	n int64
}

func (h *hashWriter) Write(p []byte) (int, error) {
	n, err := h.w.Write(p)
	h.h.Write(p[:n])
	h.n += int64(n)
	return n, err
}

func (h *hashWriter) pkgResource(name string) pkgResource {
	return pkgResource{Name: filepath.Base(name), Path: name, Hash: "sha256:" + hex.EncodeToString(h.h.Sum(nil)), Bytes: h.n}
}

func (w *WACZWriter) writeZip() error {
	files := w.w.Files()
	index := func(dst io.Writer) error { return mergeIndexes(dst, files) }
	return zipWACZ(w.out, w.opt, files, index, w.pages.Name())
}

// zipWACZ writes to out the WACZ of the WARC files files (stored, as
// archive/BASE), the index index writes (indexes/index.cdxj), the file
// pages (pages/pages.jsonl) and the datapackage files listing them.
func zipWACZ(out io.Writer, opt WACZOptions, files []string, index func(io.Writer) error, pages string) error {
	bw := bufio.NewWriterSize(out, 1<<20)
	zw := zip.NewWriter(bw)
	now := time.Now().UTC()
	var res []pkgResource
	entry := func(name string, method uint16, src func(io.Writer) error) error {
		zf, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: method, Modified: now})
		if err != nil {
			return err
		}
		hw := &hashWriter{w: zf, h: sha256.New()}
		if err := src(hw); err != nil {
			return err
		}
		res = append(res, hw.pkgResource(name))
		return nil
	}
	copyFile := func(path string) func(io.Writer) error {
		return func(dst io.Writer) error {
			f, err := os.Open(path)
			if err != nil {
				return err
			}
			defer f.Close()
			_, err = io.Copy(dst, f)
			return err
		}
	}
	for _, f := range files {
		if err := entry("archive/"+filepath.Base(f), zip.Store, copyFile(f)); err != nil {
			return err
		}
	}
	if err := entry("indexes/index.cdxj", zip.Deflate, index); err != nil {
		return err
	}
	if err := entry("pages/pages.jsonl", zip.Deflate, copyFile(pages)); err != nil {
		return err
	}
	software := opt.Software
	if software == "" {
		software = "locator"
	}
	pkg := struct {
		Profile     string        `json:"profile"`
		WACZVersion string        `json:"wacz_version"`
		Title       string        `json:"title,omitempty"`
		Created     string        `json:"created"`
		Modified    string        `json:"modified"`
		Software    string        `json:"software"`
		Resources   []pkgResource `json:"resources"`
		Relation    *struct {
			Requires []string `json:"requires"`
		} `json:"relation,omitempty"`
	}{Profile: "data-package", WACZVersion: waczVersion, Title: opt.Title,
		Created: now.Format(time.RFC3339), Modified: now.Format(time.RFC3339), Software: software, Resources: res}
	if len(opt.Requires) > 0 {
		pkg.Relation = &struct {
			Requires []string `json:"requires"`
		}{opt.Requires}
	}
	pkgJSON, err := json.MarshalIndent(pkg, "", "  ")
	if err != nil {
		return err
	}
	pkgJSON = append(pkgJSON, '\n')
	if err := entry("datapackage.json", zip.Deflate, func(dst io.Writer) error { _, err := dst.Write(pkgJSON); return err }); err != nil {
		return err
	}
	sum := sha256.Sum256(pkgJSON)
	digest, _ := json.MarshalIndent(map[string]string{"path": "datapackage.json", "hash": "sha256:" + hex.EncodeToString(sum[:])}, "", "  ")
	if err := entry("datapackage-digest.json", zip.Deflate, func(dst io.Writer) error { _, err := dst.Write(append(digest, '\n')); return err }); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	return bw.Flush() // not synced: the WARC files a Writer writes are not either
}

// mergeIndexes writes the lines of the sorted CDXJ indexes of files
// (FILE.cdxj) to dst in order, as one sorted index, a line of each file
// in memory at a time.
func mergeIndexes(dst io.Writer, files []string) error {
	type src struct {
		s    *bufio.Scanner
		line []byte
	}
	var srcs []*src
	for _, f := range files {
		fd, err := os.Open(f + ".cdxj")
		if err != nil {
			return err
		}
		defer fd.Close()
		s := bufio.NewScanner(fd)
		s.Buffer(make([]byte, 64<<10), maxHeader)
		x := &src{s: s}
		if s.Scan() {
			x.line = s.Bytes()
			srcs = append(srcs, x)
		} else if err := s.Err(); err != nil {
			return err
		}
	}
	for len(srcs) > 0 {
		m := 0
		for i := range srcs {
			if compareLines(srcs[i].line, srcs[m].line) < 0 {
				m = i
			}
		}
		if _, err := dst.Write(srcs[m].line); err != nil {
			return err
		}
		if _, err := dst.Write([]byte{'\n'}); err != nil {
			return err
		}
		if srcs[m].s.Scan() {
			srcs[m].line = srcs[m].s.Bytes()
			continue
		}
		if err := srcs[m].s.Err(); err != nil {
			return err
		}
		srcs = append(srcs[:m], srcs[m+1:]...)
	}
	return nil
}
