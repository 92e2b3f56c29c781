package crawl

// The report of a crawl: which links are broken, grouped by page. A
// crawl of a million pages finds tens of millions of links, and a link
// is known broken only once its URL is fetched or checked, often long
// after it was found: so the links, and what became of each URL, are
// held in memory up to Report.MaxMemory octets, and past that in a
// temporary bbolt file, reportBatch of them at most in memory, where the
// broken links are grouped by page too (a bucket keyed by page, then by
// the order they were found), so that the report's memory is bounded by
// constants however large the crawl.

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"iter"
	"os"
	"sort"
	"strconv"
	"strings"

	bolt "go.etcd.io/bbolt"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
)

// reportBatch bounds the records a Report holds in memory before it
// writes them to its file, and the records it reads at a time;
// reportMemory the octets of the records it holds in memory before it
// has a file, unless Report.MaxMemory says otherwise (the report of a
// crawl of some ten thousand pages needs none).
const (
	reportBatch  = 4096
	reportMemory = 8 << 20
)

var (
	bucketLinks   = []byte("links")   // URL NUL from NUL place NUL ref → seq, link record
	bucketPages   = []byte("pages")   // URL → outcome of its fetch
	bucketChecked = []byte("checked") // URL → outcome of its check
	bucketToCheck = []byte("tocheck") // URL of a link a Crawler checks → ""
	bucketBroken  = []byte("broken")  // masked page NUL seq → broken link
	bucketCounts  = []byte("counts")  // masked page → its broken links (8 octets)
)

// A Failure is what became of a URL a crawl fetched or checked and
// could not have, as a Report keeps it: the state, in access.State's
// words, and why (the error's words, without the URL they begin with,
// or the server's code and text).
type Failure struct {
	State access.State
	Text  string
}

func (f *Failure) Error() string { return f.Text }

// broken reports whether a link to a URL of outcome f is broken: the
// object is gone, refused, or could not be asked for. A robots.txt
// that disallows the URL is no failure; a URL refused by local policy
// before any connection (access.StatePolicy: a scheme with no client, a
// port of another service) is not counted broken: nothing was asked.
func (f Failure) broken() bool {
	switch f.State {
	case "", access.StateOK, access.StatePolicy:
		return false
	}
	return true
}

// pageFailure is the outcome of p's fetch. An error that is a *Failure
// already (a fetch read back from a record) is kept as it is.
func pageFailure(p *Page) Failure {
	if p.Err == nil {
		return Failure{State: access.StateOK}
	}
	var f *Failure
	if errors.As(p.Err, &f) {
		return *f
	}
	var st access.State
	switch access.Classify(p.Err) {
	case access.Absent:
		st = access.StateGone
	case access.Forbidden:
		st = access.StatePolicy
	default:
		st = access.StateError
	}
	return Failure{State: st, Text: errText(p.Err, p.URL)}
}

// checkFailure is the outcome of c's check: the error, else the
// server's code and text.
func checkFailure(c *Checked) Failure {
	st := c.Status
	if st == nil {
		return Failure{}
	}
	f := Failure{State: st.State}
	switch {
	case st.State == access.StateOK:
	case st.Err != nil:
		f.Text = errText(st.Err, st.URL)
	default:
		f.Text = strings.TrimSpace(st.Code + " " + st.Text)
	}
	return f
}

// errText is err's words without the module's prefix ("locator: ",
// which names no failure) and the URL they begin with.
func errText(err error, u *locator.URL) string {
	return strings.TrimPrefix(strings.TrimPrefix(err.Error(), "locator: "), access.Masked(u)+": ")
}

// A Broken is a link whose URL could not be fetched or checked.
type Broken struct {
	// Link is the link as found (From, Place, Ref, URL); for a seed
	// that could not be fetched, its URL, with no From (nothing links
	// to it) and Ref the URL as written.
	Link *Link
	// Page is the fetch of the link's URL, when the crawl fetched it;
	// Checked its check otherwise. Each is as the report keeps it: its
	// URL, and Failure as its error.
	Page    *Page
	Checked *Checked
	// Failure is what became of the URL.
	Failure *Failure
}

// Err returns why the link is broken.
func (b Broken) Err() error {
	if b.Page != nil {
		return b.Page.Err
	}
	if b.Checked != nil && b.Checked.Status != nil {
		return b.Checked.Status.Err
	}
	return nil
}

// A ReportError is a failure of a Report's temporary file (a full
// disk), or a record of it that could not be read back.
type ReportError struct {
	Op   string // "create", "write", "read"
	Path string // the file; "" before it was made
	Err  error
}

func (e *ReportError) Error() string {
	if e.Path == "" {
		return "crawl: report: " + e.Op + ": " + e.Err.Error()
	}
	return "crawl: report " + e.Path + ": " + e.Op + ": " + e.Err.Error()
}

func (e *ReportError) Unwrap() error { return e.Err }

// errRecord says a record of the file is not one the report wrote.
var errRecord = errors.New("a record unreadable")

// A Report gathers a crawl's events (Add, as Crawl's emit) and says
// which links are broken, grouped by the page they stand on. A link is
// filed as broken as soon as both it and its URL's failure are known,
// so that the report is ready once the last event is added: a crawl
// stopped by its deadline (--max-time) owes its report no pass over
// millions of links. It holds
// the links, and what became of each URL, in memory up to MaxMemory
// octets, and past that in a temporary file (Close removes it), so that
// its memory is bounded however large the crawl. The zero value is
// ready to use. A Report is not safe for concurrent use.
type Report struct {
	// Dir is the directory of the report's file; "" is the system's
	// temporary directory (os.TempDir).
	Dir string
	// MaxMemory is the octets of records held in memory before the
	// report moves them to its file; 0 is reportMemory.
	MaxMemory int

	// mem holds the buckets (name → key → value) until they pass
	// MaxMemory octets (memSize); then db does, in the file path.
	mem     map[string]map[string][]byte
	memSize int
	sorted  map[string][]string // mem's keys by bucket, in order, once asked
	db      *bolt.DB
	path    string
	seq     uint64
	pending []reportPut
	refile  [][]byte // URLs whose links are to be filed again (refileURL)
	// seeds are the seeds that could not be fetched, by URL: as many as
	// the crawl was given.
	seeds map[string]seedFailure
	err   error // the first failure of the file: every call after says it
	// The broken links filed (not the seeds), and the pages they stand
	// on.
	broken, pages int
}

type seedFailure struct {
	url *locator.URL
	f   Failure
}

type reportPut struct {
	bucket, key, val []byte
	raw              bool // a record moved to the file as it is (spill)
}

// init makes the zero value's maps.
func (r *Report) init() {
	if r.seeds == nil {
		r.seeds = map[string]seedFailure{}
	}
	if r.db == nil && r.mem == nil {
		r.mem, r.sorted = map[string]map[string][]byte{}, map[string][]string{}
	}
}

func (r *Report) fail(op string, err error) error {
	if err == nil {
		return nil
	}
	if r.err == nil {
		var re *ReportError
		if !errors.As(err, &re) {
			err = &ReportError{Op: op, Path: r.path, Err: err}
		}
		r.err = err
	}
	return r.err
}

// Err returns the first failure of the report's file, nil when there is
// none: Broken and Pages, which return no error, say nothing of it.
func (r *Report) Err() error { return r.err }

// spill moves the records held in memory to a new file.
func (r *Report) spill() error {
	r.init()
	f, err := os.CreateTemp(r.Dir, "locator-crawl-report-*.db")
	if err != nil {
		return r.fail("create", err)
	}
	path := f.Name()
	f.Close()
	// The file is the report's own and removed by Close: nothing is
	// synced, a crash loses nothing that is not lost anyway.
	db, err := bolt.Open(path, 0o600, &bolt.Options{NoSync: true, NoFreelistSync: true, NoGrowSync: true})
	if err != nil {
		os.Remove(path)
		return r.fail("create", err)
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
		return r.fail("create", err)
	}
	for name, m := range r.mem {
		for k, v := range m {
			r.pending = append(r.pending, reportPut{bucket: []byte(name), key: []byte(k), val: v, raw: true})
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

// Close closes and removes the report's file, if it made one. The
// report is empty after it, and ready to use again.
func (r *Report) Close() error {
	var err error
	if r.db != nil {
		err = r.db.Close()
		if rerr := os.Remove(r.path); err == nil {
			err = rerr
		}
		if err != nil {
			err = &ReportError{Op: "close", Path: r.path, Err: err}
		}
	}
	*r = Report{Dir: r.Dir, MaxMemory: r.MaxMemory}
	return err
}

// get returns the value of key in bucket, nil when there is none.
func (r *Report) get(bucket, key []byte) ([]byte, error) {
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
	return v, r.fail("read", err)
}

// scan returns the first reportBatch records of bucket after the key
// after (from the first when after is nil), in the order of their keys.
func (r *Report) scan(bucket, after []byte) (keys, vals [][]byte, err error) {
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
	return keys, vals, r.fail("read", err)
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

func (r *Report) put(p reportPut) error {
	if r.db == nil {
		if err := r.apply(memStore{r}, p); err != nil {
			return r.fail("write", err)
		}
		limit := r.MaxMemory
		if limit <= 0 {
			limit = reportMemory
		}
		if r.memSize > limit {
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

// flush writes the records waiting, in one transaction.
func (r *Report) flush() error {
	if r.db == nil || len(r.pending) == 0 {
		return nil
	}
	err := r.db.Update(func(tx *bolt.Tx) error {
		s := txStore{tx}
		for _, p := range r.pending {
			var err error
			if p.raw {
				err = s.put(p.bucket, p.key, p.val)
			} else {
				err = r.apply(s, p)
			}
			if err != nil {
				return err
			}
		}
		return nil
	})
	clear(r.pending)
	r.pending = r.pending[:0]
	for err == nil && len(r.refile) > 0 {
		err = r.refileURL(r.refile[0])
		r.refile = r.refile[1:]
	}
	r.refile = nil
	return r.fail("write", err)
}

// refileURL files again, as its outcome now says, the links to the URL
// u: reportBatch of them a transaction, so that a URL that a million
// links name (a common image, gone) holds no million records in memory.
func (r *Report) refileURL(u []byte) error {
	prefix := append(bytes.Clone(u), 0)
	var after []byte
	for {
		n := 0
		err := r.db.Update(func(tx *bolt.Tx) error {
			s := txStore{tx}
			o := outcomeIn(s, u)
			c := tx.Bucket(bucketLinks).Cursor()
			k, v := c.Seek(prefix)
			if after != nil {
				k, v = seekAfter(c, after)
			}
			for ; k != nil && bytes.HasPrefix(k, prefix) && n < reportBatch; k, v = c.Next() {
				var err error
				if o.f.broken() {
					err = r.file(s, v, o)
				} else {
					err = r.unfile(s, v)
				}
				if err != nil {
					return err
				}
				after = append(after[:0], k...)
				n++
			}
			return nil
		})
		if err != nil || n < reportBatch {
			return err
		}
	}
}

// A reportStore is where a Report's buckets are: its memory, or a
// transaction of its file.
type reportStore interface {
	get(bucket, key []byte) []byte
	put(bucket, key, val []byte) error
	del(bucket, key []byte) error
	// prefix calls fn with each record of bucket whose key begins
	// with p.
	prefix(bucket, p []byte, fn func(k, v []byte) error) error
}

type memStore struct{ r *Report }

func (m memStore) get(bucket, key []byte) []byte { return m.r.mem[string(bucket)][string(key)] }

func (m memStore) put(bucket, key, val []byte) error {
	r := m.r
	b := r.mem[string(bucket)]
	if b == nil {
		b = map[string][]byte{}
		r.mem[string(bucket)] = b
	}
	old, had := b[string(key)]
	if !had {
		delete(r.sorted, string(bucket))
		r.memSize += len(key) + 128 // and the map's own, measured
	}
	r.memSize += len(val) - len(old)
	b[string(key)] = val
	return nil
}

func (m memStore) del(bucket, key []byte) error {
	r := m.r
	b := r.mem[string(bucket)]
	if old, had := b[string(key)]; had {
		delete(b, string(key))
		delete(r.sorted, string(bucket))
		r.memSize -= len(key) + 128 + len(old)
	}
	return nil
}

func (m memStore) prefix(bucket, p []byte, fn func(k, v []byte) error) error {
	for k, v := range m.r.mem[string(bucket)] {
		if strings.HasPrefix(k, string(p)) {
			if err := fn([]byte(k), v); err != nil {
				return err
			}
		}
	}
	return nil
}

type txStore struct{ tx *bolt.Tx }

func (t txStore) get(bucket, key []byte) []byte { return t.tx.Bucket(bucket).Get(key) }

func (t txStore) put(bucket, key, val []byte) error { return t.tx.Bucket(bucket).Put(key, val) }

func (t txStore) del(bucket, key []byte) error { return t.tx.Bucket(bucket).Delete(key) }

func (t txStore) prefix(bucket, p []byte, fn func(k, v []byte) error) error {
	c := t.tx.Bucket(bucket).Cursor()
	for k, v := c.Seek(p); k != nil && bytes.HasPrefix(k, p); k, v = c.Next() {
		if err := fn(k, v); err != nil {
			return err
		}
	}
	return nil
}

// apply writes the record p to s, and files the broken links it makes
// known: a link to a URL whose failure is known, or the links to a URL
// whose outcome changed (a page fetched again after a stop).
func (r *Report) apply(s reportStore, p reportPut) error {
	switch {
	case bytes.Equal(p.bucket, bucketLinks):
		// A link is kept once, with the order it was first found in.
		if s.get(p.bucket, p.key) != nil {
			return nil
		}
		if err := s.put(p.bucket, p.key, p.val); err != nil {
			return err
		}
		u, _, _ := bytes.Cut(p.key, []byte{0})
		if o := outcomeIn(s, u); o.f.broken() {
			return r.file(s, p.val, o)
		}
		return nil
	case bytes.Equal(p.bucket, bucketPages), bytes.Equal(p.bucket, bucketChecked):
		before := outcomeIn(s, p.key)
		if err := s.put(p.bucket, p.key, p.val); err != nil {
			return err
		}
		after := outcomeIn(s, p.key)
		if before == after || (!before.f.broken() && !after.f.broken()) {
			return nil
		}
		if _, ok := s.(txStore); ok {
			// After this transaction, a batch at a time.
			r.refile = append(r.refile, bytes.Clone(p.key))
			return nil
		}
		return s.prefix(bucketLinks, append(bytes.Clone(p.key), 0), func(_, v []byte) error {
			if after.f.broken() {
				return r.file(s, v, after)
			}
			return r.unfile(s, v)
		})
	}
	return s.put(p.bucket, p.key, p.val)
}

// outcome is what became of a URL: its fetch's (fetched), else its
// check's; the zero outcome when neither is known.
type outcome struct {
	f       Failure
	fetched bool
}

// outcomes reads the outcome of the URL of each link key of keys (the
// URL, a NUL, the rest) in one transaction: a pass over the links reads
// a batch's outcomes at once, not two lookups a URL.
func (r *Report) outcomes(keys [][]byte) (map[string]outcome, error) {
	m := map[string]outcome{}
	read := func(s reportStore) {
		for _, k := range keys {
			u, _, _ := bytes.Cut(k, []byte{0})
			if _, ok := m[string(u)]; !ok {
				m[string(u)] = outcomeIn(s, u)
			}
		}
	}
	if r.db == nil {
		read(memStore{r})
		return m, nil
	}
	if err := r.flush(); err != nil {
		return nil, err
	}
	err := r.db.View(func(tx *bolt.Tx) error {
		read(txStore{tx})
		return nil
	})
	return m, r.fail("read", err)
}

// outcomeIn reads the outcome of the URL u in s.
func outcomeIn(s reportStore, u []byte) outcome {
	rec := s.get(bucketPages, u)
	o := outcome{fetched: rec != nil}
	if rec == nil {
		rec = s.get(bucketChecked, u)
	}
	if fs, ok := readFields(rec, 2); ok {
		o.f = Failure{State: access.State(fs[0]), Text: fs[1]}
	}
	return o
}

// brokenKey returns the key in bucketBroken of the link record v (its
// order, then its fields), and its fields.
func brokenKey(v []byte) ([]byte, []string, error) {
	if len(v) < 8 {
		return nil, nil, errRecord
	}
	l, ok := readFields(v[8:], linkFields)
	if !ok {
		return nil, nil, errRecord
	}
	return append([]byte(l[0]+"\x00"), v[:8]...), l, nil
}

// file files the link record v as broken, its URL's outcome o.
func (r *Report) file(s reportStore, v []byte, o outcome) error {
	key, l, err := brokenKey(v)
	if err != nil {
		return err
	}
	if len(l) >= linkFields && fileOnOtherPage(l[8], l[1]) {
		return nil // refused by policy (EachTarget), not broken
	}
	how := "c"
	if o.fetched {
		how = "p"
	}
	filed := s.get(bucketBroken, key) != nil
	if err := s.put(bucketBroken, key, fields(append(l, how, string(o.f.State), o.f.Text)...)); err != nil || filed {
		return err
	}
	return r.count(s, key, 1)
}

// unfile takes the link record v out of the broken links.
func (r *Report) unfile(s reportStore, v []byte) error {
	key, _, err := brokenKey(v)
	if err != nil || s.get(bucketBroken, key) == nil {
		return err
	}
	if err := s.del(bucketBroken, key); err != nil {
		return err
	}
	return r.count(s, key, -1)
}

// count adds d to the broken links of the page of key, a key of
// bucketBroken.
func (r *Report) count(s reportStore, key []byte, d int) error {
	page := []byte(keyPage(key))
	var n uint64
	if c := s.get(bucketCounts, page); len(c) == 8 {
		n = binary.BigEndian.Uint64(c)
	}
	switch {
	case n == 0 && d > 0:
		r.pages++
	case n == 1 && d < 0:
		r.pages--
	}
	r.broken += d
	n = uint64(int64(n) + int64(d))
	if n == 0 {
		return s.del(bucketCounts, page)
	}
	return s.put(bucketCounts, page, binary.BigEndian.AppendUint64(nil, n))
}

// Add records an event. A link is kept once however many times its page
// was reported (a page under way when a crawl stopped is fetched again
// by the next). Its error is the report's file's (a *ReportError): the
// report is of no use after it, and says it again to every call.
func (r *Report) Add(e Event) error {
	if r.err != nil {
		return r.err
	}
	r.init()
	switch e := e.(type) {
	case *Page:
		if e.URL == nil {
			return nil // no URL: nothing links to it
		}
		f := pageFailure(e)
		k := e.URL.String()
		if e.From == nil {
			if f.broken() {
				r.seeds[k] = seedFailure{url: e.URL, f: f}
			} else {
				delete(r.seeds, k)
			}
		}
		return r.put(reportPut{bucket: bucketPages, key: []byte(k), val: fields(string(f.State), f.Text)})
	case *Link:
		if e.URL == nil {
			return nil // it names no URL: never broken
		}
		k := e.URL.String()
		from := ""
		if e.From != nil {
			from = e.From.String()
		}
		p := e.Place
		v := fields(access.Masked(e.From), from, p.Element, p.Attr, p.Name, strconv.Itoa(p.Line), strconv.Itoa(p.Column), e.Ref, k)
		r.seq++
		key := []byte(k + "\x00" + from + "\x00" + p.String() + "\x00" + e.Ref)
		if err := r.put(reportPut{bucket: bucketLinks, key: key, val: append(binary.BigEndian.AppendUint64(nil, r.seq), v...)}); err != nil {
			return err
		}
		switch e.Reason {
		case "scope", "exclude", "include", "depth": // those a Crawler checks
			return r.put(reportPut{bucket: bucketToCheck, key: []byte(k), val: []byte{}})
		}
	case *Checked:
		if e.URL == nil {
			return nil
		}
		f := checkFailure(e)
		return r.put(reportPut{bucket: bucketChecked, key: []byte(e.URL.String()), val: fields(string(f.State), f.Text)})
	}
	return nil
}

// Unchecked returns the URLs of the links not followed (out of scope,
// excluded, too deep: those a Crawler with Check checks) that no event
// says were checked, each once, read reportBatch at a time: no
// transaction is open while the caller has one, so that it may check it
// and Add what it finds. The function returned says why the sequence
// ended early, nil when it did not.
func (r *Report) Unchecked() (iter.Seq[*locator.URL], func() error) {
	var ierr error
	seq := func(yield func(*locator.URL) bool) {
		if ierr = r.err; ierr != nil {
			return
		}
		r.init()
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

// ready makes the broken links filed readable: it writes the records
// waiting.
func (r *Report) ready() error {
	if r.err != nil {
		return r.err
	}
	r.init()
	return r.flush()
}

// linkFields are the fields of a link's record: its page (masked, as
// the broken links are grouped by it), its page, its place's element,
// attribute, name, line and column, its reference and its URL. A broken
// link's record has three more: "p" (the URL was fetched) or "c"
// (checked), and the URL's outcome, its state and why.
const linkFields = 9

// keyPage returns the page of a key of bucketBroken: what precedes its
// last NUL and the 8 octets after it.
func keyPage(key []byte) string { return string(key[:len(key)-9]) }

// Count returns the broken links, the seeds that could not be fetched
// among them, and the pages they stand on (the seeds on none).
func (r *Report) Count() (broken, pages int, err error) {
	if err := r.ready(); err != nil {
		return 0, 0, err
	}
	return r.broken + len(r.seeds), r.pages, nil
}

// EachBroken calls fn with each broken link, grouped by page, the pages
// in the order of their URLs as written with the password masked
// (access.Masked), each page's links in the order they were found on
// it, and with the number of broken links of its page. The seeds that
// could not be fetched come first, by their URLs, as links of no page
// (Link.From is nil). It holds at most reportBatch links in memory at a
// time, and stops at fn's first error, which it returns.
func (r *Report) EachBroken(fn func(b Broken, onPage int) error) error {
	if err := r.ready(); err != nil {
		return err
	}
	seeds := make([]seedFailure, 0, len(r.seeds))
	for _, s := range r.seeds {
		seeds = append(seeds, s)
	}
	sort.Slice(seeds, func(i, j int) bool { return access.Masked(seeds[i].url) < access.Masked(seeds[j].url) })
	for _, s := range seeds {
		f := s.f
		b := Broken{Link: &Link{URL: s.url, Ref: s.url.String()}, Page: &Page{URL: s.url, Err: &f}, Failure: &f}
		if err := fn(b, len(seeds)); err != nil {
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
		for i, k := range keys {
			b, err := readBroken(vals[i])
			if err != nil {
				return r.fail("read", err)
			}
			if p := keyPage(k); p != page || n < 0 {
				c, err := r.get(bucketCounts, []byte(p))
				if err != nil {
					return err
				}
				page, n = p, 0
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

// readBroken reads back a broken link's record.
func readBroken(v []byte) (Broken, error) {
	f, ok := readFields(v, linkFields+3)
	if !ok {
		return Broken{}, errRecord
	}
	var from *locator.URL
	if f[1] != "" {
		var err error
		if from, err = locator.Parse(f[1]); err != nil {
			return Broken{}, fmt.Errorf("%w: %w", errRecord, err)
		}
	}
	u, err := locator.Parse(f[8])
	if err != nil {
		return Broken{}, fmt.Errorf("%w: %w", errRecord, err)
	}
	line, err1 := strconv.Atoi(f[5])
	col, err2 := strconv.Atoi(f[6])
	if err := errors.Join(err1, err2); err != nil {
		return Broken{}, fmt.Errorf("%w: %w", errRecord, err)
	}
	fl := &Failure{State: access.State(f[10]), Text: f[11]}
	b := Broken{Link: &Link{From: from, URL: u, Ref: f[7],
		Place: Place{Element: f[2], Attr: f[3], Name: f[4], Line: line, Column: col}}, Failure: fl}
	if f[9] == "p" {
		b.Page = &Page{URL: u, Err: fl}
	} else {
		b.Checked = &Checked{URL: u, Status: &access.Status{State: fl.State, URL: u, Err: fl}}
	}
	return b, nil
}

// Broken returns the broken links, as EachBroken gives them, the seeds
// that could not be fetched left out (no link names them): the fetch
// of a URL the crawl followed failed (a robots.txt that disallows it is
// no failure, but one that could not be reached is), or the check of
// one it did not follow says the object is gone, refused, or could not
// be asked for. A URL refused by local policy before any connection
// (access.StatePolicy) is not counted broken: nothing was asked. It
// holds them all in memory: a large crawl's report is read with
// EachBroken. It returns nil when the report's file failed (Err).
func (r *Report) Broken() []Broken {
	var out []Broken
	err := r.EachBroken(func(b Broken, _ int) error {
		if b.Link.From != nil {
			out = append(out, b)
		}
		return nil
	})
	if err != nil {
		return nil
	}
	return out
}

// Pages returns the outcome of each page reported, by URL: its URL and,
// when it could not be fetched, a *Failure as its Err. It holds them
// all in memory. It returns nil when the report's file failed (Err).
func (r *Report) Pages() map[string]*Page {
	if r.err != nil {
		return nil
	}
	r.init()
	out := map[string]*Page{}
	var after []byte
	for {
		keys, vals, err := r.scan(bucketPages, after)
		if err != nil {
			return nil
		}
		if len(keys) == 0 {
			return out
		}
		after = keys[len(keys)-1]
		for i, k := range keys {
			u, err := locator.Parse(string(k))
			f, ok := readFields(vals[i], 2)
			if err != nil || !ok {
				r.fail("read", errRecord)
				return nil
			}
			p := &Page{URL: u}
			if fl := (Failure{State: access.State(f[0]), Text: f[1]}); fl.State != access.StateOK {
				p.Err = &fl
			}
			out[string(k)] = p
		}
	}
}

// The report's values are fields, each its length (a uvarint) and its
// octets.

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

// A Target is a URL that links name and that could not be had, or that
// policy refused, with the links that name it: a report grouped by
// target says a missing page linked 1,450 times once, with its count.
type Target struct {
	URL *locator.URL
	// Failure is what became of the URL; for a file URL on a page of
	// another scheme, access.StatePolicy: it names a file of each
	// reader's own machine, never this one's to judge (fileSyntax).
	Failure Failure
	// Fetched says the crawl fetched the URL; else it was checked, or,
	// refused by policy, neither.
	Fetched bool
	// Links counts the links that name the URL; Places holds the first
	// found of them (as many as EachTarget was asked for), in the order
	// they were found.
	Links  int
	Places []*Link
	first  []foundLink // Places being chosen: the first found, by seq
}

// foundLink is a link's record and the order it was found in.
type foundLink struct {
	seq    uint64
	fields []string
}

// EachTarget calls fn with each URL that links name and that is broken
// (Failure.broken: gone, refused, could not be asked for), or, with
// policy, each that local policy refused (access.StatePolicy, or a file
// URL on a page of another scheme: RFC 1738 §3.10 has it name a file of
// the reader's machine), in the order of the URLs. It holds at most
// reportBatch links and places links in memory at a time, and stops at
// fn's first error, which it returns.
func (r *Report) EachTarget(places int, policy bool, fn func(t *Target) error) error {
	if err := r.ready(); err != nil {
		return err
	}
	var cur *Target // the target whose links are being read
	emit := func() error {
		if cur == nil || cur.Links == 0 {
			return nil
		}
		t := cur
		cur = nil
		for _, f := range t.first {
			link, err := linkOf(f.fields)
			if err != nil {
				return r.fail("read", err)
			}
			t.Places = append(t.Places, link)
		}
		t.first = nil
		return fn(t)
	}
	var after []byte
	for {
		keys, vals, err := r.scan(bucketLinks, after)
		if err != nil {
			return err
		}
		if len(keys) == 0 {
			return emit()
		}
		after = keys[len(keys)-1]
		outs, err := r.outcomes(keys)
		if err != nil {
			return err
		}
		for i, k := range keys {
			u, _, _ := bytes.Cut(k, []byte{0})
			if cur == nil || cur.URL.String() != string(u) {
				if err := emit(); err != nil {
					return err
				}
				o := outs[string(u)]
				file := strings.HasPrefix(string(u), "file:")
				if !file && (policy && o.f.State != access.StatePolicy || !policy && !o.f.broken()) {
					continue // not what is asked for: not even parsed
				}
				tu, err := locator.Parse(string(u))
				if err != nil {
					return r.fail("read", fmt.Errorf("%w: %w", errRecord, err))
				}
				cur = &Target{URL: tu, Failure: o.f, Fetched: o.fetched}
			}
			v := vals[i]
			if len(v) < 8 {
				continue
			}
			l, ok := readFields(v[8:], linkFields)
			if !ok {
				return r.fail("read", errRecord)
			}
			f := cur.Failure
			if fileOnOtherPage(string(u), l[1]) {
				f = Failure{State: access.StatePolicy, Text: fileOnPage + fileSyntax(cur.URL)}
			}
			if policy != (f.State == access.StatePolicy) || !policy && !f.broken() {
				continue
			}
			cur.Failure = f
			cur.Links++
			// The first found are kept: places of them at most, in
			// the order found (their keys' order is the pages' URLs').
			seq := binary.BigEndian.Uint64(v[:8])
			n := len(cur.first)
			if n == places && (n == 0 || seq > cur.first[n-1].seq) {
				continue
			}
			if n < places {
				cur.first = append(cur.first, foundLink{})
			} else {
				n--
			}
			for n > 0 && cur.first[n-1].seq > seq {
				cur.first[n] = cur.first[n-1]
				n--
			}
			cur.first[n] = foundLink{seq: seq, fields: l}
		}
	}
}

// fileOnOtherPage reports whether a link to the URL u from the page
// from is a file URL on a page of another scheme.
func fileOnOtherPage(u, from string) bool {
	return strings.HasPrefix(u, "file:") && from != "" && !strings.HasPrefix(from, "file:")
}

// fileOnPage says why a file URL on a page of another scheme is not
// asked for.
const fileOnPage = "a file URL on a page of another scheme names a file of each reader's own machine (RFC 1738 §3.10): not looked for on this one; "

// fileSyntax says whether the file URL u is written as RFC 1738 §3.10
// and §5 (fileurl) have it: all that can be judged of one found on a
// page of another scheme, as LinkChecker judges such a link.
func fileSyntax(u *locator.URL) string {
	for _, p := range u.Problems() {
		if p.Severity >= locator.Violation {
			return "its syntax: " + p.String()
		}
	}
	return "its syntax is valid"
}

// linkOf reads a link's record fields (linkFields) back.
func linkOf(f []string) (*Link, error) {
	var from *locator.URL
	if f[1] != "" {
		var err error
		if from, err = locator.Parse(f[1]); err != nil {
			return nil, fmt.Errorf("%w: %w", errRecord, err)
		}
	}
	u, err := locator.Parse(f[8])
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errRecord, err)
	}
	line, err1 := strconv.Atoi(f[5])
	col, err2 := strconv.Atoi(f[6])
	if err := errors.Join(err1, err2); err != nil {
		return nil, fmt.Errorf("%w: %w", errRecord, err)
	}
	return &Link{From: from, URL: u, Ref: f[7], Place: Place{Element: f[2], Attr: f[3], Name: f[4], Line: line, Column: col}}, nil
}

// Unjudged counts the links whose URL was neither fetched nor checked
// (out of scope, excluded, too deep, past MaxURLs, a session: not
// followed, and not checked), and their URLs; a file URL on a page of
// another scheme is not among them: it is refused by policy
// (EachTarget).
func (r *Report) Unjudged() (links, urls int, err error) {
	if err := r.ready(); err != nil {
		return 0, 0, err
	}
	var after []byte
	last, judged := "", false
	for {
		keys, vals, err := r.scan(bucketLinks, after)
		if err != nil || len(keys) == 0 {
			return links, urls, err
		}
		after = keys[len(keys)-1]
		outs, err := r.outcomes(keys)
		if err != nil {
			return 0, 0, err
		}
		for i, k := range keys {
			u, _, _ := bytes.Cut(k, []byte{0})
			first := string(u) != last
			if first {
				last = string(u)
				judged = outs[last].f.State != ""
			}
			if judged || len(vals[i]) < 8 {
				continue
			}
			l, ok := readFields(vals[i][8:], linkFields)
			if !ok {
				return 0, 0, r.fail("read", errRecord)
			}
			if fileOnOtherPage(last, l[1]) {
				continue
			}
			links++
			if first {
				urls++
			}
		}
	}
}
