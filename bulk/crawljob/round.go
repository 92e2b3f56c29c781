package crawljob

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
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
	register.DoFn3x1[context.Context, string, func(string), error](&readLinesFn{})
	register.Emitter1[string]()
	register.Function2x1(parseEntryLine)
	register.Emitter2[string, Entry]()
	register.Function3x0(fetchList)
	register.DoFn6x1[context.Context, string, func(*Entry) bool, func(string), func(string, Entry), func(string), error](&fetchFn{})
	register.Iter1[Entry]()
	register.DoFn5x0[context.Context, string, func(*Entry) bool, func(*Entry) bool, func(string)](&mergeFn{})
	register.DoFn3x1[context.Context, []byte, func(*string) bool, error](&warcFinalizeFn{})
	register.Iter1[string]()
}

// maxLine bounds a line read back from the job's own files: a link's
// record holds its reference, at most a page's octets, escaped.
const maxLine = 64 << 20

// readLinesFn emits the lines of a file (local, gs://, s3://), without
// their newlines.
type readLinesFn struct{}

func (readLinesFn) ProcessElement(ctx context.Context, name string, emit func(string)) error {
	fs, err := filesystem.New(ctx, name)
	if err != nil {
		return err
	}
	defer fs.Close()
	rc, err := fs.OpenRead(ctx, name)
	if err != nil {
		return err
	}
	defer rc.Close()
	br := bufio.NewReaderSize(rc, 64<<10)
	for n := 1; ; n++ {
		line, err := readLine(br)
		if len(line) > 0 {
			emit(string(line))
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s:%d: %w", name, n, err)
		}
	}
}

// readLine reads a line of at most maxLine octets, without its newline.
func readLine(br *bufio.Reader) ([]byte, error) {
	var b []byte
	for {
		part, err := br.ReadSlice('\n')
		if len(b)+len(part) > maxLine {
			return nil, fmt.Errorf("a line longer than %d octets", maxLine)
		}
		b = append(b, part...)
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return bytes.TrimSuffix(b, []byte("\n")), err
	}
}

// parseEntryLine reads a record of the database; one that cannot be
// read fails the round (the database is the job's own: a damaged one
// is not passed over).
func parseEntryLine(line string, emit func(string, Entry)) error {
	e, err := ParseEntry([]byte(line))
	if err != nil {
		return fmt.Errorf("crawl database: %w (%.80q)", err, line)
	}
	emit(e.URL, e)
	return nil
}

// fetchList keys each entry unfetched by the server its fetch is
// polite to (crawl.Server).
func fetchList(_ string, e Entry, emit func(string, Entry)) {
	if e.Status != Unfetched {
		return
	}
	u, err := locator.Parse(e.URL)
	if err != nil {
		emit("", e)
		return
	}
	emit(crawl.Server(u), e)
}

// runRound runs round st.Round+1 and returns the state it leaves.
func runRound(ctx context.Context, o Options, st State, run Runner) (State, error) {
	r := st.Round + 1
	next := State{Round: r, DB: genName(r)}
	dbFiles, err := files(filepath.Join(o.Output, "db", st.DB), "crawldb-*-of-*.ndjson")
	if err != nil {
		return next, err
	}
	if len(dbFiles) == 0 {
		return next, fmt.Errorf("crawl database %s: no file", filepath.Join(o.Output, "db", st.DB))
	}
	p, s := beam.NewPipelineWithRoot()
	lines := beam.ParDo(s, &readLinesFn{}, beam.Create(s, anySlice(dbFiles)...))
	entries := beam.ParDo(s, parseEntryLine, lines)
	todo := beam.ParDo(s, fetchList, entries)
	name := fmt.Sprintf("round-%05d", r)
	f := &fetchFn{Opt: o, Round: r}
	if o.WARC {
		f.WARCDir, f.WARCName = filepath.Join(o.Output, "warc"), name
	}
	events, updates, warcs := fetchStage(s, todo, f)
	job.Write(s, filepath.Join(o.Output, "events"), name, ".ndjson", events)
	merged := beam.ParDo(s, &mergeFn{}, beam.CoGroupByKey(s, entries, updates))
	job.Write(s, filepath.Join(o.Output, "db", next.DB), "crawldb", ".ndjson", merged)
	if o.WARC {
		beam.ParDo0(s, &warcFinalizeFn{Dir: f.WARCDir, Name: name}, beam.Impulse(s), beam.SideInput{Input: warcs})
	}
	c, err := run(ctx, p)
	if err != nil {
		return next, err
	}
	next.Unfetched = c["crawl_unfetched"]
	if c["crawl_fetched"] == 0 {
		// Every fetch was cut short (--round-timeout): another round
		// would do the same.
		return next, fmt.Errorf("no URL fetched (--round-timeout %v too short?)", o.RoundTimeout)
	}
	return next, nil
}

func anySlice(s []string) []any {
	out := make([]any, len(s))
	for i, v := range s {
		out[i] = v
	}
	return out
}

// fetchStage fetches the URLs of keyed (KV<server, Entry>), politely
// per server, with f, and returns the records of the pages and their
// links (NDJSON chunks, one a page), the database's updates (KV<URL,
// Entry>: each page fetched, each URL a link has the crawl follow) and
// the WARC files the bundles wrote.
//
// Politeness, as Nutch partitions its fetch list: a GroupByKey puts
// each server's URLs in one element, fetched by one DoFn call, one
// after another (at most PerHost at once, Delay between the end of one
// and the beginning of the next, robots.txt's Crawl-delay: the crawl
// package's own limiter and clock), however many workers there are.
// Its limit: a server's URLs of a round are held by one worker, and one
// DoFn instance fetches its servers one after another; a stateful DoFn
// (state and timers) that releases each server's next URL when its
// delay is over is the one to put here.
func fetchStage(s beam.Scope, keyed beam.PCollection, f *fetchFn) (events, updates, warcs beam.PCollection) {
	s = s.Scope("fetch")
	return beam.ParDo3(s, f, beam.GroupByKey(s, keyed))
}

// fetchFn fetches one server's URLs of a round.
type fetchFn struct {
	Opt      Options
	Round    int
	WARCDir  string // "" without --warc
	WARCName string

	sess *crawl.Session
	rec  *bundleRecorder
}

// bundleRecorder records a bundle's exchanges to its WARC file.
type bundleRecorder struct {
	mu   sync.Mutex
	w    *archive.Writer
	temp string
	err  error
}

// Record records rec in the bundle's file; the first failure is kept
// for FinishBundle, which fails the bundle with it.
func (r *bundleRecorder) Record(rec *access.Record) error {
	r.mu.Lock()
	w := r.w
	r.mu.Unlock()
	if w == nil {
		return nil
	}
	return r.keep(w.Record(rec))
}

func (r *bundleRecorder) keep(err error) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.err = cmp.Or(r.err, err)
	return err
}

func (f *fetchFn) Setup(ctx context.Context) error {
	c, seeds, err := f.Opt.crawler()
	if err != nil {
		return err
	}
	if f.WARCDir != "" {
		f.rec = &bundleRecorder{}
		c.Client.Recorder = f.rec
	}
	f.sess, err = c.Session(ctx, seeds)
	return err
}

func (f *fetchFn) Teardown() {
	if f.sess != nil {
		f.sess.Close()
	}
}

func (f *fetchFn) ProcessElement(ctx context.Context, server string, items func(*Entry) bool, emitEvents func(string), emitUpdate func(string, Entry), _ func(string)) error {
	var list []Entry
	var e Entry
	for items(&e) {
		list = append(list, e)
	}
	slices.SortFunc(list, func(a, b Entry) int {
		if a.less(b) {
			return -1
		}
		if b.less(a) {
			return 1
		}
		return 0
	})
	if f.Opt.Top > 0 && len(list) > f.Opt.Top {
		list = list[:f.Opt.Top] // the rest waits for a later round
	}
	if f.rec != nil {
		f.rec.mu.Lock()
		if f.rec.w == nil {
			f.rec.temp = job.TempName(f.WARCDir, f.WARCName, ".warc.gz")
			w, err := archive.Create(f.rec.temp, archive.Options{Software: "locator-bulk crawl"})
			if err != nil {
				f.rec.mu.Unlock()
				return err
			}
			f.rec.w = w
		}
		f.rec.mu.Unlock()
	}
	if f.Opt.RoundTimeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, f.Opt.RoundTimeout)
		defer cancel()
	}
	// At most PerHost fetches at once: the Session's limiter holds the
	// rest, and its clock the Delay. The results are emitted in order.
	type out struct {
		page  *crawl.Page
		links []*crawl.Link
		err   error
		at    string // when it was fetched
	}
	outs := make([]out, len(list))
	sem := make(chan struct{}, max(f.Opt.PerHost, 1))
	var wg sync.WaitGroup
	for i, e := range list {
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			p, l, err := f.sess.Fetch(ctx, crawl.Item{URL: e.URL, Depth: e.Depth, From: e.From})
			outs[i] = out{p, l, err, time.Now().UTC().Format(time.RFC3339Nano)}
		}()
	}
	wg.Wait()
	for i, o := range outs {
		if o.err != nil {
			// --round-timeout ended it: not reported, and unfetched
			// still, for the next round (as Crawl leaves a page the
			// end of its context cut short).
			if ctx.Err() == nil {
				return fmt.Errorf("fetching %s: %w", list[i].URL, o.err)
			}
			continue
		}
		var b bytes.Buffer
		if err := octets.WriteLine(&b, crawlrecord.Of(o.page)); err != nil {
			return err
		}
		status, _ := crawlrecord.PageStatus(o.page)
		if o.page.Skipped != "" && o.page.Err == nil {
			status = "skipped"
		}
		done := list[i]
		done.Status, done.Fetched = status, o.at
		emitUpdate(done.URL, done)
		found := map[string]bool{}
		for _, l := range o.links {
			if err := octets.WriteLine(&b, crawlrecord.Of(l)); err != nil {
				return err
			}
			if l.Follow && !found[l.URL.String()] {
				found[l.URL.String()] = true
				k := l.URL.String()
				emitUpdate(k, Entry{URL: k, Status: Unfetched, Depth: crawl.LinkDepth(o.page.Depth, l), From: done.URL})
			}
		}
		emitEvents(b.String())
	}
	return nil
}

// FinishBundle ends the bundle's WARC file, whose name is kept only
// if the bundle commits.
func (f *fetchFn) FinishBundle(_ func(string), _ func(string, Entry), emitWARC func(string)) error {
	if f.rec == nil {
		return nil
	}
	f.rec.mu.Lock()
	w, temp, rerr := f.rec.w, f.rec.temp, f.rec.err
	f.rec.w, f.rec.err = nil, nil
	f.rec.mu.Unlock()
	if w == nil {
		return nil
	}
	if err := w.Close(); err != nil {
		return err
	}
	if rerr != nil {
		return rerr
	}
	emitWARC(temp)
	return nil
}

// mergeFn makes a URL's record of the next generation: its record, its
// fetch applied; or, for a URL new to the database, the link that found
// it first (the shallowest; of those, the least page).
type mergeFn struct {
	unfetched, added, fetched beam.Counter
}

func (m *mergeFn) Setup() {
	m.unfetched = beam.NewCounter("locator", "crawl_unfetched")
	m.added = beam.NewCounter("locator", "crawl_new")
	m.fetched = beam.NewCounter("locator", "crawl_fetched")
}

func (m *mergeFn) ProcessElement(ctx context.Context, url string, olds func(*Entry) bool, updates func(*Entry) bool, emit func(string)) {
	var cur *Entry
	var e Entry
	for olds(&e) {
		if cur == nil {
			c := e
			cur = &c
		}
	}
	var fetched, found *Entry
	for updates(&e) {
		c := e
		switch {
		case c.Status != Unfetched:
			fetched = &c
		case found == nil || c.Depth < found.Depth || c.Depth == found.Depth && c.From < found.From:
			found = &c
		}
	}
	if cur == nil {
		cur = found
		if cur == nil {
			cur = fetched
		}
		m.added.Inc(ctx, 1)
	}
	if fetched != nil {
		cur.Status, cur.Fetched = fetched.Status, fetched.Fetched
		m.fetched.Inc(ctx, 1)
	}
	if cur.Status == Unfetched {
		m.unfetched.Inc(ctx, 1)
	}
	emit(cur.Line())
}

// warcFinalizeFn renames the WARC files of the bundles that committed
// (as job.Write's finalize does) and merges their indexes into one,
// round-RRRRR.cdxj, naming them by their final names.
type warcFinalizeFn struct {
	Dir, Name string
}

func (f *warcFinalizeFn) ProcessElement(ctx context.Context, _ []byte, temps func(*string) bool) error {
	var names []string
	var t string
	for temps(&t) {
		names = append(names, t)
	}
	var idx []archive.IndexFile
	err := job.Finalize(ctx, f.Dir, f.Name, ".warc.gz", false, names, func(temp, final string) error {
		// Each index is moved aside first: Finalize removes what
		// else bears the temporaries' names.
		aside := filepath.Join(f.Dir, ".idx-"+filepath.Base(final)+".cdxj")
		if err := os.Rename(temp+".cdxj", aside); err != nil {
			if _, serr := os.Stat(aside); serr != nil {
				return err
			}
		}
		idx = append(idx, archive.IndexFile{Path: aside, Filename: filepath.Base(final)})
		return nil
	})
	if err != nil {
		return err
	}
	var b bytes.Buffer
	if err := archive.MergeIndexes(&b, idx); err != nil {
		return err
	}
	if err := replaceFile(filepath.Join(f.Dir, f.Name+".cdxj"), b.Bytes()); err != nil {
		return err
	}
	for _, i := range idx {
		if err := os.Remove(i.Path); err != nil {
			return err
		}
	}
	return nil
}
