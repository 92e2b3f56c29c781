package main

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/rfc1738/locator/internal/peer"
)

// The write-error case of crawl (pipeline_test.go's TestWriteErrors):
// one page, and its --json records.
// crawlPages is the number of pages of the generated site.
const crawlPages = 50

// crawlSite is a small generated site served by nginx, linking into a
// Gopher tree served by Gophernicus on the same host.
type crawlSite struct {
	http, gopher string // host:port
	log          string // nginx's access log
}

// startCrawlSite serves the site. Page i (/d{i/10}/p{i}.html) links to
// page i+1 (an absolute path), page 2i+1 (a relative reference) and an
// image; the index links to page 0 and to the gopher tree. With
// planted, the broken links are, each alone on line 6 of its page:
//
//	p7:  <a href="missing-7.html">              a page that is not there
//	p20: <img src="/img/none.png">              an image that is not there
//	p33: <a href="http://localhost:P/gone.html"> out of scope (another host name), not there
//	p40: <a href="gopher://G/1/nothing/">       a gopher menu not there
//
// and the gopher tree's menu has an item for a menu that is not there.
func startCrawlSite(t *testing.T, planted bool) *crawlSite {
	t.Helper()
	root := t.TempDir()
	log := filepath.Join(t.TempDir(), "access.log")
	n := peer.Nginx(t, root, peer.NginxConfig{
		HTTP:        "types { text/html html; image/png png; text/plain txt; }\nlog_format crawl '\"$request\" $status';",
		Connections: 64,
		Server:      "access_log " + log + " crawl;",
	})
	groot := t.TempDir()
	gmap := "0Hello\t/a.txt\n"
	if planted {
		gmap += "1Missing\t/none/\n"
	}
	writeTree(t, groot, map[string]string{"gophermap": gmap, "a.txt": "hello\n"})
	g := peer.Gophernicus(t, groot)
	s := &crawlSite{http: n.Addr, gopher: g.Addr, log: log}
	port := strings.Split(s.http, ":")[1]
	files := map[string]string{
		"robots.txt": "User-agent: *\nDisallow: /private/\n",
		"index.html": fmt.Sprintf("<!DOCTYPE html>\n<a href=\"d0/p0.html\">start</a>\n<a href=\"gopher://%s/1/\">gopher</a>\n<a href=\"/private/a.html\">private</a>\n", s.gopher),
		"img/0.png":  "\x89PNG\r\n\x1a\n",
	}
	plant := map[int]string{}
	if planted {
		plant = map[int]string{
			7:  `<a href="missing-7.html">broken</a>`,
			20: `<img src="/img/none.png">`,
			33: `<a href="http://localhost:` + port + `/gone.html">gone</a>`,
			40: `<a href="gopher://` + s.gopher + `/1/nothing/">none</a>`,
		}
	}
	for i := 0; i < crawlPages; i++ {
		next, rel := (i+1)%crawlPages, (2*i+1)%crawlPages
		files[crawlPage(i)[1:]] = fmt.Sprintf("<!DOCTYPE html>\n<title>p%d</title>\n<a href=\"%s\">next</a>\n"+
			"<a href=\"../d%d/p%d.html\">rel</a>\n<img src=\"/img/0.png\">\n%s\n", i, crawlPage(next), rel/10, rel, plant[i])
	}
	writeTree(t, root, files)
	return s
}

func crawlPage(i int) string { return fmt.Sprintf("/d%d/p%d.html", i/10, i) }

// requests returns nginx's log of the crawl: one `"GET /path HTTP/1.1"
// status` a request, the harness's HEAD / left out; it waits a little
// for want lines, since nginx writes a line after its reply.
func (s *crawlSite) requests(t *testing.T, want int) []string {
	t.Helper()
	var out []string
	for try := 0; try < 200; try++ {
		b, err := os.ReadFile(s.log)
		if err != nil {
			t.Fatal(err)
		}
		out = out[:0]
		for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			if l != "" && !strings.Contains(l, `"HEAD / HTTP/1.0"`) {
				out = append(out, l)
			}
		}
		if len(out) >= want {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	return out
}

// TestCrawlBrokenLinks: the summary names each planted broken link,
// under its page, at its place, and nothing else; exit 1. The gopher
// menu's missing item is found through the cross-scheme link (in scope:
// the same host).
func TestCrawlBrokenLinks(t *testing.T) {
	s := startCrawlSite(t, true)
	h, g := "http://"+s.http, "gopher://"+s.gopher
	port := strings.Split(s.http, ":")[1]
	code, out, errs := runCLI(t, "", "crawl", "--delay", "0", "--depth", "0", "--check", h+"/")
	if code != exitNegative {
		t.Fatalf("exit %d, want 1; stderr:\n%s", code, errs)
	}
	// Grouped by target, in the order of the URLs: each with why, the
	// number of links, and the page and place of each.
	want := g + "/1/none/: gone (the server says 3 Error: File or directory not found! (null) (to \"/none/\")): 1 link\n" +
		"  " + g + "/1/ entry 2 \"Missing\"\n" +
		g + "/1/nothing/: gone (the server says 3 Error: File or directory not found! (null) (to \"/nothing/\")): 1 link\n" +
		"  " + h + "/d4/p40.html <a href> line 6 column 10\n" +
		h + "/d0/missing-7.html: gone (the server says 404 Not Found (to \"GET /d0/missing-7.html\")): 1 link\n" +
		"  " + h + "/d0/p7.html <a href> line 6 column 10\n" +
		h + "/img/none.png: gone (the server says 404 Not Found (to \"GET /img/none.png\")): 1 link\n" +
		"  " + h + "/d2/p20.html <img src> line 6 column 11\n" +
		"http://localhost:" + port + "/gone.html: gone (the server says 404 Not Found (to \"HEAD /gone.html\")): 1 link\n" +
		"  " + h + "/d3/p33.html <a href> line 6 column 10\n"
	if out != want {
		t.Errorf("summary:\n%s\nwant:\n%s", out, want)
	}
	if !strings.Contains(errs, "locator crawl: 59 pages") || !strings.Contains(errs, ": 5 broken links on 5 pages") {
		t.Errorf("stderr: %s", errs)
	}
}

// TestCrawlJSONAndJUnit: every --json line is a JSON object with an
// event; the broken records are the planted links; --junit's file is
// JUnit XML with one failed testcase a broken link, one suite a page.
func TestCrawlJSONAndJUnit(t *testing.T) {
	s := startCrawlSite(t, true)
	junit := filepath.Join(t.TempDir(), "crawl.xml")
	code, out, errs := runCLI(t, "", "crawl", "--delay", "0", "--depth", "0", "--check", "--json", "--junit", junit, "http://"+s.http+"/")
	if code != exitNegative {
		t.Fatalf("exit %d; stderr:\n%s", code, errs)
	}
	events := map[string]int{}
	var broken []string
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var rec map[string]any
		if err := json.Unmarshal([]byte(l), &rec); err != nil {
			t.Fatalf("%v: %s", err, l)
		}
		ev, _ := rec["event"].(string)
		events[ev]++
		if ev == "broken" {
			broken = append(broken, fmt.Sprint(rec["place"], " ", rec["url"]))
		}
	}
	// 59 pages: the index, the 50, the image, the 2 missing, the
	// private page robots.txt keeps out (skipped), the gopher menu, its
	// file, its missing menu and the missing one p40 links; 159 links:
	// 3 on the index, 3 on each page, the 4 planted, 2 on the menu; 1
	// checked: the link to localhost, the only one not followed.
	if events["page"] != 59 || events["checked"] != 1 || events["broken"] != 5 || events["summary"] != 1 || events["link"] != 159 {
		t.Errorf("events: %v", events)
	}
	if len(broken) != 5 {
		t.Errorf("broken: %q", broken)
	}
	b, err := os.ReadFile(junit)
	if err != nil {
		t.Fatal(err)
	}
	var doc junitSuites
	if err := xml.Unmarshal(b, &doc); err != nil {
		t.Fatalf("junit: %v\n%s", err, b)
	}
	cases := 0
	for _, su := range doc.Suites {
		for _, c := range su.Cases {
			cases++
			if c.Failure == nil || c.Classname != su.Name {
				t.Errorf("testcase %+v", c)
			}
		}
		if su.Tests != len(su.Cases) || su.Failures != len(su.Cases) {
			t.Errorf("suite %s: tests %d failures %d, %d cases", su.Name, su.Tests, su.Failures, len(su.Cases))
		}
	}
	if cases != 5 || len(doc.Suites) != 5 || doc.Tests != 5 || doc.Failures != 5 {
		t.Errorf("junit: %d cases in %d suites, tests=%d failures=%d", cases, len(doc.Suites), doc.Tests, doc.Failures)
	}
	again, err := xml.Marshal(doc)
	if err != nil || !bytes.Contains(b, []byte("<testsuites")) || len(again) == 0 {
		t.Errorf("round trip: %v", err)
	}
}

// TestCrawlClean: a site with no broken link: nothing on standard
// output, exit 0; --junit writes an empty report.
func TestCrawlClean(t *testing.T) {
	s := startCrawlSite(t, false)
	junit := filepath.Join(t.TempDir(), "crawl.xml")
	code, out, errs := runCLI(t, "", "crawl", "--delay", "0", "--per-host", "4", "--check", "--junit", junit, "http://"+s.http+"/")
	if code != exitOK || out != "" {
		t.Fatalf("exit %d, output %q; stderr:\n%s", code, out, errs)
	}
	b, err := os.ReadFile(junit)
	if err != nil {
		t.Fatal(err)
	}
	var doc junitSuites
	if err := xml.Unmarshal(b, &doc); err != nil || doc.Tests != 0 || len(doc.Suites) != 0 {
		t.Errorf("junit: %v %+v", err, doc)
	}
}

// TestCrawlResume: a crawl kept in --state and bounded by --max-urls,
// then gone on with by --resume (no URLs: the kept seeds), fetches in
// its two runs what one whole crawl fetches, each path once (robots.txt
// is read by each run), and the last run reports the broken links of both.
func TestCrawlResume(t *testing.T) {
	s := startCrawlSite(t, true)
	seed := "http://" + s.http + "/"
	code, wholeOut, errs := runCLI(t, "", "crawl", "--delay", "0", "--depth", "0", seed)
	if code != exitNegative || strings.Count(wholeOut, "  ") != 4 {
		t.Fatalf("whole crawl: exit %d\n%s", code, errs)
	}
	whole := s.requests(t, 55)
	if len(whole) != 55 { // robots.txt, index, 50 pages, the image, 2 missing (the private page: not asked)
		t.Fatalf("whole crawl: %d requests:\n%s", len(whole), strings.Join(whole, "\n"))
	}
	if err := os.Truncate(s.log, 0); err != nil {
		t.Fatal(err)
	}
	state := filepath.Join(t.TempDir(), "state")
	code, _, errs = runCLI(t, "", "crawl", "--delay", "0", "--depth", "0", "--state", state, "--max-urls", "10", seed)
	if code == exitTrouble || code == exitFailed {
		t.Fatalf("first run: exit %d\n%s", code, errs)
	}
	first := s.requests(t, 3)
	// Ten URLs popped, some of them gopher's or skipped by robots.txt:
	// fewer of nginx's, robots.txt's besides.
	if len(first) < 3 || len(first) > 11 {
		t.Errorf("first run: %d requests:\n%s", len(first), strings.Join(first, "\n"))
	}
	// Without --resume, a kept crawl is not begun anew.
	if code, _, errs := runCLI(t, "", "crawl", "--state", state, seed); code != exitTrouble || !strings.Contains(errs, "--resume") {
		t.Errorf("second crawl on the state: exit %d\n%s", code, errs)
	}
	code, out, errs := runCLI(t, "", "crawl", "--delay", "0", "--depth", "0", "--state", state, "--resume")
	if code != exitNegative {
		t.Fatalf("resume: exit %d\n%s", code, errs)
	}
	// The report of the run that ends the crawl is the whole crawl's:
	// the broken links of the pages the first run fetched too.
	if out != wholeOut {
		t.Errorf("report after --resume:\n%s\nwant the whole crawl's:\n%s", out, wholeOut)
	}
	both := s.requests(t, 56)
	count := func(lines []string) map[string]int {
		m := map[string]int{}
		for _, l := range lines {
			m[l]++
		}
		return m
	}
	w, b := count(whole), count(both)
	if b[`"GET /robots.txt HTTP/1.1" 200`] != 2 {
		t.Errorf("robots.txt read %d times, want once a run", b[`"GET /robots.txt HTTP/1.1" 200`])
	}
	delete(w, `"GET /robots.txt HTTP/1.1" 200`)
	delete(b, `"GET /robots.txt HTTP/1.1" 200`)
	var diffs []string
	for l, n := range b {
		if n != 1 || w[l] != 1 {
			diffs = append(diffs, fmt.Sprintf("%s: %d in the two runs, %d in the whole crawl", l, n, w[l]))
		}
	}
	for l := range w {
		if b[l] == 0 {
			diffs = append(diffs, l+": not fetched by the two runs")
		}
	}
	sort.Strings(diffs)
	if len(diffs) > 0 {
		t.Errorf("the two runs and the whole crawl differ:\n%s", strings.Join(diffs, "\n"))
	}
}

// TestCrawlUsage: usage mistakes exit 2 before anything is fetched.
func TestCrawlUsage(t *testing.T) {
	for _, args := range [][]string{
		{"crawl"},
		{"crawl", "--scope", "site", "http://127.0.0.1/"},
		{"crawl", "--per-host", "0", "http://127.0.0.1/"},
		{"crawl", "--include", "(", "http://127.0.0.1/"},
		{"crawl", "--resume", "http://127.0.0.1/"},
		{"crawl", "not a url"},
	} {
		if code, out, errs := runCLI(t, "", args...); code != exitTrouble || out != "" || !strings.Contains(errs, "locator crawl: ") {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", args, code, out, errs)
		}
	}
}

// TestCrawlProgress: the progress line names pages, octets, the queue,
// errors and the rate, and is wiped at the end; without a terminal, and
// not forced, there is none.
func TestCrawlProgress(t *testing.T) {
	s := startCrawlSite(t, false)
	seed := "http://" + s.http + "/"
	code, _, errs := runCLI(t, "", "crawl", "--delay", "0", seed)
	if code != exitOK || strings.Contains(errs, "\r") {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	crawlProgressForced = true
	defer func() { crawlProgressForced = false }()
	code, _, errs = runCLI(t, "", "crawl", "--delay", "0", seed)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	first, _, _ := strings.Cut(errs, "\x1b[K")
	if !regexp.MustCompile(`^\rlocator crawl: 1 pages, [0-9.]+ [KMG]?i?B, queue [0-9]+, 0 errors, [0-9.]+ pages/s$`).MatchString(first) ||
		!strings.Contains(errs, "\r\x1b[K") {
		t.Errorf("progress: %q", errs)
	}
}

// TestCrawlKilledResume: a crawl with --check kept in --state killed
// by SIGKILL in its course goes on with --resume: the two runs fetch
// what one whole crawl fetches, only the page under way at the kill
// possibly twice (one request at a time to the host), and the report is
// the whole crawl's, the links the killed run did not check checked.
func TestCrawlKilledResume(t *testing.T) {
	bin := locatorBin(t)
	s, seed, wholeOut, whole := wholeCrawl(t)
	state := filepath.Join(t.TempDir(), "state")
	cmd := exec.Command(bin, "crawl", "--delay", "50ms", "--per-host", "1", "--depth", "0", "--check", "--state", state, seed)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Killed late, past p33 most likely: its link to localhost, found
	// and not checked, is checked by the run that ends the crawl.
	first := s.requests(t, 45) // waits until 45 are logged (or gives up after 10 s)
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	if len(first) < 45 || len(first) >= len(whole)-1 {
		t.Fatalf("killed after %d requests", len(first))
	}
	code, out, errs := runCLI(t, "", "crawl", "--delay", "0", "--depth", "0", "--check", "--state", state, "--resume")
	if code != exitNegative {
		t.Fatalf("resume: exit %d\n%s", code, errs)
	}
	if out != wholeOut {
		t.Errorf("report after --resume:\n%s\nwant the whole crawl's:\n%s", out, wholeOut)
	}
	compareRuns(t, whole, s.requests(t, len(whole)+1), 1) // at most the page under way at the kill
}
