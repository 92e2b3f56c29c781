package main

// locator crawl: the command over package crawl. It follows the links
// of what it fetches from seed URLs, politely, and says which links are
// broken and where they stand (the page and crawl.Place), as a readable
// summary grouped by page, NDJSON of the crawl's events, or JUnit XML
// for a CI.

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/term"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/crawl"
	"github.com/rfc1738/locator/internal/printable"
)

func init() {
	register(&command{
		name: "crawl",
		args: "[flags] URL...",
		summary: "follow the links of what the URLs lead to, politely (robots.txt, two requests at a time to a server), and say which links are broken and where; " +
			"exit 0 none broken, 1 some, 2 usage, 3 the crawl failed",
		flags:   crawlFlags,
		foreign: crawlForeign, // crawl_wget.go
	})
}

type crawlOptions struct {
	limits
	policy
	schemeOptions
	netrc            netrcOptions
	proxy            proxyOptions
	scope            string
	depth, maxURLs   int
	jobs, perHost    int
	maxBytes         int64
	include, exclude regexpList
	delay            secondsFlag // --delay; set when given
	noRobots         bool
	followText       bool
	check            bool
	state            string
	resume           bool
	json, verbose    bool
	junit            string
	warc             *warcFlags // --warc, --warc-max-size, --warc-dedup (warc.go)
	archive          fileList   // --archive: where broken links' captures are looked for (archived.go)
}

// crawlBounds are the limits crawl takes; --max-time bounds the whole
// crawl.
const crawlBounds = boundMaxTime | boundTimeouts | boundRedirs | boundEntries

func crawlFlags(fs *flag.FlagSet) func(*env, []string) int {
	o := crawlOptions{
		limits: limits{
			connect:    10 * time.Second,
			idle:       15 * time.Second,
			maxRedirs:  access.DefaultMaxRedirects,
			maxEntries: access.DefaultMaxEntries,
		},
		scope:   "prefix",
		depth:   crawl.DefaultDepth,
		jobs:    crawl.DefaultJobs,
		perHost: DefaultCrawlPerHost,
	}
	fs.StringVar(&o.scope, "scope", o.scope, "the links followed: prefix (a seed's host, any scheme or port, and its path up to its last /), host (a seed's host), domain (a seed's domain), any")
	fs.Var((*depthFlag)(&o.depth), "depth", "links followed at most from a seed to a page (0 or inf: no bound, as wget's -l 0 and -l inf)")
	fs.IntVar(&o.maxURLs, "max-urls", 0, "URLs fetched at most, the seeds included (0: no bound); with --state, those left stay in DIR for --resume")
	fs.Var((*sizeFlag)(&o.maxBytes), "max-bytes", "octets read at most in all, e.g. 500M; the crawl stops there (0: no bound)")
	fs.Var(&o.include, "include", "a regular expression `RE` (RE2) one of which a URL must match to be followed; repeatable")
	fs.Var(&o.exclude, "exclude", "a regular expression `RE` (RE2) no URL followed may match; repeatable")
	fs.IntVar(&o.jobs, "jobs", o.jobs, "requests under way at once, in all")
	fs.IntVar(&o.perHost, "per-host", o.perHost, "requests under way at once to one server")
	fs.Var(&o.delay, "delay", "the least time between the end of a request to a server and the beginning of the next, e.g. 1, 0.5s, 2m (bare: seconds, as wget's --wait); "+
		"when not given, none unless robots.txt's Crawl-delay asks for one; when given (0 too), it holds whatever Crawl-delay says")
	fs.BoolVar(&o.noRobots, "no-robots", false, "neither read nor obey robots.txt (its Crawl-delay too): for a site's owner checking their own site, as wget's -e robots=off")
	fs.BoolVar(&o.followText, "follow-text", false, "read the URLs of plain-text objects as links too")
	fs.BoolVar(&o.check, "check", false, "the link checker: probe, once the crawl is done, every link not followed (out of scope, excluded, past --depth), so that every link found is judged")
	fs.StringVar(&o.state, "state", "", "keep the crawl's frontier on disk in `DIR` (created when absent), so that a crawl that stopped can go on with --resume")
	fs.BoolVar(&o.resume, "resume", false, "go on with the crawl --state DIR holds (its seeds when no URL is given), fetching nothing it had done")
	fs.BoolVar(&o.json, "json", false, "NDJSON of the crawl's events: page, link and checked objects as they come, then a broken object for each broken link and a summary")
	fs.StringVar(&o.junit, "junit", "", "write JUnit XML to `FILE`: one testsuite a page, one failed testcase for each broken link on it")
	o.warc = addWARCFlags(fs)
	fs.Var(&o.archive, "archive", "give each broken link's closest capture (to the time of the crawl) in this web archive `FILE` (a WARC with its FILE.cdxj, or without; repeatable), as /web/TIMESTAMP/URL on `locator gateway --warc FILE`: a line of the report, the archived field of --json's broken records")
	limitFlags(fs, &o.limits, crawlBounds)
	note(fs, "max-time", "here the whole crawl")
	proxyFlags(fs, &o.proxy)
	netrcFlags(fs, &o.netrc)
	policyFlags(fs, &o.policy, true)
	serverFlags(fs, &o.schemeOptions)
	fs.BoolVar(&o.verbose, "v", false, "the protocol dialogues on standard error, passwords masked")
	return func(e *env, args []string) int { return runCrawl(e, args, &o) }
}

// regexpList is a repeatable flag of regular expressions.
type regexpList []*regexp.Regexp

func (l *regexpList) String() string {
	s := make([]string, len(*l))
	for i, re := range *l {
		s[i] = re.String()
	}
	return strings.Join(s, " ")
}

func (l *regexpList) Set(v string) error {
	re, err := regexp.Compile(v)
	if err != nil {
		return err
	}
	*l = append(*l, re)
	return nil
}

func runCrawl(e *env, args []string, o *crawlOptions) int {
	scope, code := o.validate(e, args)
	if code != exitOK {
		return code
	}
	arch, err := openArchived(o.archive)
	if err != nil {
		fmt.Fprintf(e.stderr, "locator crawl: --archive: %s\n", printable.String(err.Error()))
		return exitTrouble
	}
	defer arch.close()
	r := &crawlRun{e: e, o: o, rep: &crawl.Report{}, arch: arch}
	defer r.rep.Close()
	front, args, closeState, code := r.openState(args)
	if code != exitOK {
		return code
	}
	defer closeState()
	var seeds []*locator.URL
	for _, a := range args {
		u, err := locator.Parse(a)
		if err != nil {
			return usageError(e, "crawl", message(err))
		}
		seeds = append(seeds, u)
	}
	c, cr, code := r.crawler(scope, front)
	if code != exitOK {
		return code
	}
	defer c.CloseIdle()

	ctx, stopSignals := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stopSignals()
	ctx, cancel := o.withMaxTime(ctx)
	defer cancel()
	crawlErr := r.crawl(ctx, c, cr, seeds)
	status, code := r.report()
	if code != exitOK {
		return code
	}
	return r.ending(crawlErr, status)
}

// crawlRun is one run of the crawl command: what runCrawl sets up and
// its parts share.
type crawlRun struct {
	e       *env
	o       *crawlOptions
	rep     *crawl.Report
	state   *crawl.State // --state, or nil
	earlier int          // the pages of the runs before (--resume)
	// received counts the octets off the network, every scheme's (a
	// Gopher menu's too): countingDial.
	received atomic.Int64
	st       crawlStats
	w        *bufio.Writer
	arch     *archivedLinks // --archive's, or nil
	// The counts of the report, for the summary.
	broken, brokenPages, refused, unjudged, unjudgedURLs int
}

// validate checks the flags and arguments before anything is opened,
// and returns the scope, and exitOK or the usage error's status.
func (o *crawlOptions) validate(e *env, args []string) (crawl.Scope, int) {
	const name = "crawl"
	scope, err := crawl.ParseScope(o.scope)
	if err != nil {
		return scope, usageError(e, name, "--scope is prefix, host, domain or any")
	}
	if o.jobs <= 0 || o.perHost <= 0 || o.maxURLs < 0 || o.delay.d < 0 {
		return scope, usageError(e, name, "--jobs and --per-host must be positive; --max-urls and --delay not negative")
	}
	if msg := o.invalid(crawlBounds); msg != "" {
		return scope, usageError(e, name, msg)
	}
	if o.resume && o.state == "" {
		return scope, usageError(e, name, "--resume goes on with the crawl of --state DIR: name DIR")
	}
	if len(args) == 0 && !o.resume {
		return scope, usageError(e, name, "want the URLs to begin with")
	}
	for _, a := range args {
		if _, err := locator.Parse(a); err != nil {
			return scope, usageError(e, name, message(err))
		}
	}
	return scope, exitOK
}

// openState opens --state's frontier and events (the report gets the
// runs before's), and returns the frontier (nil without --state), the
// seeds (a resumed crawl's own), what closes the state, and exitOK or
// the status to end with.
func (r *crawlRun) openState(args []string) (crawl.Frontier, []string, func(), int) {
	o := r.o
	if o.state == "" {
		return nil, args, func() {}, exitOK
	}
	state, err := o.openState(args)
	if err == nil {
		r.state = state
		r.earlier, err = replayEvents(state.Events(), r.rep)
		if err != nil {
			state.Close()
		}
	}
	if err != nil {
		fmt.Fprintf(r.e.stderr, "locator crawl: --state: %s\n", printable.String(err.Error()))
		return nil, nil, nil, exitTrouble
	}
	return state.Frontier, state.Seeds, func() { state.Close() }, exitOK
}

// crawler returns the Client and the Crawler of the flags, the octets
// received counted and --warc's archive written.
func (r *crawlRun) crawler(scope crawl.Scope, front crawl.Frontier) (*access.Client, *crawl.Crawler, int) {
	o := r.o
	c, err := o.client(r.e)
	if err != nil {
		return nil, nil, usageError(r.e, "crawl", err.Error())
	}
	c.Dial = countingDial(&r.received)
	// Every page fetched, robots.txt too, is archived as it was
	// exchanged; a resumed crawl writes a new file (archive.Create
	// never overwrites one), beside the first run's.
	if ok, err := o.warc.open("locator crawl"); err != nil {
		return nil, nil, usageError(r.e, "crawl", "--warc: "+err.Error())
	} else if ok {
		c.Recorder = o.warc.recorder()
	}
	cr := &crawl.Crawler{
		Client: c, Scope: scope, Include: o.include, Exclude: o.exclude,
		Depth: o.depth, MaxURLs: o.maxURLs, MaxBytes: o.maxBytes,
		Jobs: o.jobs, PerHost: o.perHost, Delay: o.delay.d, DelayFixed: o.delay.set,
		IgnoreRobots: o.noRobots, FollowText: o.followText, Check: o.check, Frontier: front,
	}
	if o.depth <= 0 {
		cr.Depth = -1
	}
	if o.delay.d == 0 {
		cr.Delay = crawl.NoDelay
	}
	return c, cr, exitOK
}

// crawl runs the crawl from seeds, each event recorded in the state,
// the report, the counts, the progress line and, with --json, the
// output, and returns the crawl's error.
func (r *crawlRun) crawl(ctx context.Context, c *access.Client, cr *crawl.Crawler, seeds []*locator.URL) error {
	o := r.o
	r.w = bufio.NewWriter(r.e.stdout)
	prog := newCrawlProgress(r.e, o)
	r.st = crawlStats{received: &r.received, maxURLs: o.maxURLs, resumed: r.earlier > 0, start: time.Now()}
	emit := func(ev crawl.Event) error {
		if r.state != nil {
			if err := writeJSON(r.state, eventRecord(ev)); err != nil {
				return fmt.Errorf("--state %s: %w", o.state, err)
			}
		}
		if err := r.rep.Add(ev); err != nil {
			return fmt.Errorf("the report's file: %w", err)
		}
		if err := o.warc.crawlPage(ev); err != nil {
			return fmt.Errorf("--wacz: %w", err)
		}
		r.st.add(ev)
		prog.show(&r.st)
		if o.json {
			return writeJSON(r.w, eventRecord(ev))
		}
		return nil
	}
	crawlErr := cr.Crawl(ctx, seeds, emit)
	if crawlErr == nil && o.check && r.state != nil {
		crawlErr = checkLeft(ctx, c, o, r.rep, emit)
	}
	prog.finish()
	c.CloseIdle() // a session's last record is made when it ends
	if err := o.warc.finish(); err != nil && crawlErr == nil {
		crawlErr = fmt.Errorf("--warc: %w", err)
	}
	return crawlErr
}

// report writes the report (--json's records, or the summary by
// target; --junit's file) and the counts on standard error, and returns
// the status the broken links make, and exitOK or the status to end
// with.
func (r *crawlRun) report() (status, code int) {
	o, e, rep := r.o, r.e, r.rep
	var werr error
	r.broken, r.brokenPages, werr = rep.Count()
	if werr == nil {
		r.refused, werr = countRefused(rep)
	}
	if werr == nil {
		r.unjudged, r.unjudgedURLs, werr = rep.Unjudged()
	}
	if werr != nil {
		fmt.Fprintf(e.stderr, "locator crawl: the report's file: %s\n", printable.String(werr.Error()))
		return exitOK, exitFailed
	}
	status = exitOK
	if r.broken > 0 {
		status = exitNegative
	}
	if o.json {
		werr = writeBrokenJSON(r.w, rep, r.arch)
		if werr == nil {
			werr = writeJSON(r.w, r.st.record(r.broken, r.refused, r.unjudged))
		}
	} else {
		werr = writeSummary(r.w, rep, r.arch)
	}
	if werr == nil {
		werr = r.w.Flush()
	}
	if werr != nil {
		return status, finish(e, "crawl", status, exitOK, werr)
	}
	if o.junit != "" {
		if err := writeJUnitFile(o.junit, rep); err != nil {
			fmt.Fprintf(e.stderr, "locator crawl: --junit: %s\n", printable.String(err.Error()))
			return status, exitTrouble
		}
	}
	r.counts()
	return status, exitOK
}

// counts writes the crawl's counts on standard error.
func (r *crawlRun) counts() {
	e, st := r.e, &r.st
	runs := ""
	if r.earlier > 0 {
		runs = fmt.Sprintf(" (and %d pages of the runs before, in the report)", r.earlier)
	}
	fmt.Fprintf(e.stderr, "locator crawl: %d pages (%d octets received)%s, %d links, %d checked: %d broken links on %d pages\n",
		st.pages, r.received.Load(), runs, st.links, st.checked, r.broken, r.brokenPages)
	if r.refused > 0 {
		fmt.Fprintf(e.stderr, "locator crawl: %d links refused by local policy, not asked (not broken)\n", r.refused)
	}
	if n, urls := r.unjudged, r.unjudgedURLs; n > 0 {
		why := "not followed (out of scope, excluded, too deep), and --check not given"
		if r.o.check {
			why = "past --max-urls, or sessions (telnet)"
		}
		fmt.Fprintf(e.stderr, "locator crawl: %s (%s) not judged: %s\n", fmt.Sprint(n, " ", plural(n, "link", "links")), fmt.Sprint(urls, " ", plural(urls, "URL", "URLs")), why)
	}
	for _, u := range st.robotsSeeds {
		fmt.Fprintf(e.stderr, "locator crawl: robots.txt forbids the seed %s: nothing was fetched from it (--no-robots, for a site's own owner)\n", printable.String(u))
	}
}

// ending says why the crawl ended, when not of itself, and returns the
// exit status: status (the broken links') when it ended as told to.
func (r *crawlRun) ending(crawlErr error, status int) int {
	o, e := r.o, r.e
	var limit *crawl.LimitError
	switch {
	case crawlErr == nil && len(r.st.robotsSeeds) > 0:
		return exitFailed // not "0 broken": a seed was not crawled
	case crawlErr == nil:
	case errors.As(crawlErr, &limit):
		// The bound asked for was reached: the crawl ended as it was
		// told to, and what it found is the report.
		fmt.Fprintf(e.stderr, "locator crawl: stopped at --max-bytes %d\n", limit.Max)
	case errors.Is(crawlErr, context.DeadlineExceeded) && o.maxTime > 0:
		fmt.Fprintf(e.stderr, "locator crawl: stopped at --max-time %v%s\n", o.maxTime, o.resumeHint())
		return exitFailed
	case errors.Is(crawlErr, context.Canceled):
		fmt.Fprintf(e.stderr, "locator crawl: interrupted%s\n", o.resumeHint())
		return exitFailed
	case o.state != "" && diskError(crawlErr):
		// The state on disk is whole: what was not written is what
		// the next run does again.
		msg := message(crawlErr)
		if !strings.HasPrefix(msg, "--state ") {
			msg = "--state " + o.state + ": " + msg // the frontier's file
		}
		fmt.Fprintf(e.stderr, "locator crawl: %s; make room there, then --state %s --resume goes on\n",
			printable.String(msg), printable.String(o.state))
		return exitFailed
	default:
		fmt.Fprintf(e.stderr, "locator crawl: %s\n", printable.String(message(crawlErr)))
		return exitFailed
	}
	return status
}

// diskError reports whether err is the disk's: full, over a quota,
// read-only, failing.
func diskError(err error) bool {
	for _, e := range []error{syscall.ENOSPC, syscall.EDQUOT, syscall.EROFS, syscall.EIO} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

// resumeHint says how a crawl kept on disk goes on.
func (o *crawlOptions) resumeHint() string {
	if o.state == "" {
		return ""
	}
	return "; --state " + o.state + " --resume goes on"
}

// openState opens the crawl kept in --state DIR (crawl.OpenState) with
// the seeds to crawl: args, or, resuming with none, those DIR keeps. A
// crawl DIR holds is gone on with only when --resume says so: it is
// never overwritten, nor resumed by mistake. Its errors say what to do.
func (o *crawlOptions) openState(args []string) (*crawl.State, error) {
	st, err := crawl.OpenState(o.state, args, o.resume)
	var de *crawl.DamagedError
	var se *crawl.SeedsError
	switch {
	case errors.Is(err, crawl.ErrStateKept):
		return nil, fmt.Errorf("%s holds a crawl already: --resume goes on with it; remove it to begin anew", o.state)
	case errors.As(err, &se):
		return nil, fmt.Errorf("no seeds kept in %s (%w): give the URLs", o.state, se.Err)
	case errors.As(err, &de):
		return nil, damagedState(o.state, crawl.StateFrontier, de)
	}
	return st, err
}

// client returns the access.Client the crawl fetches with: the scheme
// clients the flags configure. It names no http client: the crawler's
// own names it in its User-Agent (crawl.Crawler.Agent).
func (o *crawlOptions) client(e *env) (*access.Client, error) {
	schemes, err := o.schemes("http")
	if err != nil {
		return nil, err
	}
	delete(schemes, "http")
	c := &access.Client{Policy: o.policy.access(), RedirectSchemes: o.policy.redirectSchemes(), Schemes: schemes}
	o.limits.apply(c)
	logins, err := o.netrc.load(e, "crawl")
	if err != nil {
		return nil, err
	}
	if logins != nil {
		c.Login = logins.Find
	}
	o.proxy.apply(c)
	if o.verbose {
		c.Dialogue = e.stderr
	}
	return c, nil
}

// crawlStats counts what the crawl reported, for the progress line and
// the summary.
type crawlStats struct {
	pages, errors, links, checked int
	// received counts the octets read off the network (countingDial).
	received *atomic.Int64
	// followed counts the URLs the crawl was to fetch: the seeds it
	// fetched and the URLs links had it follow.
	followed int
	start    time.Time
	// maxURLs is the crawl's --max-urls.
	maxURLs int
	// resumed: the frontier holds the runs before's URLs too, which
	// followed does not count: no ETA.
	resumed bool
	// robotsSeeds are the seeds robots.txt forbids (as many as the
	// seeds at most).
	robotsSeeds []string
}

func (s *crawlStats) add(ev crawl.Event) {
	if s.start.IsZero() {
		s.start = time.Now()
	}
	switch ev := ev.(type) {
	case *crawl.Page:
		s.pages++
		if ev.Err != nil {
			s.errors++
		}
		if ev.From == nil {
			s.followed++
			if ev.Skipped == "robots" && ev.Err == nil {
				s.robotsSeeds = append(s.robotsSeeds, access.Masked(ev.URL))
			}
		}
	case *crawl.Link:
		s.links++
		if ev.First {
			s.followed++
		}

	case *crawl.Checked:
		s.checked++
		if ev.Status != nil && ev.Status.State != access.StateOK {
			s.errors++
		}
	}
}

// countRefused returns the links local policy refused (the report's
// policy targets).
func countRefused(r *crawl.Report) (int, error) {
	n := 0
	err := r.EachTarget(0, true, func(t *crawl.Target) error {
		n += t.Links
		return nil
	})
	return n, err
}

// queue is the number of URLs found to follow and not fetched yet (of
// this run: a resumed crawl's frontier holds those of the runs before
// too).
func (s *crawlStats) queue() int { return max(s.followed-s.pages, 0) }

// crawlProgressForced shows the progress line on any standard error
// (tests).
var crawlProgressForced bool

// crawlProgress is one line on standard error, rewritten at most ten
// times a second, shown only when standard error is a terminal.
type crawlProgress struct {
	w    io.Writer
	last time.Time
	on   bool
}

func newCrawlProgress(e *env, o *crawlOptions) *crawlProgress {
	p := &crawlProgress{w: e.stderr}
	if o.verbose {
		return p // the dialogue has the terminal
	}
	p.on = crawlProgressForced || onTerminal(e.stderr)
	return p
}

func (p *crawlProgress) show(s *crawlStats) {
	if !p.on || time.Since(p.last) < 100*time.Millisecond {
		return
	}
	p.last = time.Now()
	rate := 0.0
	if el := time.Since(s.start).Seconds(); el > 0 {
		rate = float64(s.pages) / el
	}
	eta := ""
	if left, ok := s.left(); ok && rate > 0 && s.pages >= etaPages {
		eta = ", ETA " + (time.Duration(float64(left)/rate) * time.Second).Round(time.Second).String()
	}
	fmt.Fprintf(p.w, "\rlocator crawl: %d pages, %s, queue %d, %d errors, %.1f pages/s%s\x1b[K", s.pages, octetsText(s.received.Load()), s.queue(), s.errors, rate, eta)
}

// etaPages is the pages fetched before the progress line guesses an
// ETA: the rate of the first few says little.
const etaPages = 10

// left returns the URLs left to fetch, as far as the frontier knows
// them (a page fetched may add more), bounded by --max-urls; ok is
// false when it does not know them: a resumed crawl's frontier holds
// the runs before's URLs, which this run did not count.
func (s *crawlStats) left() (int, bool) {
	if s.resumed {
		return 0, false
	}
	n := s.queue()
	if s.maxURLs > 0 {
		n = min(n, max(s.maxURLs-s.pages, 0))
	}
	return n, true
}

func (p *crawlProgress) finish() {
	if p.on && !p.last.IsZero() {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
}

// onTerminal reports whether w is a terminal.
func onTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// octetsText writes n with a binary unit: 512 B, 1.5 KiB, 3.2 MiB.
func octetsText(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	d, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		d *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(d), "KMGTPE"[exp])
}

// DefaultCrawlPerHost is --per-host's default: two requests at a time
// to one server, the bound RFC 2616 §8.1.4 set ("A single-user client
// SHOULD NOT maintain more than 2 connections with any server") and
// RFC 9112 §9.4 leaves to the client. With no delay between them it
// crawls a 552-page site in seconds, where a second between requests
// took nine minutes; a server that wants fewer says so (Crawl-delay,
// 429, 503), and is obeyed.
const DefaultCrawlPerHost = 2

// secondsFlag is a duration given as Go writes one (1.5s, 2m) or, bare,
// in seconds as wget's --wait takes it (1, 0.5); set says it was given.
type secondsFlag struct {
	d   time.Duration
	set bool
}

func (f *secondsFlag) String() string {
	if f == nil {
		return "0s"
	}
	return f.d.String()
}

func (f *secondsFlag) Set(v string) error {
	var d durationFlag // the same reading as every other time flag
	if err := d.Set(v); err != nil {
		return err
	}
	f.d, f.set = time.Duration(d), true
	return nil
}

// depthFlag is --depth: a number of links, or inf (wget's -l inf), which
// is 0, no bound.
type depthFlag int

func (d *depthFlag) String() string { return strconv.Itoa(int(*d)) }

func (d *depthFlag) Set(v string) error {
	if v == "inf" || v == "infinity" {
		*d = 0
		return nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return errors.New("a number of links (0 or inf: no bound)")
	}
	*d = depthFlag(n)
	return nil
}

// countingDial returns dial with every octet read off its connections
// added to n: a crawl's octets received, whatever the scheme (a Gopher
// menu or an FTP listing has none a page would count).
func countingDial(n *atomic.Int64) access.DialFunc {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		var d net.Dialer
		c, err := d.DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return &countingConn{Conn: c, n: n}, nil
	}
}

type countingConn struct {
	net.Conn
	n *atomic.Int64
}

func (c *countingConn) Read(p []byte) (int, error) {
	k, err := c.Conn.Read(p)
	c.n.Add(int64(k))
	return k, err
}
