package dest

import (
	"context"
	"sync"
	"time"
)

// A Pace keeps, for each key, the time before which no request to it
// may begin: a request that ends pushes it delay later (wget's --wait;
// robots.txt's Crawl-delay, "the number of seconds to wait between
// successive requests"). With several requests to a key under way at
// once (a Limiter of more than one slot), a request begins only delay
// after the last of those before it ended: those that wait begin
// together once the time has come. The zero Pace is ready to use.
type Pace struct {
	mu   sync.Mutex
	next map[string]time.Time
}

// Wait waits until a request to key may begin, or ctx is done (its
// error).
func (p *Pace) Wait(ctx context.Context, key string) error {
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		p.mu.Lock()
		at := p.next[key]
		p.mu.Unlock()
		d := time.Until(at)
		if d <= 0 {
			return nil
		}
		// Looked at again after the wait: a request that ended in
		// the meantime may have pushed the time later.
		t := time.NewTimer(d)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
	}
}

// Ended says that a request to key ended now: the next may begin delay
// later, or later when another said so. A delay of 0 or less changes
// nothing.
func (p *Pace) Ended(key string, delay time.Duration) {
	if delay <= 0 {
		return
	}
	at := time.Now().Add(delay)
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.next == nil {
		p.next = map[string]time.Time{}
	}
	if at.After(p.next[key]) {
		p.next[key] = at
	}
}
