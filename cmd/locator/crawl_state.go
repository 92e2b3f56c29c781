package main

// The report of a crawl kept in --state DIR: the frontier file says
// what is left to fetch, and the events file, beside it, what the runs
// before found, so that the report of a resumed crawl names the broken
// links of the pages fetched before the stop too.

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"syscall"

	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/crawl"
	"github.com/rfc1738/locator/internal/crawlrecord"
	"github.com/rfc1738/locator/linkcheck"
)

// stateEvents is the events file of a --state DIR: the --json record of
// every page, link and check, one a line, appended as the crawl reports
// it. Each is written at once (no buffer), before the frontier marks the
// page done: a crawl killed, even by SIGKILL, loses none of the events
// of the pages it will not fetch again.
const stateEvents = "events.ndjson"

// A crawlState is the events file of a crawl kept on disk.
type crawlState struct {
	f *os.File
}

// The files of a --state DIR are opened without following a symbolic
// link (O_NOFOLLOW): one planted in DIR would have the crawl append to,
// or overwrite, the file it points to.

// maxStateSeeds bounds the seeds file read; maxStateLine a line of the
// events file (a link's record holds its reference, at most a page's
// octets, escaped): a longer line is not the crawl's, and passed over.
const (
	maxStateSeeds = 16 << 20
	maxStateLine  = 64 << 20
)

// readStateFile reads the file path of a --state DIR, at most max
// octets.
func readStateFile(path string, max int64) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, max+1))
	if err == nil && int64(len(b)) > max {
		err = fmt.Errorf("%s: more than %d octets", path, max)
	}
	return b, err
}

// replaceStateFile writes b as the file path of a --state DIR: to a new
// file of DIR (O_EXCL, a name of its own), then renamed over path,
// which replaces a symbolic link, never the file it points to.
func replaceStateFile(path string, b []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+"-*.tmp")
	if err != nil {
		return err
	}
	_, err = f.Write(b)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

// damagedState says that the file name of the --state DIR dir is
// damaged, and what to do.
func damagedState(dir, name string, de *crawl.DamagedError) error {
	why := de.Reason
	if de.Page >= 0 {
		why = fmt.Sprintf("page %d: %s", de.Page, why)
	}
	return fmt.Errorf("the crawl state in %s is damaged (%s: %s): remove %s to begin anew, or move it aside and begin anew with another --state (its %s keeps what the runs before found)",
		dir, name, why, dir, stateEvents)
}

// openCrawlState opens dir's events file for appending.
func openCrawlState(dir string) (*crawlState, error) {
	f, err := os.OpenFile(filepath.Join(dir, stateEvents), os.O_RDWR|os.O_APPEND|os.O_CREATE|syscall.O_NOFOLLOW, 0o600)
	if err != nil {
		return nil, err
	}
	if st, err := f.Stat(); err == nil && !st.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("%s is not a regular file", f.Name())
	}
	// A line a kill cut short is ended, so that the next record is a
	// line of its own and not lost with it.
	if st, err := f.Stat(); err == nil && st.Size() > 0 {
		last := make([]byte, 1)
		if _, err := f.ReadAt(last, st.Size()-1); err == nil && last[0] != '\n' {
			if _, err := f.Write([]byte{'\n'}); err != nil {
				f.Close()
				return nil, err
			}
		}
	}
	return &crawlState{f: f}, nil
}

func (s *crawlState) Close() error { return s.f.Close() }

// record appends ev to the file.
func (s *crawlState) record(ev crawl.Event) error {
	return writeJSON(s.f, eventRecord(ev))
}

// checkLeft probes the links not followed that the runs before a kill
// found and did not check (crawl.Report.Unchecked), as crawl.Crawler's
// Check does, and reports a *crawl.Checked for each.
func checkLeft(ctx context.Context, c *access.Client, o *crawlOptions, r *crawl.Report, emit func(crawl.Event) error) error {
	urls, uerr := r.Unchecked()
	ck := &linkcheck.Checker{Client: c, Jobs: o.jobs, PerDest: o.perHost}
	inputs := func(yield func(linkcheck.Input) bool) {
		for u := range urls {
			if !yield(linkcheck.Input{Text: u.String(), URL: u}) {
				return
			}
		}
	}
	err := ck.Check(ctx, inputs, func(r linkcheck.Result) error {
		return emit(&crawl.Checked{URL: r.URL, Status: r.Status, Tries: r.Tries})
	})
	if err == nil {
		err = uerr()
	}
	return err
}

// replay adds to r the events of the runs before, read from dir's
// events file, and returns how many pages they hold. A line cut short
// by a stop, or unreadable, is passed over.
func (s *crawlState) replay(dir string, r *crawl.Report) (int, error) {
	f, err := os.OpenFile(filepath.Join(dir, stateEvents), os.O_RDONLY|syscall.O_NOFOLLOW, 0)
	if errors.Is(err, os.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	defer f.Close()
	return replayEvents(f, r)
}

// replayEvents adds to r the events read from in, an events file, and
// returns how many pages they hold. Each line is read whole, however
// long a link's reference made it, up to maxStateLine octets; a longer
// line, or one that is not a record, is passed over.
func replayEvents(in io.Reader, r *crawl.Report) (int, error) {
	br := bufio.NewReaderSize(in, 64<<10)
	pages := 0
	var long []byte // a line longer than br's buffer, so far
	drop := false   // the line is longer than maxStateLine
	for {
		line, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) || long != nil || drop {
			if !drop && len(long)+len(line) <= maxStateLine {
				long = append(long, line...)
			} else {
				drop, long = true, nil
			}
			if errors.Is(err, bufio.ErrBufferFull) {
				continue
			}
			line = long
			long, drop = nil, false
		}
		var rec stateRecord
		if len(line) > 0 && json.Unmarshal(line, &rec) == nil {
			if ev := rec.Rebuild(); ev != nil {
				if _, ok := ev.(*crawl.Page); ok {
					pages++
				}
				if err := r.Add(ev); err != nil {
					return pages, err
				}
			}
		}
		if errors.Is(err, io.EOF) {
			return pages, nil
		}
		if err != nil {
			return pages, err
		}
	}
}

// stateRecord reads any record of the events file (the fields of
// crawlrecord.Page, Link and Checked).
type stateRecord = crawlrecord.Any
