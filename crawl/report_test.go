package crawl

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/internal/loctest"
)

// reportEvents are the events of a crawl of 30 pages, each linking to
// the next (in scope) and to three URLs of another host (checked): the
// one of page 7 gone, every fifth page not fetched, a link of page 12
// named twice (a page fetched again after a stop), a seed not there.
func reportEvents(t testing.TB) []Event {
	t.Helper()
	u := func(s string) *locator.URL {
		v, err := locator.Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	var evs []Event
	evs = append(evs, &Page{URL: u("http://h/missing-seed"), Err: &access.ServerError{Code: "404", Text: "Not Found"}})
	for i := 0; i < 30; i++ {
		p := u(fmt.Sprintf("http://h/p%d", i))
		page := &Page{URL: p}
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
			evs = append(evs, &Link{From: p, URL: u(fmt.Sprintf("http://h/p%d", i+1)), Ref: "next", Follow: true,
				Place: Place{Element: "a", Attr: "href", Line: 1, Column: 10}})
			for j := 0; j < 3; j++ {
				evs = append(evs, &Link{From: p, URL: u(fmt.Sprintf("http://other/x%d", (i+j)%9)), Ref: "x", Reason: "scope",
					Place: Place{Element: "a", Attr: "href", Line: 2 + j, Column: 10}})
			}
		}
	}
	for j := 0; j < 9; j++ {
		st := &access.Status{State: access.StateOK, URL: u(fmt.Sprintf("http://other/x%d", j))}
		if j == 7 {
			st.State, st.Err = access.StateGone, errors.New("gone")
		}
		evs = append(evs, &Checked{URL: st.URL, Status: st})
	}
	return evs
}

// brokenLines writes r's broken links, one a line: the page, the count
// of its broken links, the place, the URL, its state and why.
func brokenLines(t *testing.T, r *Report) string {
	t.Helper()
	var b strings.Builder
	err := r.EachBroken(func(l Broken, onPage int) error {
		how := "checked"
		if l.Page != nil {
			how = "fetched"
		}
		fmt.Fprintf(&b, "%v %d %s %q %s %s %s (%s)\n", l.Link.From, onPage, l.Link.Place, l.Link.Ref, l.Link.URL, how, l.Failure.State, l.Err())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestReportSpill: a report that moves to its file in the middle of a
// crawl, or as its broken links are filed, says what one held in memory
// says, in the same order; Close removes the file.
func TestReportSpill(t *testing.T) {
	evs := reportEvents(t)
	report := func(spillAt int) (string, int, int) {
		dir := t.TempDir()
		r := &Report{Dir: dir}
		for i, ev := range evs {
			if i == spillAt {
				if err := r.spill(); err != nil {
					t.Fatal(err)
				}
			}
			if err := r.Add(ev); err != nil {
				t.Fatal(err)
			}
		}
		if spillAt == len(evs) {
			if err := r.spill(); err != nil {
				t.Fatal(err)
			}
		}
		out := brokenLines(t, r)
		if spillAt >= 0 && r.db == nil {
			t.Errorf("spilled at %d: no file", spillAt)
		}
		b, p, err := r.Count()
		if err != nil {
			t.Fatal(err)
		}
		if err := r.Close(); err != nil {
			t.Fatal(err)
		}
		if left, _ := os.ReadDir(dir); len(left) != 0 {
			t.Errorf("spilled at %d: %d files left after Close", spillAt, len(left))
		}
		return out, b, p
	}
	mem, broken, pages := report(-1)
	// The seed; the links to the six pages not there (p4, p9, ... p29,
	// from the page before each); the nine to x7 (from p5-p7, p14-p16,
	// p23-p25: each page's link whose j makes i+j 7 modulo 9); on 6 + 9
	// pages, p23 holding one of each.
	if broken != 1+6+9 || pages != 14 {
		t.Errorf("%d broken links on %d pages:\n%s", broken, pages, mem)
	}
	want := "<nil> 1 < > line 0 column 0 \"http://h/missing-seed\" http://h/missing-seed fetched gone (the server says 404 Not Found)\n" +
		"http://h/p13 1 <a href> line 1 column 10 \"next\" http://h/p14 fetched gone (the server says 404 Not Found)\n"
	if lines := strings.SplitAfter(mem, "\n"); len(lines) != broken+1 || lines[0]+lines[1] != want {
		t.Errorf("broken links:\n%s\nwant them to begin:\n%s", mem, want)
	}
	for _, at := range []int{0, 40, len(evs) - 3, len(evs)} {
		got, b, p := report(at)
		if got != mem || b != broken || p != pages {
			t.Errorf("spilled at %d: %d on %d pages\n%s\nwant:\n%s", at, b, p, got, mem)
		}
	}
}

// TestReportMaxMemory: a report past MaxMemory octets moves to a file
// in Dir on its own, and says what one held in memory says.
func TestReportMaxMemory(t *testing.T) {
	evs := reportEvents(t)
	var mem Report
	for _, ev := range evs {
		mem.Add(ev)
	}
	want := brokenLines(t, &mem)
	for _, limit := range []int{1, 3000, 8000} {
		dir := t.TempDir()
		r := &Report{Dir: dir, MaxMemory: limit}
		for _, ev := range evs {
			if err := r.Add(ev); err != nil {
				t.Fatal(err)
			}
		}
		if got := brokenLines(t, r); got != want {
			t.Errorf("MaxMemory %d:\n%s\nwant:\n%s", limit, got, want)
		}
		if left, _ := os.ReadDir(dir); len(left) != 1 || r.db == nil {
			t.Errorf("MaxMemory %d: %d files in Dir", limit, len(left))
		}
		r.Close()
	}
}

// TestReportBroken: Broken leaves the seeds out; Pages says each page's
// outcome; a link added after the report was read is in the next
// reading; Unchecked names the URLs not followed that no check answered.
func TestReportBroken(t *testing.T) {
	evs := reportEvents(t)
	var r Report
	defer r.Close()
	var checked []Event
	for _, ev := range evs {
		if _, ok := ev.(*Checked); ok {
			checked = append(checked, ev)
			continue
		}
		r.Add(ev)
	}
	urls, uerr := r.Unchecked()
	var got []string
	for u := range urls {
		got = append(got, u.String())
	}
	if err := uerr(); err != nil || len(got) != 9 || got[0] != "http://other/x0" {
		t.Errorf("unchecked: %q, %v", got, err)
	}
	if n := len(r.Broken()); n != 6 {
		t.Errorf("%d broken before the checks, want 6", n)
	}
	for _, ev := range checked[:8] {
		r.Add(ev)
	}
	urls, _ = r.Unchecked()
	got = got[:0]
	for u := range urls {
		got = append(got, u.String())
	}
	if !slices.Equal(got, []string{"http://other/x8"}) {
		t.Errorf("unchecked: %q", got)
	}
	bs := r.Broken()
	if len(bs) != 6+9 {
		t.Errorf("%d broken, want 15", len(bs))
	}
	for _, b := range bs {
		if b.Link.From == nil || b.Err() == nil {
			t.Errorf("%+v", b)
		}
	}
	pages := r.Pages()
	if len(pages) != 31 || pages["http://h/p3"].Err != nil {
		t.Errorf("%d pages, p3: %v", len(pages), pages["http://h/p3"])
	}
	var f *Failure
	if p := pages["http://h/p4"]; p == nil || !errors.As(p.Err, &f) || f.State != access.StateGone {
		t.Errorf("p4: %+v", p)
	}
	if b, p, err := r.Count(); b != 16 || p != 14 || err != nil {
		t.Errorf("count: %d on %d pages, %v", b, p, err)
	}
}

// TestReportFileError: a report whose file cannot be made says so, a
// *ReportError naming what it did, at every call after.
func TestReportFileError(t *testing.T) {
	r := &Report{Dir: t.TempDir() + "/absent", MaxMemory: 1}
	err := r.Add(reportEvents(t)[1])
	var re *ReportError
	if !errors.As(err, &re) || re.Op != "create" || !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("%v", err)
	}
	if _, _, err2 := r.Count(); err2 != err || r.Err() != err || r.Broken() != nil {
		t.Errorf("after: %v", err2)
	}
}

// FuzzReadFields: readFields reads back what fields wrote, and any other
// value it is given without failing otherwise than by saying so; so
// does readBroken.
func FuzzReadFields(f *testing.F) {
	f.Add(fields("http://h/", "<a href> line 1 column 2", "x", "http://h/x"), 4)
	f.Add(fields("http://h/", "http://h/", "a", "href", "", "1", "2", "x", "http://h/x", "c", "gone", "404"), linkFields+3)
	f.Add([]byte{0x80}, 1)
	f.Add([]byte{}, 0)
	f.Fuzz(func(t *testing.T, b []byte, n int) {
		readBroken(b)
		if n < 0 || n > 16 {
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

// TestReportMemory: a report of 200,000 broken links (100 pages of
// 2,000 links each to one URL of another host, which is not there) says
// each of them, grouped by page, and the heap in use grows by less than
// reportHeapMB: the report waits on disk, not in memory.
func TestReportMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("200,000 broken links")
	}
	const pages, perPage = 100, 2000
	gone, err := locator.Parse("http://other/gone.html")
	if err != nil {
		t.Fatal(err)
	}
	grown := loctest.WatchHeap()
	r := &Report{Dir: t.TempDir()}
	defer r.Close()
	for i := 0; i < pages; i++ {
		p, err := locator.Parse(fmt.Sprintf("http://h/p%d.html", i))
		if err != nil {
			t.Fatal(err)
		}
		if err := r.Add(&Page{URL: p}); err != nil {
			t.Fatal(err)
		}
		for j := 0; j < perPage; j++ {
			l := &Link{From: p, URL: gone, Ref: strconv.Itoa(j), Reason: "scope", Place: Place{Element: "a", Attr: "href", Line: j + 2, Column: 10}}
			if err := r.Add(l); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := r.Add(&Checked{URL: gone, Status: &access.Status{State: access.StateGone, URL: gone, Code: "404", Text: "Not Found"}}); err != nil {
		t.Fatal(err)
	}
	n, lastLine, groups := 0, 0, 0
	var page *locator.URL
	err = r.EachBroken(func(b Broken, onPage int) error {
		if page == nil || b.Link.From.String() != page.String() {
			page, lastLine, groups = b.Link.From, 0, groups+1
			if onPage != perPage {
				t.Errorf("%s: %d broken links", page, onPage)
			}
		}
		if b.Link.Place.Line <= lastLine || b.Failure.Text != "404 Not Found" {
			t.Errorf("%s %s after line %d: %s", page, b.Link.Place, lastLine, b.Failure.Text)
		}
		lastLine = b.Link.Place.Line
		n++
		return nil
	})
	growth := float64(grown()) / (1 << 20)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d broken links: heap in use grew by at most %.1f MB", n, growth)
	if b, p, err := r.Count(); n != pages*perPage || groups != pages || b != n || p != pages || err != nil {
		t.Errorf("%d broken links in %d groups; counted %d on %d pages (%v)", n, groups, b, p, err)
	}
	if growth >= reportHeapMB {
		t.Errorf("heap grew by %.1f MB, want under %d", growth, reportHeapMB)
	}
}

// reportHeapMB bounds the heap TestReportMemory's report grows by: its
// records in memory (reportMemory) and a batch read, with room for the
// collector's lag.
const reportHeapMB = 48

// TestReportFiledAsFound: the broken links are filed as the events come,
// so that once the last is added the report is ready: with the links
// and the outcomes taken away after it, in memory or in the file, it
// says the same broken links. A crawl stopped at its deadline owes its
// report no pass over every link (8 s for 464,000 links).
func TestReportFiledAsFound(t *testing.T) {
	evs := reportEvents(t)
	ref := &Report{}
	for _, ev := range evs {
		if err := ref.Add(ev); err != nil {
			t.Fatal(err)
		}
	}
	want := brokenLines(t, ref)
	wb, wp, _ := ref.Count()
	ref.Close()
	if wb == 0 || want == "" {
		t.Fatal("no broken links")
	}
	for _, spill := range []bool{false, true} {
		r := &Report{Dir: t.TempDir()}
		for i, ev := range evs {
			if spill && i == len(evs)/2 {
				if err := r.spill(); err != nil {
					t.Fatal(err)
				}
			}
			if err := r.Add(ev); err != nil {
				t.Fatal(err)
			}
		}
		if err := r.flush(); err != nil {
			t.Fatal(err)
		}
		gone := [][]byte{bucketLinks, bucketPages, bucketChecked}
		if r.db != nil {
			if err := r.db.Update(func(tx *bolt.Tx) error {
				for _, b := range gone {
					if err := tx.DeleteBucket(b); err != nil {
						return err
					}
				}
				return nil
			}); err != nil {
				t.Fatal(err)
			}
		} else {
			for _, b := range gone {
				delete(r.mem, string(b))
			}
		}
		if got := brokenLines(t, r); got != want {
			t.Errorf("spilled %v: the links taken away, the report says:\n%s\nwant:\n%s", spill, got, want)
		}
		if b, p, err := r.Count(); b != wb || p != wp || err != nil {
			t.Errorf("spilled %v: %d broken on %d pages (%v), want %d on %d", spill, b, p, err, wb, wp)
		}
		r.Close()
	}
}
