package main

// What locator crawl writes of its report (crawl.Report keeps it, in
// memory and then in a temporary file, grouped by page): the readable
// summary, the broken records of --json, and --junit's file, each
// written as the broken links are read, never the whole report in
// memory.

import (
	"bufio"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/crawl"
	"github.com/rfc1738/locator/internal/crawlrecord"
	"github.com/rfc1738/locator/internal/printable"
)

// eachBroken calls fn with each broken link of r as the outputs write
// it, in crawl.Report.EachBroken's order, with the number of broken
// links of its page.
func eachBroken(r *crawl.Report, fn func(b brokenLink, onPage int) error) error {
	return r.EachBroken(func(b crawl.Broken, onPage int) error {
		rec := crawlrecord.OfBroken(b)
		return fn(brokenLink{u: b.Link.URL, page: rec.Page, place: rec.Place, ref: rec.Ref, url: rec.URL, status: rec.Status, err: rec.Error}, onPage)
	})
}

// summaryPlaces bounds the places the summary writes of one target:
// a missing page linked 1,450 times is one entry, its count and the
// first places; --json and --junit give every link.
const summaryPlaces = 10

// writeSummary writes the broken links grouped by target: the seeds
// that could not be fetched, then each URL that links name and that is
// broken, with why, the number of links, and the page and place of the
// first summaryPlaces of them; then, under a heading, the URLs local
// policy refused (a file URL on a web page among them), which are not
// broken: nothing was asked.
func writeSummary(w io.Writer, r *crawl.Report, arch *archivedLinks) error {
	err := r.EachBroken(func(b crawl.Broken, _ int) error {
		if b.Link.From != nil {
			return errDone // the seeds come first
		}
		u := access.Masked(b.Link.URL)
		_, err := fmt.Fprintf(w, "%s: %s (%s): the seed\n", printable.String(u), b.Failure.State, printable.String(b.Failure.Text))
		return err
	})
	if err != nil && err != errDone {
		return err
	}
	target := func(t *crawl.Target) error {
		links := "1 link"
		if t.Links != 1 {
			links = fmt.Sprintf("%d links", t.Links)
		}
		if _, err := fmt.Fprintf(w, "%s: %s (%s): %s\n", printable.String(access.Masked(t.URL)), t.Failure.State,
			printable.String(t.Failure.Text), links); err != nil {
			return err
		}
		if a := arch.url(t.URL); a != "" {
			if _, err := fmt.Fprintf(w, "  archived: %s\n", printable.String(a)); err != nil {
				return err
			}
		}
		for _, l := range t.Places {
			if _, err := fmt.Fprintf(w, "  %s %s\n", printable.String(access.Masked(l.From)), printable.String(l.Place.String())); err != nil {
				return err
			}
		}
		if more := t.Links - len(t.Places); more > 0 {
			if _, err := fmt.Fprintf(w, "  and %d more (--json lists every link)\n", more); err != nil {
				return err
			}
		}
		return nil
	}
	if err := r.EachTarget(summaryPlaces, false, target); err != nil {
		return err
	}
	first := true
	return r.EachTarget(summaryPlaces, true, func(t *crawl.Target) error {
		if first {
			first = false
			if _, err := fmt.Fprintln(w, "refused by local policy, not asked (not broken):"); err != nil {
				return err
			}
		}
		return target(t)
	})
}

// errDone ends a walk of the report early.
var errDone = errors.New("done")

// writeBrokenJSON writes a broken record for each broken link.
func writeBrokenJSON(w io.Writer, r *crawl.Report, arch *archivedLinks) error {
	return eachBroken(r, func(b brokenLink, _ int) error {
		rec := b.record()
		rec.Archived = arch.url(b.u)
		return writeJSON(w, rec)
	})
}

// writeJUnitFile writes the broken links as JUnit XML to name, a
// testsuite for each page, as they are read (never the whole document
// in memory).
func writeJUnitFile(name string, r *crawl.Report) error {
	total, _, err := r.Count()
	if err != nil {
		return err
	}
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(f)
	enc := xml.NewEncoder(bw)
	enc.Indent("", "  ")
	attr := func(k, v string) xml.Attr { return xml.Attr{Name: xml.Name{Local: k}, Value: v} }
	count := func(n int) string { return fmt.Sprint(n) }
	io.WriteString(bw, xml.Header)
	suites := xml.StartElement{Name: xml.Name{Local: "testsuites"}, Attr: []xml.Attr{attr("name", "locator crawl"), attr("tests", count(total)), attr("failures", count(total))}}
	err = enc.EncodeToken(suites)
	var suite *xml.StartElement
	first, page := true, ""
	if err == nil {
		err = eachBroken(r, func(b brokenLink, onPage int) error {
			name := b.page
			if name == "" {
				name = "seeds"
			}
			if first || b.page != page {
				if suite != nil {
					if err := enc.EncodeToken(suite.End()); err != nil {
						return err
					}
				}
				first, page = false, b.page
				suite = &xml.StartElement{Name: xml.Name{Local: "testsuite"}, Attr: []xml.Attr{attr("name", name), attr("tests", count(onPage)), attr("failures", count(onPage))}}
				if err := enc.EncodeToken(*suite); err != nil {
					return err
				}
			}
			return enc.EncodeElement(junitCase{Name: b.place + " " + b.url, Classname: name,
				Failure: &junitFailure{Message: b.status + ": " + b.err, Type: b.status,
					Text: fmt.Sprintf("%s\n%s links %q (%s): %s %s\n", name, b.place, b.ref, b.url, b.status, b.err)}},
				xml.StartElement{Name: xml.Name{Local: "testcase"}})
		})
	}
	if err == nil && suite != nil {
		err = enc.EncodeToken(suite.End())
	}
	if err == nil {
		err = enc.EncodeToken(suites.End())
	}
	if err == nil {
		err = enc.Flush()
	}
	if err == nil {
		_, err = io.WriteString(bw, "\n")
	}
	if err == nil {
		err = bw.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
