package dest

import (
	"context"
	"sync"
)

// A Limiter counts what is open per key (a destination's address and
// port, a server's name, a client's address) and holds it at Max. A
// caller that may wait (a link checker, a crawler) waits in Acquire, in
// the order the callers came, so that the first asked is the first
// served; one that must answer at once (the gateway, which answers 503)
// uses TryAcquire. A key is held only while something is open or
// waiting for it, so the Limiter's size is bounded by what is under way,
// never by how many keys were ever seen.
type Limiter struct {
	max  int
	mu   sync.Mutex
	keys map[string]*count
}

// count is one key's slots taken and its callers waiting, first first.
type count struct {
	n       int
	waiting []chan struct{}
}

// NewLimiter returns a Limiter of n slots per key (n < 1: 1).
func NewLimiter(n int) *Limiter {
	return &Limiter{max: max(n, 1), keys: map[string]*count{}}
}

// TryAcquire takes one slot for key, or reports false at once when key
// has Max taken.
func (l *Limiter) TryAcquire(key string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	c := l.keys[key]
	if c == nil {
		c = &count{}
		l.keys[key] = c
	}
	// A slot given back while callers wait goes to the first of them
	// (Release), so n is below max only when nobody waits.
	if c.n >= l.max {
		return false
	}
	c.n++
	return true
}

// Acquire takes one slot for key, waiting behind the callers that came
// first while key has Max taken. It returns ctx's error, holding
// nothing, when ctx ends before a slot is free.
func (l *Limiter) Acquire(ctx context.Context, key string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	granted, cancel := l.Wait(key)
	select {
	case <-granted:
		return nil
	case <-ctx.Done():
	}
	if !cancel() {
		// Handed a slot as ctx ended: given back, to the next in line.
		l.Release(key)
	}
	return ctx.Err()
}

// Wait places the caller in line for a slot of key and returns at once:
// granted is closed when the caller holds the slot (at once when one is
// free). cancel, called at most once, gives up the place in line and
// reports true, or reports false when the slot was granted already,
// which the caller then holds (and gives back with Release). A caller that must keep its place in
// an order of its own (a link checker's inputs) calls Wait in that
// order, and waits for granted wherever it likes.
func (l *Limiter) Wait(key string) (granted <-chan struct{}, cancel func() bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	c := l.keys[key]
	if c == nil {
		c = &count{}
		l.keys[key] = c
	}
	if c.n < l.max {
		c.n++
		return closed, func() bool { return false }
	}
	ready := make(chan struct{})
	c.waiting = append(c.waiting, ready)
	return ready, func() bool {
		l.mu.Lock()
		defer l.mu.Unlock()
		for i, w := range c.waiting {
			if w == ready {
				c.waiting = append(c.waiting[:i], c.waiting[i+1:]...)
				return true
			}
		}
		return false
	}
}

// closed is the granted channel of a slot free at once.
var closed = func() chan struct{} {
	c := make(chan struct{})
	close(c)
	return c
}()

// Release gives back one slot Acquire or TryAcquire took for key: to
// the first caller waiting for key, if any.
func (l *Limiter) Release(key string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	c := l.keys[key]
	if c == nil || c.n == 0 {
		panic("dest: Release of " + key + " without a slot taken")
	}
	if len(c.waiting) > 0 {
		close(c.waiting[0])
		c.waiting[0] = nil
		c.waiting = c.waiting[1:]
		return
	}
	if c.n--; c.n == 0 {
		delete(l.keys, key)
	}
}
