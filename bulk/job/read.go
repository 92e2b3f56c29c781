package job

import (
	"bufio"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/sdf"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/rtrackers/offsetrange"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/transforms/filter"
	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/bulk/internal/ranges"
	"github.com/rfc1738/locator/file"
	"github.com/rfc1738/locator/text"
)

type sdfTracker = sdf.LockRTracker

// fileSpec is one input file: its name, size, and whether it is gzip
// (by its magic number), which decides whether it can be read in ranges.
type fileSpec struct {
	Name string
	Size int64
	Gzip bool
}

// expandFn lists the files a pattern names (local, gs://, s3://). A
// pattern that names nothing is a dead letter.
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

// statFn finds a file's size and whether it is gzip. A file that
// cannot be opened is a dead letter.
func statFn(ctx context.Context, name string, emit func(fileSpec), dead func(DeadLetter)) {
	fs, err := filesystem.New(ctx, name)
	if err != nil {
		dead(DeadLetter{Source: name, Reason: err.Error()})
		return
	}
	defer fs.Close()
	size, err := fs.Size(ctx, name)
	if err != nil {
		dead(DeadLetter{Source: name, Reason: err.Error()})
		return
	}
	rc, err := fs.OpenRead(ctx, name)
	if err != nil {
		dead(DeadLetter{Source: name, Reason: err.Error()})
		return
	}
	defer rc.Close()
	var magic [2]byte
	n, _ := io.ReadFull(rc, magic[:])
	emit(fileSpec{Name: name, Size: size, Gzip: n == 2 && magic[0] == 0x1f && magic[1] == 0x8b})
}

// readFn reads a file in batches of lines: a splittable DoFn whose
// restriction is a range of byte offsets. A plain file of lines or
// NDJSON is cut into ranges of Block bytes, read by as many workers, a
// line belonging to the range that holds its first byte (rangeScanner);
// the runner may split a range further while it is read. A gzip file,
// or a document (Text), is read whole by one worker: its one position,
// offset 0, stands for the whole file.
type readFn struct {
	Format string
	Sample float64
	Rules  string
	Batch  int
	Block  int64
}

func (f *readFn) whole(in fileSpec) bool { return in.Gzip || f.Format == Text }

func (f *readFn) CreateInitialRestriction(in fileSpec) offsetrange.Restriction {
	return offsetrange.Restriction{Start: 0, End: in.Size}
}

func (f *readFn) SplitRestriction(in fileSpec, r offsetrange.Restriction) []offsetrange.Restriction {
	if f.whole(in) || r.End-r.Start <= f.Block {
		return []offsetrange.Restriction{r}
	}
	splits := r.SizedSplits(f.Block)
	// A last piece under a quarter block joins the one before it.
	if n := len(splits); n > 1 && splits[n-1].End-splits[n-1].Start < f.Block/4 {
		splits[n-2].End = splits[n-1].End
		splits = splits[:n-1]
	}
	return splits
}

func (f *readFn) RestrictionSize(_ fileSpec, r offsetrange.Restriction) float64 { return r.Size() }

func (f *readFn) CreateTracker(r offsetrange.Restriction) *sdf.LockRTracker {
	return sdf.NewLockRTracker(offsetrange.NewTracker(r))
}

func (f *readFn) ProcessElement(ctx context.Context, rt *sdf.LockRTracker, in fileSpec, emit func([]string), dead func(DeadLetter)) error {
	r := rt.GetRestriction().(offsetrange.Restriction)
	fail := func(line int, off int64, why, text string) {
		if len(text) > 512 {
			text = text[:512]
		}
		dead(DeadLetter{Source: in.Name, Line: line, Offset: off, Reason: why, Text: text})
	}
	// A tracker that said stop must not be asked again.
	stopped := false
	claim := func(pos int64) bool {
		if stopped {
			return false
		}
		ok := rt.TryClaim(pos)
		stopped = !ok
		return ok
	}
	defer claim(r.End) // the range is done: claim its end
	whole := f.whole(in)
	if whole && (r.Start > 0 || !claim(r.Start)) {
		return nil // a piece split off a whole file: nothing begins in it
	}
	fs, err := filesystem.New(ctx, in.Name)
	if err != nil {
		fail(0, r.Start, err.Error(), "")
		return nil
	}
	defer fs.Close()
	rc, err := fs.OpenRead(ctx, in.Name)
	if err != nil {
		fail(0, r.Start, err.Error(), "")
		return nil
	}
	defer rc.Close()
	if r.Start == 0 {
		filesRead.Inc(ctx, 1)
	}
	keep := sampler(f.Sample)
	var batch []string
	add := func(u string) {
		if !keep(u) {
			return
		}
		if batch == nil {
			batch = make([]string, 0, f.Batch)
		}
		batch = append(batch, u)
		if len(batch) == f.Batch {
			urlsRead.Inc(ctx, int64(len(batch)))
			emit(batch)
			batch = nil
		}
	}
	defer func() {
		if len(batch) > 0 {
			urlsRead.Inc(ctx, int64(len(batch)))
			emit(batch)
		}
	}()

	var src io.Reader = rc
	if in.Gzip {
		gz, err := gzip.NewReader(bufio.NewReaderSize(rc, 64<<10))
		if err != nil {
			fail(0, 0, "gzip: "+err.Error(), "")
			return nil
		}
		defer gz.Close()
		src = gz
	}
	if f.Format == Text {
		f.document(in.Name, src, add, fail)
		return nil
	}
	if r.Start > 0 {
		// Position at the byte before the range: it tells whether a line
		// begins at the range's start.
		if sk, ok := rc.(io.Seeker); ok {
			_, err = sk.Seek(r.Start-1, io.SeekStart)
		} else {
			_, err = io.CopyN(io.Discard, rc, r.Start-1)
		}
		if err != nil {
			fail(0, r.Start, "seeking: "+err.Error(), "")
			return nil
		}
	}
	sc := ranges.NewScanner(src, r.Start, MaxLine, 64<<10)
	for (whole || claim(sc.Pos())) && sc.Scan() {
		l := sc.Line()
		switch {
		case l.TooLong:
			fail(l.N, l.Offset, fmt.Sprintf("longer than %d bytes", MaxLine), l.Text)
			continue
		case l.Blank():
			continue
		}
		u := l.Text
		if f.Format == NDJSON {
			var rec struct {
				URL *string `json:"url"`
			}
			if err := json.Unmarshal([]byte(u), &rec); err != nil {
				fail(l.N, l.Offset, "not a JSON object: "+err.Error(), u)
				continue
			}
			if rec.URL == nil {
				fail(l.N, l.Offset, `no "url" key`, u)
				continue
			}
			u = *rec.URL
		}
		add(u)
	}
	if err := sc.Err(); err != nil {
		fail(0, sc.Pos(), "reading: "+err.Error(), "")
	}
	return nil
}

// document finds the URLs of one document (text.Scanner), partial forms
// resolved against the document's own URL.
func (f *readFn) document(name string, r io.Reader, emit func(string), fail func(int, int64, string, string)) {
	opts := &text.Options{}
	opts.Resolution, _ = locator.ParseResolution(f.Rules)
	if base, err := locator.Parse(documentURL(name)); err == nil {
		opts.Base = base
	}
	br := bufio.NewReaderSize(r, 512)
	head, _ := br.Peek(512)
	opts.HTML = text.LooksLikeHTML(head)
	opts.Skipped = func(le *text.LimitError) { fail(le.Line, 0, le.Error(), "") }
	sc := text.NewScanner(br, opts)
	for sc.Scan() {
		emit(sc.Match().URL)
	}
	if err := sc.Err(); err != nil {
		fail(0, 0, err.Error(), "")
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

// ReadLines adds to s the reading of the job's inputs (file names or
// glob patterns: local, gs://, s3://; gzip detected), one URL a line, as
// Build reads --format lines: plain files in ranges of block bytes read
// in parallel, batches of batch lines, blank lines skipped. It returns
// the batches ([]string, each line as read) and the dead letters
// (DeadLetter: a pattern that matches nothing, a file that cannot be
// read, a line over MaxLine). Other pipelines over URL lists (the probe
// pipeline) read their inputs with it.
func ReadLines(s beam.Scope, inputs []string, batch int, block int64) (batches, dead beam.PCollection) {
	if batch <= 0 {
		batch = DefaultBatch
	}
	if block <= 0 {
		block = DefaultBlock
	}
	names, badGlobs := beam.ParDo2(s, expandFn, beam.CreateList(s, inputs))
	files, badFiles := beam.ParDo2(s, statFn, beam.Reshuffle(s, filter.Distinct(s, names)))
	batches, bad := beam.ParDo2(s, &readFn{Format: Lines, Sample: 1, Batch: batch, Block: block}, files)
	return batches, beam.Flatten(s, badGlobs, badFiles, bad)
}

// DeadLetters writes dead letters (DeadLetter) to dir as
// deadletter-SSSSS-of-NNNNN.ndjson, one NDJSON object each (source, line,
// offset, reason, text), counted by the dead_letters counter.
func DeadLetters(s beam.Scope, dir string, dead beam.PCollection) {
	lines, _ := beam.ParDo2(s, deadLine, dead)
	Write(s, dir, "deadletter", ".ndjson", lines)
}

// CheckOutput makes the output directory dir (a local one) and writes
// and removes a probe file in it: an output that cannot be written
// fails before any work (a *ConfigError).
func CheckOutput(ctx context.Context, dir string) error {
	if err := checkOutput(ctx, dir); err != nil {
		return &ConfigError{What: "output " + dir, Err: err}
	}
	return nil
}
