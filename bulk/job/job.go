// Package job is the pipeline of the ready job locator-bulk: it reads
// URLs from files (one URL per line, NDJSON from `locator extract
// --json`, or plain documents; glob patterns; gzip), judges each one
// (urlbeam.Judge: the record of `locator parse --json`), and writes
// NDJSON shards of records, a dead-letter output for lines it could not
// read, the duplicate groups (locator.Normalize), and a summary.
package job

import (
	"bufio"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"path"
	"path/filepath"
	"reflect"
	"sort"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local" // local files; import gcs etc. in a main for others
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/transforms/filter"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/transforms/stats"
	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/bulk/urlbeam"
	"github.com/rfc1738/locator/file"
	"github.com/rfc1738/locator/internal/lines"
	"github.com/rfc1738/locator/internal/octets"
	"github.com/rfc1738/locator/text"
)

// Input formats.
const (
	Lines  = "lines"  // one URL per line, as `locator parse -` reads them
	NDJSON = "ndjson" // `locator extract --json` records: the "url" key
	Text   = "text"   // documents: the URLs found in running text
)

// MaxLine bounds one input line, as the command's stdin does: a longer
// line goes to the dead letters.
const MaxLine = lines.Max

// Options configure the job.
type Options struct {
	Inputs       []string // file names or glob patterns, any Beam filesystem
	Format       string   // Lines, NDJSON or Text
	Output       string   // directory: records-*, deadletter-*, duplicates-*, summary.json
	Shards       int      // record files; each is one shuffle key
	ProblemsOnly bool     // write only the records of inputs that are not URLs or have problems
	Sample       float64  // keep this fraction of the inputs (by a hash of the text: repeatable); 0 or 1: all
	Top          int      // length of the summary's lists
	Reshuffle    bool     // spread the lines over workers after reading
	Rules        string   // resolution rules for partial forms in documents (Text)
}

// A DeadLetter is an input the job could not read: a line too long, an
// NDJSON line that is not JSON or has no "url", a file that cannot be
// opened or decompressed. It is written with its reason, never dropped.
type DeadLetter struct {
	Source string // the file
	Line   int    // 1-based line number; 0 for the whole file
	Reason string
	Text   string // the line, cut to 512 bytes
}

// A Count is a key and how many times it was seen.
type Count struct {
	Key string
	N   int64
}

func init() {
	for _, t := range []any{DeadLetter{}, Count{}} {
		beam.RegisterType(reflect.TypeOf(t))
	}
	register.Function4x0(expandFn)
	register.Emitter1[string]()
	register.DoFn4x0[context.Context, string, func(string), func(DeadLetter)](&readFn{})
	register.Emitter1[DeadLetter]()
	register.DoFn5x0[string, func(string), func(string, int), func(string), func(string, string)](&judgeFn{})
	register.Emitter2[string, int]()
	register.Emitter2[string, string]()
	register.Function3x0(deadLine)
	register.Function2x1(sumCount)
	register.Function2x1(hostCount)
	register.Function2x0(explodeHosts)
	register.Function2x0(explodeDups)
	register.Function1x1(distinctHosts)
	register.Emitter1[Count]()
	register.Function2x0(dupCounters)
	register.Function1x1(groupCount)
	register.Function2x0(moreThanOne)
	register.Emitter1[urlbeam.Group]()
	register.Function2x1(lessCount)
	register.Combiner3[topAcc, Count, []Count](&topFn{})
	beam.RegisterType(reflect.TypeOf(topAcc{}))
	register.Function1x1(groupLine)
	register.DoFn2x1[int, func(*Count) bool, string](&summaryFn{})
	register.Iter1[Count]()
	register.DoFn1x2[string, int, string](&shardFn{})
	register.DoFn3x1[context.Context, int, func(*string) bool, error](&writeFn{})
	register.Iter1[string]()
}

// Build adds the job to s.
func Build(s beam.Scope, o Options) error {
	if o.Shards <= 0 {
		o.Shards = 1
	}
	if o.Top <= 0 {
		o.Top = 100
	}
	if o.Rules == "" {
		o.Rules = locator.RFC3986.String()
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
		return fmt.Errorf("no input")
	}
	if o.Output == "" {
		return fmt.Errorf("no output directory")
	}

	files, badGlobs := beam.ParDo2(s, expandFn, beam.CreateList(s, o.Inputs))
	files = beam.Reshuffle(s, filter.Distinct(s, files))
	urls, dead := beam.ParDo2(s, &readFn{Format: o.Format, Sample: o.Sample, Rules: o.Rules}, files)
	if o.Reshuffle {
		urls = beam.Reshuffle(s, urls)
	}
	records, counters, hosts, normals := beam.ParDo4(s, &judgeFn{ProblemsOnly: o.ProblemsOnly}, urls)
	write(s, o.Output, "records", ".ndjson", o.Shards, records)

	deadLines, deadCounters := beam.ParDo2(s, deadLine, beam.Flatten(s, badGlobs, dead))
	write(s, o.Output, "deadletter", ".ndjson", 1, deadLines)

	groups := beam.ParDo(s, moreThanOne, urlbeam.GroupNormalized(s, normals))
	write(s, o.Output, "duplicates", ".ndjson", o.Shards, beam.ParDo(s, groupLine, groups))

	sums := stats.SumPerKey(s, beam.Flatten(s, counters, deadCounters, beam.ParDo(s, dupCounters, groups)))
	hostCounts := beam.ParDo(s, hostCount, stats.Count(s, hosts))
	items := beam.Flatten(s,
		beam.ParDo(s, sumCount, sums),
		beam.ParDo(s, explodeHosts, largest(s, hostCounts, o.Top)),
		beam.ParDo(s, explodeDups, largest(s, beam.ParDo(s, groupCount, groups), o.Top)),
		beam.ParDo(s, distinctHosts, stats.CountElms(s, hostCounts)),
	)
	summary := beam.ParDo(s, &summaryFn{Top: o.Top, Sample: o.Sample}, beam.GroupByKey(s, beam.AddFixedKey(s, items)))
	write(s, o.Output, "summary", ".json", 1, summary)
	return nil
}

// expandFn lists the files a pattern names (any Beam filesystem:
// local, gs://, ...). A pattern that names nothing is a dead letter.
func expandFn(ctx context.Context, glob string, emit func(string), dead func(DeadLetter)) {
	fs, err := filesystem.New(ctx, glob)
	if err != nil {
		dead(DeadLetter{Source: glob, Reason: err.Error()})
		return
	}
	defer fs.Close()
	names, err := fs.List(ctx, glob)
	if err != nil {
		dead(DeadLetter{Source: glob, Reason: "listing: " + err.Error()})
		return
	}
	if len(names) == 0 {
		dead(DeadLetter{Source: glob, Reason: "no file matches"})
		return
	}
	for _, n := range names {
		emit(n)
	}
}

// readFn reads one file: gzip when it starts with gzip's magic number.
type readFn struct {
	Format string
	Sample float64
	Rules  string
}

func (f *readFn) ProcessElement(ctx context.Context, name string, emit func(string), dead func(DeadLetter)) {
	fail := func(line int, why, text string) {
		if len(text) > 512 {
			text = text[:512]
		}
		dead(DeadLetter{Source: name, Line: line, Reason: why, Text: text})
	}
	fs, err := filesystem.New(ctx, name)
	if err != nil {
		fail(0, err.Error(), "")
		return
	}
	defer fs.Close()
	rc, err := fs.OpenRead(ctx, name)
	if err != nil {
		fail(0, err.Error(), "")
		return
	}
	defer rc.Close()
	var r io.Reader = bufio.NewReaderSize(rc, 64<<10)
	if magic, _ := r.(*bufio.Reader).Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		gz, err := gzip.NewReader(r)
		if err != nil {
			fail(0, "gzip: "+err.Error(), "")
			return
		}
		defer gz.Close()
		r = gz
	}
	keep := sampler(f.Sample)
	if f.Format == Text {
		f.document(name, r, func(u string) {
			if keep(u) {
				emit(u)
			}
		}, fail)
		return
	}
	sc := lines.NewScanner(r, MaxLine)
	for sc.Scan() {
		l := sc.Line()
		switch {
		case l.TooLong:
			fail(l.N, fmt.Sprintf("longer than %d bytes", MaxLine), l.Text)
			continue
		case l.Blank():
			continue
		}
		in := l.Text
		if f.Format == NDJSON {
			var rec struct {
				URL *string `json:"url"`
			}
			if err := json.Unmarshal([]byte(in), &rec); err != nil {
				fail(l.N, "not a JSON object: "+err.Error(), in)
				continue
			}
			if rec.URL == nil {
				fail(l.N, `no "url" key`, in)
				continue
			}
			in = *rec.URL
		}
		if keep(in) {
			emit(in)
		}
	}
	if err := sc.Err(); err != nil {
		fail(0, "reading: "+err.Error(), "")
	}
}

// document finds the URLs of one document (text.Scanner), partial forms
// resolved against the document's own URL.
func (f *readFn) document(name string, r io.Reader, emit func(string), fail func(int, string, string)) {
	opts := &text.Options{}
	opts.Resolution, _ = locator.ParseResolution(f.Rules)
	if base, err := locator.Parse(documentURL(name)); err == nil {
		opts.Base = base
	}
	br := bufio.NewReaderSize(r, 512)
	head, _ := br.Peek(512)
	opts.HTML = text.LooksLikeHTML(head)
	opts.Skipped = func(le *text.LimitError) { fail(le.Line, le.Error(), "") }
	sc := text.NewScanner(br, opts)
	for sc.Scan() {
		emit(sc.Match().URL)
	}
	if err := sc.Err(); err != nil {
		fail(0, err.Error(), "")
	}
}

// documentURL is the URL a file was read from: a name with a scheme
// (gs://b/x) is one already; a local path becomes a file URL (RFC 1738
// §3.10).
func documentURL(name string) string {
	if i := strings.Index(name, "://"); i > 0 {
		return name
	}
	abs, err := filepath.Abs(name)
	if err != nil {
		return ""
	}
	u, err := file.FromLocalPath(abs, file.Unix)
	if err != nil {
		return ""
	}
	return u
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

// judgeFn judges one URL: its record line, the summary's counters, its
// host (lower case) and its normal form for the duplicate groups.
type judgeFn struct {
	ProblemsOnly bool
}

func (f *judgeFn) ProcessElement(in string, rec func(string), ctr func(string, int), host func(string), norm func(string, string)) {
	u, err := locator.Parse(in)
	r := urlbeam.NewRecord(in, u, err)
	ctr("urls", 1)
	if r.OK {
		ctr("ok", 1)
		ctr("scheme\t"+r.Scheme, 1)
		if r.Conforms {
			ctr("conforms", 1)
		}
		if u.HasAuthority() {
			host(strings.ToLower(u.Host()))
		}
		norm(locator.Normalize(u).String(), in)
	}
	if len(r.Problems) > 0 {
		ctr("with_problems", 1)
	}
	for _, p := range r.Problems {
		ctr("rule\t"+p.Severity.String()+"\t"+p.Rule, 1)
	}
	if f.ProblemsOnly && r.OK && len(r.Problems) == 0 {
		return
	}
	b := r.AppendJSON(nil)
	rec(string(b[:len(b)-1]))
}

func deadLine(d DeadLetter, emit func(string), ctr func(string, int)) {
	ctr("dead_letters", 1)
	emit(line(octets.Object{{Key: "source", Value: d.Source}, {Key: "line", Value: d.Line},
		{Key: "reason", Value: d.Reason}, {Key: "text", Value: d.Text}}))
}

// line is o's NDJSON line (octets.Line), without the newline, as the
// records are written. Counts, rates and strings always marshal.
func line(o octets.Object) string {
	b, _ := octets.Line(o)
	return string(b)
}

func moreThanOne(g urlbeam.Group, emit func(urlbeam.Group)) {
	if g.Count > 1 {
		emit(g)
	}
}

func groupLine(g urlbeam.Group) string { return string(g.AppendJSON(nil)) }

func groupCount(g urlbeam.Group) Count { return Count{Key: g.Normal, N: g.Count} }

func dupCounters(g urlbeam.Group, ctr func(string, int)) {
	ctr("duplicate_groups", 1)
	ctr("duplicate_urls", int(g.Count))
}

func sumCount(k string, n int) Count { return Count{Key: "c\t" + k, N: int64(n)} }

func hostCount(k string, n int) Count { return Count{Key: k, N: int64(n)} }

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

// write writes lines to dir/name-SSSSS-of-NNNNN.ext (dir/name.ext for
// one shard), a shard per key of a shuffle. A shard is written whole by
// one worker, so a retry rewrites the same file. Lines come in no
// particular order; a shard no line fell into is not written.
func write(s beam.Scope, dir, name, ext string, shards int, lines beam.PCollection) {
	s = s.Scope("write " + name)
	keyed := beam.ParDo(s, &shardFn{Shards: shards}, lines)
	beam.ParDo0(s, &writeFn{Dir: dir, Name: name, Ext: ext, Shards: shards}, beam.GroupByKey(s, keyed))
}

type shardFn struct {
	Shards int
}

func (f *shardFn) ProcessElement(line string) (int, string) {
	h := fnv.New32a()
	h.Write([]byte(line))
	return int(h.Sum32() % uint32(f.Shards)), line
}

type writeFn struct {
	Dir, Name, Ext string
	Shards         int
}

func (f *writeFn) ProcessElement(ctx context.Context, shard int, lines func(*string) bool) error {
	name := f.Name + f.Ext
	if f.Shards > 1 {
		name = fmt.Sprintf("%s-%05d-of-%05d%s", f.Name, shard, f.Shards, f.Ext)
	}
	full := strings.TrimSuffix(f.Dir, "/") + "/" + name
	if !strings.Contains(f.Dir, "://") {
		full = path.Join(f.Dir, name)
	}
	fs, err := filesystem.New(ctx, full)
	if err != nil {
		return err
	}
	defer fs.Close()
	wc, err := fs.OpenWrite(ctx, full)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(wc, 256<<10)
	var line string
	for lines(&line) {
		w.WriteString(line)
		w.WriteByte('\n')
	}
	if err := w.Flush(); err != nil {
		wc.Close()
		return fmt.Errorf("writing %s: %w", full, err)
	}
	if err := wc.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", full, err)
	}
	return nil
}
