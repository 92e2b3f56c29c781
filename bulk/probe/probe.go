// Package probe is `locator probe` as an Apache Beam pipeline: each
// input URL gets the record `locator probe --json` gives it, and the
// servers are asked as politely as the command asks them, however many
// workers share the work (docs/bulk.md).
//
// The inputs are grouped by URL (each distinct URL is one task, probed
// once, its inputs with it), then by destination
// (linkcheck.Checker.Destination: the server, by name, any port) into
// chunks of at most LeaseSize tasks. Each destination is served by one
// stateful DoFn (hostFn), which Beam runs for one key at a time: its
// state holds the key's queue of chunks and the lease under way. A
// lease is at most about LeaseSize tasks handed to the runner, a
// goroutine of the worker's process, which probes them in rounds of at
// most PerHost begun together, each Delay after the one before ended;
// processing-time timers collect the answers finished so far and, at
// the lease's end, begin the next; another (its tag a URL) brings a
// transient failure back into the queue after linkcheck's backoff. No
// DoFn sleeps or waits for a probe, so that a server that stalls holds
// up its own key only; MaxUnderWay bounds the probes under way in a
// process.
package probe

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/state"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/timers"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/options/jobopts"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/bulk/job"
	"github.com/rfc1738/locator/ftp"
	"github.com/rfc1738/locator/gemini"
	lochttp "github.com/rfc1738/locator/http"
	"github.com/rfc1738/locator/internal/octets"
	"github.com/rfc1738/locator/internal/proberecord"
	"github.com/rfc1738/locator/linkcheck"
	"github.com/rfc1738/locator/news"
	"github.com/rfc1738/locator/nntp"
)

// Options are the pipeline's settings: those of `locator probe` that
// bear on the answers, and the politeness.
type Options struct {
	Inputs []string // file names or glob patterns: local, gs://, s3://; gzip detected
	Output string   // directory: records-*.ndjson, deadletter-*.ndjson

	PerHost int           // probes under way at once to one destination (linkcheck.DefaultPerDest)
	Delay   time.Duration // least time between the end of a round of probes to a destination and the next round
	Retries int           // tries again after a transient failure
	Backoff time.Duration // the first wait before trying again; each next one twice as long

	MaxTime    time.Duration // one URL's probe, its retries and waits included; 0 none
	Connect    time.Duration // access.Client.ConnectTimeout
	Idle       time.Duration // access.Client.IdleTimeout
	MaxRedirs  int           // access.Client.MaxRedirects, as --max-redirs (0: none followed)
	Allow      []string      // --allow-host rules (access.ParseRules)
	Deny       []string      // --deny-host rules
	AllowPorts []int         // --allow-port

	Batch int   // lines per element read (job.DefaultBatch)
	Block int64 // bytes per range of a plain input file (job.DefaultBlock)
}

// Defaults returns the options `locator probe` has when no flag is
// given.
func Defaults() Options {
	return Options{PerHost: linkcheck.DefaultPerDest, Retries: 2, Backoff: 500 * time.Millisecond,
		MaxTime: 30 * time.Second, Connect: 10 * time.Second, Idle: 15 * time.Second, MaxRedirs: access.DefaultMaxRedirects}
}

// check says what is wrong with o, as the command's usage errors do.
func (o *Options) check() error {
	switch {
	case len(o.Inputs) == 0:
		return fmt.Errorf("no input")
	case o.Output == "":
		return fmt.Errorf("no output directory")
	case o.PerHost <= 0 || o.Retries < 0 || o.Backoff < 0 || o.Delay < 0:
		return fmt.Errorf("--per-host must be positive; --retries, --backoff and --delay not negative")
	case o.MaxTime < 0 || o.Connect < 0 || o.Idle < 0 || o.MaxRedirs < 0:
		return fmt.Errorf("--max-time, --connect-timeout, --idle-timeout and --max-redirs must not be negative")
	}
	if _, err := access.ParseRules(o.Allow); err != nil {
		return fmt.Errorf("--allow-host: %v", err)
	}
	if _, err := access.ParseRules(o.Deny); err != nil {
		return fmt.Errorf("--deny-host: %v", err)
	}
	return nil
}

// checker is the Checker of a worker: the Client `locator probe` makes
// from the same settings (its scheme clients, limits and policy), and
// linkcheck's retry rules.
func (o *Options) checker() *linkcheck.Checker {
	allow, _ := access.ParseRules(o.Allow) // checked in Build
	deny, _ := access.ParseRules(o.Deny)
	c := &access.Client{
		Policy: access.Policy{AllowPorts: o.AllowPorts, Allow: allow, Deny: deny},
		Schemes: map[string]access.Fetcher{"ftp": &ftp.Client{}, "news": &news.Client{}, "nntp": &nntp.Client{},
			"http": &lochttp.Client{}, "gemini": &gemini.Client{}},
		ConnectTimeout: o.Connect,
		IdleTimeout:    o.Idle,
		MaxRedirects:   o.MaxRedirs,
		MaxSize:        1 << 20, // a menu or a listing the fallback reads
	}
	if o.MaxRedirs == 0 {
		c.MaxRedirects = -1
	}
	return &linkcheck.Checker{Client: c, PerDest: o.PerHost, Retries: o.Retries, Backoff: o.Backoff, MaxTime: o.MaxTime}
}

// Metrics: Beam counters in namespace "locator", summed over workers:
// the distinct URLs probed, the records by status (a repeat and an input
// that is not a URL, an error, count too, as in the command's summary
// line), and the tries again.
var (
	counters = map[access.State]beam.Counter{
		access.StateOK:      beam.NewCounter("locator", "ok"),
		access.StateGone:    beam.NewCounter("locator", "gone"),
		access.StateRefused: beam.NewCounter("locator", "refused"),
		access.StateError:   beam.NewCounter("locator", "error"),
		access.StatePolicy:  beam.NewCounter("locator", "policy"),
	}
	probed  = beam.NewCounter("locator", "probed")
	retried = beam.NewCounter("locator", "retried")
)

func count(ctx context.Context, st string) {
	if c, ok := counters[access.State(st)]; ok {
		c.Inc(ctx, 1)
	}
}

// Item is one input that is a URL, keyed by the URL.
type Item struct {
	URL  string // the URL as the parser writes it back: inputs with the same URL share a probe
	Dest string // its destination: the key of its probe
	Text string // the input as given (the "url" of an extract record)
	// The place `locator extract --json` found it (HasPos), else zero.
	HasPos bool
	File   string
	Line   int
	Column int
	Offset int64
}

// task is one distinct URL in its destination's queue, with the inputs
// its answer is for.
type task struct {
	URL, Text string
	Inputs    []Item // the first MaxInputs inputs of the URL
	More      bool   // more inputs than those: the answer joins them (repeatFn)
	Tries     int    // tries made
	Begun     int64  // when the first try began (Unix ns); 0 not yet
}

// clock is a destination's queue bounds and its next round.
type clock struct {
	Head, Tail int64  // the queue's tasks are Queue[Head], ..., Queue[Tail-1]
	Next       int64  // the next round may begin then (Unix ns)
	Lease      string // the lease under way (in leases), "" none
	Taken      int    // the lease's answers collected: a firing that fails is not counted
	Poll       int64  // the last wait before looking at the lease again, its estimate passed (ns)
}

func init() {
	for _, t := range []any{Item{}, task{}, clock{}, proberecord.Answer{}} {
		beam.RegisterType(reflect.TypeOf(t))
	}
	register.DoFn4x0[context.Context, []string, func(string), func(string, Item)](&parseFn{})
	register.Emitter2[string, Item]()
	register.Function4x0(distinct)
	register.Iter1[Item]()
	register.Emitter2[string, task]()
	register.Emitter2[string, proberecord.Answer]()
	register.Iter1[proberecord.Answer]()
	register.Function5x0(repeatFn)
	register.Function3x0(chunk)
	register.Iter1[task]()
	register.Emitter2[string, []task]()
	register.DoFn7x1[context.Context, state.Provider, timers.Provider, string, []task, func(string), func(string, proberecord.Answer), error](&hostFn{})
}

// NoDynamicSplits is the experiment that stops prism splitting a bundle
// under way. Prism v2.77.0 splits the bundles of every stage, the
// stateful one's too, and on a split it frees the keys of the elements
// split off although the primary part still runs with the same keys
// (engine.stageState.splitBundle): a later bundle of such a key may then
// run beside it with the key's state stale (a queue seen as absent, its
// writes then overwritten), and URLs were lost.
const NoDynamicSplits = "prism_disable_sdf_split"

// Build adds the pipeline to s. It checks first (a *job.ConfigError),
// before any network work: the options, every input (each pattern must
// name files, each file must open), and the output directory, which
// must take a file (one written and removed). It adds NoDynamicSplits
// to the job's experiments (jobopts.Experiments); other runners ignore
// it.
func Build(ctx context.Context, s beam.Scope, o Options) error {
	if err := o.check(); err != nil {
		return &job.ConfigError{What: "options", Err: err}
	}
	if !slices.Contains(jobopts.GetExperiments(), NoDynamicSplits) {
		*jobopts.Experiments = strings.Join(append(jobopts.GetExperiments(), NoDynamicSplits), ",")
	}
	for _, in := range o.Inputs {
		if err := readable(ctx, in); err != nil {
			return &job.ConfigError{What: "input " + in, Err: err}
		}
	}
	if err := job.CheckOutput(ctx, o.Output); err != nil {
		return err
	}
	s = s.Scope("probe")
	batches, dead := job.ReadLines(s, o.Inputs, o.Batch, o.Block)
	notURLs, byURL := beam.ParDo2(s, &parseFn{Opts: o}, batches)
	tasks, repeats := beam.ParDo2(s, distinct, beam.GroupByKey(s, byURL))
	chunks := beam.ParDo(s, chunk, beam.GroupByKey(s, tasks))
	answered, answers := beam.ParDo2(s, &hostFn{
		Opts:     o,
		Wake:     timers.InProcessingTime("wake"),
		Clock:    state.MakeValueState[clock]("clock"),
		Queue:    state.MakeMapState[int64, []task]("queue"),
		Retrying: state.MakeMapState[string, task]("retrying"),
		InFlight: state.MakeValueState[[]task]("inflight"),
	}, chunks)
	joined := beam.ParDo(s, repeatFn, beam.CoGroupByKey(s, repeats, answers))
	job.Write(s, o.Output, "records", ".ndjson", beam.Flatten(s, notURLs, answered, joined))
	job.DeadLetters(s, o.Output, dead)
	return nil
}

// readable says why the pattern in names no file, or a file of it cannot
// be opened.
func readable(ctx context.Context, in string) error {
	fs, err := filesystem.New(ctx, in)
	if err != nil {
		return err
	}
	defer fs.Close()
	names, err := fs.List(ctx, in)
	if err != nil {
		return err
	}
	if len(names) == 0 {
		return fmt.Errorf("no file matches")
	}
	for _, n := range names {
		rc, err := fs.OpenRead(ctx, n)
		if err != nil {
			return err
		}
		var b [1]byte
		_, err = rc.Read(b[:])
		rc.Close()
		if err != nil && err != io.EOF {
			return fmt.Errorf("%s: %v", n, err)
		}
	}
	return nil
}

// parseFn reads each input line as the command does (a URL, or an
// extract record): an input that is not a URL gets its record at once;
// a URL is keyed by itself, its destination with it. A URL with no
// destination (file, mailto) is a destination of its own: nothing
// bounds it, as in linkcheck.
type parseFn struct {
	Opts Options
	c    *linkcheck.Checker
}

func (f *parseFn) Setup() { f.c = f.Opts.checker() }

func (f *parseFn) ProcessElement(ctx context.Context, batch []string, rec func(string), emit func(string, Item)) {
	for _, text := range batch {
		in, pos := proberecord.Input(text, true)
		if in.URL == nil {
			count(ctx, string(access.StateError))
			rec(recordLine(proberecord.NotURL(in), pos))
			continue
		}
		it := Item{URL: in.URL.String(), Text: in.Text}
		if pos != nil {
			it.HasPos, it.File, it.Line, it.Column, it.Offset = true, pos.File, pos.Line, pos.Column, pos.Offset
		}
		it.Dest = f.c.Destination(in.URL)
		if it.Dest == "" {
			it.Dest = "\x00" + it.URL
		}
		emit(it.URL, it)
	}
}

// MaxInputs is the most inputs a task carries: a URL given more often
// (a link on every page of a site) has the rest joined with its answer
// by URL (repeatFn), so that no element grows with the input.
const MaxInputs = 64

// distinct makes the task of one distinct URL from the inputs that
// give it (a GroupByKey by URL), keyed by its destination: the URL is
// probed once and its answer is written for each of them. Inputs past
// MaxInputs go to repeat, keyed by the URL.
func distinct(u string, inputs func(*Item) bool, emit func(string, task), repeat func(string, Item)) {
	var t task
	var it Item
	for inputs(&it) {
		switch {
		case t.Inputs == nil:
			t.URL, t.Text = u, it.Text
			fallthrough
		case len(t.Inputs) < MaxInputs:
			t.Inputs = append(t.Inputs, it)
		default:
			t.More = true
			repeat(u, it)
		}
	}
	emit(t.Inputs[0].Dest, t)
}

// repeatFn writes the records of a URL's inputs past MaxInputs (a
// CoGroupByKey by URL of them and its answer, which hostFn gives only
// for a task with More).
func repeatFn(ctx context.Context, u string, inputs func(*Item) bool, answers func(*proberecord.Answer) bool, emit func(string)) {
	var a proberecord.Answer
	if !answers(&a) {
		panic("locator-bulk probe: no answer for " + u) // hostFn answers every task it is given
	}
	var it Item
	for inputs(&it) {
		count(ctx, a.State)
		emit(it.record(a))
	}
}

// chunk cuts a destination's tasks (a GroupByKey by destination) into
// elements of at most LeaseSize: the stateful stage's state operations
// are a few per chunk, not per URL.
func chunk(dest string, tasks func(*task) bool, emit func(string, []task)) {
	var c []task
	var t task
	for tasks(&t) {
		c = append(c, t)
		if len(c) == LeaseSize {
			emit(dest, c)
			c = nil
		}
	}
	if len(c) > 0 {
		emit(dest, c)
	}
}

// recordLine is the NDJSON line of rec, byte for byte the command's,
// with the extract record's place after it when there is one.
func recordLine(rec proberecord.Record, pos *proberecord.Position) string {
	b, err := octets.Line(rec)
	if err != nil {
		panic(err) // a Record of strings and numbers always marshals
	}
	if pos != nil {
		p, err := octets.Line(pos)
		if err != nil {
			panic(err)
		}
		b = append(append(b[:len(b)-1], ','), p[1:]...)
	}
	return string(b) + "\n"
}

func (it Item) record(a proberecord.Answer) string {
	var pos *proberecord.Position
	if it.HasPos {
		pos = &proberecord.Position{File: it.File, Line: it.Line, Column: it.Column, Offset: it.Offset}
	}
	return recordLine(a.Record(it.Text), pos)
}

// Bounds of a worker process's runner (docs/bulk.md): they keep its
// memory bounded by constants, whatever the number of keys.
const (
	// LeaseSize is the most tasks a key hands the runner at once.
	LeaseSize = 256
	// MaxUnderWay is the most probes under way at once in a process,
	// all keys together, as the command's --jobs (whose default is 16).
	MaxUnderWay = 64
	// maxLeases is the most leases a process holds at once; a key
	// that finds none free asks again later.
	maxLeases = 1024
)

var (
	leases    sync.Map // lease id → *lease: the leases of this process
	leaseSlot = make(chan struct{}, maxLeases)
	probeSlot = make(chan struct{}, MaxUnderWay)
)

// hostFn serves one destination (its key) as the package comment says.
type hostFn struct {
	Opts Options

	// Wake begins a lease or collects the one under way (tag ""), or
	// brings a URL back (tag: the URL). One family: prism v2.77.0 never
	// fires the timers of a DoFn with two processing-time families
	// (TestPrismTimerFamilies).
	Wake     timers.ProcessingTime
	Clock    state.Value[clock]       // the queue's bounds, the next round, the lease
	Queue    state.Map[int64, []task] // chunks of the distinct URLs to probe, in order
	Retrying state.Map[string, task]  // by URL: a task waiting for its Wake timer
	InFlight state.Value[[]task]      // the lease under way's tasks

	launch []pending // the leases begun in the bundle, run when it finishes
}

// pending is a lease begun in a bundle, not yet handed to the runner.
type pending struct {
	id  string
	run func()
}

// ProcessElement queues a chunk of the key's tasks.
func (f *hostFn) ProcessElement(ctx context.Context, sp state.Provider, tp timers.Provider, key string, tasks []task, _ func(string), _ func(string, proberecord.Answer)) error {
	c, _, err := f.Clock.Read(sp)
	if err != nil {
		return err
	}
	return f.enqueue(sp, tp, &c, tasks)
}

// enqueue hands tasks to the runner at once when the key has no lease
// under way and nothing queued (a lease free in the process), or puts
// them at the queue's end; with no lease under way it then sets the timer
// that begins one. A lease under way has its collection timer set (the
// same callback wrote both): its end takes the next lease, and setting
// the timer again would only fire it sooner, for nothing.
func (f *hostFn) enqueue(sp state.Provider, tp timers.Provider, c *clock, tasks []task) error {
	if c.Lease == "" && c.Head == c.Tail && leaseFree() {
		if err := f.start(sp, tp, c, tasks); err != nil {
			return err
		}
		return f.Clock.Write(sp, *c)
	}
	if err := f.Queue.Put(sp, c.Tail, tasks); err != nil {
		return err
	}
	c.Tail++
	if c.Lease == "" {
		f.Wake.Set(tp, time.Unix(0, max(time.Now().UnixNano(), c.Next)))
	}
	return f.Clock.Write(sp, *c)
}

// OnTimer brings a URL back into the queue (its tag), or (tag "")
// collects the lease under way and, the queue not empty and no lease
// under way, begins the next.
func (f *hostFn) OnTimer(ctx context.Context, sp state.Provider, tp timers.Provider, key string, timer timers.Context, emit func(string), answer func(string, proberecord.Answer)) error {
	c, _, err := f.Clock.Read(sp)
	if err != nil {
		return err
	}
	if timer.Tag != "" {
		t, ok, err := f.Retrying.Get(sp, timer.Tag)
		if err != nil || !ok {
			return err
		}
		if err := f.Retrying.Remove(sp, timer.Tag); err != nil {
			return err
		}
		return f.enqueue(sp, tp, &c, []task{t})
	}
	if c.Lease != "" {
		if err := f.collect(ctx, sp, &c, tp, emit, answer); err != nil {
			return err
		}
		if c.Lease != "" {
			return f.Clock.Write(sp, c)
		}
	}
	if c.Head < c.Tail {
		if err := f.begin(sp, tp, &c); err != nil {
			return err
		}
	}
	return f.Clock.Write(sp, c)
}

// leaseFree takes one of the process's maxLeases, if one is free.
func leaseFree() bool {
	select {
	case leaseSlot <- struct{}{}:
		return true
	default:
		return false
	}
}

// begin hands the runner the key's next lease: the queue's first chunks,
// as long as the lease holds fewer than LeaseSize tasks (so at most
// 2*LeaseSize-1). When the process holds maxLeases already, it looks
// again later.
func (f *hostFn) begin(sp state.Provider, tp timers.Provider, c *clock) error {
	if !leaseFree() {
		c.Poll = min(max(2*c.Poll, int64(2*time.Millisecond)), int64(250*time.Millisecond))
		f.Wake.Set(tp, time.Now().Add(time.Duration(c.Poll)))
		return nil
	}
	var tasks []task
	for ; c.Head < c.Tail && len(tasks) < LeaseSize; c.Head++ {
		ts, ok, err := f.Queue.Get(sp, c.Head)
		if err != nil {
			<-leaseSlot
			return err
		}
		if err := f.Queue.Remove(sp, c.Head); err != nil {
			<-leaseSlot
			return err
		}
		if ok {
			tasks = append(tasks, ts...)
		}
	}
	if len(tasks) == 0 {
		<-leaseSlot
		return nil
	}
	return f.start(sp, tp, c, tasks)
}

// start begins the lease of tasks (its slot taken), its first round not
// before c.Next, and sets the timer that collects it. The runner takes
// it when the bundle finishes (FinishBundle): its probes, begun at once,
// would slow the rest of the bundle, the other keys' leases with it.
func (f *hostFn) start(sp state.Provider, tp timers.Provider, c *clock, tasks []task) error {
	if err := f.InFlight.Write(sp, tasks); err != nil {
		<-leaseSlot
		return err
	}
	var id [8]byte
	rand.Read(id[:])
	c.Lease, c.Taken, c.Poll = hex.EncodeToString(id[:]), 0, 0
	l := &lease{left: len(tasks), per: f.Opts.PerHost}
	leases.Store(c.Lease, l)
	next := time.Unix(0, c.Next)
	f.launch = append(f.launch, pending{c.Lease, func() { go l.run(f.Opts.checker(), tasks, f.Opts.Delay, next) }})
	f.Wake.Set(tp, time.Now().Add(l.wait(c)))
	return nil
}

// StartBundle drops the leases of a bundle that failed before it
// finished: its state was not kept, so its retry begins them again.
func (f *hostFn) StartBundle(_ func(string), _ func(string, proberecord.Answer)) {
	for _, p := range f.launch {
		if _, ok := leases.LoadAndDelete(p.id); ok {
			<-leaseSlot
		}
	}
	f.launch = nil
}

// FinishBundle hands the bundle's leases to the runner.
func (f *hostFn) FinishBundle(_ func(string), _ func(string, proberecord.Answer)) {
	for _, p := range f.launch {
		p.run()
	}
	f.launch = nil
}

// A lease is a key's tasks probed on the runner, a goroutine of the
// worker's process, while the worker serves other keys: in rounds of at
// most PerHost probes begun together, each round Delay after the one
// before ended, the connections closed after each round. Its answers
// wait in done for the key's next timer firing.
type lease struct {
	per int // PerHost

	mu       sync.Mutex
	done     []outcome // the answers, in the order their rounds ended
	left     int       // tasks whose round has not ended
	finished bool      // every round has ended
	next     time.Time // the next round after the last ended may begin then
	rounds   int       // rounds ended
	spent    time.Duration
}

// An outcome is one task's try, linkcheck.Checker.Once's answer.
type outcome struct {
	t     task
	st    *access.Status
	tries int
	again time.Duration
	took  time.Duration
}

// run probes tasks in rounds, the first not before next.
func (l *lease) run(c *linkcheck.Checker, tasks []task, delay time.Duration, next time.Time) {
	for len(tasks) > 0 {
		time.Sleep(time.Until(next))
		round := tasks[:min(l.per, len(tasks))]
		tasks = tasks[len(round):]
		began := time.Now()
		outs := make([]outcome, len(round))
		ends := make([]time.Time, len(round))
		var wg sync.WaitGroup
		for i, t := range round {
			wg.Add(1)
			go func() {
				defer wg.Done()
				probeSlot <- struct{}{}
				defer func() { <-probeSlot }()
				if t.Begun == 0 {
					t.Begun = time.Now().UnixNano()
				}
				o := outcome{t: t}
				if in, _ := proberecord.Input(t.Text, false); in.URL == nil { // cannot be: parseFn keyed it as a URL
					o.st = &access.Status{State: access.StateError, Size: -1, Err: in.Err}
				} else {
					// Not a bundle's context: the probe outlives the
					// firing that began it; its own limits bound it.
					o.st, o.tries, o.again = c.Once(context.Background(), in.URL, time.Unix(0, t.Begun), t.Tries)
				}
				ends[i] = time.Now()
				o.took = ends[i].Sub(time.Unix(0, t.Begun))
				outs[i] = o
			}()
		}
		wg.Wait()
		// The lease's Checker is its own: its sessions are to this
		// destination only, never more than PerHost (a probe dials
		// only when none is idle, and a round has PerHost). With a
		// delay they are closed after each round, so that a server
		// holds no connection of ours while it waits; without one they
		// serve the next round, as the command's do.
		if delay > 0 || len(tasks) == 0 {
			c.Client.CloseIdle()
		}
		ended, asked := began, false
		for i, o := range outs {
			ended = later(ended, ends[i])
			if o.tries > 0 && o.st.State != access.StatePolicy {
				asked = true // a connection was made, or tried
			}
		}
		next = ended
		if asked {
			next = ended.Add(delay) // a round that asked no server costs no delay
		}
		l.mu.Lock()
		l.done = append(l.done, outs...)
		l.left -= len(round)
		l.rounds++
		l.spent += next.Sub(began)
		l.finished, l.next = len(tasks) == 0, next
		l.mu.Unlock()
	}
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// take returns the answers after the first taken (the lease keeps them
// all, at most LeaseSize: a firing that fails leaves the key's count
// where it was, and the next takes them again), and whether the lease
// has ended, with the time the key's next round may begin.
func (l *lease) take(taken int) ([]outcome, bool, time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.done[min(taken, len(l.done)):len(l.done):len(l.done)], l.finished, l.next
}

// wait is the time until the key looks at its lease again: the time the
// rounds left are expected to take (the mean of those ended, from the
// last one's end), or once that has passed (or before any round ended)
// c.Poll doubled, from 2 ms to 64 ms; never more than a
// second, so that answers are written as they come. It sets c.Poll.
func (l *lease) wait(c *clock) time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.rounds > 0 && l.left > 0 {
		mean := l.spent / time.Duration(l.rounds)
		rounds := time.Duration((l.left + l.per - 1) / l.per)
		// The next round begins at l.next (or has begun); each takes
		// about the mean, its delay after it included.
		if est := time.Until(l.next.Add(mean * rounds)); est > 2*time.Millisecond {
			c.Poll = 0
			return min(est, time.Second)
		}
	}
	c.Poll = min(max(2*c.Poll, int64(2*time.Millisecond)), int64(64*time.Millisecond))
	return time.Duration(c.Poll)
}

// collect writes the lease's answers given so far (a transient failure
// set to come back on its timer instead) and, when the lease has ended,
// ends it: the key's next round Delay after its last, c.Lease "".
// Until then the timer is set again (lease.wait). A lease this process
// does not know (the key moved to another worker, which a runner may do
// between two firings) is ended too: its tasks not answered go back
// into the queue.
func (f *hostFn) collect(ctx context.Context, sp state.Provider, c *clock, tp timers.Provider, emit func(string), answer func(string, proberecord.Answer)) error {
	v, ok := leases.Load(c.Lease)
	if !ok {
		return f.requeue(sp, c)
	}
	l := v.(*lease)
	outs, finished, next := l.take(c.Taken)
	c.Taken += len(outs)
	for _, o := range outs {
		t := o.t
		if o.again > 0 {
			retried.Inc(ctx, 1)
			t.Tries = o.tries
			if err := f.Retrying.Put(sp, t.URL, t); err != nil {
				return err
			}
			f.Wake.Set(tp, time.Now().Add(o.again), timers.WithTag(t.URL))
			continue
		}
		a := proberecord.AnswerOf(o.st, o.tries, o.took)
		probed.Inc(ctx, 1)
		for _, it := range t.Inputs {
			count(ctx, a.State)
			emit(it.record(a))
		}
		if t.More {
			answer(t.URL, a)
		}
	}
	if !finished {
		f.Wake.Set(tp, time.Now().Add(l.wait(c)))
		return nil
	}
	if _, ok := leases.LoadAndDelete(c.Lease); ok {
		<-leaseSlot
	}
	c.Lease, c.Taken, c.Poll = "", 0, 0
	c.Next = max(c.Next, next.UnixNano())
	return f.InFlight.Clear(sp)
}

// requeue puts the tasks of the lease under way not yet collected back
// into the queue (the lease's answers are in the order of its tasks),
// and ends the lease.
func (f *hostFn) requeue(sp state.Provider, c *clock) error {
	tasks, _, err := f.InFlight.Read(sp)
	if err != nil {
		return err
	}
	if c.Taken < len(tasks) {
		if err := f.Queue.Put(sp, c.Tail, tasks[c.Taken:]); err != nil {
			return err
		}
		c.Tail++
	}
	c.Lease, c.Taken, c.Poll = "", 0, 0
	return f.InFlight.Clear(sp)
}
