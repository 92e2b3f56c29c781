package archive

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// WriteIndex writes to dst the CDXJ index of the WARC file at path (of
// a WACZ file, the index it holds, once its hashes are checked), as
// the Writer writes FILE.cdxj beside a file it makes (one line per
// response, resource and revisit record, sorted), for a file that has
// none: a WARC of another tool, or one whose index was lost. Each line
// has the record's key, timestamp, url, mime and status (of the
// protocol's header: an HTTP response's status code and Content-Type, a
// resource's Content-Type, "warc/revisit" for a revisit), digest,
// length, offset and filename (path's base name). A record that does
// not read is left out and returned among the problems, as Open
// reports it; the error is that of opening or writing.
func WriteIndex(dst io.Writer, path string) (problems []error, err error) {
	if looksWACZ(path) {
		return nil, writeWACZIndex(dst, path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	wf := &warcFile{path: path, f: f, size: st.Size()}
	base := filepath.Base(path)
	var lines [][]byte
	r := &Reader{byKey: map[string][]*capture{}, byDigest: map[string]*capture{}, bad: map[*capture]bool{}}
	r.onRecord = func(h header, head []byte, key string, off, length int64) {
		e := entry{key: key, entryJSON: entryJSON{URL: strings.Trim(h.get("WARC-Target-URI"), "<>"),
			Digest: h.get("WARC-Payload-Digest"), Length: jsonInt(length), Offset: jsonInt(off), Filename: base,
			Date: h.get("WARC-Date"), Derived: h.get(derivedFrom)}}
		t, _ := parseDate(e.Date)
		e.ts = cdxTimestamp(t)
		switch h.get("WARC-Type") {
		case "resource":
			e.Mime = mediaType(h.get("Content-Type"))
		case "revisit":
			e.Mime = "warc/revisit"
			_, e.Status, _, _ = responseHead(blockFamily(h), bytesBlock(head))
		default:
			family := blockFamily(h)
			_, e.Status, e.Mime, _ = responseHead(family, bytesBlock(head))
			if e.Mime == "" && family != "" {
				e.Mime = "application/" + family // as the Writer names it
			}
		}
		lines = append(lines, e.line())
		// The index is what is kept, not the captures.
		clear(r.byKey)
		clear(r.byDigest)
	}
	r.scan(wf, 0)
	slices.SortFunc(lines, compareLines)
	bw := bufio.NewWriter(dst)
	for _, l := range lines {
		if _, err := bw.Write(l); err != nil {
			return r.problems, err
		}
	}
	return r.problems, bw.Flush()
}

// writeWACZIndex writes the index a WACZ file holds (its lines'
// filenames relative to its archive/ folder), in the Writer's order.
func writeWACZIndex(dst io.Writer, path string) error {
	var lines [][]byte
	if err := readWACZIndex(path, func(e entry) { lines = append(lines, e.line()) }); err != nil {
		return err
	}
	slices.SortFunc(lines, compareLines)
	bw := bufio.NewWriter(dst)
	for _, l := range lines {
		if _, err := bw.Write(l); err != nil {
			return err
		}
	}
	return bw.Flush()
}
