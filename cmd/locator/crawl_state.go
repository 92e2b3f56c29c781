package main

// The report of a crawl kept in --state DIR (crawl.State): the frontier
// file says what is left to fetch, and the events file, beside it, the
// --json records of what the runs before found, so that the report of a
// resumed crawl names the broken links of the pages fetched before the
// stop too.

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/crawl"
	"github.com/rfc1738/locator/internal/crawlrecord"
	"github.com/rfc1738/locator/internal/lines"
	"github.com/rfc1738/locator/linkcheck"
)

// maxStateLine bounds a line of the events file (a link's record holds
// its reference, at most a page's octets, escaped): a longer line is
// not the crawl's, and passed over.
const maxStateLine = 64 << 20

// damagedState says that the file name of the --state DIR dir is
// damaged, and what to do.
func damagedState(dir, name string, de *crawl.DamagedError) error {
	why := de.Reason
	if de.Page >= 0 {
		why = fmt.Sprintf("page %d: %s", de.Page, why)
	}
	return fmt.Errorf("the crawl state in %s is damaged (%s: %s): remove %s to begin anew, or move it aside and begin anew with another --state (its %s keeps what the runs before found)",
		dir, name, why, dir, crawl.StateEvents)
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

// replayEvents adds to r the events read from in, an events file
// (crawl.State's Events), and returns how many pages they hold. Each
// line is read whole, however long a link's reference made it, up to
// maxStateLine octets; a longer line, or one that is not a record (one
// a stop cut short), is passed over.
func replayEvents(in io.Reader, r *crawl.Report) (int, error) {
	sc := lines.NewScanner(in, maxStateLine)
	pages := 0
	for sc.Scan() {
		l := sc.Line()
		var rec stateRecord
		if l.TooLong || json.Unmarshal([]byte(l.Text), &rec) != nil {
			continue
		}
		if ev := rec.Rebuild(); ev != nil {
			if _, ok := ev.(*crawl.Page); ok {
				pages++
			}
			if err := r.Add(ev); err != nil {
				return pages, err
			}
		}
	}
	return pages, sc.Err()
}

// stateRecord reads any record of the events file (the fields of
// crawlrecord.Page, Link and Checked).
type stateRecord = crawlrecord.Any
