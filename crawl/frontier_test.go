package crawl

import (
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"testing"

	"github.com/rfc1738/locator"
)

// frontierContract checks what every Frontier does: each URL once, in
// the order pushed.
func frontierContract(t *testing.T, f Frontier) {
	t.Helper()
	for i, u := range []string{"a", "b", "a", "c", "b"} {
		ok, err := f.Push(Item{URL: u, Depth: i})
		if err != nil {
			t.Fatal(err)
		}
		if want := i == 0 || i == 1 || i == 3; ok != want {
			t.Errorf("push %d %s: %v", i, u, ok)
		}
	}
	for _, want := range []Item{{URL: "a", Depth: 0}, {URL: "b", Depth: 1}} {
		it, ok, err := f.Pop()
		if err != nil || !ok || it != want {
			t.Errorf("pop: %+v %v %v, want %+v", it, ok, err, want)
		}
		if err := f.Done(it.URL); err != nil {
			t.Fatal(err)
		}
	}
	if ok, _ := f.Push(Item{URL: "a"}); ok {
		t.Error("a popped URL pushed again")
	}
	if s, _ := f.Seen("c"); !s {
		t.Error("c not seen")
	}
	if s, _ := f.Seen("d"); s {
		t.Error("d seen")
	}
	it, ok, _ := f.Pop()
	if !ok || it.URL != "c" {
		t.Errorf("pop: %+v %v", it, ok)
	}
	f.Done("c")
	if _, ok, _ := f.Pop(); ok {
		t.Error("pop of an empty frontier")
	}
}

func TestMemFrontier(t *testing.T) {
	frontierContract(t, &MemFrontier{})
	// The queue's memory is given back as it is popped.
	f := &MemFrontier{}
	for i := 0; i < 5000; i++ {
		f.Push(Item{URL: fmt.Sprint(i)})
	}
	for i := 0; i < 5000; i++ {
		it, ok, _ := f.Pop()
		if !ok || it.URL != fmt.Sprint(i) {
			t.Fatalf("pop %d: %+v", i, it)
		}
	}
	if len(f.queue) > 2048 {
		t.Errorf("%d items held after all were popped", len(f.queue))
	}
}

func TestBoltFrontier(t *testing.T) {
	path := filepath.Join(t.TempDir(), "frontier.db")
	f, err := OpenBolt(path)
	if err != nil {
		t.Fatal(err)
	}
	frontierContract(t, f)
	// An Item popped and not done is popped again after a reopening,
	// first; one done is not.
	for _, u := range []string{"p", "q", "r"} {
		f.Push(Item{URL: u})
	}
	p, _, _ := f.Pop()
	q, _, _ := f.Pop()
	if err := f.Done(p.URL); err != nil {
		t.Fatal(err)
	}
	if err := f.Done("zz"); err == nil {
		t.Error("Done of a URL not popped")
	}
	f.Close()
	f, err = OpenBolt(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var got []string
	for {
		it, ok, err := f.Pop()
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			break
		}
		got = append(got, it.URL)
	}
	if fmt.Sprint(got) != fmt.Sprint([]string{q.URL, "r"}) {
		t.Errorf("after reopening: %q", got)
	}
	if s, _ := f.Seen("a"); !s {
		t.Error("seen forgotten")
	}
}

// TestResume: a crawl on a BoltFrontier that stops (its emit fails) and
// is run again on the file fetches, in the two runs, the pages one
// uninterrupted crawl fetches, and only the page under way at the stop
// twice.
func TestResume(t *testing.T) {
	s := startSite(t)
	seed := "http://" + s.http + "/d0/p0.html"
	_, evs := run(t, &Crawler{Delay: NoDelay, Depth: 3}, seed)
	all := fetched(evs)
	if len(all) < 10 {
		t.Fatalf("%d pages", len(all))
	}
	path := filepath.Join(t.TempDir(), "frontier.db")
	stop := errors.New("stop")
	var first, second []string
	for run := 0; run < 2; run++ {
		f, err := OpenBolt(path)
		if err != nil {
			t.Fatal(err)
		}
		c := &Crawler{Delay: NoDelay, Depth: 3, Jobs: 1, Frontier: f}
		pages := 0
		err = c.Crawl(t.Context(), []*locator.URL{parse(t, seed)}, func(e Event) error {
			if p, ok := e.(*Page); ok {
				pages++
				if run == 0 && pages == 5 {
					first = append(first, p.URL.String())
					return stop
				}
				if run == 0 {
					first = append(first, p.URL.String())
				} else {
					second = append(second, p.URL.String())
				}
			}
			return nil
		})
		f.Close()
		if want := []error{stop, nil}[run]; err != want {
			t.Fatalf("run %d: %v", run, err)
		}
	}
	if len(first) != 5 {
		t.Fatalf("first run: %q", first)
	}
	union := map[string]int{}
	for _, u := range append(append([]string{}, first...), second...) {
		union[u]++
	}
	var got, twice []string
	for u, n := range union {
		got = append(got, u)
		if n > 1 {
			twice = append(twice, u)
		}
	}
	sort.Strings(got)
	diff(t, "pages of the two runs", got, all)
	if len(twice) != 1 || twice[0] != first[4] {
		t.Errorf("fetched twice: %q, want the page under way at the stop, %s", twice, first[4])
	}
}

// TestSpillFrontier: the crawl's own frontier keeps memURLs URLs in
// memory, then moves to a file of its directory: the URLs waiting keep
// their order, those popped before stay seen (and done without the
// file), and close removes the file.
func TestSpillFrontier(t *testing.T) {
	dir := t.TempDir()
	frontierContract(t, &spillFrontier{dir: dir})
	f := &spillFrontier{dir: dir}
	const n = memURLs + 5000
	u := func(i int) string { return fmt.Sprintf("http://h/%d", i) }
	for i := range 3 {
		if ok, err := f.Push(Item{URL: u(i)}); !ok || err != nil {
			t.Fatal(ok, err)
		}
	}
	first, _, _ := f.Pop() // under way when the frontier moves
	for i := 3; i < n; i++ {
		if ok, err := f.Push(Item{URL: u(i), Depth: i % 5}); !ok || err != nil {
			t.Fatal(ok, err)
		}
	}
	if f.bolt == nil || len(f.mem.seen) != 0 {
		t.Fatalf("%d URLs pushed, %d in memory, file %v", n, len(f.mem.seen), f.bolt != nil)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "locator-crawl-frontier-*.db"))
	if len(files) != 1 {
		t.Fatalf("files %v", files)
	}
	for _, i := range []int{0, 1, n - 1} {
		if ok, err := f.Push(Item{URL: u(i)}); ok || err != nil {
			t.Errorf("%s pushed again: %v %v", u(i), ok, err)
		}
	}
	if err := f.Done(first.URL); err != nil {
		t.Errorf("done %s: %v", first.URL, err)
	}
	for i := 1; i < n; i++ {
		it, ok, err := f.Pop()
		if err != nil || !ok || it.URL != u(i) || (i >= 3 && it.Depth != i%5) {
			t.Fatalf("pop %d: %+v %v %v", i, it, ok, err)
		}
		if err := f.Done(it.URL); err != nil {
			t.Fatal(err)
		}
	}
	if _, ok, _ := f.Pop(); ok {
		t.Error("pop of an empty frontier")
	}
	if err := f.close(); err != nil {
		t.Fatal(err)
	}
	if files, _ := filepath.Glob(filepath.Join(dir, "*")); len(files) != 0 {
		t.Errorf("left behind: %v", files)
	}
}
