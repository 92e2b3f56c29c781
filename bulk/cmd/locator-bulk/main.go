// Command locator-bulk runs the library's operations on many URLs with
// Apache Beam (docs/bulk.md). Its subcommands:
//
// judge (the default when the first argument is a flag): every URL of
// its inputs gets the record `locator parse --json` gives it, written to
// NDJSON files, with a dead-letter output for lines it could not read,
// the groups of equivalent URLs, and a summary.
//
//	locator-bulk [judge] --input 'urls/*.txt.gz' --output out/ [--format lines|ndjson|text]
//	    [--problems_only] [--sample F] [--top N] [--group auto|combine|bucket]
//	    [--batch N] [--block_size BYTES]
//
// probe: every input (a URL a line, or `locator extract --json`
// records) gets the record `locator probe --json` gives it, the servers
// asked politely per destination whatever the number of workers
// (probe.go).
//
//	locator-bulk probe --input urls.txt --output out/ [--per-host N] [--delay D]
//	    [--retries N] [--backoff D] [--max-time D] [--allow-host R] [--deny-host R] ...
//
// crawl: a crawl in rounds over a crawl database, as Nutch does it; its
// report as `locator crawl --check --json` writes it (crawl.go).
//
//	locator-bulk crawl --seeds seeds.txt --output out/ [--rounds N] [--top N] [--depth N] [--scope S] ...
//
// It runs on prism in-process by default; on any portable runner
// (Flink, Spark, Dataflow, a prism job server) with
// --runner=universal --endpoint=HOST:PORT --environment_type=LOOPBACK
// (or PROCESS/DOCKER with --worker_binary on a cluster).
//
// Exit status: 0 the pipeline ran and read input (dead letters are
// counted in the summary, not a failure), 1 the pipeline failed or no
// input could be read, 2 usage or configuration (an unknown file
// system, an output that cannot be written, a local output on a
// cluster runner), found before any work.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"
	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/bulk/job"
)

// inputs collects --input, repeatable or comma-separated.
type inputs []string

func (i *inputs) String() string { return strings.Join(*i, ",") }
func (i *inputs) Set(v string) error {
	for _, p := range strings.Split(v, ",") {
		if p != "" {
			*i = append(*i, p)
		}
	}
	return nil
}

func flagValue(name string) string {
	if f := flag.Lookup(name); f != nil {
		return f.Value.String()
	}
	return ""
}

func main() {
	args := os.Args[1:]
	cmd := "judge"
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		cmd, args = args[0], args[1:]
	}
	switch cmd {
	case "judge":
		os.Exit(judgeMain(args))
	case "probe":
		os.Exit(probeMain(args))
	case "crawl":
		os.Exit(crawlMain(args))
	default:
		fmt.Fprintf(os.Stderr, "locator-bulk: unknown command %q (judge, probe, crawl)\n", cmd)
		os.Exit(2)
	}
}

// judgeMain runs the judging job with the arguments after its name and
// returns the exit status.
func judgeMain(args []string) int {
	var o job.Options
	var in inputs
	var group string
	flag.Var(&in, "input", "input files or glob patterns (repeatable, or comma-separated): local, gs://, s3://; gzip is detected")
	flag.StringVar(&o.Format, "format", job.Lines, "input format: lines (one URL per line), ndjson (`locator extract --json`), text (documents)")
	flag.StringVar(&o.Output, "output", "", "output directory: records-*.ndjson, deadletter-*.ndjson, duplicates-*.ndjson, summary.json")
	flag.BoolVar(&o.ProblemsOnly, "problems_only", false, "write only the records of inputs that are not URLs or have a problem (the summary counts all)")
	flag.Float64Var(&o.Sample, "sample", 1, "judge this fraction of the inputs, chosen by a hash of the text (repeatable)")
	flag.IntVar(&o.Top, "top", 100, "length of the summary's lists (hosts, problems, duplicate groups)")
	flag.StringVar(&o.Rules, "rules", locator.RFC3986.String(), "rules for partial forms in documents (text): rfc3986, rfc1808 or draft1993")
	flag.StringVar(&group, "group", "auto", "duplicate grouping: combine (CombinePerKey, for distributed runners), bucket (in-memory buckets, for prism in-process), auto (bucket on prism in-process, else combine)")
	flag.IntVar(&o.Buckets, "buckets", job.DefaultBuckets, "keys of --group=bucket")
	flag.IntVar(&o.Batch, "batch", job.DefaultBatch, "lines per element")
	flag.Int64Var(&o.Block, "block_size", job.DefaultBlock, "bytes per range of a plain input file read in parallel")
	if err := flag.CommandLine.Parse(args); err != nil {
		return 2
	}
	beam.Init() // after flag.Parse: on a worker, this runs the worker and exits
	o.Inputs = in

	runner, endpoint := flagValue("runner"), flagValue("endpoint")
	if err := job.CheckRunner(o.Output, runner, endpoint); err != nil {
		fmt.Fprintf(os.Stderr, "locator-bulk: %v\n", err)
		return 2
	}
	switch group {
	case "auto":
		o.Group = job.Combine
		if job.InProcess(runner, endpoint) {
			o.Group = job.Bucket
		}
	default:
		o.Group = group
	}
	ctx := context.Background()
	p, s := beam.NewPipelineWithRoot()
	if err := job.Build(ctx, s, o); err != nil {
		fmt.Fprintf(os.Stderr, "locator-bulk: %v\n", err)
		return 2
	}
	res, err := beamx.RunWithMetrics(ctx, p)
	if err != nil {
		fmt.Fprintf(os.Stderr, "locator-bulk: %v\n", err)
		return 1
	}
	if res == nil {
		return 0 // a runner that reports no metrics
	}
	c := job.Counters(res.Metrics())
	if len(c) == 0 {
		return 0
	}
	fmt.Fprintf(os.Stderr, "locator-bulk: %d files read, %d URLs read, %d judged, %d conforming, %d dead letters\n",
		c["files_read"], c["urls_read"], c["urls_judged"], c["urls_conforming"], c["dead_letters"])
	if c["files_read"] == 0 {
		fmt.Fprintln(os.Stderr, "locator-bulk: no input could be read (see the dead letters)")
		return 1
	}
	return 0
}
