// Package wayback answers the URL layout that pywb and the Wayback
// Machine give a collection of web archives, over the captures of
// WARC (and WACZ) files of every scheme:
//
//   - /COLL/cdx?url=U — the pywb CDX server API (matchType, from, to,
//     limit, sort, closest, output, fl, filter);
//   - /COLL/TIMESTAMP/U — a Memento (RFC 7089 §2.1.1, §2.2), the capture
//     closest to TIMESTAMP, redirected to its exact timestamp when
//     TIMESTAMP is not one (pywb's redirect_to_exact);
//   - /COLL/U — a TimeGate (RFC 7089 §4.2.1, 302-style negotiation);
//   - /COLL/timemap/link/U — a TimeMap (RFC 7089 §5);
//   - /COLL/*/U — a page listing every capture of U, for a person.
//
// Its Index is the merged, sorted CDXJ of the files (pywb's format: key,
// timestamp, JSON), kept in a temporary file and searched by binary
// search with ReadAt: in memory only the offset of each line (8 octets a
// capture), so that 1,000,000 captures cost 8 MB. The key is
// archive.Key's: a SURT for http and https, the normalized URL for every
// other scheme, whose path stays case-sensitive.
package wayback

import (
	"bufio"
	"bytes"
	"container/heap"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/rfc1738/locator/archive"
)

// maxLine bounds a CDXJ line's octets.
const maxLine = 64 << 10

// A Source is one archive file's CDXJ index, sorted (pywb's CDXJ:
// "key timestamp {json}" lines; lines beginning with "!" are ignored).
type Source struct {
	Name string // for errors
	// Open returns the index's lines. It is called once to check them
	// and once to merge them (or, when Fallback is set and they do not
	// check, Fallback is used instead).
	Open func() (io.ReadCloser, error)
	// Fallback, when not nil, makes the index anew, sorted, when Open's
	// is absent, unsorted or does not read.
	Fallback func() (io.ReadCloser, error)
}

// FileSource is the index of the archive file at path: path+".cdxj"
// when it reads whole and sorted (as archive.Writer keeps it), else the
// one archive.WriteIndex makes of the file, which reads it record by
// record. A format archive.WriteIndex reads (a WACZ, whose index is
// inside it) is a FileSource as a WARC is.
func FileSource(path string) Source {
	return Source{
		Name: path,
		Open: func() (io.ReadCloser, error) { return os.Open(path + ".cdxj") },
		Fallback: func() (io.ReadCloser, error) {
			tmp, err := os.CreateTemp("", "locator-cdxj-*")
			if err != nil {
				return nil, err
			}
			os.Remove(tmp.Name()) // unlinked: gone with the descriptor
			probs, err := archive.WriteIndex(tmp, path)
			if err != nil {
				tmp.Close()
				return nil, err
			}
			// A file of which no record reads (not a WARC, or a format
			// WriteIndex does not read) is an error, not an empty index;
			// the problems of a file of which some records read are
			// archive.Open's to report.
			if st, err := tmp.Stat(); err == nil && st.Size() == 0 && len(probs) > 0 {
				tmp.Close()
				return nil, fmt.Errorf("wayback: %s: no capture could be read: %w", path, probs[0])
			}
			if _, err := tmp.Seek(0, io.SeekStart); err != nil {
				tmp.Close()
				return nil, err
			}
			return tmp, nil
		},
	}
}

// An IndexError says a line of a source's index cannot be used.
type IndexError struct {
	Source string
	Line   int
	Msg    string
}

func (e *IndexError) Error() string {
	return fmt.Sprintf("wayback: %s.cdxj:%d: %s", e.Source, e.Line, e.Msg)
}

// An Index is the merged, sorted CDXJ of several sources. Its methods
// are safe for concurrent use.
type Index struct {
	f    *os.File
	offs []int64 // where each line starts; offs[Len()] is the file's size
	// samples holds every blockLines-th line, so that a search reads
	// one block of the file.
	samples []string
}

// blockLines is the lines of a block: what one ReadAt reads (about
// 16 KiB of pywb's lines) and the spacing of Index.samples.
const blockLines = 64

// Open merges the sources' indexes into an Index. A source whose index
// does not read, or is not sorted, is read from its Fallback; without
// one, it is an *IndexError.
func Open(sources ...Source) (*Index, error) {
	var rcs []io.ReadCloser
	closeAll := func() {
		for _, rc := range rcs {
			rc.Close()
		}
	}
	for _, s := range sources {
		rc, err := openChecked(s)
		if err != nil {
			closeAll()
			return nil, err
		}
		rcs = append(rcs, rc)
	}
	defer closeAll()
	f, err := os.CreateTemp("", "locator-wayback-*")
	if err != nil {
		return nil, err
	}
	os.Remove(f.Name()) // unlinked at once: nothing is left behind
	ix := &Index{f: f}
	if err := ix.merge(sources, rcs); err != nil {
		f.Close()
		return nil, err
	}
	return ix, nil
}

// openChecked opens s's index once it has checked that every line reads
// and the lines are sorted; else its Fallback's.
func openChecked(s Source) (io.ReadCloser, error) {
	err := check(s.Name, s.Open)
	if err == nil {
		return s.Open()
	}
	if s.Fallback == nil {
		return nil, err
	}
	return s.Fallback()
}

func check(name string, open func() (io.ReadCloser, error)) error {
	rc, err := open()
	if err != nil {
		return err
	}
	defer rc.Close()
	c := newCursor(name, rc)
	var prev []byte
	for {
		line, err := c.next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if prev != nil && bytes.Compare(prev, line) > 0 {
			return &IndexError{Source: name, Line: c.n, Msg: "the lines are not sorted"}
		}
		prev = append(prev[:0], line...)
	}
}

// A cursor reads the lines of one source that are captures.
type cursor struct {
	name string
	br   *bufio.Reader
	n    int
	line []byte
}

// derivedField marks the CDXJ line of a page archive's Writer draws
// from a capture for the archive world's players.
var derivedField = []byte(`,"derived":"`)

func newCursor(name string, r io.Reader) *cursor {
	return &cursor{name: name, br: bufio.NewReaderSize(r, 64<<10)}
}

// next returns the next capture line, without its newline, valid until
// the following call.
func (c *cursor) next() ([]byte, error) {
	for {
		line, err := c.br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			return nil, &IndexError{Source: c.name, Line: c.n + 1, Msg: fmt.Sprintf("a line longer than %d octets", maxLine)}
		}
		if err != nil && (err != io.EOF || len(line) == 0) {
			if err == io.EOF {
				return nil, io.EOF
			}
			return nil, &IndexError{Source: c.name, Line: c.n + 1, Msg: err.Error()}
		}
		c.n++
		line = bytes.TrimRight(line, "\r\n")
		// A page drawn for players from a capture (archive's "derived"
		// line, docs/archive.md) is not a capture of its own.
		if len(line) == 0 || line[0] == '!' || bytes.Contains(line, derivedField) {
			continue
		}
		if msg := lineProblem(line); msg != "" {
			return nil, &IndexError{Source: c.name, Line: c.n, Msg: msg}
		}
		return line, nil
	}
}

// lineProblem says what is wrong with a CDXJ line's form, or "": a key,
// a space, a timestamp of 1 to 14 digits, a space, a JSON object.
func lineProblem(line []byte) string {
	key, rest, ok := bytes.Cut(line, []byte(" "))
	if !ok || len(key) == 0 {
		return "no key"
	}
	ts, js, ok := bytes.Cut(rest, []byte(" "))
	if !ok || len(ts) == 0 || len(ts) > 14 || len(bytes.Trim(ts, "0123456789")) != 0 {
		return "no timestamp of 1 to 14 digits after the key"
	}
	if len(js) < 2 || js[0] != '{' || js[len(js)-1] != '}' {
		return "no JSON object after the timestamp"
	}
	return ""
}

type cursorHeap []*cursor

func (h cursorHeap) Len() int           { return len(h) }
func (h cursorHeap) Less(i, j int) bool { return bytes.Compare(h[i].line, h[j].line) < 0 }
func (h cursorHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *cursorHeap) Push(x any)        { *h = append(*h, x.(*cursor)) }
func (h *cursorHeap) Pop() any {
	old := *h
	c := old[len(old)-1]
	*h = old[:len(old)-1]
	return c
}

// merge writes the sources' lines, merged in order, to ix.f.
func (ix *Index) merge(sources []Source, rcs []io.ReadCloser) error {
	h := &cursorHeap{}
	for i, rc := range rcs {
		c := newCursor(sources[i].Name, rc)
		line, err := c.next()
		if err == io.EOF {
			continue
		}
		if err != nil {
			return err
		}
		c.line = append([]byte(nil), line...)
		heap.Push(h, c)
	}
	bw := bufio.NewWriterSize(ix.f, 256<<10)
	var off int64
	for h.Len() > 0 {
		c := (*h)[0]
		if len(ix.offs)%blockLines == 0 {
			ix.samples = append(ix.samples, string(c.line))
		}
		ix.offs = append(ix.offs, off)
		bw.Write(c.line)
		if err := bw.WriteByte('\n'); err != nil {
			return err
		}
		off += int64(len(c.line)) + 1
		line, err := c.next()
		switch {
		case err == io.EOF:
			heap.Pop(h)
		case err != nil:
			return err
		default:
			if bytes.Compare(line, c.line) < 0 {
				return &IndexError{Source: c.name, Line: c.n, Msg: "the lines are not sorted"}
			}
			c.line = append(c.line[:0], line...)
			heap.Fix(h, 0)
		}
	}
	ix.offs = append(ix.offs, off)
	return bw.Flush()
}

// Len returns the number of captures.
func (ix *Index) Len() int { return len(ix.offs) - 1 }

// Close releases the index's temporary file.
func (ix *Index) Close() error { return ix.f.Close() }

// line returns line i, without its newline.
func (ix *Index) line(i int) ([]byte, error) {
	b := make([]byte, ix.offs[i+1]-ix.offs[i])
	if _, err := ix.f.ReadAt(b, ix.offs[i]); err != nil {
		return nil, fmt.Errorf("wayback: reading the index: %w", err)
	}
	return b[:len(b)-1], nil
}

// block reads lines [lo, hi) with one ReadAt, each without its newline.
func (ix *Index) block(lo, hi int) ([][]byte, error) {
	b := make([]byte, ix.offs[hi]-ix.offs[lo])
	if _, err := ix.f.ReadAt(b, ix.offs[lo]); err != nil {
		return nil, fmt.Errorf("wayback: reading the index: %w", err)
	}
	lines := make([][]byte, 0, hi-lo)
	for i := lo; i < hi; i++ {
		s, e := ix.offs[i]-ix.offs[lo], ix.offs[i+1]-ix.offs[lo]
		lines = append(lines, b[s:e-1:e-1])
	}
	return lines, nil
}

// search returns the first line that compares at or above target (the
// lines are sorted): the samples say which block, one read finds it.
func (ix *Index) search(target string) (int, error) {
	k := sort.Search(len(ix.samples), func(i int) bool { return ix.samples[i] >= target })
	if k == 0 {
		return 0, nil // line 0 is at or above target, or there is none
	}
	// samples[k-1] < target <= samples[k]: the line is in the block
	// after line (k-1)*blockLines, or is line k*blockLines.
	lo, hi := (k-1)*blockLines+1, min(k*blockLines, ix.Len())
	lines, err := ix.block(lo, hi)
	if err != nil {
		return 0, err
	}
	j := sort.Search(len(lines), func(i int) bool { return string(lines[i]) >= target })
	return lo + j, nil
}

// A blockReader reads lines a block at a time (an iteration's).
type blockReader struct {
	ix     *Index
	lo, hi int
	lines  [][]byte
}

// line returns line i, reading its block when it is not the one held.
func (br *blockReader) line(i int) ([]byte, error) {
	if i < br.lo || i >= br.hi {
		lo := i / blockLines * blockLines
		hi := min(lo+blockLines, br.ix.Len())
		lines, err := br.ix.block(lo, hi)
		if err != nil {
			return nil, err
		}
		br.lo, br.hi, br.lines = lo, hi, lines
	}
	return br.lines[i-br.lo], nil
}

// keyRange returns the lines whose key begins with prefix ([lo, hi)).
// A whole key is given with its space: "com,example)/ ".
func (ix *Index) keyRange(prefix string) (lo, hi int, err error) {
	if lo, err = ix.search(prefix); err != nil {
		return
	}
	hi, err = ix.search(upper(prefix))
	return
}

// upper is the least string above every string that begins with p.
func upper(p string) string {
	b := []byte(p)
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] < 0xff {
			b[i]++
			return string(b[:i+1])
		}
	}
	return strings.Repeat("\xff", len(p)+1)
}
