package crawl

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
)

// BoltFrontier is a Frontier kept in a bbolt file, so that a crawl larger
// than memory can run, and a crawl that stopped (an error, a signal,
// a crash) can go on where it was: OpenBolt the same file again and
// Crawl the same seeds.
//
// Each Item stays in the file until the Crawler says, with Done, that its
// page was reported and its links pushed; an Item popped and not done
// when the crawl stopped is popped again, first, by the next crawl on the
// file, so that a page is lost by no stop (at most the Jobs pages under
// way at the stop are fetched twice).
//
// Every Push, Pop and Done is a transaction of its own, synced to disk:
// safe, and slow beside a MemFrontier (a few milliseconds each).
type BoltFrontier struct {
	db     *bolt.DB
	last   []byte            // the key of the last Item popped
	popped map[string][]byte // URL → key of the Items popped, not done
}

var (
	bucketSeen  = []byte("seen")
	bucketQueue = []byte("queue")
	bucketMeta  = []byte("meta")
	keyNext     = []byte("next")
)

// OpenBolt opens (creating it when absent) the frontier file path.
func OpenBolt(path string) (*BoltFrontier, error) {
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: 5 * time.Second})
	if err != nil {
		return nil, fmt.Errorf("crawl: frontier %s: %w", path, err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		for _, b := range [][]byte{bucketSeen, bucketQueue, bucketMeta} {
			if _, err := tx.CreateBucketIfNotExists(b); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("crawl: frontier %s: %w", path, err)
	}
	return &BoltFrontier{db: db, popped: map[string][]byte{}}, nil
}

// Close closes the file.
func (f *BoltFrontier) Close() error { return f.db.Close() }

// Push adds it unless its URL was pushed before.
func (f *BoltFrontier) Push(it Item) (bool, error) {
	added := false
	err := f.db.Update(func(tx *bolt.Tx) error {
		seen := tx.Bucket(bucketSeen)
		if seen.Get([]byte(it.URL)) != nil {
			return nil
		}
		if err := seen.Put([]byte(it.URL), []byte{1}); err != nil {
			return err
		}
		meta := tx.Bucket(bucketMeta)
		var n uint64
		if b := meta.Get(keyNext); len(b) == 8 {
			n = binary.BigEndian.Uint64(b)
		}
		key := binary.BigEndian.AppendUint64(nil, n)
		if err := meta.Put(keyNext, binary.BigEndian.AppendUint64(nil, n+1)); err != nil {
			return err
		}
		v, err := json.Marshal(it)
		if err != nil {
			return err
		}
		added = true
		return tx.Bucket(bucketQueue).Put(key, v)
	})
	return added, err
}

// Pop returns the oldest Item not popped yet: after a reopening, first
// those popped and not done before.
func (f *BoltFrontier) Pop() (Item, bool, error) {
	var it Item
	found := false
	err := f.db.View(func(tx *bolt.Tx) error {
		c := tx.Bucket(bucketQueue).Cursor()
		var k, v []byte
		if f.last == nil {
			k, v = c.First()
		} else {
			k, v = c.Seek(f.last)
			if k != nil && string(k) == string(f.last) {
				k, v = c.Next()
			}
		}
		if k == nil {
			return nil
		}
		if err := json.Unmarshal(v, &it); err != nil {
			return fmt.Errorf("crawl: frontier item %x: %w", k, err)
		}
		f.last = append([]byte(nil), k...)
		f.popped[it.URL] = f.last
		found = true
		return nil
	})
	return it, found, err
}

// Done removes the Item of url, popped, from the file.
func (f *BoltFrontier) Done(url string) error {
	k, ok := f.popped[url]
	if !ok {
		return errors.New("crawl: frontier: " + url + " was not popped")
	}
	delete(f.popped, url)
	return f.db.Update(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketQueue).Delete(k)
	})
}

// Seen reports whether url was ever pushed.
func (f *BoltFrontier) Seen(url string) (bool, error) {
	seen := false
	err := f.db.View(func(tx *bolt.Tx) error {
		seen = tx.Bucket(bucketSeen).Get([]byte(url)) != nil
		return nil
	})
	return seen, err
}
