package access_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/rfc1738/locator/access"
)

// Retry's waits: doubled from Wait up to MaxWait, or each Wait when
// Fixed (curl's --retry-delay); Times tries after the first at most;
// none once a try succeeds, nor once Within would be passed.
func TestRetryWaits(t *testing.T) {
	ms := time.Millisecond
	for _, tc := range []struct {
		name  string
		r     access.Retry
		fails int // tries that fail before one succeeds
		tries int
		waits []time.Duration
		lefts []int
	}{
		{"zero", access.Retry{}, 5, 1, nil, nil},
		{"negative", access.Retry{Times: -1, Wait: ms}, 5, 1, nil, nil},
		{"doubled", access.Retry{Times: 3, Wait: ms}, 9, 4, []time.Duration{ms, 2 * ms, 4 * ms}, []int{3, 2, 1}},
		{"capped", access.Retry{Times: 4, Wait: ms, MaxWait: 3 * ms}, 9, 5, []time.Duration{ms, 2 * ms, 3 * ms, 3 * ms}, []int{4, 3, 2, 1}},
		{"fixed", access.Retry{Times: 2, Wait: 2 * ms, Fixed: true, MaxWait: ms}, 9, 3, []time.Duration{2 * ms, 2 * ms}, []int{2, 1}},
		{"succeeds", access.Retry{Times: 5, Wait: ms}, 2, 3, []time.Duration{ms, 2 * ms}, []int{5, 4}},
		{"first succeeds", access.Retry{Times: 5, Wait: ms}, 0, 1, nil, nil},
		// The first wait alone passes Within: no retry begins.
		{"within", access.Retry{Times: 5, Wait: time.Hour, Within: time.Minute}, 9, 1, nil, nil},
		{"no wait", access.Retry{Times: 2}, 9, 3, []time.Duration{0, 0}, []int{2, 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var waits []time.Duration
			var lefts []int
			tc.r.Notify = func(w time.Duration, left int) {
				waits, lefts = append(waits, w), append(lefts, left)
			}
			made := 0
			n := tc.r.Do(context.Background(), func() bool {
				made++
				return made <= tc.fails
			})
			if n != tc.tries || made != n {
				t.Errorf("Do = %d, %d tries made; want %d", n, made, tc.tries)
			}
			if !slices.Equal(waits, tc.waits) || !slices.Equal(lefts, tc.lefts) {
				t.Errorf("waits %v, left %v; want %v, %v", waits, lefts, tc.waits, tc.lefts)
			}
		})
	}
}

// A done context ends the retries: none after a try that finds it
// done, and none after a wait that it cut short.
func TestRetryContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	made := 0
	if n := (access.Retry{Times: 3}).Do(ctx, func() bool { made++; return true }); n != 1 || made != 1 {
		t.Errorf("done before: Do = %d, %d tries", n, made)
	}
	ctx, cancel = context.WithCancel(context.Background())
	made = 0
	r := access.Retry{Times: 3, Wait: time.Hour, Notify: func(time.Duration, int) { cancel() }}
	if n := r.Do(ctx, func() bool { made++; return true }); n != 1 || made != 1 {
		t.Errorf("cancelled in the wait: Do = %d, %d tries", n, made)
	}
}

// Next gives a scheduler the wait Do would make after the n-th try, and
// says when no try may follow: past Times, or when the wait would end
// past Within.
func TestRetryNext(t *testing.T) {
	ms := time.Millisecond
	r := access.Retry{Times: 3, Wait: ms, MaxWait: 3 * ms, Within: 10 * ms}
	for _, tc := range []struct {
		n       int
		elapsed time.Duration
		wait    time.Duration
		ok      bool
	}{
		{1, 0, ms, true},
		{2, 0, 2 * ms, true},
		{3, 0, 3 * ms, true}, // doubled to 4, capped at 3
		{4, 0, 0, false},     // past Times
		{3, 7 * ms, 3 * ms, true},
		{3, 8 * ms, 0, false}, // the wait would end past Within
	} {
		if wait, ok := r.Next(tc.n, tc.elapsed); wait != tc.wait || ok != tc.ok {
			t.Errorf("Next(%d, %v) = %v, %v; want %v, %v", tc.n, tc.elapsed, wait, ok, tc.wait, tc.ok)
		}
	}
}
