package linkcheck

import "container/list"

// recent holds the probes of the last max distinct URLs given, by URL;
// a URL given again becomes the most recent, and the least recent is
// forgotten when one more comes.
type recent struct {
	max   int
	order *list.List // of *recentEntry, the most recent first
	byURL map[string]*list.Element
}

type recentEntry struct {
	url string
	p   *probe
}

func newRecent(max int) *recent {
	return &recent{max: max, order: list.New(), byURL: map[string]*list.Element{}}
}

// get returns the probe of url, or nil when it is not remembered.
func (r *recent) get(url string) *probe {
	e := r.byURL[url]
	if e == nil {
		return nil
	}
	r.order.MoveToFront(e)
	return e.Value.(*recentEntry).p
}

// put remembers p as the probe of url, which get did not find.
func (r *recent) put(url string, p *probe) {
	r.byURL[url] = r.order.PushFront(&recentEntry{url, p})
	if r.order.Len() > r.max {
		last := r.order.Back()
		r.order.Remove(last)
		delete(r.byURL, last.Value.(*recentEntry).url)
	}
}
