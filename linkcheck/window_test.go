package linkcheck

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"strconv"
	"sync/atomic"
	"testing"
	"time"
)

// notURLs yields n inputs that are not URLs (reported as they stand,
// nothing probed), counting those read.
func notURLs(n int, read *atomic.Int64) iter.Seq[Input] {
	return func(yield func(Input) bool) {
		for i := 0; i < n; i++ {
			read.Add(1)
			if !yield(Input{Text: strconv.Itoa(i), Err: errors.New("not a URL")}) {
				return
			}
		}
	}
}

// TestWindow: while the first result waits to be taken, the Checker
// reads window inputs ahead and no further, however many there are;
// then every input is reported once, in order.
func TestWindow(t *testing.T) {
	var read atomic.Int64
	const n = 5 * window
	release := make(chan struct{})
	next := 0
	var c Checker
	errc := make(chan error, 1)
	go func() {
		errc <- c.Check(context.Background(), notURLs(n, &read), func(r Result) error {
			if next == 0 {
				<-release
			}
			if r.Text != strconv.Itoa(next) || r.Status != nil || r.Err == nil {
				return fmt.Errorf("result %d: %+v", next, r)
			}
			next++
			return nil
		})
	}()
	deadline := time.Now().Add(10 * time.Second)
	for read.Load() < window+3 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	time.Sleep(50 * time.Millisecond) // room to read too far, if it would
	if got := read.Load(); got != window+3 {
		// The first input is in emit's hands, the second looked at
		// (is it ready?), window are queued and one waits to be.
		t.Errorf("%d inputs read while the first is held, want %d", got, window+3)
	}
	close(release)
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	if next != n || read.Load() != n {
		t.Errorf("%d reported, %d read, want %d", next, read.Load(), n)
	}
}

// TestEmitError: emit's error ends Check, which returns it and reads
// no further input.
func TestEmitError(t *testing.T) {
	var read atomic.Int64
	stop := errors.New("stop")
	seen := 0
	var c Checker
	err := c.Check(context.Background(), notURLs(100*window, &read), func(r Result) error {
		if seen++; seen == 3 {
			return stop
		}
		return nil
	})
	if err != stop || seen != 3 {
		t.Fatalf("Check = %v after %d results", err, seen)
	}
	// At most: the three emitted, the fourth taken to see whether it is
	// ready, window in the queue and one in the reader's hand.
	if got := read.Load(); got > 3+1+window+1 {
		t.Errorf("%d inputs read after emit failed at the third", got)
	}
}

// TestCancel: a context that ends stops Check with its error.
func TestCancel(t *testing.T) {
	var read atomic.Int64
	ctx, cancel := context.WithCancel(context.Background())
	seen := 0
	var c Checker
	err := c.Check(ctx, notURLs(100*window, &read), func(r Result) error {
		if seen++; seen == 2 {
			cancel()
		}
		return nil
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Check = %v, want context.Canceled", err)
	}
}

// TestRecent: the remember most recent distinct URLs are remembered; a
// URL given again becomes the most recent.
func TestRecent(t *testing.T) {
	r := newRecent(3)
	ps := make([]*probe, 5)
	for i := range ps {
		ps[i] = &probe{}
	}
	r.put("a", ps[0])
	r.put("b", ps[1])
	r.put("c", ps[2])
	if r.get("a") != ps[0] {
		t.Fatal("a forgotten")
	}
	r.put("d", ps[3]) // b is the least recent now
	if r.get("b") != nil || r.get("a") != ps[0] || r.get("c") != ps[2] || r.get("d") != ps[3] {
		t.Fatal("want b forgotten, a, c, d remembered")
	}
	if len(r.byURL) != 3 || r.order.Len() != 3 {
		t.Errorf("%d, %d held, want 3", len(r.byURL), r.order.Len())
	}
}
