package crawl

import (
	"strings"

	"github.com/rfc1738/locator"
)

// checkSet holds the distinct links a crawl is to check once it is done,
// in the order found: in memory, or, with a BoltFrontier, in its file,
// at most boltBatch of them in memory at a time. With the crawl's own
// frontier, they move to its file once it has one, or once memURLs of
// them are held.
type checkSet struct {
	n       int // links held
	spill   *spillFrontier
	bolt    *BoltFrontier
	mem     map[string]struct{}
	order   []string // in memory; with bolt, those not written yet
	written int      // with bolt: links written
}

func (cs *checkSet) init(f Frontier) error {
	cs.mem = map[string]struct{}{}
	if b, ok := f.(*BoltFrontier); ok {
		cs.bolt = b
		return b.resetChecks()
	}
	cs.spill, _ = f.(*spillFrontier)
	return nil
}

// toFile moves the links held to the spillFrontier's file, making it
// when it has none yet.
func (cs *checkSet) toFile() error {
	if cs.spill.bolt == nil {
		if err := cs.spill.spill(); err != nil {
			return err
		}
	}
	cs.bolt = cs.spill.bolt
	if err := cs.bolt.resetChecks(); err != nil {
		return err
	}
	return cs.flush()
}

// add adds u unless it is there.
func (cs *checkSet) add(u *locator.URL) error {
	k := u.String()
	if _, ok := cs.mem[k]; ok {
		return nil
	}
	if cs.bolt != nil {
		if has, err := cs.bolt.hasCheck(k); has || err != nil {
			return err
		}
	}
	if cs.bolt == nil && cs.spill != nil && (cs.spill.bolt != nil || len(cs.order) >= memURLs) {
		if err := cs.toFile(); err != nil {
			return err
		}
		if has, err := cs.bolt.hasCheck(k); has || err != nil {
			return err
		}
	}
	k = strings.Clone(k)
	cs.mem[k] = struct{}{}
	cs.order = append(cs.order, k)
	cs.n++
	if cs.bolt != nil && len(cs.order) >= boltBatch {
		return cs.flush()
	}
	return nil
}

// flush writes the links held in memory to the bolt file.
func (cs *checkSet) flush() error {
	if cs.bolt == nil || len(cs.order) == 0 {
		return nil
	}
	if err := cs.bolt.addChecks(cs.order, uint64(cs.written)); err != nil {
		return err
	}
	cs.written += len(cs.order)
	clear(cs.mem)
	cs.order = cs.order[:0]
	return nil
}

// each calls fn with each link, in the order added, until it returns
// false.
func (cs *checkSet) each(fn func(string) bool) error {
	if cs.bolt != nil {
		if err := cs.flush(); err != nil {
			return err
		}
		return cs.bolt.eachCheck(fn)
	}
	for _, k := range cs.order {
		if !fn(k) {
			return nil
		}
	}
	return nil
}
