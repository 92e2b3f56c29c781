package crawl

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
