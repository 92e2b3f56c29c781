package crawljob

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/archive"
	"github.com/rfc1738/locator/bulk/job"
	"github.com/rfc1738/locator/crawl"
	"github.com/rfc1738/locator/internal/crawlrecord"
	"github.com/rfc1738/locator/internal/octets"
)

func init() {
	register.DoFn2x0[string, func(string, string)](&checkTargetsFn{})
	register.Emitter2[string, string]()
	register.DoFn4x1[context.Context, string, func(*string) bool, func(string), error](&checkFn{})
	register.DoFn5x1[context.Context, []byte, func(*string) bool, func(*string) bool, func(string), error](&reportFn{})
}

// roundOf returns the round of an events or WARC file
// (round-RRRRR-...), or -1.
func roundOf(name string) int {
	b := filepath.Base(name)
	if !strings.HasPrefix(b, "round-") || len(b) < 11 {
		return -1
	}
	r, err := strconv.Atoi(b[6:11])
	if err != nil {
		return -1
	}
	return r
}

// doneRounds returns the files of dir matching pattern of the rounds
// st says are done, and removes those of a round begun after it (a run
// killed after writing a round's files, before its CURRENT: the next
// run does that round again).
func doneRounds(dir, pattern string, st State) ([]string, error) {
	all, err := files(dir, pattern)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, f := range all {
		switch r := roundOf(f); {
		case r >= 1 && r <= st.Round:
			out = append(out, f)
		case r > st.Round:
			if err := os.Remove(f); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// runReport checks the links not followed (Check) and writes the
// report of the rounds st says are done, and, with WARC, the one index
// of their WARC files.
func runReport(ctx context.Context, o Options, st State, run Runner) (map[string]int64, error) {
	evDir := filepath.Join(o.Output, "events")
	evFiles, err := doneRounds(evDir, "round-*-of-*.ndjson", st)
	if err != nil {
		return nil, err
	}
	p, s := beam.NewPipelineWithRoot()
	lines := beam.ParDo(s, &readLinesFn{}, beam.CreateList(s, evFiles))
	targets := beam.ParDo(s, &checkTargetsFn{Check: o.Check}, lines)
	checked := beam.ParDo(s.Scope("check"), &checkFn{Opt: o}, beam.GroupByKey(s, targets))
	job.Write(s, evDir, "checked", ".ndjson", checked)
	report := beam.ParDo(s, &reportFn{}, beam.Impulse(s), beam.SideInput{Input: lines}, beam.SideInput{Input: checked})
	job.WriteOne(s, o.Output, "report.ndjson", report)
	c, err := run(ctx, p)
	if err != nil {
		return nil, err
	}
	if o.WARC {
		wdir := filepath.Join(o.Output, "warc")
		shards, err := doneRounds(wdir, "round-*-of-*.warc.gz", st)
		if err != nil {
			return nil, err
		}
		idx, err := doneRounds(wdir, "round-*.cdxj", st)
		if err != nil {
			return nil, err
		}
		var in []archive.IndexFile
		for _, f := range idx {
			in = append(in, archive.IndexFile{Path: f})
		}
		var b bytes.Buffer
		if err := archive.MergeIndexes(&b, in); err != nil {
			return nil, err
		}
		if err := replaceFile(filepath.Join(wdir, "index.cdxj"), b.Bytes()); err != nil {
			return nil, err
		}
		if o.WACZ != "" {
			if err := packWACZ(o, st, shards); err != nil {
				return nil, fmt.Errorf("--wacz: %w", err)
			}
		}
	}
	return c, nil
}

// packWACZ makes o.WACZ of the WARC files of the rounds done (shards)
// and warc/index.cdxj, its pages those of st's database fetched "ok",
// at the time they were fetched. The WACZ replaces any before it (a
// run that goes on makes it again).
func packWACZ(o Options, st State, shards []string) error {
	dbFiles, err := files(filepath.Join(o.Output, "db", st.DB), "crawldb-*-of-*.ndjson")
	if err != nil {
		return err
	}
	pages := func(yield func(archive.Page, error) bool) {
		for _, name := range dbFiles {
			if !yieldPages(name, yield) {
				return
			}
		}
	}
	return archive.PackWACZ(o.WACZ, shards, filepath.Join(o.Output, "warc", "index.cdxj"), pages,
		archive.WACZOptions{Options: archive.Options{Software: "locator-bulk crawl"}})
}

// yieldPages yields a Page for each record of the database file name
// fetched "ok", or the error that ends its reading; it reports whether
// to go on.
func yieldPages(name string, yield func(archive.Page, error) bool) bool {
	f, err := os.Open(name)
	if err != nil {
		yield(archive.Page{}, err)
		return false
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 64<<10)
	for n := 1; ; n++ {
		line, err := readLine(br)
		if len(line) > 0 {
			e, perr := ParseEntry(line)
			if perr != nil {
				yield(archive.Page{}, &RecordError{File: name, Line: n, Rule: perr.Error()})
				return false
			}
			if e.Status == "ok" {
				u, _ := locator.Parse(e.URL) // ParseEntry parsed it
				t, _ := time.Parse(time.RFC3339Nano, e.Fetched)
				if !yield(archive.Page{URL: u, Time: t}, nil) {
					return false
				}
			}
		}
		if err == io.EOF {
			return true
		}
		if err != nil {
			yield(archive.Page{}, fmt.Errorf("%s:%d: %w", name, n, err))
			return false
		}
	}
}

// checkTargetsFn keys by server the URL of each link a Crawler with
// Check checks (crawl.Checks: out of scope, excluded, too deep).
type checkTargetsFn struct{ Check bool }

func (f *checkTargetsFn) ProcessElement(line string, emit func(string, string)) {
	if !f.Check || !strings.HasPrefix(line, `{"event":"link"`) {
		return
	}
	var rec crawlrecord.Any
	if json.Unmarshal([]byte(line), &rec) != nil || !crawl.Checks(rec.Reason) {
		return
	}
	u, err := locator.Parse(rec.URL)
	if err != nil {
		return
	}
	emit(crawl.Server(u), rec.URL)
}

// checkFn checks one server's URLs, each once, with the crawl's
// linkcheck (at most PerHost at once).
type checkFn struct {
	Opt  Options
	sess *crawl.Session
}

func (f *checkFn) Setup(ctx context.Context) error {
	c, seeds, err := f.Opt.crawler()
	if err != nil {
		return err
	}
	f.sess, err = c.Session(ctx, seeds)
	return err
}

func (f *checkFn) Teardown() {
	if f.sess != nil {
		f.sess.Close()
	}
}

func (f *checkFn) ProcessElement(ctx context.Context, _ string, urls func(*string) bool, emit func(string)) error {
	var list []string
	var u string
	for urls(&u) {
		list = append(list, u)
	}
	slices.Sort(list)
	list = slices.Compact(list)
	seq := func(yield func(*locator.URL) bool) {
		for _, s := range list {
			if u, err := locator.Parse(s); err == nil && !yield(u) {
				return
			}
		}
	}
	return f.sess.Check(ctx, seq, func(c *crawl.Checked) error {
		var b bytes.Buffer
		if err := octets.WriteLine(&b, crawlrecord.Of(c)); err != nil {
			return err
		}
		emit(b.String())
		return nil
	})
}

// reportFn builds the crawl's report (crawl.Report, in memory and then
// in a temporary file) from every record, and emits its broken records
// and its summary, as `locator crawl --json` ends.
type reportFn struct {
	broken, pages beam.Counter
}

func (f *reportFn) Setup() {
	f.broken = beam.NewCounter("locator", "crawl_broken")
	f.pages = beam.NewCounter("locator", "crawl_pages")
}

func (f *reportFn) ProcessElement(ctx context.Context, _ []byte, events, checked func(*string) bool, emit func(string)) error {
	rep := &crawl.Report{}
	defer rep.Close()
	sum := crawlrecord.Summary{Event: "summary"}
	add := func(line string) error {
		var rec crawlrecord.Any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			return fmt.Errorf("a record of the crawl: %v (%.80q)", err, line)
		}
		switch rec.Event {
		case "page":
			sum.Pages++
			sum.Octets += rec.Read
			if rec.Error != "" || rec.Status != string(access.StateOK) && rec.Status != "skipped" {
				sum.Errors++
			}
		case "link":
			sum.Links++
		case "checked":
			sum.Checked++
			if rec.Status != string(access.StateOK) {
				sum.Errors++
			}
		}
		if ev := rec.Rebuild(); ev != nil {
			return rep.Add(ev)
		}
		return nil
	}
	var line string
	for events(&line) {
		if err := add(line); err != nil {
			return err
		}
	}
	for checked(&line) {
		if err := add(strings.TrimSuffix(line, "\n")); err != nil {
			return err
		}
	}
	var err error
	if sum.Broken, _, err = rep.Count(); err != nil {
		return err
	}
	err = rep.EachTarget(0, true, func(t *crawl.Target) error {
		sum.Refused += t.Links
		return nil
	})
	if err != nil {
		return err
	}
	if sum.Unjudged, _, err = rep.Unjudged(); err != nil {
		return err
	}
	err = rep.EachBroken(func(b crawl.Broken, _ int) error {
		var buf bytes.Buffer
		if err := octets.WriteLine(&buf, crawlrecord.OfBroken(b)); err != nil {
			return err
		}
		emit(buf.String())
		return nil
	})
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := octets.WriteLine(&buf, sum); err != nil {
		return err
	}
	emit(buf.String())
	f.broken.Inc(ctx, int64(sum.Broken))
	f.pages.Inc(ctx, int64(sum.Pages))
	return nil
}
