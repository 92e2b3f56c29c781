package archive

import (
	"context"
	"sort"
	"time"
)

// atKey is the context key of the time a Lookup asks for.
type atKey struct{}

// WithTime returns ctx with t: a Reader's Lookup under it returns the
// capture of the URL closest to t (RFC 7089 §4: the Memento a TimeGate
// selects for an Accept-Datetime), not the latest. Every URL a replay
// looks up under ctx (a redirection's target too) is taken at t.
func WithTime(ctx context.Context, t time.Time) context.Context {
	return context.WithValue(ctx, atKey{}, t)
}

// timeFrom returns the time WithTime put in ctx.
func timeFrom(ctx context.Context) (time.Time, bool) {
	t, ok := ctx.Value(atKey{}).(time.Time)
	return t, ok
}

// byDistance returns caps (sorted by time) in the order a Lookup at t
// tries them: the closest first, the earlier of two equally far.
func byDistance(caps []*capture, t time.Time) []*capture {
	out := append([]*capture(nil), caps...)
	dist := func(c *capture) time.Duration {
		d := c.t.Sub(t)
		if d < 0 {
			return -d
		}
		return d
	}
	sort.SliceStable(out, func(i, j int) bool { return dist(out[i]) < dist(out[j]) })
	return out
}
