package access

import (
	"context"
	"math"
	"time"
)

// A Retry says when a try that failed transiently (Transient,
// Status.Transient) is made again: curl's --retry, --retry-delay and
// --retry-max-time, and linkcheck's Retries and Backoff. The zero Retry
// makes one try.
type Retry struct {
	// Times is how many tries may follow the first.
	Times int
	// Wait is the wait before the first retry; each next wait is twice
	// the one before, at most MaxWait. 0: no wait.
	Wait time.Duration
	// Fixed makes every wait Wait (curl's --retry-delay).
	Fixed bool
	// MaxWait bounds each doubled wait (curl's ten minutes); 0 none.
	MaxWait time.Duration
	// Within bounds the time since the first try began in which a retry
	// may begin, its wait included (curl's --retry-max-time); 0 none.
	Within time.Duration
	// Notify, when not nil, is told of each retry before its wait: the
	// wait, and the retries left, this one included.
	Notify func(wait time.Duration, left int)
}

// Next says whether r allows a try after the n-th (n ≥ 1), when
// elapsed has passed since the first try began, and the wait before
// it. A scheduler of its own (a pipeline's timers) asks Next where Do
// would wait.
func (r Retry) Next(n int, elapsed time.Duration) (wait time.Duration, ok bool) {
	if n > r.Times {
		return 0, false
	}
	wait = r.Wait
	for i := 1; i < n && !r.Fixed; i++ {
		if wait <= math.MaxInt64/2 {
			wait *= 2
		}
		if r.MaxWait > 0 && wait > r.MaxWait {
			wait = r.MaxWait
		}
	}
	if r.Within > 0 && elapsed+wait > r.Within {
		return 0, false
	}
	return wait, true
}

// Do calls try, and again after a wait while try reports a failure
// worth trying again (again true), ctx is not done and r allows
// another try (Next). A wait that ctx ends is followed by no try. Do
// returns how many tries it made.
func (r Retry) Do(ctx context.Context, try func() (again bool)) int {
	start := time.Now()
	for n := 1; ; n++ {
		if !try() || ctx.Err() != nil {
			return n
		}
		wait, ok := r.Next(n, time.Since(start))
		if !ok {
			return n
		}
		if r.Notify != nil {
			r.Notify(wait, r.Times-n+1)
		}
		t := time.NewTimer(wait)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
		}
		if ctx.Err() != nil {
			return n
		}
	}
}
