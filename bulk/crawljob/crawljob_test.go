package crawljob

import (
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/archive"
	"github.com/rfc1738/locator/bulk/internal/scratch"
	"github.com/rfc1738/locator/bulk/job"
	"github.com/rfc1738/locator/internal/peer"
	_ "github.com/rfc1738/locator/schemes"
)

func TestMain(m *testing.M) {
	// t.TempDir lands in scratch.Dir too: the servers that run as
	// nobody (when the test runs as root) must reach the trees made
	// under it.
	os.Exit(scratch.Main("locator-bulk-crawl-test-", func() int { return ptest.MainRet(m) }))
}

// cli is `locator` built from the repository root: the reference.
func cli(t *testing.T) string { return scratch.Build(t, filepath.Join("..", ".."), "./cmd/locator") }

// prismRun runs a pipeline on prism in this process.
func prismRun(ctx context.Context, p *beam.Pipeline) (map[string]int64, error) {
	r, err := prism.Execute(ctx, p)
	if err != nil {
		return nil, err
	}
	return job.Counters(r.Metrics()), nil
}

// sitePages is the pages of the generated site: a tree, page i linking
// to pages 2i+1 and 2i+2, so that each page is first found on one page
// (its parent) whatever the order of the fetches.
const sitePages = 15

// startServers serves the generated site with nginx (some links broken,
// some out of scope) and a directory with pygopherd (a menu), and
// returns the seeds: the site's index and the gopher menu.
func startServers(t *testing.T) []string {
	t.Helper()
	root := t.TempDir()
	n := peer.Nginx(t, root, peer.NginxConfig{HTTP: `types { text/html html; text/plain txt; }`, Connections: 16})
	files := map[string]string{"outside/ok.html": "ok"}
	for i := 0; i < sitePages; i++ {
		var b strings.Builder
		fmt.Fprintf(&b, "<!DOCTYPE html>\n<title>page %d</title>\n", i)
		for _, c := range []int{2*i + 1, 2*i + 2} {
			if c < sitePages {
				fmt.Fprintf(&b, "<a href=\"p%d.html\">child %d</a>\n", c, c)
			}
		}
		b.WriteString("<a href=\"p0.html\">top</a>\n")
		if i%4 == 1 {
			fmt.Fprintf(&b, "<a href=\"missing-%d.html\">broken</a>\n", i)
		}
		if i%5 == 2 {
			fmt.Fprintf(&b, "<a href=\"/outside/gone-%d.html\">out of scope, broken</a>\n", i)
		}
		if i == 3 {
			b.WriteString("<a href=\"/outside/ok.html\">out of scope</a> <img src=\"/site/none.png\">\n")
		}
		files[fmt.Sprintf("site/p%d.html", i)] = b.String()
	}
	for p, c := range files {
		f := filepath.Join(root, p)
		os.MkdirAll(filepath.Dir(f), 0o755)
		if err := os.WriteFile(f, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	groot := t.TempDir()
	for p, c := range map[string]string{"menu/a.txt": "a\n", "menu/sub/b.txt": "b\n", "menu/sub/c.txt": "c\n", "other/x.txt": "x\n"} {
		f := filepath.Join(groot, p)
		os.MkdirAll(filepath.Dir(f), 0o755)
		if err := os.WriteFile(f, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	g := peer.Pygopherd(t, groot)
	return []string{"http://" + n.Addr + "/site/p0.html", "gopher://" + g.Addr + "/1/menu/"}
}

// commandLines runs `locator crawl --check --json --warc` on seeds, one
// request at a time, with flags more, and returns its records but the summary, sorted,
// the summary, and the URLs its WARC file captured (its index's).
func commandLines(t *testing.T, depth int, seeds []string, flags ...string) ([]string, map[string]any, []string) {
	t.Helper()
	warc := filepath.Join(t.TempDir(), "command.warc.gz")
	args := append([]string{"crawl", "--check", "--json", "--jobs", "1", "--per-host", "1", "--depth", fmt.Sprint(depth), "--warc", warc}, flags...)
	args = append(args, seeds...)
	cmd := exec.Command(cli(t), args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 1 {
		err = nil // some links broken
	}
	if err != nil {
		t.Fatalf("locator crawl: %v\n%s", err, stderr.Bytes())
	}
	lines, sum := splitSummary(t, strings.Split(strings.TrimSuffix(string(out), "\n"), "\n"))
	return lines, sum, capturedURLs(t, warc+".cdxj")
}

// capturedURLs returns the distinct URLs of a CDXJ index, sorted.
func capturedURLs(t *testing.T, index string) []string {
	t.Helper()
	b, err := os.ReadFile(index)
	if err != nil {
		t.Fatal(err)
	}
	var urls []string
	for _, l := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
		i := strings.IndexByte(l, '{')
		var e struct{ URL string }
		if i < 0 || json.Unmarshal([]byte(l[i:]), &e) != nil {
			t.Fatalf("%s: line %q", index, l)
		}
		urls = append(urls, e.URL)
	}
	slices.Sort(urls)
	return slices.Compact(urls)
}

// splitSummary returns lines but the summary, sorted, and the summary
// without its octets (the command counts every octet off the network,
// the job each page's).
func splitSummary(t *testing.T, lines []string) ([]string, map[string]any) {
	t.Helper()
	var out []string
	var sum map[string]any
	for _, l := range lines {
		if strings.HasPrefix(l, `{"event":"summary"`) {
			if err := json.Unmarshal([]byte(l), &sum); err != nil {
				t.Fatal(err)
			}
			delete(sum, "octets")
			continue
		}
		if l != "" {
			out = append(out, l)
		}
	}
	slices.Sort(out)
	return out, sum
}

// jobLines reads what the job wrote: its events, its checks and its
// report, sorted, and the summary.
func jobLines(t *testing.T, out string) ([]string, map[string]any) {
	t.Helper()
	var all []string
	names, _ := filepath.Glob(filepath.Join(out, "events", "*.ndjson"))
	names = append(names, filepath.Join(out, "report.ndjson"))
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, strings.Split(string(b), "\n")...)
	}
	return splitSummary(t, all)
}

func equalLines(t *testing.T, what string, got, want []string) {
	t.Helper()
	if slices.Equal(got, want) {
		return
	}
	g, w := map[string]bool{}, map[string]bool{}
	for _, s := range got {
		g[s] = true
	}
	for _, s := range want {
		w[s] = true
	}
	for _, s := range got {
		if !w[s] {
			t.Errorf("%s: unexpected %s", what, s)
		}
	}
	for _, s := range want {
		if !g[s] {
			t.Errorf("%s: missing %s", what, s)
		}
	}
	t.Errorf("%s: %d lines, want %d", what, len(got), len(want))
}

func options(seeds []string, out string) Options {
	return Options{Seeds: seeds, Output: out, Depth: 2, Scope: "prefix", PerHost: 1, Check: true, WARC: true}
}

// TestCrawlIsCommand: the job's report and pages (page, link, checked
// and broken records) equal `locator crawl --check --json` on the same
// seeds, after sorting, over HTML (nginx) and a Gopher menu (pygopherd,
// RFC 1436 §3.8); its summary too, but its octets. Its database holds
// each URL once; its WARC files, one index over all.
func TestCrawlIsCommand(t *testing.T) {
	seeds := startServers(t)
	want, wantSum, wantWARC := commandLines(t, 2, seeds)
	out := filepath.Join(t.TempDir(), "out")
	o := options(seeds, out)
	o.WACZ = filepath.Join(t.TempDir(), "crawl.wacz")
	res, err := Run(context.Background(), o, prismRun)
	if err != nil {
		t.Fatal(err)
	}
	got, gotSum := jobLines(t, out)
	equalLines(t, "records", got, want)
	if fmt.Sprint(gotSum) != fmt.Sprint(wantSum) {
		t.Errorf("summary %v, want %v", gotSum, wantSum)
	}
	if len(got) != 60 || gotSum["pages"] != 13.0 || gotSum["broken"] != 4.0 {
		t.Errorf("%d records, summary %v; want 60 records, 13 pages, 4 broken (the site's)", len(got), gotSum)
	}
	if res.Rounds != 3 || res.Last.Unfetched != 0 {
		t.Errorf("rounds %d, state %+v; want 3 rounds (depth 0, 1, 2), nothing unfetched", res.Rounds, res.Last)
	}
	checkDB(t, out, got)
	checkWARC(t, out, got)
	// robots.txt is asked for again in each round of the job: the
	// URLs captured are the command's, not the number of captures.
	equalLines(t, "URLs in the WARC files", capturedURLs(t, filepath.Join(out, "warc", "index.cdxj")), wantWARC)
	checkWACZ(t, out, o.WACZ)
	t.Logf("%d records; summary %v", len(got), gotSum)
}

// checkDB: the database holds each page's URL once, fetched.
func checkDB(t *testing.T, out string, records []string) {
	t.Helper()
	var urls []string
	for _, e := range readDB(t, out) {
		if e.Status == Unfetched {
			t.Errorf("%s unfetched", e.URL)
		}
		urls = append(urls, e.URL)
	}
	var pages []string
	for _, r := range records {
		var p struct{ Event, URL string }
		json.Unmarshal([]byte(r), &p)
		if p.Event == "page" {
			pages = append(pages, p.URL)
		}
	}
	slices.Sort(urls)
	slices.Sort(pages)
	equalLines(t, "database", urls, pages)
	if gens, _ := filepath.Glob(filepath.Join(out, "db", "db-*")); len(gens) != 1 {
		t.Errorf("generations %v, want the last only", gens)
	}
}

// checkWARC: each page fetched has a capture in index.cdxj, which names
// the WARC files as they are, every one of them.
func checkWARC(t *testing.T, out string, records []string) {
	t.Helper()
	dir := filepath.Join(out, "warc")
	b, err := os.ReadFile(filepath.Join(dir, "index.cdxj"))
	if err != nil {
		t.Fatal(err)
	}
	named := map[string]bool{}
	captured := map[string]bool{}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	if !slices.IsSorted(lines) {
		t.Error("index.cdxj is not sorted")
	}
	for _, l := range lines {
		i := strings.IndexByte(l, '{')
		var e struct{ URL, Filename string }
		if i < 0 || json.Unmarshal([]byte(l[i:]), &e) != nil {
			t.Fatalf("index line %q", l)
		}
		named[e.Filename] = true
		captured[e.URL] = true
	}
	shards, _ := filepath.Glob(filepath.Join(dir, "*.warc.gz"))
	var names []string
	for _, s := range shards {
		names = append(names, filepath.Base(s))
		if !named[filepath.Base(s)] {
			t.Errorf("%s: no capture in the index", s)
		}
		if !strings.HasPrefix(filepath.Base(s), "round-") {
			t.Errorf("%s: not a shard's final name", s)
		}
	}
	for n := range named {
		if !slices.Contains(names, n) {
			t.Errorf("the index names %s, which is not there", n)
		}
	}
	for _, r := range records {
		var p struct{ Event, URL, Status string }
		json.Unmarshal([]byte(r), &p)
		if p.Event == "page" && p.Status == "ok" && strings.HasPrefix(p.URL, "http") && !captured[p.URL] {
			t.Errorf("%s: fetched, not in the WARC index", p.URL)
		}
	}
	if leftovers, _ := filepath.Glob(filepath.Join(dir, ".*")); len(leftovers) > 0 {
		t.Errorf("temporaries left: %v", leftovers)
	}
}

// TestCrawlResumes: a crawl stopped after its first round (--rounds 1),
// run again for a second, then killed in its third after the round's
// files were written and before db/CURRENT was replaced, and run again,
// goes on from its database and ends with the records of the command,
// as an uninterrupted run does.
func TestCrawlResumes(t *testing.T) {
	seeds := startServers(t)
	want, wantSum, wantWARC := commandLines(t, 2, seeds)
	out := filepath.Join(t.TempDir(), "out")
	o := options(seeds, out)
	ctx := context.Background()
	for r := 1; r <= 2; r++ {
		o.Rounds = r
		res, err := Run(ctx, o, prismRun)
		if err != nil {
			t.Fatal(err)
		}
		if res.Rounds != 1 || res.Last.Round != r || res.Last.Unfetched == 0 || res.Resumed != (r > 1) {
			t.Fatalf("run %d: %+v", r, res)
		}
	}
	// Round 3, its files written, its CURRENT not: a kill.
	st, _, err := readState(out)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := runRound(ctx, o, st, prismRun); err != nil {
		t.Fatal(err)
	}
	if now, _, _ := readState(out); now != st {
		t.Fatalf("CURRENT %+v, want %+v", now, st)
	}
	o.Rounds = 0
	res, err := Run(ctx, o, prismRun)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Resumed || res.Rounds != 1 || res.Last.Round != 3 {
		t.Errorf("last run: %+v, want resumed, round 3 again", res)
	}
	got, gotSum := jobLines(t, out)
	equalLines(t, "records", got, want)
	if fmt.Sprint(gotSum) != fmt.Sprint(wantSum) {
		t.Errorf("summary %v, want %v", gotSum, wantSum)
	}
	checkDB(t, out, got)
	checkWARC(t, out, got)
	equalLines(t, "URLs in the WARC files", capturedURLs(t, filepath.Join(out, "warc", "index.cdxj")), wantWARC)
}

// bulkCLI is `locator-bulk` built from this module: the job as a user
// runs it, a process the test can kill.
func bulkCLI(t *testing.T) string { return scratch.Build(t, "..", "./cmd/locator-bulk") }

// crawlArgs are the arguments of `locator-bulk crawl` the killed-run
// test gives: options(seeds, out)'s, with a delay that makes a round
// last long enough to be killed in, and a WACZ beside out.
func crawlArgs(out string, seeds []string) []string {
	return append([]string{"crawl", "--output", out, "--depth", "2", "--scope", "prefix", "--per-host", "1",
		"--delay", "0.5", "--check", "--warc", "--wacz", out + ".wacz"}, seeds...)
}

// runBulk runs `locator-bulk` with args to its end and fails the test
// unless it exits 0.
func runBulk(t *testing.T, args []string) {
	t.Helper()
	cmd := exec.Command(bulkCLI(t), args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("locator-bulk %q: %v\n%s", args, err, stderr.Bytes())
	}
}

// readDB returns the records of the database CURRENT names.
func readDB(t *testing.T, out string) []Entry {
	t.Helper()
	st, ok, err := readState(out)
	if err != nil || !ok {
		t.Fatalf("%s: CURRENT: %v %v", out, ok, err)
	}
	names, _ := files(filepath.Join(out, "db", st.DB), "crawldb-*")
	var entries []Entry
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
			if l == "" {
				continue
			}
			e, err := ParseEntry([]byte(l))
			if err != nil {
				t.Fatalf("%s: %v", n, err)
			}
			entries = append(entries, e)
		}
	}
	return entries
}

// dbEntries returns the records of the database CURRENT names, sorted,
// without their fetch times (each run fetches at its own time).
func dbEntries(t *testing.T, out string) []string {
	t.Helper()
	var lines []string
	for _, e := range readDB(t, out) {
		e.Fetched = ""
		lines = append(lines, e.Line())
	}
	slices.Sort(lines)
	return lines
}

// captures counts the captures index.cdxj names of each URL but
// robots.txt (asked for once a round by each worker's Session, however
// many the runner makes).
func captures(t *testing.T, out string) map[string]int {
	t.Helper()
	index := filepath.Join(out, "warc", "index.cdxj")
	b, err := os.ReadFile(index)
	if err != nil {
		t.Fatal(err)
	}
	n := map[string]int{}
	for _, l := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
		i := strings.IndexByte(l, '{')
		var e struct{ URL string }
		if i < 0 || json.Unmarshal([]byte(l[i:]), &e) != nil {
			t.Fatalf("%s: line %q", index, l)
		}
		if !strings.HasSuffix(e.URL, "/robots.txt") {
			n[e.URL]++
		}
	}
	return n
}

// temporaries lists what under dir bears a temporary's name (a
// bundle's .tmp-, a finalize's .idx-, replaceFile's .NAME-*.tmp).
func temporaries(t *testing.T, dir string) []string {
	t.Helper()
	var left []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if strings.HasPrefix(d.Name(), ".") {
			left = append(left, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return left
}

// TestCrawlKilled: `locator-bulk crawl` killed (SIGKILL, by its pid)
// in its second round, once a bundle of the round has begun its WARC
// file, then run again with the same --output and seeds, ends with what
// a run never killed writes: the same records and report (and
// `locator crawl --check --json`'s), the same database, each page
// captured as often in the WARC files, no record lost or written
// twice, the same WACZ, and no temporary left. prism (v2.77.0) does not retry a
// failed bundle: running the job again is the recovery, from the last
// round db/CURRENT names.
func TestCrawlKilled(t *testing.T) {
	seeds := startServers(t)
	want, wantSum, _ := commandLines(t, 2, seeds)
	whole := filepath.Join(t.TempDir(), "whole")
	runBulk(t, crawlArgs(whole, seeds))

	out := filepath.Join(t.TempDir(), "killed")
	cmd := exec.Command(bulkCLI(t), crawlArgs(out, seeds)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	// A bundle of round 2 is under way when its WARC temporary holds a
	// response: a request of the round made, its record written.
	pattern := filepath.Join(out, "warc", ".tmp-round-00002-*.warc.gz")
	for begun := false; !begun; {
		select {
		case err := <-exited:
			t.Fatalf("the crawl ended (%v) before its second round was seen under way\n%s", err, stderr.Bytes())
		case <-time.After(5 * time.Millisecond):
			m, _ := filepath.Glob(pattern)
			for _, f := range m {
				begun = begun || holdsResponse(f)
			}
		}
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-exited
	st, ok, err := readState(out)
	if err != nil || !ok || st.Round != 1 {
		t.Fatalf("after the kill, CURRENT %+v (%v %v): want round 1, the round killed undone", st, ok, err)
	}
	left := temporaries(t, out)
	if len(left) == 0 {
		t.Fatal("the kill left no temporary of round 2: it did not land mid-round")
	}
	t.Logf("killed in round 2; left %d temporaries: %v", len(left), left)

	runBulk(t, crawlArgs(out, seeds))
	got, gotSum := jobLines(t, out)
	equalLines(t, "records, against locator crawl", got, want)
	if fmt.Sprint(gotSum) != fmt.Sprint(wantSum) {
		t.Errorf("summary %v, want %v", gotSum, wantSum)
	}
	wholeLines, _ := jobLines(t, whole)
	equalLines(t, "records, against a run not killed", got, wholeLines)
	equalLines(t, "database", dbEntries(t, out), dbEntries(t, whole))
	checkDB(t, out, got)
	checkWARC(t, out, got)
	if g, w := captures(t, out), captures(t, whole); !maps.Equal(g, w) {
		t.Errorf("captures of each URL %v, want %v (a run not killed)", g, w)
	}
	checkWACZ(t, out, out+".wacz")
	if left := temporaries(t, filepath.Dir(out)); len(left) > 0 {
		t.Errorf("temporaries left: %v", left)
	}
	if len(got) != 60 {
		t.Errorf("%d records, want the site's 60", len(got))
	}
}

// checkWACZ: the WACZ (WACZ 1.2) made of out's WARC files opens with
// archive.Open without a problem and holds every capture warc/index.cdxj
// names (Lookup finds each URL; as many keys), its archive/ the shards
// as they are (stored: §Zip Compression), read whole by warcio and
// Python's zipfile, and a page for each URL of the database fetched ok.
func checkWACZ(t *testing.T, out, wacz string) {
	t.Helper()
	r, err := archive.Open(wacz)
	if err != nil {
		t.Fatalf("archive.Open(%s): %v", wacz, err)
	}
	defer r.Close()
	if p := r.Problems(); len(p) > 0 {
		t.Errorf("%s: problems %v", wacz, p)
	}
	b, err := os.ReadFile(filepath.Join(out, "warc", "index.cdxj"))
	if err != nil {
		t.Fatal(err)
	}
	keys := map[string]bool{}
	for _, l := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
		key, _, _ := strings.Cut(l, " ")
		keys[key] = true
		i := strings.IndexByte(l, '{')
		var e struct{ URL string }
		if i < 0 || json.Unmarshal([]byte(l[i:]), &e) != nil {
			t.Fatalf("index line %q", l)
		}
		u, err := locator.Parse(e.URL)
		if err != nil {
			t.Fatalf("index URL %q: %v", e.URL, err)
		}
		if _, err := r.Lookup(context.Background(), u); err != nil {
			t.Errorf("the WACZ: %s: %v", e.URL, err)
		}
	}
	if _, n := r.Holdings(0); n != len(keys) {
		t.Errorf("the WACZ holds %d keys, index.cdxj %d", n, len(keys))
	}
	shards, _ := filepath.Glob(filepath.Join(out, "warc", "round-*-of-*.warc.gz"))
	var want []string
	for _, s := range shards {
		want = append(want, "archive/"+filepath.Base(s))
	}
	var got []string
	for _, e := range peer.ZipEntries(t, wacz) {
		if strings.HasPrefix(e.Name, "archive/") {
			got = append(got, e.Name)
			if e.Compress != 0 {
				t.Errorf("%s compressed (%d)", e.Name, e.Compress)
			}
		}
	}
	if got != nil {
		slices.Sort(got)
		equalLines(t, "the WACZ's archive/", got, want)
	}
	inWACZ := peer.WarcioWACZ(t, "../../archive/testdata/warccheck.cjs", wacz)
	direct := peer.Warcio(t, "../../archive/testdata/warccheck.cjs", shards...)
	records := func(rs []peer.WarcioRecord) []string {
		var out []string
		for _, r := range rs {
			if r.Error != "" || r.BlockOK == nil || !*r.BlockOK || r.PayloadOK != nil && !*r.PayloadOK {
				t.Errorf("warcio: %+v", r)
			}
			out = append(out, r.Type+" "+r.URI+" "+fmt.Sprint(r.Length))
		}
		slices.Sort(out)
		return out
	}
	equalLines(t, "warcio's records of the WACZ", records(inWACZ), records(direct))
	zr, err := zip.OpenReader(wacz)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	pf, err := zr.Open("pages/pages.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	pb, _ := io.ReadAll(pf)
	var pages []string
	for _, l := range strings.Split(strings.TrimSuffix(string(pb), "\n"), "\n")[1:] {
		var p struct{ URL, TS string }
		if err := json.Unmarshal([]byte(l), &p); err != nil || p.TS == "" {
			t.Errorf("pages.jsonl: %q", l)
		}
		pages = append(pages, p.URL)
	}
	slices.Sort(pages)
	var ok []string
	for _, e := range readDB(t, out) {
		if e.Status == "ok" {
			ok = append(ok, e.URL)
		}
	}
	slices.Sort(ok)
	equalLines(t, "the WACZ's pages", pages, ok)
	t.Logf("WACZ: %d shards, %d index keys, %d warcio records, %d pages", len(shards), len(keys), len(inWACZ), len(pages))
}

// holdsResponse reports whether the WARC file being written at path
// holds a whole response record (each record is a gzip member of its
// own, written at once: the members read before the one being written).
func holdsResponse(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return false
	}
	b, _ := io.ReadAll(io.LimitReader(zr, 16<<20))
	return bytes.Contains(b, []byte("\r\nWARC-Type: response\r\n"))
}

// TestCrawlPolicy: a seed whose destination --deny-host refuses is a
// page of status "policy" and no connection is made to it (a listener
// of our own counts them); the crawl's records are `locator crawl
// --deny-host`'s on the same seeds (RFC 1738 §6: a client's policy on
// where it connects).
func TestCrawlPolicy(t *testing.T) {
	seeds := startServers(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var accepted atomic.Int64
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepted.Add(1)
			c.Close()
		}
	}()
	t.Cleanup(func() { ln.Close() })
	denied := "http://" + ln.Addr().String() + "/denied.html"
	seeds = append(seeds, denied)
	rule := ln.Addr().String()
	want, wantSum, _ := commandLines(t, 2, seeds, "--deny-host", rule)
	out := filepath.Join(t.TempDir(), "out")
	o := options(seeds, out)
	o.Deny = []string{rule}
	if _, err := Run(context.Background(), o, prismRun); err != nil {
		t.Fatal(err)
	}
	got, gotSum := jobLines(t, out)
	equalLines(t, "records", got, want)
	if fmt.Sprint(gotSum) != fmt.Sprint(wantSum) {
		t.Errorf("summary %v, want %v", gotSum, wantSum)
	}
	var status string
	for _, l := range got {
		var p struct{ Event, URL, Status string }
		json.Unmarshal([]byte(l), &p)
		if p.Event == "page" && p.URL == denied {
			status = p.Status
		}
	}
	if status != "policy" {
		t.Errorf("%s: page status %q, want policy", denied, status)
	}
	if n := accepted.Load(); n != 0 {
		t.Errorf("%d connections to %s, which --deny-host refuses", n, rule)
	}
	if e := dbEntries(t, out); !slices.ContainsFunc(e, func(l string) bool {
		return strings.Contains(l, `"url":"`+denied+`","status":"policy"`)
	}) {
		t.Errorf("the database: no policy record of %s", denied)
	}
}
