package archive

import (
	"container/heap"
	"strings"
)

// Holdings returns the URLs r holds a capture of, one for each index key
// (Key: the SURT form for http and https), the first max of them in the
// keys' order (a site's pages together, as a CDXJ index sorts them), and
// how many there are. Its memory is that of max URLs whatever r holds.
func (r *Reader) Holdings(max int) (urls []string, total int) {
	if max <= 0 {
		return nil, len(r.byKey)
	}
	h := &keyHeap{}
	for k, cs := range r.byKey {
		if len(cs) == 0 {
			continue
		}
		total++
		if h.Len() < max {
			heap.Push(h, holding{k, cs[len(cs)-1].url})
		} else if k < (*h)[0].key {
			(*h)[0] = holding{k, cs[len(cs)-1].url}
			heap.Fix(h, 0)
		}
	}
	out := make([]holding, h.Len())
	for i := len(out) - 1; i >= 0; i-- {
		out[i] = heap.Pop(h).(holding)
	}
	for _, x := range out {
		urls = append(urls, x.url)
	}
	return urls, total
}

type holding struct{ key, url string }

// keyHeap is a max-heap of keys: its top is the greatest key kept, the
// one a smaller key replaces.
type keyHeap []holding

func (h keyHeap) Len() int           { return len(h) }
func (h keyHeap) Less(i, j int) bool { return strings.Compare(h[i].key, h[j].key) > 0 }
func (h keyHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *keyHeap) Push(x any)        { *h = append(*h, x.(holding)) }
func (h *keyHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
