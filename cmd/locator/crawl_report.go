package main

// The report of a crawl: which links are broken, grouped by page. A
// crawl of a million pages finds tens of millions of links, and a link
// is known broken only once its URL is fetched or checked, often long
// after it was found: so the links, and what became of each URL, are
// held in memory up to reportMemory octets, and past that in a
// temporary bbolt file, reportBatch of them at most in memory, where the
// broken links are grouped by page too (a bucket keyed by page, then by
// the order they were found), so that the report's memory is bounded by
// constants however large the crawl.

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/xml"
	"fmt"
	"io"
	"iter"
	"os"
	"sort"

	bolt "go.etcd.io/bbolt"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/crawl"
	"github.com/rfc1738/locator/internal/printable"
)

// reportBatch bounds the records a crawlReport holds in memory before it
// writes them to its file, and the records it reads at a time;
// reportMemory the octets of the records it holds in memory before it
// has a file (the report of a crawl of some ten thousand pages needs
// none).
const (
	reportBatch  = 4096
	reportMemory = 8 << 20
)

var (
	bucketLinks   = []byte("links")   // URL NUL from NUL place NUL ref → seq, link record
	bucketPages   = []byte("pages")   // URL → outcome of its fetch
	bucketChecked = []byte("checked") // URL → outcome of its check
	bucketToCheck = []byte("tocheck") // URL of a link crawl.Crawler checks → ""
	bucketBroken  = []byte("broken")  // page NUL seq → broken link
	bucketCounts  = []byte("counts")  // page → its broken links (8 octets)
)

// An outcome is what became of a URL fetched or checked: its state
// (access.State's words) and why.
type outcome struct {
	Status string `json:"s"`
	Err    string `json:"e,omitempty"`
}

// broken reports whether the outcome makes a link to its URL broken:
// the object is gone, refused, or could not be asked for. A robots.txt
// that disallows the URL is no failure; a URL refused by local policy
// before any connection is not counted broken: nothing was asked.
func (o outcome) broken() bool {
	switch o.Status {
	case "", string(access.StateOK), string(access.StatePolicy):
		return false
	}
	return true
}

// The report's values are fields, each its length (a uvarint) and its
// octets: an outcome is its state and why; a link its page, place,
// reference and URL; a broken link those and its URL's outcome.

// fields writes fs as a value.
func fields(fs ...string) []byte {
	n := 0
	for _, f := range fs {
		n += len(f) + binary.MaxVarintLen32
	}
	b := make([]byte, 0, n)
	for _, f := range fs {
		b = binary.AppendUvarint(b, uint64(len(f)))
		b = append(b, f...)
	}
	return b
}

// readFields reads the n fields of the value b; ok is false when b does
// not hold them.
func readFields(b []byte, n int) (fs []string, ok bool) {
	fs = make([]string, n)
	for i := range fs {
		l, w := binary.Uvarint(b)
		if w <= 0 || uint64(len(b)-w) < l {
			return nil, false
		}
		fs[i], b = string(b[w:w+int(l)]), b[w+int(l):]
	}
	return fs, len(b) == 0
}

type reportPut struct {
	bucket, key, val []byte
	ifAbsent         bool // a link: kept once, with the order it was first found in
}

// A crawlReport gathers a crawl's events and writes its broken links.
// Close removes its file.
type crawlReport struct {
	dir string
	// mem holds the buckets (name → key → value) until they pass
	// reportMemory octets (memSize); then db does, in the file path.
	mem     map[string]map[string][]byte
	memSize int
	sorted  map[string][]string // mem's keys by bucket, in order, once asked
	db      *bolt.DB
	path    string
	seq     uint64
	pending []reportPut
	// seeds are the seeds that could not be fetched, by URL: as many as
	// the person gave.
	seeds map[string]brokenLink
	built bool
	// After build: the broken links, and the pages they stand on.
	broken, pages int
}

// newCrawlReport returns a report whose file, if it needs one, is made
// in dir ("": the system's temporary directory).
func newCrawlReport(dir string) (*crawlReport, error) {
	return &crawlReport{dir: dir, mem: map[string]map[string][]byte{}, sorted: map[string][]string{}, seeds: map[string]brokenLink{}}, nil
}

// spill moves the records held in memory to a new file.
func (r *crawlReport) spill() error {
	f, err := os.CreateTemp(r.dir, "locator-crawl-report-*.db")
	if err != nil {
		return err
	}
	path := f.Name()
	f.Close()
	// The file is the run's own and removed at its end: nothing is
	// synced, a crash loses nothing that is not lost anyway.
	db, err := bolt.Open(path, 0o600, &bolt.Options{NoSync: true, NoFreelistSync: true, NoGrowSync: true})
	if err != nil {
		os.Remove(path)
		return err
	}
	r.db, r.path = db, path
	err = db.Update(func(tx *bolt.Tx) error {
		for _, b := range [][]byte{bucketLinks, bucketPages, bucketChecked, bucketToCheck, bucketBroken, bucketCounts} {
			if _, err := tx.CreateBucket(b); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	for name, m := range r.mem {
		for k, v := range m {
			r.pending = append(r.pending, reportPut{bucket: []byte(name), key: []byte(k), val: v})
			if len(r.pending) >= reportBatch {
				if err := r.flush(); err != nil {
					return err
				}
			}
		}
		delete(r.mem, name)
	}
	r.mem, r.sorted, r.memSize = nil, nil, 0
	return r.flush()
}

// Close closes and removes the report's file.
func (r *crawlReport) Close() error {
	if r.db == nil {
		return nil
	}
	err := r.db.Close()
	if rerr := os.Remove(r.path); err == nil {
		err = rerr
	}
	return err
}

// get returns the value of key in bucket, nil when there is none.
func (r *crawlReport) get(bucket, key []byte) ([]byte, error) {
	if r.db == nil {
		return r.mem[string(bucket)][string(key)], nil
	}
	if err := r.flush(); err != nil {
		return nil, err
	}
	var v []byte
	err := r.db.View(func(tx *bolt.Tx) error {
		v = bytes.Clone(tx.Bucket(bucket).Get(key))
		return nil
	})
	return v, err
}

// scan returns the first reportBatch records of bucket after the key
// after (from the first when after is nil), in the order of their keys.
func (r *crawlReport) scan(bucket, after []byte) (keys, vals [][]byte, err error) {
	if r.db == nil {
		m := r.mem[string(bucket)]
		ks, ok := r.sorted[string(bucket)]
		if !ok {
			ks = make([]string, 0, len(m))
			for k := range m {
				ks = append(ks, k)
			}
			sort.Strings(ks)
			r.sorted[string(bucket)] = ks
		}
		i := 0
		if after != nil {
			i = sort.SearchStrings(ks, string(after))
			if i < len(ks) && ks[i] == string(after) {
				i++
			}
		}
		for ; i < len(ks) && len(keys) < reportBatch; i++ {
			keys, vals = append(keys, []byte(ks[i])), append(vals, m[ks[i]])
		}
		return keys, vals, nil
	}
	if err := r.flush(); err != nil {
		return nil, nil, err
	}
	err = r.db.View(func(tx *bolt.Tx) error {
		c := tx.Bucket(bucket).Cursor()
		k, v := seekAfter(c, after)
		for ; k != nil && len(keys) < reportBatch; k, v = c.Next() {
			keys, vals = append(keys, bytes.Clone(k)), append(vals, bytes.Clone(v))
		}
		return nil
	})
	return keys, vals, err
}

func (r *crawlReport) put(p reportPut) error {
	if r.db == nil {
		m := r.mem[string(p.bucket)]
		if m == nil {
			m = map[string][]byte{}
			r.mem[string(p.bucket)] = m
		}
		old, had := m[string(p.key)]
		if had && p.ifAbsent {
			return nil
		}
		if !had {
			delete(r.sorted, string(p.bucket))
			r.memSize += len(p.key) + 128 // and the map's own, measured
		}
		r.memSize += len(p.val) - len(old)
		m[string(p.key)] = p.val
		if r.memSize > reportMemory {
			return r.spill()
		}
		return nil
	}
	r.pending = append(r.pending, p)
	if len(r.pending) >= reportBatch {
		return r.flush()
	}
	return nil
}

// flush writes the records waiting.
func (r *crawlReport) flush() error {
	if r.db == nil || len(r.pending) == 0 {
		return nil
	}
	err := r.db.Update(func(tx *bolt.Tx) error {
		for _, p := range r.pending {
			b := tx.Bucket(p.bucket)
			if p.ifAbsent && b.Get(p.key) != nil {
				continue
			}
			if err := b.Put(p.key, p.val); err != nil {
				return err
			}
		}
		return nil
	})
	clear(r.pending)
	r.pending = r.pending[:0]
	return err
}

// add records ev. A link is kept once however many times its page was
// fetched (a page under way when a run stopped is fetched again by the
// next).
func (r *crawlReport) add(ev crawl.Event) error {
	switch ev := ev.(type) {
	case *crawl.Page:
		status, msg := pageStatus(ev)
		k := ev.URL.String()
		if ev.From == nil {
			if o := (outcome{status, msg}); o.broken() {
				u := access.Masked(ev.URL)
				r.seeds[k] = brokenLink{place: seedPlace, ref: u, url: u, status: status, err: msg}
			} else {
				delete(r.seeds, k)
			}
		}
		v := fields(status, msg)
		return r.put(reportPut{bucket: bucketPages, key: []byte(k), val: v})
	case *crawl.Link:
		if ev.URL == nil {
			return nil // it names no URL: never broken
		}
		k := ev.URL.String()
		place := ev.Place.String()
		v := fields(access.Masked(ev.From), place, maskedText(ev.Ref), access.Masked(ev.URL))
		r.seq++
		key := []byte(k + "\x00" + ev.From.String() + "\x00" + place + "\x00" + ev.Ref)
		if err := r.put(reportPut{bucket: bucketLinks, key: key, val: append(binary.BigEndian.AppendUint64(nil, r.seq), v...), ifAbsent: true}); err != nil {
			return err
		}
		switch ev.Reason {
		case "scope", "exclude", "include", "depth": // those crawl.Crawler checks
			return r.put(reportPut{bucket: bucketToCheck, key: []byte(k), val: []byte{}})
		}
	case *crawl.Checked:
		var o outcome
		if st := ev.Status; st != nil {
			o.Status = string(st.State)
			if st.State != access.StateOK {
				o.Err = statusText(st)
			}
		}
		v := fields(o.Status, o.Err)
		return r.put(reportPut{bucket: bucketChecked, key: []byte(ev.URL.String()), val: v})
	}
	return nil
}

// unchecked returns the URLs of the links not followed that no run
// checked, each once, read reportBatch at a time (no transaction is open
// while the caller has one: it checks them, and adds what it finds).
func (r *crawlReport) unchecked() (iter.Seq[*locator.URL], func() error) {
	var ierr error
	seq := func(yield func(*locator.URL) bool) {
		var after []byte
		for {
			var keys [][]byte
			keys, _, ierr = r.scan(bucketToCheck, after)
			if ierr != nil || len(keys) == 0 {
				return
			}
			after = keys[len(keys)-1]
			var batch []*locator.URL
			for _, k := range keys {
				var c []byte
				if c, ierr = r.get(bucketChecked, k); ierr != nil {
					return
				}
				if c != nil {
					continue
				}
				if u, err := locator.Parse(string(k)); err == nil {
					batch = append(batch, u)
				}
			}
			for _, u := range batch {
				if !yield(u) {
					return
				}
			}
		}
	}
	return seq, func() error { return ierr }
}

// seekAfter places c on the first key after after (the first key when
// after is nil).
func seekAfter(c *bolt.Cursor, after []byte) ([]byte, []byte) {
	if after == nil {
		return c.First()
	}
	k, v := c.Seek(after)
	if k != nil && bytes.Equal(k, after) {
		k, v = c.Next()
	}
	return k, v
}

// build finds the broken links: each link whose URL's fetch (or, when
// it was not fetched, its check) failed, filed under its page in the
// order the links were found.
func (r *crawlReport) build() error {
	if r.built {
		return nil
	}
	r.built = true
	if err := r.flush(); err != nil {
		return err
	}
	var after []byte
	var lastURL string
	var last outcome
	for {
		keys, vals, err := r.scan(bucketLinks, after)
		if err != nil || len(keys) == 0 {
			return err
		}
		after = keys[len(keys)-1]
		var batch []reportPut
		for i, k := range keys {
			u, _, _ := bytes.Cut(k, []byte{0})
			if i == 0 || string(u) != lastURL {
				lastURL, last = string(u), outcome{}
				rec, err := r.get(bucketPages, u)
				if err == nil && rec == nil {
					rec, err = r.get(bucketChecked, u)
				}
				if err != nil {
					return err
				}
				if f, ok := readFields(rec, 2); ok {
					last = outcome{f[0], f[1]}
				}
			}
			v := vals[i]
			if !last.broken() || len(v) < 8 {
				continue
			}
			l, ok := readFields(v[8:], 4) // page, place, ref, URL
			if !ok {
				continue
			}
			b := fields(l[0], l[1], l[2], l[3], last.Status, last.Err)
			batch = append(batch, reportPut{bucket: bucketBroken, key: append([]byte(l[0]+"\x00"), v[:8]...), val: b})
		}
		// The pages' counts: all read, then all written, so that the
		// file is written once a batch.
		add := map[string]uint64{}
		for _, p := range batch {
			add[l0(p.key)]++
		}
		had := make(map[string]uint64, len(add))
		for page := range add {
			c, err := r.get(bucketCounts, []byte(page))
			if err != nil {
				return err
			}
			if len(c) == 8 {
				had[page] = binary.BigEndian.Uint64(c)
			} else {
				r.pages++
			}
		}
		for page, n := range add {
			if err := r.put(reportPut{bucket: bucketCounts, key: []byte(page), val: binary.BigEndian.AppendUint64(nil, had[page]+n)}); err != nil {
				return err
			}
		}
		for _, p := range batch {
			if err := r.put(p); err != nil {
				return err
			}
			r.broken++
		}
	}
}

// l0 returns the page of a key of bucketBroken: what precedes its last
// NUL and the 8 octets after it.
func l0(key []byte) string { return string(key[:len(key)-9]) }

// total returns the broken links, the seeds that could not be fetched
// among them, and the pages they stand on.
func (r *crawlReport) total() (broken, pages int, err error) {
	if err := r.build(); err != nil {
		return 0, 0, err
	}
	return r.broken + len(r.seeds), r.pages, nil
}

// each calls fn with each broken link, grouped by page in the pages'
// order (the seeds that could not be fetched first, by URL), each
// page's in the order they stand on it, and with the number of broken
// links of its page.
func (r *crawlReport) each(fn func(b brokenLink, onPage int) error) error {
	if err := r.build(); err != nil {
		return err
	}
	seeds := make([]string, 0, len(r.seeds))
	for k := range r.seeds {
		seeds = append(seeds, k)
	}
	sort.Slice(seeds, func(i, j int) bool { return r.seeds[seeds[i]].url < r.seeds[seeds[j]].url })
	for _, k := range seeds {
		if err := fn(r.seeds[k], len(seeds)); err != nil {
			return err
		}
	}
	var after []byte
	page, n := "", -1 // the page of the link before, and its count
	for {
		keys, vals, err := r.scan(bucketBroken, after)
		if err != nil || len(keys) == 0 {
			return err
		}
		after = keys[len(keys)-1]
		for i := range keys {
			f, ok := readFields(vals[i], 6)
			if !ok {
				continue
			}
			b := brokenLink{page: f[0], place: f[1], ref: f[2], url: f[3], status: f[4], err: f[5]}
			if b.page != page || n < 0 {
				c, err := r.get(bucketCounts, []byte(b.page))
				if err != nil {
					return err
				}
				page, n = b.page, 0
				if len(c) == 8 {
					n = int(binary.BigEndian.Uint64(c))
				}
			}
			if err := fn(b, n); err != nil {
				return err
			}
		}
	}
}

// writeSummary writes the broken links grouped by page: the page's URL,
// then a line for each link: its place, the URL, and why.
func (r *crawlReport) writeSummary(w io.Writer) error {
	first, page := true, ""
	return r.each(func(b brokenLink, _ int) error {
		if first || b.page != page {
			first, page = false, b.page
			head := b.page
			if head == "" {
				head = "(seeds)"
			}
			if _, err := fmt.Fprintln(w, printable.String(head)); err != nil {
				return err
			}
		}
		_, err := fmt.Fprintf(w, "  %s: %s %s (%s)\n", printable.String(b.place), b.status, printable.String(b.url), printable.String(b.err))
		return err
	})
}

// writeJSON writes a broken record for each broken link.
func (r *crawlReport) writeJSON(w io.Writer) error {
	return r.each(func(b brokenLink, _ int) error { return writeJSON(w, b.record()) })
}

// writeJUnitFile writes the broken links as JUnit XML to name, a
// testsuite for each page, as they are read (never the whole document
// in memory).
func (r *crawlReport) writeJUnitFile(name string) error {
	total, _, err := r.total()
	if err != nil {
		return err
	}
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(f)
	enc := xml.NewEncoder(bw)
	enc.Indent("", "  ")
	attr := func(k, v string) xml.Attr { return xml.Attr{Name: xml.Name{Local: k}, Value: v} }
	count := func(n int) string { return fmt.Sprint(n) }
	io.WriteString(bw, xml.Header)
	suites := xml.StartElement{Name: xml.Name{Local: "testsuites"}, Attr: []xml.Attr{attr("name", "locator crawl"), attr("tests", count(total)), attr("failures", count(total))}}
	err = enc.EncodeToken(suites)
	var suite *xml.StartElement
	first, page := true, ""
	if err == nil {
		err = r.each(func(b brokenLink, onPage int) error {
			name := b.page
			if name == "" {
				name = "seeds"
			}
			if first || b.page != page {
				if suite != nil {
					if err := enc.EncodeToken(suite.End()); err != nil {
						return err
					}
				}
				first, page = false, b.page
				suite = &xml.StartElement{Name: xml.Name{Local: "testsuite"}, Attr: []xml.Attr{attr("name", name), attr("tests", count(onPage)), attr("failures", count(onPage))}}
				if err := enc.EncodeToken(*suite); err != nil {
					return err
				}
			}
			return enc.EncodeElement(junitCase{Name: b.place + " " + b.url, Classname: name,
				Failure: &junitFailure{Message: b.status + ": " + b.err, Type: b.status,
					Text: fmt.Sprintf("%s\n%s links %q (%s): %s %s\n", name, b.place, b.ref, b.url, b.status, b.err)}},
				xml.StartElement{Name: xml.Name{Local: "testcase"}})
		})
	}
	if err == nil && suite != nil {
		err = enc.EncodeToken(suite.End())
	}
	if err == nil {
		err = enc.EncodeToken(suites.End())
	}
	if err == nil {
		err = enc.Flush()
	}
	if err == nil {
		_, err = io.WriteString(bw, "\n")
	}
	if err == nil {
		err = bw.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
