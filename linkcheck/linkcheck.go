// Package linkcheck says, for many URLs at once, whether each object is
// there, without transferring it: a link checker over
// access.Client.Probe, and the scheduling a crawler shares with it.
//
// A Checker takes its inputs as a stream and reports one Result per
// input, in input order, as soon as the input and every one before it
// are answered. It is polite to the servers it asks:
//
//   - each distinct URL (as the parser writes it back, wrapper and "URL:"
//     removed) is probed once, and its answer reported at each place it
//     was given;
//   - at most Jobs probes are under way in all and PerDest to one
//     destination (a server, by name, any port); a probe waits for its
//     destination's turn, in input order, without holding one of the
//     Jobs, so that one slow server does not starve the others;
//   - a mailto URL, which names a mailbox to send to and no object
//     (access.ActionError), is judged by its syntax alone (RFC 1738
//     §3.5), so that checking a link never sends mail;
//   - a transient failure (a timeout, a reset connection, an FTP 4yz,
//     HTTP 503: access.Status.Transient) is tried again, Retries times,
//     after Backoff, then twice as long each time, within MaxTime; a
//     refused connection, a name that does not resolve or a 5yz never.
//
// Its memory is bounded by constants, never by how many inputs there
// are: it reads at most window inputs (and the few in hand) ahead of the
// oldest one not yet reported, and remembers the answers of the last remember distinct URLs
// for the repeats that follow them.
package linkcheck

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"sync"
	"time"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/internal/dest"
)

// Defaults of a Checker's zero fields.
const (
	DefaultJobs    = 16
	DefaultPerDest = 2
)

// Bounds on a Checker's memory.
const (
	// window is how many inputs a Checker reads ahead of the oldest one
	// it has not reported: the probes it may have under way or waiting,
	// and the answers it holds until their turn.
	window = 1024
	// remember is how many distinct URLs a Checker keeps the answer of,
	// the most recently given first, so that a repeat is not probed
	// again. Repeats in a document stand close together (a link's
	// address and its text); one given again after remember other URLs
	// is probed again.
	remember = 1 << 14
)

// A Checker probes URLs as the package comment says. The zero value is
// usable: each zero field takes the default named beside it. A Checker
// may be used for several Checks, one after another or at once; each
// Check has its own bounds.
type Checker struct {
	// Client probes each URL (Client.Probe); nil is access.DefaultClient.
	// Its sessions (an FTP login, an NNTP connection) serve the probes
	// of one server in turn; the caller ends them with CloseIdle.
	Client *access.Client
	// Jobs bounds the probes under way at once (DefaultJobs).
	Jobs int
	// PerDest bounds the probes under way at once to one destination,
	// the connections one server sees (DefaultPerDest).
	PerDest int
	// Retries is how many times a transient failure is tried again; 0
	// none.
	Retries int
	// Backoff is the wait before the first try again; each next wait is
	// twice as long. 0: none.
	Backoff time.Duration
	// MaxTime bounds one URL's probe, its retries and waits included,
	// as curl's --max-time; 0 none (the Client's timeouts still bound
	// each connection).
	MaxTime time.Duration
	// Delay is the least time between the end of a probe to a
	// destination and the beginning of the next to it (dest.Pace: with
	// PerDest above 1, the probes that wait begin together once the
	// time has come); 0 none. A probe that made no connection (policy,
	// a mailto URL's syntax) costs none.
	Delay time.Duration
}

// An Input is one URL to check, or what stood in its place.
type Input struct {
	// Text is the input as given, for the caller's report.
	Text string
	// URL is the URL to probe; nil when the input is not a URL, which
	// is reported, in its place, as it stands.
	URL *locator.URL
	// Err says why the input is not a URL (URL nil); the Checker passes
	// it on.
	Err error
}

// A Result is the answer for one input.
type Result struct {
	Input
	// Status is the probe's answer; nil when the input is not a URL.
	Status *access.Status
	// Tries counts the probes made (0 for an answer given by the URL's
	// syntax alone: mailto).
	Tries int
	// Elapsed is the probe's wall-clock time, waits between tries
	// included, not its wait for a slot.
	Elapsed time.Duration
	// Repeat is set when an earlier input gave the same URL: that
	// input's probe, its Status, Tries and Elapsed, is reported again,
	// and no probe was made for this one.
	Repeat bool
	// Flush is set when no later result is ready yet: the next one may
	// be long in coming, so that output written so far should be
	// flushed now rather than held back behind a slow server.
	Flush bool
}

// A MaxTimeError says that a URL's probe ran out of its MaxTime; it
// wraps the last try's error.
type MaxTimeError struct {
	URL   string // the URL the last try was about, password masked
	Max   time.Duration
	Tries int
	Err   error
}

func (e *MaxTimeError) Error() string {
	s := fmt.Sprintf("%s: the probe exceeded its maximum time (%v)", e.URL, e.Max)
	if e.Tries > 1 {
		s += fmt.Sprintf(" in %d tries", e.Tries)
	}
	return s
}

func (e *MaxTimeError) Unwrap() error { return e.Err }

// A probe is one distinct URL's probe, whose answer the inputs that give
// the URL share.
type probe struct {
	done    chan struct{}
	st      *access.Status
	tries   int
	elapsed time.Duration
}

// pending is one input read and not yet reported.
type pending struct {
	in     Input
	p      *probe // nil for an input that is not a URL
	repeat bool
}

func (p *pending) ready() bool {
	if p.p == nil {
		return true
	}
	select {
	case <-p.p.done:
		return true
	default:
		return false
	}
}

// Check probes the URLs of inputs and calls emit with each input's
// Result, in input order, from the goroutine that called Check. inputs
// is read on another goroutine, at most window inputs ahead of emit.
// When emit returns an error, or ctx ends, Check ends the probes under
// way, waits for them and returns that error; inputs is then read no
// further (its yield returns false the next time it is called).
func (c *Checker) Check(ctx context.Context, inputs iter.Seq[Input], emit func(Result) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s := c.start()
	queue := make(chan *pending, window)
	cut := false // the reader stopped before the inputs' end
	go func() {
		defer close(queue)
		seen := newRecent(remember)
		for in := range inputs {
			pe := &pending{in: in}
			if in.URL != nil {
				key := in.URL.String()
				if p := seen.get(key); p != nil {
					pe.p, pe.repeat = p, true
				} else {
					pe.p = &probe{done: make(chan struct{})}
					seen.put(key, pe.p)
					s.run(ctx, in.URL, pe.p)
				}
			}
			select {
			case queue <- pe:
			case <-ctx.Done():
				cut = true
				return
			}
		}
	}()
	err := c.report(ctx, queue, func() bool { return cut }, emit)
	cancel()
	s.stop()
	return err
}

// report calls emit for each input of queue in order, once its probe
// has ended. cut, asked once queue is closed, says whether the reader
// stopped early (ctx ended).
func (c *Checker) report(ctx context.Context, queue <-chan *pending, cut func() bool, emit func(Result) error) error {
	var next *pending
	for {
		cur := next
		next = nil
		if cur == nil {
			var ok bool
			if cur, ok = <-queue; !ok {
				if cut() {
					return ctx.Err()
				}
				return nil
			}
		}
		if cur.p != nil {
			select {
			case <-cur.p.done:
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		select {
		case next = <-queue: // nil when the inputs have ended
		default:
		}
		r := Result{Input: cur.in, Repeat: cur.repeat, Flush: next == nil || !next.ready()}
		if p := cur.p; p != nil {
			r.Status, r.Tries, r.Elapsed = p.st, p.tries, p.elapsed
		}
		if err := emit(r); err != nil {
			return err
		}
	}
}

// A schedule is one Check's bounds: Jobs in all, PerDest a destination.
type schedule struct {
	c       *Checker
	jobs    chan struct{}
	dests   *dest.Limiter
	pace    dest.Pace
	mu      sync.Mutex
	stopped bool // no probe begins any more
	wg      sync.WaitGroup
}

func (c *Checker) start() *schedule {
	jobs, per := c.Jobs, c.PerDest
	if jobs <= 0 {
		jobs = DefaultJobs
	}
	if per <= 0 {
		per = DefaultPerDest
	}
	return &schedule{c: c, jobs: make(chan struct{}, jobs), dests: dest.NewLimiter(per)}
}

// run probes u into p on a goroutine of its own, once u's destination
// and then one of the Jobs have a slot; p.done is closed when it ends.
// It takes u's place in its destination's line at once, so that the
// probes of one destination begin in input order.
func (s *schedule) run(ctx context.Context, u *locator.URL, p *probe) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopped {
		p.st = &access.Status{State: access.StateError, Size: -1, URL: u, Err: context.Canceled}
		close(p.done)
		return
	}
	key := s.c.Destination(u)
	var granted <-chan struct{}
	var cancel func() bool
	if key != "" {
		granted, cancel = s.dests.Wait(key)
	}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		defer close(p.done)
		if key != "" {
			select {
			case <-granted:
			case <-ctx.Done():
				if cancel() {
					p.st = &access.Status{State: access.StateError, Size: -1, URL: u, Err: ctx.Err()}
					return
				}
			}
			defer s.dests.Release(key)
			if err := s.pace.Wait(ctx, key); err != nil {
				p.st = &access.Status{State: access.StateError, Size: -1, URL: u, Err: err}
				return
			}
		}
		select {
		case s.jobs <- struct{}{}:
		case <-ctx.Done():
			p.st = &access.Status{State: access.StateError, Size: -1, URL: u, Err: ctx.Err()}
			return
		}
		defer func() { <-s.jobs }()
		start := time.Now()
		p.st, p.tries = s.c.probe(ctx, u)
		p.elapsed = time.Since(start)
		if key != "" && p.tries > 0 && p.st.State != access.StatePolicy {
			s.pace.Ended(key, s.c.Delay) // before the slot is given back
		}
	}()
}

// stop begins no more probes and waits for those begun to end.
func (s *schedule) stop() {
	s.mu.Lock()
	s.stopped = true
	s.mu.Unlock()
	s.wg.Wait()
}

func (c *Checker) client() *access.Client {
	if c.Client == nil {
		return access.DefaultClient
	}
	return c.Client
}

// Destination is the key of the server a probe of u talks to, the one
// PerDest bounds: its host (internal/dest.Name: any port, however the
// name is written); for a URL that names none, the server its scheme's
// client would ask (access.Client.Destination: a news URL's configured
// news server, RFC 1738 §3.6); "" (no bound) for a URL that names no
// server (file, mailto). A scheduler of its own (a pipeline keyed by destination) keys by
// it, so that its politeness is the Checker's.
func (c *Checker) Destination(u *locator.URL) string {
	return c.client().Destination(u)
}

// probe probes u under MaxTime, trying again after a transient failure,
// after Backoff, then twice as long, ... (Once, its waits on a timer).
func (c *Checker) probe(ctx context.Context, u *locator.URL) (*access.Status, int) {
	begun := time.Now()
	var st *access.Status
	tries := 0
	c.retry().Do(ctx, func() bool {
		var again time.Duration
		st, tries, again = c.Once(ctx, u, begun, tries)
		return again > 0
	})
	return st, tries
}

// retry is c's Retries, Backoff and MaxTime as an access.Retry: the one
// rule of when to try again, for Check's waits and for Once's answer.
func (c *Checker) retry() access.Retry {
	return access.Retry{Times: c.Retries, Wait: c.Backoff, Within: c.MaxTime}
}

// Once makes one try of u's probe, the one after tries earlier tries of
// a probe begun at begun, and says what comes next: again, the wait
// before the next try, when the answer is transient (Status.Transient),
// Retries allow one more and MaxTime (counted from begun) leaves time to
// begin it; 0 when st is the answer. It returns the tries made so far,
// this one included (0 for a mailto URL judged by its syntax). An
// answer MaxTime cut short says so: its error is a *MaxTimeError. Check
// waits between tries on a timer; a scheduler of its own (a pipeline's
// timers) calls Once again after the wait, so that no worker sleeps.
func (c *Checker) Once(ctx context.Context, u *locator.URL, begun time.Time, tries int) (st *access.Status, n int, again time.Duration) {
	cancel := context.CancelFunc(func() {})
	if c.MaxTime > 0 {
		ctx, cancel = context.WithDeadline(ctx, begun.Add(c.MaxTime))
	}
	defer cancel()
	st = c.client().Probe(ctx, u)
	n = tries + 1
	if n == 1 {
		if s := syntaxOnly(u, st); s != nil {
			return s, 0, 0
		}
	}
	if st.Transient && n <= c.Retries && ctx.Err() == nil {
		if again, ok := c.retry().Next(n, time.Since(begun)); ok {
			return st, n, max(again, 1) // no backoff: try again at once
		}
		// The wait would outlast MaxTime: the answer is this one, as
		// when the deadline passes during the wait.
		return c.expire(st, u, n), n, 0
	}
	if st.State == access.StateError && c.MaxTime > 0 && expired(ctx) {
		st = c.expire(st, u, n)
	}
	return st, n, 0
}

// expire marks st, an error, as cut short by MaxTime.
func (c *Checker) expire(st *access.Status, u *locator.URL, tries int) *access.Status {
	if st.State != access.StateError {
		return st
	}
	about := u
	if st.URL != nil {
		about = st.URL // the last URL a redirection led to
	}
	st.Err = &MaxTimeError{URL: access.Masked(about), Max: c.MaxTime, Tries: tries, Err: st.Err}
	return st
}

// expired says whether ctx's deadline has passed.
func expired(ctx context.Context) bool {
	d, ok := ctx.Deadline()
	return ok && !time.Now().Before(d)
}

// syntaxOnly judges a mailto URL by its syntax alone, when the mailto
// client refuses to probe it as an action, not an object
// (access.ActionError): following one could send mail, and asking a
// mail server whether a mailbox exists (RCPT TO) is left for later. A
// URL that conforms to RFC 1738 §3.5 (an RFC 822 addr-spec) is ok, code
// "syntax"; one with a violation is gone, code "syntax", the first
// violation as its text. It returns nil for every other URL and answer.
func syntaxOnly(u *locator.URL, st *access.Status) *access.Status {
	if u.Scheme() != "mailto" || !errors.As(st.Err, new(*access.ActionError)) {
		return nil
	}
	s := &access.Status{State: access.StateOK, Code: "syntax", Text: "the address conforms to RFC 1738 §3.5 (no mail server asked)", Size: -1, URL: u}
	for _, p := range u.Problems() {
		if p.Severity >= locator.Violation {
			s.State, s.Text = access.StateGone, p.Message
			s.Err = fmt.Errorf("%s: not a mail address by RFC 1738 §3.5: %s (at %d, %s)", access.Masked(u), p.Message, p.Offset, p.Rule)
			break
		}
	}
	return s
}
