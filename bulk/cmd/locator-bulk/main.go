// Command locator-bulk judges many URLs with Apache Beam: every URL of
// its inputs gets the record `locator parse --json` gives it, written
// to NDJSON shards, with a dead-letter output for lines it could not
// read, the groups of equivalent URLs, and a summary (docs/bulk.md).
//
//	locator-bulk --input 'urls/*.txt.gz' --output out/ [--format lines|ndjson|text]
//	    [--shards N] [--problems_only] [--sample F] [--top N] [--reshuffle=false]
//
// It runs on prism in-process by default; on any portable runner
// (Flink, Spark, Dataflow, a prism job server) with
// --runner=universal --endpoint=HOST:PORT --environment_type=LOOPBACK
// (or PROCESS/DOCKER with --worker_binary on a cluster).
//
// Exit status: 0 the pipeline ran (dead letters are counted in the
// summary, not a failure), 1 the pipeline failed, 2 usage.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local"
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

func main() {
	var o job.Options
	var in inputs
	flag.Var(&in, "input", "input files or glob patterns (repeatable, or comma-separated); gzip is detected")
	flag.StringVar(&o.Format, "format", job.Lines, "input format: lines (one URL per line), ndjson (`locator extract --json`), text (documents)")
	flag.StringVar(&o.Output, "output", "", "output directory: records-*.ndjson, deadletter.ndjson, duplicates-*.ndjson, summary.json")
	flag.IntVar(&o.Shards, "shards", 4, "number of record and duplicate files")
	flag.BoolVar(&o.ProblemsOnly, "problems_only", false, "write only the records of inputs that are not URLs or have a problem (the summary counts all)")
	flag.Float64Var(&o.Sample, "sample", 1, "judge this fraction of the inputs, chosen by a hash of the text (repeatable)")
	flag.IntVar(&o.Top, "top", 100, "length of the summary's lists (hosts, problems, duplicate groups)")
	flag.BoolVar(&o.Reshuffle, "reshuffle", true, "spread the lines over the workers after reading (needed when the files are few and large)")
	flag.StringVar(&o.Rules, "rules", locator.RFC3986.String(), "rules for partial forms in documents (text): rfc3986, rfc1808 or draft1993")
	flag.Parse()
	beam.Init() // after flag.Parse: on a worker, this runs the worker and exits
	o.Inputs = in

	if o.Output != "" && !strings.Contains(o.Output, "://") {
		if err := os.MkdirAll(o.Output, 0o755); err != nil {
			fmt.Fprintf(os.Stderr, "locator-bulk: %v\n", err)
			os.Exit(2)
		}
	}
	p, s := beam.NewPipelineWithRoot()
	if err := job.Build(s, o); err != nil {
		fmt.Fprintf(os.Stderr, "locator-bulk: %v\n", err)
		os.Exit(2)
	}
	if err := beamx.Run(context.Background(), p); err != nil {
		fmt.Fprintf(os.Stderr, "locator-bulk: %v\n", err)
		os.Exit(1)
	}
}
