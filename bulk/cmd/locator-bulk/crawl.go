package main

// locator-bulk crawl: package crawljob's crawl in rounds (docs/bulk.md).

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"
	"github.com/rfc1738/locator/bulk/crawljob"
	"github.com/rfc1738/locator/bulk/job"
	"github.com/rfc1738/locator/crawl"
)

// crawlMain runs `locator-bulk crawl [flags] URL...` and returns the
// exit status: 0 the crawl ran (broken links are in its report), 1 it
// failed, 2 usage or configuration (bad seeds, an unreadable --seeds,
// an output that cannot be written), found before any network work.
func crawlMain(args []string) int {
	var o crawljob.Options
	var seedsFile, include, exclude string
	var allow, deny inputs
	var allowPorts ports
	var delay float64
	fs := flag.NewFlagSet("locator-bulk crawl", flag.ContinueOnError)
	fs.StringVar(&o.Output, "output", "", "output directory: db/ (the crawl database), events/, report.ndjson, warc/")
	fs.StringVar(&seedsFile, "seeds", "", "a file of seed URLs, one a line (beside those given as arguments)")
	fs.IntVar(&o.Rounds, "rounds", 0, "rounds in all, the runs before's included (0: until a round leaves nothing unfetched)")
	fs.IntVar(&o.Top, "top", 0, "URLs of one server fetched in one round at most, shallowest first (0: all)")
	fs.IntVar(&o.Depth, "depth", crawl.DefaultDepth, "links followed at most from a seed to a page (0: no bound)")
	fs.StringVar(&o.Scope, "scope", "prefix", "the links followed: prefix, host, domain, any (as locator crawl)")
	fs.StringVar(&include, "include", "", "regular expressions (RE2), one of which a URL must match to be followed, separated by newlines")
	fs.StringVar(&exclude, "exclude", "", "regular expressions (RE2) no URL followed may match, separated by newlines")
	fs.IntVar(&o.PerHost, "per-host", 2, "requests under way at once to one server")
	fs.Float64Var(&delay, "delay", -1, "seconds between the end of a request to a server and the beginning of the next (not given: none unless robots.txt's Crawl-delay asks)")
	fs.BoolVar(&o.NoRobots, "no-robots", false, "neither read nor obey robots.txt")
	fs.BoolVar(&o.FollowText, "follow-text", false, "read the URLs of plain-text objects as links too")
	fs.BoolVar(&o.Check, "check", false, "probe every link not followed once the rounds are done")
	fs.BoolVar(&o.WARC, "warc", false, "write what is fetched to warc/ (one WARC file per bundle, round-RRRRR-SSSSS-of-NNNNN.warc.gz, and index.cdxj over all); a local --output")
	fs.Var(&allow, "allow-host", "destinations allowed, as locator crawl --allow-host (repeatable or a comma list); when given, only these")
	fs.Var(&deny, "deny-host", "destinations refused, as locator crawl --deny-host (repeatable or a comma list)")
	fs.Var(&allowPorts, "allow-port", "a port of another service that may be used all the same (RFC 1738 §6; repeatable or a comma list)")
	fs.StringVar(&o.WACZ, "wacz", "", "once the rounds are done, make this WACZ file of every WARC file of warc/ (implies --warc; made again by a run that goes on)")
	fs.DurationVar(&o.RoundTimeout, "round-timeout", 0, "a server's fetches of one round at most; those it cuts short stay unfetched for the next round (0: no bound)")
	// Beam's own flags (--runner, --endpoint, ...) are read here too.
	flag.CommandLine.VisitAll(func(f *flag.Flag) {
		if fs.Lookup(f.Name) == nil {
			fs.Var(f.Value, f.Name, f.Usage)
		}
	})
	if err := fs.Parse(args); err != nil {
		return 2
	}
	flag.CommandLine.Parse(nil) // parsed: beam.Init asks
	beam.Init()                 // after parsing: on a worker, this runs the worker and exits
	o.Seeds = fs.Args()
	o.Allow, o.Deny, o.AllowPorts = allow, deny, allowPorts
	if seedsFile != "" {
		f, err := os.Open(seedsFile)
		if err != nil {
			fmt.Fprintf(os.Stderr, "locator-bulk crawl: --seeds: %v\n", err)
			return 2
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if s := strings.TrimSpace(sc.Text()); s != "" {
				o.Seeds = append(o.Seeds, s)
			}
		}
		err = sc.Err()
		f.Close()
		if err != nil {
			fmt.Fprintf(os.Stderr, "locator-bulk crawl: --seeds %s: %v\n", seedsFile, err)
			return 2
		}
	}
	for _, p := range []struct {
		s   string
		out *[]string
	}{{include, &o.Include}, {exclude, &o.Exclude}} {
		if p.s != "" {
			*p.out = strings.Split(p.s, "\n")
		}
	}
	if delay >= 0 {
		o.Delay, o.DelaySet = time.Duration(delay*float64(time.Second)), true
	}
	if err := job.CheckRunner(o.Output, flagValue("runner"), flagValue("endpoint")); err != nil {
		fmt.Fprintf(os.Stderr, "locator-bulk crawl: %v\n", err)
		return 2
	}
	ctx := context.Background()
	res, err := crawljob.Run(ctx, o, func(ctx context.Context, p *beam.Pipeline) (map[string]int64, error) {
		r, err := beamx.RunWithMetrics(ctx, p)
		if err != nil || r == nil {
			return nil, err
		}
		return job.Counters(r.Metrics()), nil
	})
	var ce *crawljob.ConfigError
	if errors.As(err, &ce) {
		fmt.Fprintf(os.Stderr, "locator-bulk crawl: %v\n", err)
		return 2
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "locator-bulk crawl: %v\n", err)
		return 1
	}
	fmt.Fprintf(os.Stderr, "locator-bulk crawl: %d rounds run (round %d done, %d URLs unfetched); %d pages, %d broken links in the report\n",
		res.Rounds, res.Last.Round, res.Last.Unfetched, res.Report["crawl_pages"], res.Report["crawl_broken"])
	return 0
}
