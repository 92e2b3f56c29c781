package gateway

import "sync"

// A limiter counts what is open per key (a destination's address and
// port, a client's address) and refuses one more beyond its bound. It
// holds a key only while its count is above zero, so its size is bounded
// by what is open, never by how many keys were ever seen.
type limiter struct {
	max int
	mu  sync.Mutex
	n   map[string]int
}

func newLimiter(max int) *limiter {
	return &limiter{max: max, n: map[string]int{}}
}

// acquire takes one slot for key, or reports false when key already
// has max.
func (l *limiter) acquire(key string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.n[key] >= l.max {
		return false
	}
	l.n[key]++
	return true
}

// release gives back one slot acquire took for key.
func (l *limiter) release(key string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.n[key]--; l.n[key] <= 0 {
		delete(l.n, key)
	}
}
