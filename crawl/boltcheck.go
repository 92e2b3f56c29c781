package crawl

// A frontier file is read by bbolt through a memory map: a file cut
// short faults (SIGBUS) where a page is missing, and a page zeroed or
// overwritten makes bbolt panic. So, before bbolt opens a file that is
// there, checkBoltFile reads it with plain reads and checks what bbolt
// would touch: its meta pages (magic, version, checksum: bbolt's own
// rules), its size against the pages the meta page says it has, and
// every page reachable from the root (its type, and that each page it
// names is within the file, named once). A file that fails is a
// *DamagedError.

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"os"

	"github.com/rfc1738/locator/internal/atomicfile"
)

// A DamagedError says a frontier file is not one bbolt wrote whole (cut
// short, zeroed, overwritten), at which page, and why; a crawl cannot go
// on from it.
type DamagedError struct {
	Path   string
	Page   int64 // the page, -1 for the file as a whole
	Reason string
}

func (e *DamagedError) Error() string {
	if e.Page < 0 {
		return "crawl: frontier " + e.Path + " is damaged: " + e.Reason
	}
	return fmt.Sprintf("crawl: frontier %s is damaged: page %d: %s", e.Path, e.Page, e.Reason)
}

// The layout of a bbolt file (go.etcd.io/bbolt, file format version 2).
const (
	boltMagic       = 0xED0CDAED
	boltVersion     = 2
	boltPageHeader  = 16 // id u64, flags u16, count u16, overflow u32
	boltElement     = 16 // a branch or leaf element
	boltMetaSize    = 64 // magic .. checksum
	boltBranchPage  = 0x01
	boltLeafPage    = 0x02
	boltMetaPage    = 0x04
	boltFreePage    = 0x10
	boltBucketLeaf  = 0x01 // a leaf element that is a bucket
	boltNoFreelist  = ^uint64(0)
	boltMaxDepth    = 64       // pages from the root to a leaf, buckets nested
	boltMaxPageSpan = 64 << 20 // the octets of one page with its overflow
)

type boltMeta struct {
	pageSize                   uint32
	root, freelist, pgid, txid uint64
}

// readBoltMeta reads the meta page at off; ok is false when it is not
// one (bbolt's Meta.Validate: magic, version, checksum).
func readBoltMeta(f *os.File, off int64) (boltMeta, bool) {
	var b [boltPageHeader + boltMetaSize]byte
	if _, err := f.ReadAt(b[:], off); err != nil {
		return boltMeta{}, false
	}
	m := b[boltPageHeader:]
	le := binary.LittleEndian
	h := fnv.New64a()
	h.Write(m[:56])
	if le.Uint16(b[8:]) != boltMetaPage || le.Uint32(m[0:]) != boltMagic || le.Uint32(m[4:]) != boltVersion || le.Uint64(m[56:]) != h.Sum64() {
		return boltMeta{}, false
	}
	return boltMeta{pageSize: le.Uint32(m[8:]), root: le.Uint64(m[16:]), freelist: le.Uint64(m[32:]),
		pgid: le.Uint64(m[40:]), txid: le.Uint64(m[48:])}, true
}

// checkBoltFile checks the bbolt file path, if it is there and not
// empty (bbolt makes an empty file a new one).
func checkBoltFile(path string) error {
	f, err := os.OpenFile(path, os.O_RDONLY|atomicfile.NoFollow, 0)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("crawl: frontier %s: %w", path, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return fmt.Errorf("crawl: frontier %s: %w", path, err)
	}
	if !st.Mode().IsRegular() {
		return &DamagedError{Path: path, Page: -1, Reason: "not a regular file"}
	}
	size := st.Size()
	if size == 0 {
		return nil
	}
	damaged := func(page int64, format string, args ...any) error {
		return &DamagedError{Path: path, Page: page, Reason: fmt.Sprintf(format, args...)}
	}
	// bbolt takes the valid meta page of the highest transaction: the
	// first is at 0, the second one page further, the page size the
	// first says, else one bbolt would have chosen.
	m, ok := readBoltMeta(f, 0)
	sizes := []int64{int64(m.pageSize)}
	if !ok {
		sizes = []int64{1 << 10, 2 << 10, 4 << 10, 8 << 10, 16 << 10, 32 << 10, 64 << 10}
	}
	for _, ps := range sizes {
		if m1, ok1 := readBoltMeta(f, ps); ok1 && (!ok || m1.txid > m.txid) && int64(m1.pageSize) == ps {
			m, ok = m1, true
		}
	}
	if !ok {
		return damaged(-1, "no meta page is whole (bbolt's magic number, version and checksum): the file was cut short, zeroed or is not a frontier")
	}
	ps := int64(m.pageSize)
	if ps < 1024 || ps > 64<<10 || ps&(ps-1) != 0 {
		return damaged(-1, "its meta page says pages of %d octets", ps)
	}
	if size%ps != 0 {
		return damaged(-1, "%d octets, not a whole number of %d-octet pages: it was cut short", size, ps)
	}
	if m.pgid < 3 || m.pgid > uint64(size/ps) {
		return damaged(-1, "%d octets hold %d pages, its meta page says %d: it was cut short", size, size/ps, m.pgid)
	}
	c := &boltChecker{f: f, ps: ps, hwm: m.pgid, seen: make([]uint64, (m.pgid+63)/64), damaged: damaged}
	for id := uint64(0); id < 2; id++ {
		c.mark(id)
	}
	if m.freelist != boltNoFreelist {
		if err := c.checkFreelist(m.freelist); err != nil {
			return err
		}
	}
	return c.checkTree(m.root, 0)
}

// boltChecker walks the pages of a bbolt file.
type boltChecker struct {
	f       *os.File
	ps      int64
	hwm     uint64   // the pages of the file
	seen    []uint64 // a bit for each page reached
	damaged func(page int64, format string, args ...any) error
}

func (c *boltChecker) mark(id uint64) bool {
	w, b := id/64, uint64(1)<<(id%64)
	had := c.seen[w]&b != 0
	c.seen[w] |= b
	return had
}

// page reads page id, its overflow pages with it, after checking that
// each is in the file and reached once.
func (c *boltChecker) page(id uint64) ([]byte, error) {
	if id < 2 || id >= c.hwm {
		return nil, c.damaged(int64(id), "named, and not within the file's %d pages", c.hwm)
	}
	var h [boltPageHeader]byte
	if _, err := c.f.ReadAt(h[:], int64(id)*c.ps); err != nil {
		return nil, c.damaged(int64(id), "unreadable: %v", err)
	}
	if got := binary.LittleEndian.Uint64(h[0:]); got != id {
		return nil, c.damaged(int64(id), "it says it is page %d (zeroed or overwritten)", got)
	}
	over := uint64(binary.LittleEndian.Uint32(h[12:]))
	if id+over >= c.hwm || (over+1)*uint64(c.ps) > boltMaxPageSpan {
		return nil, c.damaged(int64(id), "%d overflow pages, past the file's end or any page the crawl writes", over)
	}
	for i := id; i <= id+over; i++ {
		if c.mark(i) {
			return nil, c.damaged(int64(i), "reached twice")
		}
	}
	b := make([]byte, (over+1)*uint64(c.ps))
	if _, err := c.f.ReadAt(b, int64(id)*c.ps); err != nil && !errors.Is(err, io.EOF) {
		return nil, c.damaged(int64(id), "unreadable: %v", err)
	}
	return b, nil
}

// checkFreelist checks the freelist page: each free page is within the
// file.
func (c *boltChecker) checkFreelist(id uint64) error {
	p, err := c.page(id)
	if err != nil {
		return err
	}
	le := binary.LittleEndian
	if le.Uint16(p[8:]) != boltFreePage {
		return c.damaged(int64(id), "the freelist's page is of type %#x", le.Uint16(p[8:]))
	}
	n, at := uint64(le.Uint16(p[10:])), uint64(boltPageHeader)
	if n == 0xFFFF {
		n, at = le.Uint64(p[boltPageHeader:]), at+8
	}
	if n > (uint64(len(p))-at)/8 {
		return c.damaged(int64(id), "the freelist says %d pages, more than its page holds", n)
	}
	for i := uint64(0); i < n; i++ {
		if f := le.Uint64(p[at+8*i:]); f < 2 || f >= c.hwm {
			return c.damaged(int64(id), "the freelist names page %d, not within the file's %d pages", f, c.hwm)
		}
	}
	return nil
}

// checkTree checks the B+tree whose root is page id: its branch and
// leaf pages, and the buckets its leaves hold.
func (c *boltChecker) checkTree(id uint64, depth int) error {
	if depth > boltMaxDepth {
		return c.damaged(int64(id), "more than %d pages deep", boltMaxDepth)
	}
	p, err := c.page(id)
	if err != nil {
		return err
	}
	return c.checkPage(int64(id), p, depth)
}

// checkPage checks the page p (page id, -1 for a bucket's inline page).
func (c *boltChecker) checkPage(id int64, p []byte, depth int) error {
	le := binary.LittleEndian
	if len(p) < boltPageHeader {
		return c.damaged(id, "%d octets, shorter than a page's header", len(p))
	}
	flags, n := le.Uint16(p[8:]), int(le.Uint16(p[10:]))
	if boltPageHeader+n*boltElement > len(p) {
		return c.damaged(id, "%d elements, more than the page holds", n)
	}
	for i := range n {
		e := boltPageHeader + i*boltElement
		switch flags {
		case boltBranchPage:
			pos, ksize := uint64(le.Uint32(p[e:])), uint64(le.Uint32(p[e+4:]))
			if uint64(e)+pos+ksize > uint64(len(p)) {
				return c.damaged(id, "element %d's key is past the page's end", i)
			}
			if err := c.checkTree(le.Uint64(p[e+8:]), depth+1); err != nil {
				return err
			}
		case boltLeafPage:
			fl, pos := le.Uint32(p[e:]), uint64(le.Uint32(p[e+4:]))
			ksize, vsize := uint64(le.Uint32(p[e+8:])), uint64(le.Uint32(p[e+12:]))
			start := uint64(e) + pos + ksize
			if start+vsize > uint64(len(p)) {
				return c.damaged(id, "element %d's key or value is past the page's end", i)
			}
			if fl&boltBucketLeaf == 0 {
				continue
			}
			v := p[start : start+vsize]
			if len(v) < 16 {
				return c.damaged(id, "element %d is a bucket of %d octets", i, len(v))
			}
			if root := le.Uint64(v); root != 0 {
				if err := c.checkTree(root, depth+1); err != nil {
					return err
				}
			} else if err := c.checkPage(-1, v[16:], depth+1); err != nil {
				// An inline bucket: its page follows its header.
				return err
			}
		default:
			return c.damaged(id, "of type %#x, not a branch or a leaf (zeroed or overwritten)", flags)
		}
	}
	if flags != boltBranchPage && flags != boltLeafPage && n == 0 {
		return c.damaged(id, "of type %#x, not a branch or a leaf (zeroed or overwritten)", flags)
	}
	if flags == boltBranchPage && n == 0 {
		return c.damaged(id, "a branch page of no elements")
	}
	return nil
}
