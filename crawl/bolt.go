package crawl

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"

	"github.com/rfc1738/locator/internal/atomicfile"
)

// BoltFrontier is a Frontier kept in a bbolt file, so that a crawl larger
// than memory can run, and a crawl that stopped (an error, a signal,
// a crash) can go on where it was: OpenBolt the same file again and
// Crawl the same seeds. The links a Crawler is to check (Crawler.Check)
// wait in the file too, so that neither grows the crawl's memory.
//
// Each Item stays in the file until the Crawler says, with Done, that its
// page was reported and its links pushed; an Item popped and not done
// when the crawl stopped is popped again, first, by the next crawl on the
// file, so that a page is lost by no stop (at most the Jobs pages under
// way at the stop are fetched twice).
//
// Pushes wait in memory, at most boltBatch of them, and are written
// with the next Pop or Done, or once that many wait, in one transaction
// synced to disk: a page's links are on disk when it is done, and a
// stop loses only pushes of pages not done, which are fetched again.
type BoltFrontier struct {
	db      *bolt.DB
	last    []byte // the key of the last Item popped
	next    uint64 // the key of the next Item pushed
	pending []Item // pushed, not written yet
	pendSet map[string]struct{}
	temp    bool // a crawl's own file (spillFrontier), removed by close
}

// boltBatch bounds the pushes (and the links to check) a BoltFrontier
// holds in memory before it writes them.
const boltBatch = 4096

var (
	bucketSeen   = []byte("seen")   // URL → its key in queue
	bucketQueue  = []byte("queue")  // key → Item (JSON)
	bucketMeta   = []byte("meta")   // keyNext → the next key
	bucketChecks = []byte("checks") // URL to check → its key in checkOrder
	bucketOrder  = []byte("checkorder")
	keyNext      = []byte("next")
)

// OpenBolt opens (creating it when absent) the frontier file path.
func OpenBolt(path string) (*BoltFrontier, error) {
	return openBolt(path, false)
}

// openBolt opens the frontier file path; temp says that it is a crawl's
// own, removed by close: nothing is synced, as a crash loses it anyway.
func openBolt(path string, temp bool) (*BoltFrontier, error) {
	opt := &bolt.Options{Timeout: 5 * time.Second, OpenFile: func(name string, flag int, perm os.FileMode) (*os.File, error) {
		return os.OpenFile(name, flag|atomicfile.NoFollow, perm)
	}}
	if temp {
		opt.NoSync, opt.NoFreelistSync, opt.NoGrowSync = true, true, true
	} else if err := checkBoltFile(path); err != nil {
		return nil, err
	}
	db, err := openChecked(path, opt)
	if err != nil {
		return nil, err
	}
	f := &BoltFrontier{db: db, pendSet: map[string]struct{}{}, temp: temp}
	err = db.Update(func(tx *bolt.Tx) error {
		for _, b := range [][]byte{bucketSeen, bucketQueue, bucketMeta} {
			if _, err := tx.CreateBucketIfNotExists(b); err != nil {
				return err
			}
		}
		if b := tx.Bucket(bucketMeta).Get(keyNext); len(b) == 8 {
			f.next = binary.BigEndian.Uint64(b)
		}
		return nil
	})
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("crawl: frontier %s: %w", path, err)
	}
	return f, nil
}

// openChecked opens the bbolt file path, and has bbolt check it
// (Tx.Check: each page reached once, the free pages not reached, the
// keys in order) once checkBoltFile found every page it reaches within
// the file. A panic of bbolt's on what it read is a *DamagedError.
func openChecked(path string, opt *bolt.Options) (db *bolt.DB, err error) {
	defer func() {
		if r := recover(); r != nil {
			if db != nil {
				db.Close()
			}
			db, err = nil, &DamagedError{Path: path, Page: -1, Reason: fmt.Sprint(r)}
		}
	}()
	db, err = bolt.Open(path, 0o600, opt)
	if err != nil {
		if errors.Is(err, berrors.ErrInvalid) || errors.Is(err, berrors.ErrChecksum) || errors.Is(err, berrors.ErrVersionMismatch) {
			return nil, &DamagedError{Path: path, Page: -1, Reason: err.Error()}
		}
		return nil, fmt.Errorf("crawl: frontier %s: %w", path, err)
	}
	err = db.View(func(tx *bolt.Tx) error {
		var first error
		for err := range tx.Check() { // read to its end: it reads the file until then
			if first == nil {
				first = &DamagedError{Path: path, Page: -1, Reason: err.Error()}
			}
		}
		return first
	})
	if err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// Close writes the pushes waiting and closes the file.
func (f *BoltFrontier) Close() error {
	err := f.update(nil)
	if cerr := f.db.Close(); err == nil {
		err = cerr
	}
	return err
}

// close closes a temporary frontier and removes its file.
func (f *BoltFrontier) close() error {
	path := f.db.Path()
	err := f.db.Close()
	if rerr := os.Remove(path); err == nil {
		err = rerr
	}
	if err != nil {
		return fmt.Errorf("crawl: frontier %s: %w", path, err)
	}
	return nil
}

// seenOnly is the value in bucketSeen of a URL that is in no queue: it
// was fetched before the frontier was moved to the file (markSeen).
var seenOnly = []byte{0}

// markSeen writes urls to the seen-set, each in no queue.
func (f *BoltFrontier) markSeen(urls []string) error {
	if len(urls) == 0 {
		return nil
	}
	return f.update(func(tx *bolt.Tx) error {
		seen := tx.Bucket(bucketSeen)
		for _, u := range urls {
			if err := seen.Put([]byte(u), seenOnly); err != nil {
				return err
			}
		}
		return nil
	})
}

// flush writes the pushes waiting, within tx.
func (f *BoltFrontier) flush(tx *bolt.Tx) error {
	if len(f.pending) == 0 {
		return nil
	}
	seen, queue := tx.Bucket(bucketSeen), tx.Bucket(bucketQueue)
	n := f.next
	for _, it := range f.pending {
		key := binary.BigEndian.AppendUint64(nil, n)
		n++
		v, err := json.Marshal(it)
		if err != nil {
			return err
		}
		if err := seen.Put([]byte(it.URL), key); err != nil {
			return err
		}
		if err := queue.Put(key, v); err != nil {
			return err
		}
	}
	return tx.Bucket(bucketMeta).Put(keyNext, binary.BigEndian.AppendUint64(nil, n))
}

// update runs fn in a transaction that writes the pushes waiting first;
// they are forgotten from memory only once it is committed, so that a
// commit that fails (a full disk) loses none of them.
func (f *BoltFrontier) update(fn func(*bolt.Tx) error) error {
	err := f.db.Update(func(tx *bolt.Tx) error {
		if err := f.flush(tx); err != nil {
			return err
		}
		if fn != nil {
			return fn(tx)
		}
		return nil
	})
	if err != nil {
		return f.wrap(err)
	}
	f.next += uint64(len(f.pending))
	clear(f.pending)
	f.pending = f.pending[:0]
	clear(f.pendSet)
	return nil
}

// Push adds it unless its URL was pushed before.
func (f *BoltFrontier) Push(it Item) (bool, error) {
	if seen, err := f.Seen(it.URL); seen || err != nil {
		return false, err
	}
	f.pending = append(f.pending, it)
	f.pendSet[it.URL] = struct{}{}
	if len(f.pending) >= boltBatch {
		return true, f.update(nil)
	}
	return true, nil
}

// Pop returns the oldest Item not popped yet: after a reopening, first
// those popped and not done before.
func (f *BoltFrontier) Pop() (Item, bool, error) {
	if len(f.pending) > 0 {
		if err := f.update(nil); err != nil {
			return Item{}, false, err
		}
	}
	var it Item
	found := false
	err := f.db.View(func(tx *bolt.Tx) error {
		c := tx.Bucket(bucketQueue).Cursor()
		var k, v []byte
		if f.last == nil {
			k, v = c.First()
		} else {
			k, v = c.Seek(f.last)
			if k != nil && bytes.Equal(k, f.last) {
				k, v = c.Next()
			}
		}
		if k == nil {
			return nil
		}
		if err := json.Unmarshal(v, &it); err != nil {
			return fmt.Errorf("crawl: frontier item %x: %w", k, err)
		}
		f.last = append(f.last[:0], k...)
		found = true
		return nil
	})
	return it, found, err
}

// Done removes the Item of url, popped, from the file, and writes the
// pushes waiting with it.
func (f *BoltFrontier) Done(url string) error {
	if f.temp {
		// A crawl's own file is not popped again: Pop goes on past
		// the last key popped, and the file is removed at the end.
		return nil
	}
	return f.update(func(tx *bolt.Tx) error {
		k := tx.Bucket(bucketSeen).Get([]byte(url))
		if len(k) != 8 || f.last == nil || bytes.Compare(k, f.last) > 0 {
			return errors.New(url + " was not popped")
		}
		return tx.Bucket(bucketQueue).Delete(k)
	})
}

// wrap names the file in err.
func (f *BoltFrontier) wrap(err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("crawl: frontier %s: %w", f.db.Path(), err)
}

// Seen reports whether url was ever pushed.
func (f *BoltFrontier) Seen(url string) (bool, error) {
	if _, ok := f.pendSet[url]; ok {
		return true, nil
	}
	seen := false
	err := f.db.View(func(tx *bolt.Tx) error {
		seen = tx.Bucket(bucketSeen).Get([]byte(url)) != nil
		return nil
	})
	return seen, err
}

// resetChecks empties the links to check: each crawl checks its own.
func (f *BoltFrontier) resetChecks() error {
	return f.wrap(f.db.Update(func(tx *bolt.Tx) error {
		for _, b := range [][]byte{bucketChecks, bucketOrder} {
			if err := tx.DeleteBucket(b); err != nil && !errors.Is(err, berrors.ErrBucketNotFound) {
				return err
			}
			if _, err := tx.CreateBucket(b); err != nil {
				return err
			}
		}
		return nil
	}))
}

// hasCheck reports whether url is among the links to check.
func (f *BoltFrontier) hasCheck(url string) (bool, error) {
	has := false
	err := f.db.View(func(tx *bolt.Tx) error {
		has = tx.Bucket(bucketChecks).Get([]byte(url)) != nil
		return nil
	})
	return has, err
}

// addChecks adds urls, none of them there yet, to the links to check,
// numbered from n.
func (f *BoltFrontier) addChecks(urls []string, n uint64) error {
	return f.wrap(f.db.Update(func(tx *bolt.Tx) error {
		checks, order := tx.Bucket(bucketChecks), tx.Bucket(bucketOrder)
		for _, u := range urls {
			key := binary.BigEndian.AppendUint64(nil, n)
			n++
			if err := checks.Put([]byte(u), key); err != nil {
				return err
			}
			if err := order.Put(key, []byte(u)); err != nil {
				return err
			}
		}
		return nil
	}))
}

// eachCheck calls fn with each link to check, in the order added, until
// it returns false; boltBatch at a time are read, and fn is called
// outside any transaction.
func (f *BoltFrontier) eachCheck(fn func(string) bool) error {
	var after []byte
	for {
		var batch []string
		err := f.db.View(func(tx *bolt.Tx) error {
			c := tx.Bucket(bucketOrder).Cursor()
			var k, v []byte
			if after == nil {
				k, v = c.First()
			} else {
				k, v = c.Seek(after)
				if k != nil && bytes.Equal(k, after) {
					k, v = c.Next()
				}
			}
			for ; k != nil && len(batch) < boltBatch; k, v = c.Next() {
				batch = append(batch, string(v))
				after = append(after[:0], k...)
			}
			return nil
		})
		if err != nil || len(batch) == 0 {
			return err
		}
		for _, u := range batch {
			if !fn(u) {
				return nil
			}
		}
	}
}
