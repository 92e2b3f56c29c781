// Package crawljob is `locator-bulk crawl`: a crawl in rounds, as Nutch
// crawls, on Apache Beam, whose per-URL work is package crawl's own
// (crawl.Session: the fetch, robots.txt, politeness, scope, the links of
// every scheme the crawl command reads), linkcheck's and archive's.
//
// Each round is one run of a pipeline: the crawl database (db.go) →
// the fetch list (the URLs unfetched, keyed by server, at most Top of
// each, shallowest first) → the fetch, per server (fetchStage) → the
// pages' and links' records, and the database's next generation (every
// URL once: its fetch, or the link that found it first). A last
// pipeline checks the links not followed (Check) and writes the report.
// The database is replaced only by a rename of db/CURRENT, so that a
// killed run goes on, with the same seeds, from the last round done.
package crawljob

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/bulk/job"
	"github.com/rfc1738/locator/crawl"
)

// Options says what to crawl and how; its fields are those of
// `locator crawl`'s flags of the same names.
type Options struct {
	Seeds  []string
	Output string // a local directory, or gs://, s3:// (not with WARC)
	// Rounds bounds the rounds run in all (the runs before included); 0
	// runs until a round leaves nothing unfetched.
	Rounds int
	// Top bounds the URLs of one server fetched in one round (Nutch's
	// -topN, per destination); 0: all.
	Top              int
	Depth            int // links from a seed at most; 0: no bound
	Scope            string
	Include, Exclude []string
	PerHost          int
	// Delay is --delay, DelaySet says it was given (it then holds
	// whatever robots.txt's Crawl-delay says).
	Delay      time.Duration
	DelaySet   bool
	NoRobots   bool
	FollowText bool
	Check      bool
	WARC       bool // write warc/ (a local Output)
	// WACZ, when not "", is a WACZ file made, once the rounds are done,
	// of every WARC file of warc/ (it implies WARC).
	WACZ  string
	Agent string
	// Allow and Deny are --allow-host and --deny-host (access.ParseRules),
	// AllowPorts --allow-port: the Client's Policy, as `locator crawl`'s.
	// A URL outside it is a page or check of status "policy", with no
	// connection.
	Allow, Deny  []string
	AllowPorts   []int
	RoundTimeout time.Duration // a round's fetches at most (0: none)
}

// A ConfigError is found before any network work: the job's exit 2.
type ConfigError struct{ Err error }

func (e *ConfigError) Error() string { return e.Err.Error() }
func (e *ConfigError) Unwrap() error { return e.Err }

// Validate checks o and makes its Output: every problem it finds is a
// *ConfigError, found before any request is made.
func (o *Options) Validate(ctx context.Context) error {
	fail := func(f string, a ...any) error { return &ConfigError{Err: fmt.Errorf(f, a...)} }
	if _, _, err := o.crawler(); err != nil {
		return &ConfigError{Err: err}
	}
	if o.Rounds < 0 || o.Top < 0 || o.Depth < 0 || o.PerHost < 1 || o.Delay < 0 {
		return fail("--rounds, --top, --depth and --delay must not be negative, --per-host positive")
	}
	if o.Output == "" {
		return fail("--output: want a directory")
	}
	if o.WACZ != "" {
		o.WARC = true
		if strings.Contains(o.WACZ, "://") {
			return fail("--wacz %s: want a local file (package archive writes files)", o.WACZ)
		}
		if fi, err := os.Stat(o.WACZ); err == nil && fi.IsDir() {
			return fail("--wacz %s: a directory", o.WACZ)
		}
		if fi, err := os.Stat(filepath.Dir(o.WACZ)); err != nil || !fi.IsDir() {
			return fail("--wacz %s: its directory %s is not there", o.WACZ, filepath.Dir(o.WACZ))
		}
	}
	if o.WARC && strings.Contains(o.Output, "://") {
		return fail("--warc: the WARC files are written to a local --output (package archive writes files)")
	}
	if strings.Contains(o.Output, "://") {
		return fail("--output %s: the crawl database's CURRENT is replaced by a local rename; give a local directory", o.Output)
	}
	if err := job.CheckOutput(ctx, o.Output); err != nil {
		return fail("--%v", err) // job.ConfigError: "output DIR: ..."
	}
	for _, d := range []string{"db", "events", "warc"} {
		if err := os.MkdirAll(filepath.Join(o.Output, d), 0o755); err != nil {
			return fail("--output: %v", err)
		}
	}
	return nil
}

// crawler returns the Crawler of o and its seeds.
func (o *Options) crawler() (*crawl.Crawler, []*locator.URL, error) {
	scope, err := crawl.ParseScope(o.Scope)
	if err != nil {
		return nil, nil, err
	}
	compile := func(flag string, res []string) ([]*regexp.Regexp, error) {
		var out []*regexp.Regexp
		for _, s := range res {
			re, err := regexp.Compile(s)
			if err != nil {
				return nil, fmt.Errorf("--%s: %v", flag, err)
			}
			out = append(out, re)
		}
		return out, nil
	}
	inc, err := compile("include", o.Include)
	if err != nil {
		return nil, nil, err
	}
	exc, err := compile("exclude", o.Exclude)
	if err != nil {
		return nil, nil, err
	}
	if len(o.Seeds) == 0 {
		return nil, nil, errors.New("want the URLs to begin with")
	}
	var seeds []*locator.URL
	for i, s := range o.Seeds {
		u, err := locator.Parse(s)
		if err != nil {
			return nil, nil, fmt.Errorf("seed %d: %v", i+1, err)
		}
		seeds = append(seeds, u)
	}
	allow, err := access.ParseRules(o.Allow)
	if err != nil {
		return nil, nil, fmt.Errorf("--allow-host: %v", err)
	}
	deny, err := access.ParseRules(o.Deny)
	if err != nil {
		return nil, nil, fmt.Errorf("--deny-host: %v", err)
	}
	for _, p := range o.AllowPorts {
		if p < 1 || p > 65535 {
			return nil, nil, fmt.Errorf("--allow-port %d: not a port", p)
		}
	}
	client := &access.Client{Policy: access.Policy{AllowPorts: o.AllowPorts, Allow: allow, Deny: deny}}
	c := &crawl.Crawler{Client: client, Agent: o.Agent, Scope: scope, Include: inc, Exclude: exc,
		Depth: o.Depth, Jobs: max(o.PerHost, 1), PerHost: max(o.PerHost, 1), Delay: o.Delay, DelayFixed: o.DelaySet,
		IgnoreRobots: o.NoRobots, FollowText: o.FollowText}
	if o.Depth == 0 {
		c.Depth = -1
	}
	if o.Delay == 0 {
		c.Delay = crawl.NoDelay
	}
	return c, seeds, nil
}

// A Runner runs a pipeline and returns its counters (job.Counters).
type Runner func(context.Context, *beam.Pipeline) (map[string]int64, error)

// Result says what Run did.
type Result struct {
	Rounds  int   // rounds run by this call
	Last    State // db/CURRENT at the end
	Resumed bool  // a crawl the Output held went on
	Report  map[string]int64
}

// Run crawls as o says, round after round, then checks and reports:
// Output's db/ (the database), events/ (round-RRRRR-*.ndjson: the
// pages' and links' records of each round; checked-*.ndjson),
// report.ndjson (the broken links and the summary) and, with WARC,
// warc/ (round-RRRRR-SSSSS-of-NNNNN.warc.gz and index.cdxj). An Output
// that holds a crawl goes on with it: its seeds must be o's.
func Run(ctx context.Context, o Options, run Runner) (Result, error) {
	var res Result
	if err := o.Validate(ctx); err != nil {
		return res, err
	}
	st, ok, err := readState(o.Output)
	if err != nil {
		return res, &ConfigError{Err: err}
	}
	seedsFile := filepath.Join(o.Output, "seeds")
	if ok {
		b, err := os.ReadFile(seedsFile)
		if err != nil {
			return res, &ConfigError{Err: err}
		}
		if kept := strings.Fields(string(b)); !slices.Equal(kept, o.Seeds) {
			return res, &ConfigError{Err: fmt.Errorf("--output %s holds a crawl of other seeds (%s): give them, or another --output", o.Output, strings.Join(kept, " "))}
		}
		res.Resumed = true
	} else {
		if st, err = begin(o); err != nil {
			return res, err
		}
		if err := replaceFile(seedsFile, []byte(strings.Join(o.Seeds, "\n")+"\n")); err != nil {
			return res, err
		}
	}
	for (o.Rounds == 0 || st.Round < o.Rounds) && st.Unfetched > 0 {
		if res.Rounds > 0 && o.Delay > 0 {
			// The last request of a round and the first of the next
			// may be to one server.
			time.Sleep(o.Delay)
		}
		next, err := runRound(ctx, o, st, run)
		if err != nil {
			return res, fmt.Errorf("round %d: %w", st.Round+1, err)
		}
		if err := writeState(o.Output, next); err != nil {
			return res, err
		}
		os.RemoveAll(filepath.Join(o.Output, "db", st.DB)) // the generation before
		st = next
		res.Rounds++
	}
	res.Last = st
	if res.Rounds > 0 && o.Delay > 0 && o.Check {
		// The checks of the report may begin with a server the last
		// round ended with.
		time.Sleep(o.Delay)
	}
	rep, err := runReport(ctx, o, st, run)
	if err != nil {
		return res, fmt.Errorf("report: %w", err)
	}
	res.Report = rep
	return res, nil
}

// begin writes the database of round 0, the seeds unfetched.
func begin(o Options) (State, error) {
	st := State{Round: 0, DB: genName(0)}
	dir := filepath.Join(o.Output, "db", st.DB)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return st, err
	}
	var b strings.Builder
	seen := map[string]bool{}
	for _, s := range o.Seeds {
		u, _ := locator.Parse(s) // Validate parsed them
		k, err := crawl.Key(u)
		if err != nil {
			return st, &ConfigError{Err: err}
		}
		if !seen[k.String()] {
			seen[k.String()] = true
			b.WriteString(Entry{URL: k.String(), Status: Unfetched}.Line())
			st.Unfetched++
		}
	}
	if err := replaceFile(filepath.Join(dir, "crawldb-00000-of-00001.ndjson"), []byte(b.String())); err != nil {
		return st, err
	}
	return st, writeState(o.Output, st)
}

// files lists the files of dir whose names match pattern, sorted.
func files(dir, pattern string) ([]string, error) {
	m, err := filepath.Glob(filepath.Join(dir, pattern))
	slices.Sort(m)
	return m, err
}
