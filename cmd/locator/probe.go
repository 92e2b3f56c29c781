package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/internal/printable"
	"github.com/rfc1738/locator/internal/proberecord"
	"github.com/rfc1738/locator/linkcheck"
)

func init() {
	register(&command{
		name: "probe",
		args: "[flags] URL... (or - for one URL a line, or the NDJSON of extract --json)",
		summary: "say for each URL whether the object is there, without transferring it: ok, gone, refused, error or policy, one line a URL in input order; " +
			"exit 0 all ok, 1 some not, 2 trouble",
		flags: probeFlags,
	})
}

type probeOptions struct {
	limits
	policy
	schemeOptions
	proxy                  proxyOptions
	gemini                 geminiOptions
	jobs, perHost, retries int
	backoff, delay         time.Duration
	json, verbose          bool
	forceProgress          bool     // tests
	archive                fileList // --archive (archived.go)
}

// probeBounds are the limits probe takes; --max-time bounds each URL.
const probeBounds = boundMaxTime | boundTimeouts | boundRedirs

func probeFlags(fs *flag.FlagSet) func(*env, []string) int {
	o := probeOptions{limits: limits{
		maxTime:   30 * time.Second,
		connect:   10 * time.Second,
		idle:      15 * time.Second,
		maxRedirs: access.DefaultMaxRedirects,
	}}
	fs.IntVar(&o.jobs, "jobs", linkcheck.DefaultJobs, "probes under way at once, in all")
	fs.IntVar(&o.perHost, "per-host", linkcheck.DefaultPerDest, "probes under way at once to one host (connections a server sees)")
	fs.IntVar(&o.retries, "retries", 2, "tries again after a transient failure (a timeout, a reset, an FTP 4yz, HTTP 503), with doubling waits; never after a refused connection")
	durationVar(fs, &o.backoff, "backoff", 500*time.Millisecond, "the first wait before trying again, seconds (0.5) or 500ms; each next one is twice as long")
	durationVar(fs, &o.delay, "delay", 0, "the least time between the end of a probe to a host and the beginning of the next to it, seconds (0.5) or 500ms; with --per-host above 1 the probes that wait begin together (0: none)")
	limitFlags(fs, &o.limits, probeBounds)
	proxyFlags(fs, &o.proxy)
	note(fs, "max-time", "here each URL's probe, its retries included")
	policyFlags(fs, &o.policy, true)
	methodFlag(fs, &o.schemeOptions)
	note(fs, "method", "probe takes ftp's CWD methods only: rfc1738, singlecwd, nocwd")
	serverFlags(fs, &o.schemeOptions)
	geminiFlags(fs, &o.gemini)
	fs.BoolVar(&o.verbose, "v", false, "the protocol dialogues on standard error, passwords masked (interleaved unless --jobs 1)")
	fs.Var(&o.archive, "archive", "give each URL that is not ok its closest capture (to the time of the probe) in this web archive `FILE` (a WARC with its FILE.cdxj, or without; repeatable), as /web/TIMESTAMP/URL on `locator gateway --warc FILE`: archived= on its line, the archived field of --json")
	fs.BoolVar(&o.json, "json", false, "NDJSON, one object a URL: url, status, code, text, size, modified, ms")
	return func(e *env, args []string) int { return runProbe(e, args, &o) }
}

// probeRecord is one line of `locator probe --json` (shared with the
// bulk pipeline: internal/proberecord).
type probeRecord = proberecord.Record

// probeTally writes each probe's record (--json or a line) as it is
// ready, and counts them for the summary and the exit status.
type probeTally struct {
	o             *probeOptions
	w             *bufio.Writer
	bar           *probeBar
	arch          *archivedLinks
	counts        map[access.State]int
	worst         int
	lines, probed int
}

func (t *probeTally) emit(r linkcheck.Result) error {
	var rec probeRecord
	if r.URL == nil {
		rec = proberecord.NotURL(r.Input)
		t.worst = exitTrouble
		t.counts[access.StateError]++
	} else {
		rec = proberecord.Of(r)
		t.counts[r.Status.State]++
		if r.Status.State != access.StateOK {
			t.worst = max(t.worst, exitNegative)
			rec.Archived = t.arch.url(r.URL)
		}
		if !r.Repeat {
			t.probed++
		}
	}
	t.lines++
	var err error
	if t.o.json {
		err = writeJSON(t.w, rec)
	} else {
		_, err = io.WriteString(t.w, probeLine(rec))
	}
	t.bar.add()
	if err == nil && r.Flush {
		// Nothing more is ready: what is written goes out now, not held
		// back behind a slow server.
		err = t.w.Flush()
	}
	return err
}

func runProbe(e *env, args []string, o *probeOptions) int {
	if msg := o.validate(args); msg != "" {
		return usageError(e, "probe", msg)
	}
	// Probes write their dialogues, and the input reader its notes, on
	// standard error while the bar does: whole lines each.
	stderr := &lockedWriter{w: e.stderr}
	locked := *e
	locked.stderr = stderr
	c, err := o.client(stderr)
	if err != nil {
		return usageError(e, "probe", err.Error())
	}
	defer c.CloseIdle()
	arch, err := openArchived(o.archive)
	if err != nil {
		fmt.Fprintf(e.stderr, "locator probe: --archive: %s\n", printable.String(err.Error()))
		return exitTrouble
	}
	defer arch.close()
	checker := &linkcheck.Checker{Client: c, Jobs: o.jobs, PerDest: o.perHost, Retries: o.retries, Backoff: o.backoff, MaxTime: o.maxTime, Delay: o.delay}

	// The inputs are read as they are probed, on the Checker's reader;
	// status and inErr are its, read only when Check has returned nil
	// (the reader has then ended).
	var status int
	var inErr error
	inputs := func(yield func(linkcheck.Input) bool) {
		status, inErr = eachInput(&locked, "probe", args, func(it item) error {
			if !yield(probeInput(it)) {
				return errStopped
			}
			return nil
		}, nil)
	}

	t := &probeTally{o: o, w: bufio.NewWriter(e.stdout), bar: newProbeBar(&locked, o), arch: arch, counts: map[access.State]int{}, worst: exitOK}
	w, bar, counts := t.w, t.bar, t.counts
	err = checker.Check(context.Background(), inputs, t.emit)
	if err == nil {
		err = w.Flush()
	}
	bar.finish()
	if err != nil {
		return finish(e, "probe", t.worst, exitOK, err) // a write error: exitTrouble
	}
	if inErr != nil {
		return finish(e, "probe", t.worst, status, inErr)
	}
	fmt.Fprintf(stderr, "locator probe: %d URLs (%d distinct probed): %d ok, %d gone, %d refused, %d error, %d policy\n",
		t.lines, t.probed, counts[access.StateOK], counts[access.StateGone], counts[access.StateRefused], counts[access.StateError], counts[access.StatePolicy])
	return max(t.worst, status)
}

// validate says what is wrong with the flags and arguments, or "".
func (o *probeOptions) validate(args []string) string {
	if len(args) == 0 {
		return "want URLs, or - for standard input"
	}
	if o.jobs <= 0 || o.perHost <= 0 || o.retries < 0 || o.backoff < 0 || o.delay < 0 {
		return "--jobs and --per-host must be positive; --retries, --backoff and --delay not negative"
	}
	if msg := o.invalid(probeBounds); msg != "" {
		return msg
	}
	switch o.method {
	case "", "rfc1738", "singlecwd", "nocwd":
	default:
		return "--method is rfc1738, singlecwd or nocwd (ftp's CWD methods)"
	}
	return ""
}

// client returns the one Client of a probe run, its dialogue (-v) on
// stderr.
func (o *probeOptions) client(stderr io.Writer) (*access.Client, error) {
	schemes, err := o.schemes("ftp")
	if err != nil {
		return nil, err
	}
	schemes["gemini"] = o.gemini.client(nil)
	c := &access.Client{Policy: o.policy.access(), RedirectSchemes: o.policy.redirectSchemes(), Schemes: schemes}
	o.limits.apply(c)
	o.proxy.apply(c)
	c.MaxSize = 1 << 20 // a menu or a listing the fallback reads
	if o.verbose {
		c.Dialogue = stderr
	}
	return c, nil
}

// errStopped ends the reading of the inputs when the Checker stops.
var errStopped = errors.New("probe: stopped")

// probeInput is one input line or argument: a URL, or the NDJSON record
// of `locator extract --json` (its "url").
func probeInput(it item) linkcheck.Input {
	in, _ := proberecord.Input(it.text, it.line > 0)
	return in
}

// probeLine is the readable line of a record: status, code, the URL,
// then what is known (size, date, the server's text or the error).
func probeLine(r probeRecord) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%-7s %-4s %s", r.Status, orDash(r.Code), printable.String(r.URL))
	if r.Size != nil {
		approx := ""
		if r.Approx {
			approx = "~"
		}
		fmt.Fprintf(&b, " size=%s%d", approx, *r.Size)
	}
	if r.Modified != "" {
		b.WriteString(" modified=" + r.Modified)
	}
	if r.Final != "" {
		b.WriteString(" -> " + printable.String(r.Final))
	}
	if r.Archived != "" {
		b.WriteString(" archived=" + printable.String(r.Archived))
	}
	switch {
	case r.Error != "":
		b.WriteString(" (" + printable.String(r.Error) + ")")
	case r.Text != "" && r.Status != string(access.StateOK):
		b.WriteString(" (" + printable.String(r.Text) + ")")
	}
	b.WriteByte('\n')
	return b.String()
}

// maskedText is s, a URL as given, its password masked
// (proberecord.MaskedText).
func maskedText(s string) string { return proberecord.MaskedText(s) }

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// probeBar is the progress bar on standard error, shown only when it is
// a terminal.
type probeBar struct {
	mu  sync.Mutex
	bar *progressbar.ProgressBar
}

func newProbeBar(e *env, o *probeOptions) *probeBar {
	if o.verbose {
		return &probeBar{}
	}
	if !o.forceProgress {
		f, ok := e.stderr.(*os.File)
		if !ok || !term.IsTerminal(int(f.Fd())) {
			return &probeBar{}
		}
	}
	// The inputs are read as they are probed: their number is not known
	// beforehand, and the bar counts the lines written.
	return &probeBar{bar: progressbar.NewOptions(-1,
		progressbar.OptionSetWriter(e.stderr),
		progressbar.OptionSetDescription("locator probe"),
		progressbar.OptionShowCount(),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionClearOnFinish(),
	)}
}

func (p *probeBar) add() {
	if p.bar == nil {
		return
	}
	p.mu.Lock()
	p.bar.Add(1)
	p.mu.Unlock()
}

func (p *probeBar) finish() {
	if p.bar != nil {
		p.bar.Finish()
	}
}

// lockedWriter lets the probes, the input reader and the bar write
// whole lines on one writer at once.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
