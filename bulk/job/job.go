// Package job is the pipeline of the ready job locator-bulk: it reads
// URLs from files (one URL per line, NDJSON from `locator extract
// --json`, or plain documents; glob patterns; gzip), judges them in
// batches (urlbeam.Judge: the record of `locator parse --json`), and
// writes NDJSON files of records without a shuffle, a dead-letter output
// for lines it could not read, the duplicate groups (locator.Normalize),
// and a summary.
package job

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"reflect"
	"sort"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/gcs"   // gs://
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local" // plain paths
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/s3"    // s3://
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/transforms/filter"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/transforms/stats"
	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/bulk/urlbeam"
	"github.com/rfc1738/locator/internal/lines"
	"github.com/rfc1738/locator/internal/octets"
)

// Input formats.
const (
	Lines  = "lines"  // one URL per line, as `locator parse -` reads them
	NDJSON = "ndjson" // `locator extract --json` records: the "url" key
	Text   = "text"   // documents: the URLs found in running text
)

// Ways of grouping duplicates (Options.Group).
const (
	// Combine groups by normal form with Beam's CombinePerKey, lifted
	// (each worker combines its share before the shuffle): the way for
	// distributed runners, where no key holds more than its own group.
	Combine = "combine"
	// Bucket sends each batch's groups to a few keys (buckets by a hash
	// of the normal form) and merges a bucket in memory: far fewer
	// elements, for prism in-process, where each element costs; a
	// bucket must fit one worker's memory.
	Bucket = "bucket"
)

// MaxLine bounds one input line, as the command's stdin does: a longer
// line goes to the dead letters.
const MaxLine = lines.Max

// Defaults.
const (
	DefaultBatch   = 1000     // lines per element
	DefaultBlock   = 64 << 20 // bytes per range of a plain file, as Beam's textio
	DefaultBuckets = 16
)

// Options configure the job.
type Options struct {
	Inputs       []string // file names or glob patterns: local, gs://, s3://
	Format       string   // Lines, NDJSON or Text
	Output       string   // directory: records-*, deadletter-*, duplicates-*, summary.json
	ProblemsOnly bool     // write only the records of inputs that are not URLs or have problems
	Sample       float64  // keep this fraction of the inputs (by a hash of the text: repeatable); 0 or 1: all
	Top          int      // length of the summary's lists
	Rules        string   // resolution rules for partial forms in documents (Text)
	Batch        int      // lines per element (DefaultBatch)
	Block        int64    // bytes per range of a plain file read in parallel (DefaultBlock)
	Group        string   // Combine or Bucket; empty: Combine
	Buckets      int      // keys of Bucket (DefaultBuckets)
}

// A DeadLetter is an input the job could not read: a line too long, an
// NDJSON line that is not JSON or has no "url", a pattern that names no
// file, a file that cannot be opened or decompressed. It is written with
// its reason, never dropped.
type DeadLetter struct {
	Source string // the file, or the pattern
	Line   int    // 1-based line number when known (the file read from its start), else 0
	Offset int64  // offset of the line's first byte (of the decompressed text for gzip)
	Reason string
	Text   string // the line, cut to 512 bytes
}

// A Count is a key and how many times it was seen.
type Count struct {
	Key string
	N   int64
}

// A ConfigError is an option the pipeline cannot run with, found when
// the pipeline is built, before any work: a file system that is not
// linked in, an output that cannot be written.
type ConfigError struct {
	What string
	Err  error
}

func (e *ConfigError) Error() string { return e.What + ": " + e.Err.Error() }
func (e *ConfigError) Unwrap() error { return e.Err }

// Metrics: Beam counters in namespace "locator", summed over workers.
var (
	filesRead   = beam.NewCounter("locator", "files_read")
	urlsRead    = beam.NewCounter("locator", "urls_read")
	urlsJudged  = beam.NewCounter("locator", "urls_judged")
	conforming  = beam.NewCounter("locator", "urls_conforming")
	deadLetters = beam.NewCounter("locator", "dead_letters")
)

func init() {
	for _, t := range []any{DeadLetter{}, Count{}, fileSpec{}, topAcc{}} {
		beam.RegisterType(reflect.TypeOf(t))
	}
	register.Function4x0(expandFn)
	register.Emitter1[string]()
	register.Emitter1[DeadLetter]()
	register.Function4x0(statFn)
	register.Emitter1[fileSpec]()
	register.DoFn5x1[context.Context, *sdfTracker, fileSpec, func([]string), func(DeadLetter), error](&readFn{})
	register.Emitter1[[]string]()
	register.DoFn7x0[context.Context, []string, func(string), func(string, int64), func(string, int64), func(string, string), func(int, []urlbeam.Group)](&judgeFn{})
	register.Emitter2[string, int64]()
	register.Emitter2[string, string]()
	register.Emitter2[int, []urlbeam.Group]()
	register.Function3x0(mergeBucket)
	register.Iter1[[]urlbeam.Group]()
	register.Emitter1[urlbeam.Group]()
	register.Function4x0(deadLine)
	register.Function2x1(sumCount)
	register.Function2x1(hostCount)
	register.Function2x0(explodeHosts)
	register.Function2x0(explodeDups)
	register.Function1x1(distinctHosts)
	register.Emitter1[Count]()
	register.Function2x0(dupCounters)
	register.Function1x1(groupCount)
	register.Function2x0(moreThanOne)
	register.Function2x1(lessCount)
	register.Combiner3[topAcc, Count, []Count](&topFn{})
	register.Function1x1(groupLine)
	register.DoFn2x1[int, func(*Count) bool, string](&summaryFn{})
	register.Iter1[Count]()
}

// Build adds the job to s. It checks the options and the file systems
// first (a *ConfigError): every input's scheme must be linked in, and
// the output directory must take a file (a probe written and removed),
// so that a wrong URL fails here and not as dead letters after the work.
func Build(ctx context.Context, s beam.Scope, o Options) error {
	if err := o.fill(); err != nil {
		return err
	}
	for _, in := range o.Inputs {
		fs, err := filesystem.New(ctx, in)
		if err != nil {
			return &ConfigError{What: "input " + in, Err: err}
		}
		fs.Close()
	}
	if err := checkOutput(ctx, o.Output); err != nil {
		return &ConfigError{What: "output " + o.Output, Err: err}
	}

	names, badGlobs := beam.ParDo2(s, expandFn, beam.CreateList(s, o.Inputs))
	files, badFiles := beam.ParDo2(s, statFn, beam.Reshuffle(s, filter.Distinct(s, names)))
	batches, dead := beam.ParDo2(s, &readFn{Format: o.Format, Sample: o.Sample, Rules: o.Rules, Batch: o.Batch, Block: o.Block}, files)
	buckets := 0
	if o.Group == Bucket {
		buckets = o.Buckets
	}
	outs := beam.ParDoN(s, &judgeFn{ProblemsOnly: o.ProblemsOnly, Buckets: buckets}, batches)
	records, counters, hosts, normals, bucketed := outs[0], outs[1], outs[2], outs[3], outs[4]
	Write(s, o.Output, "records", ".ndjson", records)

	deadLines, deadCounters := beam.ParDo2(s, deadLine, beam.Flatten(s, badGlobs, badFiles, dead))
	Write(s, o.Output, "deadletter", ".ndjson", deadLines)

	var groups beam.PCollection
	if o.Group == Bucket {
		groups = beam.ParDo(s, mergeBucket, beam.GroupByKey(s, bucketed))
	} else {
		groups = beam.ParDo(s, moreThanOne, urlbeam.GroupNormalized(s, normals))
	}
	Write(s, o.Output, "duplicates", ".ndjson", beam.ParDo(s, groupLine, groups))

	sums := stats.SumPerKey(s, beam.Flatten(s, counters, deadCounters, beam.ParDo(s, dupCounters, groups)))
	hostCounts := beam.ParDo(s, hostCount, stats.SumPerKey(s, hosts))
	items := beam.Flatten(s,
		beam.ParDo(s, sumCount, sums),
		beam.ParDo(s, explodeHosts, largest(s, hostCounts, o.Top)),
		beam.ParDo(s, explodeDups, largest(s, beam.ParDo(s, groupCount, groups), o.Top)),
		beam.ParDo(s, distinctHosts, stats.CountElms(s, hostCounts)),
	)
	summary := beam.ParDo(s, &summaryFn{Top: o.Top, Sample: o.Sample}, beam.GroupByKey(s, beam.AddFixedKey(s, items)))
	WriteOne(s, o.Output, "summary.json", summary)
	return nil
}

// fill checks o and sets its defaults.
func (o *Options) fill() error {
	if o.Top <= 0 {
		o.Top = 100
	}
	if o.Rules == "" {
		o.Rules = locator.RFC3986.String()
	}
	if o.Batch <= 0 {
		o.Batch = DefaultBatch
	}
	if o.Block <= 0 {
		o.Block = DefaultBlock
	}
	if o.Buckets <= 0 {
		o.Buckets = DefaultBuckets
	}
	switch o.Group {
	case "":
		o.Group = Combine
	case Combine, Bucket:
	default:
		return fmt.Errorf("unknown grouping %q (combine or bucket)", o.Group)
	}
	switch o.Format {
	case Lines, NDJSON, Text:
	default:
		return fmt.Errorf("unknown input format %q (lines, ndjson or text)", o.Format)
	}
	if o.Sample < 0 || o.Sample > 1 || math.IsNaN(o.Sample) {
		return fmt.Errorf("sample %v is not a fraction in [0, 1]", o.Sample)
	}
	if _, err := locator.ParseResolution(o.Rules); err != nil {
		return err
	}
	if len(o.Inputs) == 0 {
		return errors.New("no input")
	}
	if o.Output == "" {
		return errors.New("no output directory")
	}
	return nil
}

// sampler keeps a fraction of the inputs, chosen by a hash of the text:
// the same input is kept or left out on every run and every worker.
func sampler(frac float64) func(string) bool {
	if frac <= 0 || frac >= 1 {
		return func(string) bool { return true }
	}
	limit := uint64(frac * math.MaxUint64)
	return func(s string) bool {
		h := fnv.New64a()
		h.Write([]byte(s))
		return h.Sum64() < limit
	}
}

// judgeFn judges a batch of URLs: one NDJSON chunk of their records,
// the summary's counters and the hosts (lower case) summed over the
// batch, and the normal forms for the duplicate groups: one KV<normal,
// URL> per URL for Combine, or the batch's groups by bucket for Bucket.
type judgeFn struct {
	ProblemsOnly bool
	Buckets      int // 0: per URL, for CombinePerKey
}

func (f *judgeFn) ProcessElement(ctx context.Context, batch []string, rec func(string), ctr func(string, int64), host func(string, int64), norm func(string, string), bucket func(int, []urlbeam.Group)) {
	counts := map[string]int64{}
	hosts := map[string]int64{}
	var groups map[string]*urlbeam.Group
	if f.Buckets > 0 {
		groups = map[string]*urlbeam.Group{}
	}
	var b []byte
	for _, in := range batch {
		u, err := locator.Parse(in)
		r := urlbeam.NewRecord(in, u, err)
		counts["urls"]++
		if r.OK {
			counts["ok"]++
			counts["scheme\t"+r.Scheme]++
			if r.Conforms {
				counts["conforms"]++
			}
			if u.HasAuthority() {
				hosts[strings.ToLower(u.Host())]++
			}
			normal := locator.Normalize(u).String()
			if groups == nil {
				norm(normal, in)
			} else if g := groups[normal]; g != nil {
				g.Add(in)
			} else {
				g = &urlbeam.Group{Normal: normal}
				g.Add(in)
				groups[normal] = g
			}
		}
		if len(r.Problems) > 0 {
			counts["with_problems"]++
		}
		for _, p := range r.Problems {
			counts["rule\t"+p.Severity.String()+"\t"+p.Rule]++
		}
		if f.ProblemsOnly && r.OK && len(r.Problems) == 0 {
			continue
		}
		b = r.AppendJSON(b)
	}
	if len(b) > 0 {
		rec(string(b))
	}
	for k, n := range counts {
		ctr(k, n)
	}
	for h, n := range hosts {
		host(h, n)
	}
	if groups != nil {
		byBucket := make([][]urlbeam.Group, f.Buckets)
		for normal, g := range groups {
			i := bucketOf(normal, f.Buckets)
			byBucket[i] = append(byBucket[i], *g)
		}
		for i, gs := range byBucket {
			if len(gs) > 0 {
				bucket(i, gs)
			}
		}
	}
	urlsJudged.Inc(ctx, counts["urls"])
	conforming.Inc(ctx, counts["conforms"])
}

func bucketOf(normal string, n int) int {
	h := fnv.New32a()
	h.Write([]byte(normal))
	return int(h.Sum32() % uint32(n))
}

// mergeBucket merges the groups of one bucket by normal form, in
// memory, and emits those of more than one URL.
func mergeBucket(_ int, parts func(*[]urlbeam.Group) bool, emit func(urlbeam.Group)) {
	all := map[string]*urlbeam.Group{}
	var gs []urlbeam.Group
	for parts(&gs) {
		for _, g := range gs {
			if m := all[g.Normal]; m != nil {
				m.Merge(g)
			} else {
				c := g
				all[g.Normal] = &c
			}
		}
	}
	for _, g := range all {
		if g.Count > 1 {
			emit(*g)
		}
	}
}

func deadLine(ctx context.Context, d DeadLetter, emit func(string), ctr func(string, int64)) {
	deadLetters.Inc(ctx, 1)
	ctr("dead_letters", 1)
	emit(line(octets.Object{{Key: "source", Value: d.Source}, {Key: "line", Value: d.Line}, {Key: "offset", Value: d.Offset},
		{Key: "reason", Value: d.Reason}, {Key: "text", Value: d.Text}}))
}

// line is o's NDJSON line (octets.Line), with its newline. Counts,
// rates and strings always marshal.
func line(o octets.Object) string {
	b, _ := octets.Line(o)
	return string(b) + "\n"
}

func moreThanOne(g urlbeam.Group, emit func(urlbeam.Group)) {
	if g.Count > 1 {
		emit(g)
	}
}

func groupLine(g urlbeam.Group) string { return string(g.AppendJSON(nil)) + "\n" }

func groupCount(g urlbeam.Group) Count { return Count{Key: g.Normal, N: g.Count} }

func dupCounters(g urlbeam.Group, ctr func(string, int64)) {
	ctr("duplicate_groups", 1)
	ctr("duplicate_urls", g.Count)
}

func sumCount(k string, n int64) Count { return Count{Key: "c\t" + k, N: n} }

func hostCount(k string, n int64) Count { return Count{Key: k, N: n} }

func explodeHosts(cs []Count, emit func(Count)) {
	for _, c := range cs {
		emit(Count{Key: "h\t" + c.Key, N: c.N})
	}
}

func explodeDups(cs []Count, emit func(Count)) {
	for _, c := range cs {
		emit(Count{Key: "d\t" + c.Key, N: c.N})
	}
}

func distinctHosts(n int) Count { return Count{Key: "H", N: int64(n)} }

// lessCount orders counts by N, then the smaller key first among equals
// (so the largest N keep the smallest keys).
func lessCount(a, b Count) bool { return a.N < b.N || a.N == b.N && a.Key > b.Key }

// largest keeps the n largest Counts of col (lessCount), as a single
// []Count. Beam's top.Largest sorts its whole list through reflection
// on every element added, which is quadratic for long lists; this
// combiner sorts only when its list doubles.
func largest(s beam.Scope, col beam.PCollection, n int) beam.PCollection {
	return beam.Combine(s.Scope(fmt.Sprintf("largest(%d)", n)), &topFn{N: n}, col)
}

type topAcc struct {
	Items []Count
}

type topFn struct {
	N int
}

func (f *topFn) trim(a topAcc) topAcc {
	sort.Slice(a.Items, func(i, j int) bool { return lessCount(a.Items[j], a.Items[i]) })
	if len(a.Items) > f.N {
		a.Items = a.Items[:f.N]
	}
	return a
}

func (f *topFn) CreateAccumulator() topAcc { return topAcc{} }

func (f *topFn) AddInput(a topAcc, c Count) topAcc {
	a.Items = append(a.Items, c)
	if len(a.Items) >= 2*f.N+64 {
		a = f.trim(a)
	}
	return a
}

func (f *topFn) MergeAccumulators(a, b topAcc) topAcc {
	a.Items = append(a.Items, b.Items...)
	return f.trim(a)
}

func (f *topFn) ExtractOutput(a topAcc) []Count {
	out := f.trim(topAcc{Items: append([]Count(nil), a.Items...)}).Items
	if out == nil {
		out = []Count{}
	}
	return out
}

// summaryFn writes the summary: counts per scheme, distinct hosts and
// the most common, conformance rates, the most common problems by rule,
// the duplicate groups.
type summaryFn struct {
	Top    int
	Sample float64
}

func (f *summaryFn) ProcessElement(_ int, items func(*Count) bool) string {
	c := map[string]int64{}
	schemes := map[string]int64{}
	var hosts, dups, rules []Count
	var distinct int64
	var it Count
	for items(&it) {
		kind, key, _ := strings.Cut(it.Key, "\t")
		switch kind {
		case "c":
			if s, ok := strings.CutPrefix(key, "scheme\t"); ok {
				schemes[s] = it.N
			} else if r, ok := strings.CutPrefix(key, "rule\t"); ok {
				rules = append(rules, Count{Key: r, N: it.N})
			} else {
				c[key] = it.N
			}
		case "h":
			hosts = append(hosts, Count{Key: key, N: it.N})
		case "d":
			dups = append(dups, Count{Key: key, N: it.N})
		case "H":
			distinct = it.N
		}
	}
	byCount := func(cs []Count) []Count {
		sort.Slice(cs, func(i, j int) bool { return lessCount(cs[j], cs[i]) })
		if len(cs) > f.Top {
			cs = cs[:f.Top]
		}
		return cs
	}
	rate := func(n int64) float64 {
		if c["urls"] == 0 {
			return 0
		}
		return float64(n) / float64(c["urls"])
	}
	list := func(cs []Count, fields ...string) []octets.Object {
		out := []octets.Object{}
		for _, x := range cs {
			parts := strings.SplitN(x.Key, "\t", len(fields))
			var o octets.Object
			for i, name := range fields {
				if i < len(parts) {
					o = append(o, octets.Field{Key: name, Value: parts[i]})
				}
			}
			out = append(out, append(o, octets.Field{Key: "count", Value: x.N}))
		}
		return out
	}
	sample := f.Sample
	if sample <= 0 || sample >= 1 {
		sample = 1
	}
	return line(octets.Object{
		{Key: "urls", Value: c["urls"]},
		{Key: "ok", Value: c["ok"]},
		{Key: "conforms", Value: c["conforms"]},
		{Key: "with_problems", Value: c["with_problems"]},
		{Key: "ok_rate", Value: rate(c["ok"])},
		{Key: "conformance_rate", Value: rate(c["conforms"])},
		{Key: "dead_letters", Value: c["dead_letters"]},
		{Key: "sample", Value: sample},
		{Key: "schemes", Value: schemes},
		{Key: "hosts_distinct", Value: distinct},
		{Key: "hosts_top", Value: list(byCount(hosts), "host")},
		{Key: "problems_top", Value: list(byCount(rules), "severity", "rule")},
		{Key: "duplicate_groups", Value: c["duplicate_groups"]},
		{Key: "duplicate_urls", Value: c["duplicate_urls"]},
		{Key: "duplicates_top", Value: list(byCount(dups), "normal")},
	})
}
