package main

import (
	"errors"
	"flag"
	"fmt"
	"sync"

	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/archive"
	"github.com/rfc1738/locator/wayback"
)

// warcFlags are the flags that archive what a command fetches (get,
// crawl): --warc FILE, --warc-max-size N, --warc-dedup,
// --warc-keep-credentials.
type warcFlags struct {
	file      string
	maxSize   int64
	dedup     bool
	keepCreds bool
	wacz      string   // --wacz (wacz.go)
	against   fileList // --dedup-against (wacz.go)

	mu  sync.Mutex
	w   *archive.Writer
	z   *archive.WACZWriter // --wacz's, instead of w
	err error               // the first record that could not be written

	pageKeys map[string]bool // with --wacz, the Keys of the URLs whose records are pages (get's)
}

// addWARCFlags declares the WARC flags on fs.
func addWARCFlags(fs *flag.FlagSet) *warcFlags {
	f := &warcFlags{}
	fs.StringVar(&f.file, "warc", "", "also write what is fetched to `FILE` (NAME.warc.gz) as WARC 1.1, a gzip member per record, with a CDXJ index FILE.cdxj beside it; an existing file is never overwritten (NAME-00001.warc.gz ... is taken instead)")
	fs.Var((*sizeFlag)(&f.maxSize), "warc-max-size", "with --warc, start a new file (NAME-00001.warc.gz, ...) once one has this many octets, e.g. 1G (0: never)")
	fs.BoolVar(&f.dedup, "warc-dedup", false, "with --warc, write a payload already written (the same digest) as a revisit record that refers to the first (WARC 1.1 §6.7.2)")
	fs.BoolVar(&f.keepCreds, "warc-keep-credentials", false, "with --warc, keep the credentials of HTTP request records as they were sent (-u's and netrc's Authorization, -H's cookies and tokens), which are written masked (\"Basic ****\") by default")
	addWACZFlags(fs, f)
	return f
}

// open starts the WARC file --warc names, nil (and no error) when it
// names none. A record the Writer cannot write (a disk full) fails the
// request that made it (access.RecordError) and is remembered for
// finish.
func (f *warcFlags) open(software string) (bool, error) {
	if f != nil && f.wacz != "" {
		return f.openWACZ(software)
	}
	if f == nil || f.file == "" {
		if f != nil && (f.maxSize > 0 || f.dedup || f.keepCreds || len(f.against) > 0) {
			return false, errors.New("--warc-max-size, --warc-dedup, --warc-keep-credentials and --dedup-against go with --warc FILE or --wacz FILE")
		}
		return false, nil
	}
	w, err := archive.Create(f.file, f.options(software))
	if err != nil {
		return false, err
	}
	f.w = w
	return true, nil
}

// options are the archive.Options of the flags.
func (f *warcFlags) options(software string) archive.Options {
	return archive.Options{MaxSize: f.maxSize, Dedup: f.dedup || len(f.against) > 0, DedupIndex: f.against,
		Software: software, KeepCredentials: f.keepCreds}
}

// recorder is the Recorder for a Client: the Writer, with the first
// failure kept for finish.
func (f *warcFlags) recorder() access.Recorder { return (*warcRecorder)(f) }

type warcRecorder warcFlags

func (r *warcRecorder) Record(rec *access.Record) error {
	var err error
	if r.z != nil {
		err = (*warcFlags)(r).recordWACZ(rec)
	} else {
		err = r.w.Record(rec)
	}
	if err != nil {
		r.mu.Lock()
		if r.err == nil {
			r.err = err
		}
		r.mu.Unlock()
	}
	return err
}

// finish closes the Writer and returns the first failure to write a
// record or to close, nil when every record was written (or --warc was
// not given).
func (f *warcFlags) finish() error {
	if f == nil || f.w == nil && f.z == nil {
		return nil
	}
	var err error
	if f.z != nil {
		err = f.z.Close()
	} else {
		err = f.w.Close()
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.err != nil {
		return fmt.Errorf("%w (the WARC file holds every record before it)", f.err)
	}
	return err
}

// fileList is a repeatable flag of file names.
type fileList []string

func (l *fileList) String() string { return fmt.Sprint([]string(*l)) }

func (l *fileList) Set(v string) error {
	if v == "" {
		return errors.New("an empty file name")
	}
	*l = append(*l, v)
	return nil
}

// openArchive opens the WARC files --from-warc names as the Client's
// Archive, reporting each record that cannot be read on stderr (the
// others are still found). An object over maxSize octets (--max-filesize,
// 0: none) is refused from its record's header, never decompressed
// (archive.Reader.MaxSize).
func openArchive(e *env, cmd string, files []string, maxSize int64) (*archive.Reader, error) {
	r, err := archive.Open(files...)
	if err != nil {
		return nil, err
	}
	r.MaxSize = maxSize
	for _, p := range r.Problems() {
		fmt.Fprintf(e.stderr, "locator %s: %s\n", cmd, p)
	}
	return r, nil
}

// openWayback makes the index of the captures of files (each FILE.cdxj,
// or one made of FILE when it has none) for the CDX API and Memento.
func openWayback(files []string) (*wayback.Index, error) {
	var srcs []wayback.Source
	for _, f := range files {
		srcs = append(srcs, wayback.FileSource(f))
	}
	return wayback.Open(srcs...)
}
