package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"
	"github.com/rfc1738/locator/bulk/job"
	"github.com/rfc1738/locator/bulk/probe"
	"github.com/rfc1738/locator/linkcheck"
)

// ports collects --allow-port, repeatable or comma-separated.
type ports []int

func (p *ports) String() string {
	var s []string
	for _, n := range *p {
		s = append(s, strconv.Itoa(n))
	}
	return strings.Join(s, ",")
}

func (p *ports) Set(v string) error {
	for _, f := range strings.Split(v, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n <= 0 || n > 65535 {
			return fmt.Errorf("%q is not a port", f)
		}
		*p = append(*p, n)
	}
	return nil
}

// probeMain runs the probe pipeline with the arguments after its name
// and returns the exit status: 0 the pipeline ran (each input's answer
// is in its record), 1 it failed, 2 usage or configuration (an input
// that names no file or cannot be read, an output that cannot be
// written, a bad rule), found before any network work.
func probeMain(args []string) int {
	o := probe.Defaults()
	var in, allow, deny inputs
	var allowPorts ports
	flag.Var(&in, "input", "input files or glob patterns (repeatable, or comma-separated): one URL a line, or `locator extract --json` records; local, gs://, s3://; gzip is detected")
	flag.StringVar(&o.Output, "output", "", "output directory: records-*.ndjson (one `locator probe --json` record an input, with the extract record's file, line, column and offset), deadletter-*.ndjson")
	flag.IntVar(&o.PerHost, "per-host", linkcheck.DefaultPerDest, "probes under way at once to one host (connections a server sees), whatever the number of workers")
	flag.DurationVar(&o.Delay, "delay", 0, "least time between the end of a round of probes to a host and the beginning of the next (e.g. 500ms, 1s)")
	flag.IntVar(&o.Retries, "retries", o.Retries, "tries again after a transient failure (a timeout, a reset, an FTP 4yz, HTTP 503), with doubling waits; never after a refused connection")
	flag.DurationVar(&o.Backoff, "backoff", o.Backoff, "the first wait before trying again; each next one is twice as long")
	flag.DurationVar(&o.MaxTime, "max-time", o.MaxTime, "bound on each URL's probe, its retries and waits included (0 none)")
	flag.DurationVar(&o.Connect, "connect-timeout", o.Connect, "bound on each connection's establishment")
	flag.DurationVar(&o.Idle, "idle-timeout", o.Idle, "bound on each wait for a server's reply")
	flag.IntVar(&o.MaxRedirs, "max-redirs", o.MaxRedirs, "redirections followed (0 none)")
	flag.Var(&allow, "allow-host", "destinations allowed, as `locator probe --allow-host` (repeatable or a comma list)")
	flag.Var(&deny, "deny-host", "destinations refused, as `locator probe --deny-host` (repeatable or a comma list)")
	flag.Var(&allowPorts, "allow-port", "a port of another service that may be used all the same (RFC 1738 §6; repeatable or a comma list)")
	flag.IntVar(&o.Batch, "batch", job.DefaultBatch, "lines per element read")
	flag.Int64Var(&o.Block, "block_size", job.DefaultBlock, "bytes per range of a plain input file read in parallel")
	if err := flag.CommandLine.Parse(args); err != nil {
		return 2
	}
	beam.Init() // after flag.Parse: on a worker, this runs the worker and exits
	o.Inputs, o.Allow, o.Deny, o.AllowPorts = in, allow, deny, allowPorts
	if flag.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "locator-bulk probe: unexpected argument %q (inputs are given with --input)\n", flag.Arg(0))
		return 2
	}

	if err := job.CheckRunner(o.Output, flagValue("runner"), flagValue("endpoint")); err != nil {
		fmt.Fprintf(os.Stderr, "locator-bulk probe: %v\n", err)
		return 2
	}
	ctx := context.Background()
	p, s := beam.NewPipelineWithRoot()
	if err := probe.Build(ctx, s, o); err != nil {
		fmt.Fprintf(os.Stderr, "locator-bulk probe: %v\n", err)
		return 2
	}
	res, err := beamx.RunWithMetrics(ctx, p)
	if err != nil {
		fmt.Fprintf(os.Stderr, "locator-bulk probe: %v\n", err)
		return 1
	}
	if res == nil {
		return 0 // a runner that reports no metrics
	}
	if c := job.Counters(res.Metrics()); len(c) > 0 {
		fmt.Fprintf(os.Stderr, "locator-bulk probe: %d URLs read (%d distinct probed, %d tries again): %d ok, %d gone, %d refused, %d error, %d policy; %d dead letters\n",
			c["urls_read"], c["probed"], c["retried"], c["ok"], c["gone"], c["refused"], c["error"], c["policy"], c["dead_letters"])
	}
	return 0
}
