package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/crawl"
)

// reportEvents are the events of a crawl of 30 pages, each linking to
// the next (in scope) and to three URLs of another host (checked): the
// one of page 7 gone, every fifth page not fetched, a link of page 12
// named twice (a page fetched again after a stop), a seed not there,
// and one whose failure was read back from --state's events file.
func reportEvents(t *testing.T) []crawl.Event {
	t.Helper()
	u := func(s string) *locator.URL {
		v, err := locator.Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	var evs []crawl.Event
	evs = append(evs, &crawl.Page{URL: u("http://h/missing-seed"), Err: &access.ServerError{Code: "404", Text: "Not Found"}},
		&crawl.Page{URL: u("http://h/recorded-seed"), Err: &crawl.Failure{State: access.StateRefused, Text: "connection refused"}})
	for i := 0; i < 30; i++ {
		p := u(fmt.Sprintf("http://h/p%d", i))
		page := &crawl.Page{URL: p}
		if i > 0 {
			page.From = u(fmt.Sprintf("http://h/p%d", i-1))
		}
		if i%5 == 4 {
			page.Err = &access.ServerError{Code: "404", Text: "Not Found"}
		}
		evs = append(evs, page)
		n := 1
		if i == 12 {
			n = 2
		}
		for range n {
			evs = append(evs, &crawl.Link{From: p, URL: u(fmt.Sprintf("http://h/p%d", i+1)), Ref: "next", Follow: true,
				Place: crawl.Place{Element: "a", Attr: "href", Line: 1, Column: 10}})
			for j := 0; j < 3; j++ {
				evs = append(evs, &crawl.Link{From: p, URL: u(fmt.Sprintf("http://other/x%d", (i+j)%9)), Ref: "x", Reason: "scope",
					Place: crawl.Place{Element: "a", Attr: "href", Line: 2 + j, Column: 10}})
			}
		}
	}
	for j := 0; j < 9; j++ {
		st := &access.Status{State: access.StateOK, URL: u(fmt.Sprintf("http://other/x%d", j))}
		if j == 7 {
			st.State, st.Err = access.StateGone, errors.New("gone")
		}
		evs = append(evs, &crawl.Checked{URL: st.URL, Status: st})
	}
	return evs
}

// TestCrawlReportSpill: the summary, the --json records and the --junit
// file of a report that moves to its file early, midway or late in the
// crawl (crawl.Report.MaxMemory) are those of one held in memory, in
// the same order; a seed's failure read back from --state's events file
// keeps the state recorded.
func TestCrawlReportSpill(t *testing.T) {
	evs := reportEvents(t)
	report := func(limit int) (string, int, int) {
		r := &crawl.Report{Dir: t.TempDir(), MaxMemory: limit}
		defer r.Close()
		for _, ev := range evs {
			if err := r.Add(ev); err != nil {
				t.Fatal(err)
			}
		}
		var out bytes.Buffer
		if err := writeSummary(&out, r, nil); err != nil {
			t.Fatal(err)
		}
		if err := writeBrokenJSON(&out, r, nil); err != nil {
			t.Fatal(err)
		}
		junit := filepath.Join(t.TempDir(), "j.xml")
		if err := writeJUnitFile(junit, r); err != nil {
			t.Fatal(err)
		}
		x, err := os.ReadFile(junit)
		if err != nil {
			t.Fatal(err)
		}
		out.Write(x)
		b, p, err := r.Count()
		if err != nil {
			t.Fatal(err)
		}
		return out.String(), b, p
	}
	mem, broken, pages := report(0)
	// The seed; the links to the six pages not there (p4, p9, ... p29,
	// from the page before each); the nine to x7 (from p5-p7, p14-p16,
	// p23-p25: each page's link whose j makes i+j 7 modulo 9); on 6 + 9
	// pages, p23 holding one of each; the seed read back.
	want := "http://h/missing-seed: gone (the server says 404 Not Found): the seed\n" +
		"http://h/recorded-seed: refused (connection refused): the seed\n" +
		"http://h/p14: gone (the server says 404 Not Found): 1 link\n  http://h/p13 <a href> line 1 column 10\n"
	if broken != 2+6+9 || pages != 14 || !strings.HasPrefix(mem, want) {
		t.Errorf("%d broken links on %d pages:\n%s\nwant it to begin:\n%s", broken, pages, mem, want)
	}
	for _, limit := range []int{1, 3000, 8000} {
		got, b, p := report(limit)
		if got != mem || b != broken || p != pages {
			t.Errorf("MaxMemory %d: %d on %d pages\n%s\nwant:\n%s", limit, b, p, got, mem)
		}
	}
}
