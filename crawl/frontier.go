package crawl

import (
	"fmt"
	"os"
	"strings"
)

// An Item is one URL waiting in a Frontier to be fetched.
type Item struct {
	// URL is the URL as the Crawler fetches it: normalized
	// (locator.Normalize), without a fragment. It is also the key by
	// which a Frontier knows the URLs it was given.
	URL string
	// Depth is the number of links followed from a seed (0 for a seed).
	Depth int
	// From is the page the URL was first found on ("" for a seed).
	From string
}

// A Frontier holds the URLs a crawl has found and not yet fetched, and
// remembers every URL it was ever given, so that each is fetched once.
// Pop returns the Items in the order they were pushed (breadth first).
//
// The Crawler calls it from one goroutine. MemFrontier keeps everything in
// memory; a Frontier on disk lets a crawl larger than memory run, or one
// that stopped resume.
type Frontier interface {
	// Push adds it unless its URL was pushed before, and reports
	// whether it was added.
	Push(it Item) (bool, error)
	// Pop removes and returns the oldest Item, or ok false when there
	// is none.
	Pop() (it Item, ok bool, err error)
	// Seen reports whether url was ever pushed.
	Seen(url string) (bool, error)
	// Done says that the Item of url, popped, was fetched, reported
	// and its links pushed: a Frontier that outlives a crawl forgets
	// it then, and pops again, on its next crawl, an Item popped and
	// not done.
	Done(url string) error
}

// MemFrontier is a Frontier in memory. Its zero value is ready to use.
type MemFrontier struct {
	seen  map[string]struct{}
	queue []Item
	head  int
}

// Push adds it unless its URL was pushed before.
func (f *MemFrontier) Push(it Item) (bool, error) {
	if f.seen == nil {
		f.seen = make(map[string]struct{})
	}
	if _, ok := f.seen[it.URL]; ok {
		return false, nil
	}
	// The URL's own copy: a URL's String may share the octets of the
	// whole parsed URL, which a million of them would keep alive.
	it.URL = strings.Clone(it.URL)
	f.seen[it.URL] = struct{}{}
	f.queue = append(f.queue, it)
	return true, nil
}

// Pop returns the oldest Item.
func (f *MemFrontier) Pop() (Item, bool, error) {
	if f.head == len(f.queue) {
		return Item{}, false, nil
	}
	it := f.queue[f.head]
	f.queue[f.head] = Item{}
	f.head++
	// Give the memory of what was popped back now and then.
	if f.head > 1024 && f.head*2 > len(f.queue) {
		f.queue = append([]Item(nil), f.queue[f.head:]...)
		f.head = 0
	}
	return it, true, nil
}

// Done does nothing: a MemFrontier forgets an Item when it pops it.
func (f *MemFrontier) Done(url string) error { return nil }

// Seen reports whether url was ever pushed.
func (f *MemFrontier) Seen(url string) (bool, error) {
	_, ok := f.seen[url]
	return ok, nil
}

// memURLs bounds the URLs a crawl's own frontier (Crawler.Frontier nil)
// holds in memory, and the links to check it holds there: past them,
// both move to a temporary BoltFrontier file, so that a crawl of pages
// that each link thousands of new pages (2,000 a page took a crawl to
// 4 GB) is bounded in memory by constants.
const memURLs = 1 << 16

// spillFrontier is a crawl's own frontier: a MemFrontier until it has
// memURLs URLs, then a BoltFrontier in a temporary file of dir, which
// close removes.
type spillFrontier struct {
	dir  string
	mem  MemFrontier
	bolt *BoltFrontier
	// popped are the URLs popped from mem and not done, when it
	// spilled: the file never had them to pop.
	popped map[string]struct{}
}

func (f *spillFrontier) Push(it Item) (bool, error) {
	if f.bolt != nil {
		return f.bolt.Push(it)
	}
	ok, err := f.mem.Push(it)
	if ok && len(f.mem.seen) > memURLs {
		err = f.spill()
	}
	return ok, err
}

func (f *spillFrontier) Pop() (Item, bool, error) {
	if f.bolt != nil {
		return f.bolt.Pop()
	}
	it, ok, err := f.mem.Pop()
	if ok {
		if f.popped == nil {
			f.popped = map[string]struct{}{}
		}
		f.popped[it.URL] = struct{}{}
	}
	return it, ok, err
}

func (f *spillFrontier) Seen(url string) (bool, error) {
	if f.bolt != nil {
		return f.bolt.Seen(url)
	}
	return f.mem.Seen(url)
}

func (f *spillFrontier) Done(url string) error {
	if _, ok := f.popped[url]; ok {
		delete(f.popped, url)
		return nil
	}
	if f.bolt != nil {
		return f.bolt.Done(url)
	}
	return nil
}

// spill moves the URLs to a temporary file: those waiting to its queue,
// the others (fetched, or under way) to its seen-set only.
func (f *spillFrontier) spill() error {
	tf, err := os.CreateTemp(f.dir, "locator-crawl-frontier-*.db")
	if err != nil {
		return fmt.Errorf("crawl: frontier: %w", err)
	}
	path := tf.Name()
	tf.Close()
	b, err := openBolt(path, true)
	if err != nil {
		os.Remove(path)
		return err
	}
	queued := make(map[string]struct{}, len(f.mem.queue)-f.mem.head)
	for _, it := range f.mem.queue[f.mem.head:] {
		queued[it.URL] = struct{}{}
		if _, err := b.Push(it); err != nil {
			b.close()
			return err
		}
	}
	var others []string
	for u := range f.mem.seen {
		if _, ok := queued[u]; ok {
			continue
		}
		if others = append(others, u); len(others) == boltBatch {
			err = b.markSeen(others)
			others = others[:0]
		}
		if err != nil {
			b.close()
			return err
		}
	}
	if err := b.markSeen(others); err != nil {
		b.close()
		return err
	}
	f.bolt, f.mem = b, MemFrontier{}
	return nil
}

// close removes the temporary file, if there is one.
func (f *spillFrontier) close() error {
	if f.bolt == nil {
		return nil
	}
	return f.bolt.close()
}
