package main

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/crawl"
)

// reportEvents are the events of a crawl of 30 pages, each linking to
// the next (in scope) and to three URLs of another host (checked): the
// one of page 7 gone, every fifth page not fetched, a link of page 12
// named twice (a page fetched again after a stop), a seed not there.
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
	evs = append(evs, &crawl.Page{URL: u("http://h/missing-seed"), Err: &access.ServerError{Code: "404", Text: "Not Found"}})
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

// TestCrawlReportSpill: a report that moves to its file in the middle of
// a crawl, or as its broken links are filed, says what one held in
// memory says, in the same order.
func TestCrawlReportSpill(t *testing.T) {
	evs := reportEvents(t)
	report := func(spillAt int) (string, int, int) {
		r, err := newCrawlReport(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		for i, ev := range evs {
			if i == spillAt {
				if err := r.spill(); err != nil {
					t.Fatal(err)
				}
			}
			if err := r.add(ev); err != nil {
				t.Fatal(err)
			}
		}
		if spillAt == len(evs) {
			if err := r.spill(); err != nil {
				t.Fatal(err)
			}
		}
		var out bytes.Buffer
		if err := r.writeSummary(&out); err != nil {
			t.Fatal(err)
		}
		if spillAt >= 0 && r.db == nil {
			t.Errorf("spilled at %d: no file", spillAt)
		}
		if err := r.writeJUnitFile(filepath.Join(t.TempDir(), "j.xml")); err != nil {
			t.Fatal(err)
		}
		b, p, err := r.total()
		if err != nil {
			t.Fatal(err)
		}
		return out.String(), b, p
	}
	mem, broken, pages := report(-1)
	// The seed; the links to the six pages not there (p4, p9, ... p29,
	// from the page before each); the nine to x7 (from p5-p7, p14-p16,
	// p23-p25: each page's link whose j makes i+j 7 modulo 9); on 6 + 9
	// pages, p23 holding one of each.
	if broken != 1+6+9 || pages != 14 {
		t.Errorf("%d broken links on %d pages:\n%s", broken, pages, mem)
	}
	for _, at := range []int{0, 40, len(evs) - 3, len(evs)} {
		got, b, p := report(at)
		if got != mem || b != broken || p != pages {
			t.Errorf("spilled at %d: %d on %d pages\n%s\nwant:\n%s", at, b, p, got, mem)
		}
	}
}

// FuzzReadFields: readFields reads back what fields wrote, and any other
// value it is given without failing otherwise than by saying so.
func FuzzReadFields(f *testing.F) {
	f.Add([]byte(fields("http://h/", "<a href> line 1 column 2", "x", "http://h/x")), 4)
	f.Add([]byte{0x80}, 1)
	f.Add([]byte{}, 0)
	f.Fuzz(func(t *testing.T, b []byte, n int) {
		if n < 0 || n > 8 {
			return
		}
		fs, ok := readFields(b, n)
		if !ok {
			return
		}
		if len(fs) != n {
			t.Fatalf("%d fields, want %d", len(fs), n)
		}
		again, ok := readFields(fields(fs...), n)
		if !ok || !slices.Equal(again, fs) {
			t.Fatalf("round trip: %q, want %q", again, fs)
		}
	})
}
