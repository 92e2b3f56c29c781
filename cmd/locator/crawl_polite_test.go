package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rfc1738/locator/internal/peer"
)

// startPoliteSite serves files with nginx, logging each request's
// path and status, and returns its host:port and the log.
func startPoliteSite(t *testing.T, files map[string]string) (string, *crawlSite) {
	t.Helper()
	root := t.TempDir()
	log := filepath.Join(t.TempDir(), "access.log")
	n := peer.Nginx(t, root, peer.NginxConfig{
		HTTP:        "types { text/html html; text/plain txt; }\nlog_format crawl '\"$request\" $status';",
		Connections: 32,
		Server:      "access_log " + log + " crawl;",
	})
	writeTree(t, root, files)
	return n.Addr, &crawlSite{http: n.Addr, log: log}
}

// chain is n pages, each linking to the next.
func chain(n int) map[string]string {
	files := map[string]string{}
	for i := 0; i < n; i++ {
		files[fmt.Sprintf("p%d.html", i)] = fmt.Sprintf("<!DOCTYPE html>\n<a href=\"p%d.html\">next</a>\n", i+1)
	}
	files[fmt.Sprintf("p%d.html", n)] = "<!DOCTYPE html>\nthe end\n"
	return files
}

// TestCrawlDelayChoice (issue 46 item 8): a Crawl-delay of 1,000
// seconds (RFC 9309 §2.2.4: a record crawlers MAY interpret) holds the
// default, which yields to the site's: with --max-time 3s the crawl
// fetches robots.txt, then waits, and is cut short (exit 3); an explicit --delay 0 is the user's own and holds whatever
// Crawl-delay says: every page is fetched, and nothing is broken.
func TestCrawlDelayChoice(t *testing.T) {
	files := chain(5)
	files["robots.txt"] = "User-agent: *\nCrawl-delay: 1000\n"
	addr, s := startPoliteSite(t, files)
	seed := "http://" + addr + "/p0.html"
	code, _, errs := runCLI(t, "", "crawl", "--max-time", "3s", seed)
	if code != exitFailed || !strings.Contains(errs, "stopped at --max-time") {
		t.Fatalf("default delay: exit %d\n%s", code, errs)
	}
	// robots.txt is a request to the server too: the next waits.
	if got := s.requests(t, 1); len(got) != 1 || !strings.Contains(got[0], "/robots.txt") {
		t.Errorf("default delay: requests %q, want robots.txt alone", got)
	}
	if code, _, errs := runCLI(t, "", "crawl", "--delay", "0", "--max-time", "60s", seed); code != exitOK || !strings.Contains(errs, "locator crawl: 6 pages") {
		t.Errorf("--delay 0: exit %d\n%s", code, errs)
	}
	// wget's bare seconds: --delay 0.01 is 10 ms, and holds too.
	if code, _, errs := runCLI(t, "", "crawl", "--delay", "0.01", "--max-time", "60s", seed); code != exitOK || !strings.Contains(errs, "locator crawl: 6 pages") {
		t.Errorf("--delay 0.01: exit %d\n%s", code, errs)
	}
	if code, _, errs := runCLI(t, "", "crawl", "--delay", "soon", seed); code != exitTrouble || !strings.Contains(errs, "not a time: seconds") {
		t.Errorf("--delay soon: exit %d\n%s", code, errs)
	}
}

// TestCrawlRobotsSeed (issue 46 item 8): a seed robots.txt forbids (RFC
// 9309 §2.2.2) is said, and the crawl does not exit 0 as "0 broken";
// --no-robots, for a site's own owner, crawls it.
func TestCrawlRobotsSeed(t *testing.T) {
	files := chain(2)
	files["robots.txt"] = "User-agent: *\nDisallow: /\n"
	addr, s := startPoliteSite(t, files)
	seed := "http://" + addr + "/p0.html"
	code, out, errs := runCLI(t, "", "crawl", seed)
	if code != exitFailed || out != "" || !strings.Contains(errs, "locator crawl: robots.txt forbids the seed "+seed+": nothing was fetched from it") {
		t.Errorf("exit %d, stdout %q\n%s", code, out, errs)
	}
	if got := s.requests(t, 1); len(got) != 1 {
		t.Errorf("requests %q, want robots.txt alone", got)
	}
	code, _, errs = runCLI(t, "", "crawl", "--no-robots", seed)
	if code != exitOK || !strings.Contains(errs, "locator crawl: 3 pages") {
		t.Errorf("--no-robots: exit %d\n%s", code, errs)
	}
	for _, l := range s.requests(t, 4)[1:] {
		if strings.Contains(l, "robots.txt") {
			t.Errorf("--no-robots read robots.txt: %s", l)
		}
	}
}

// TestCrawlNotJudged (issue 46 item 8): without --check the links whose
// URL was neither fetched nor checked are counted; with it, none is
// left.
func TestCrawlNotJudged(t *testing.T) {
	s := startCrawlSite(t, true)
	seed := "http://" + s.http + "/"
	code, _, errs := runCLI(t, "", "crawl", "--delay", "0", "--depth", "2", seed)
	// Depth 2: the index (0), p0 and the gopher menu (1), p1, the
	// image and the menu's items (2); p1's links to p2 and p3 are past
	// it (its link to the image, fetched, is judged).
	if code != exitNegative || !strings.Contains(errs, "locator crawl: 2 links (2 URLs) not judged: not followed (out of scope, excluded, too deep), and --check not given\n") {
		t.Errorf("exit %d\n%s", code, errs)
	}
	code, _, errs = runCLI(t, "", "crawl", "--delay", "0", "--depth", "2", "--check", seed)
	if code != exitNegative || strings.Contains(errs, "not judged") {
		t.Errorf("--check: exit %d\n%s", code, errs)
	}
}

// TestCrawlFileLinks (issue 46 item 8): a file URL on a web page names a
// file of each reader's machine (RFC 1738 §3.10): it is reported refused
// by policy with its syntax judged, counted in the summary, never
// counted broken, whatever this machine's disk holds.
func TestCrawlFileLinks(t *testing.T) {
	files := map[string]string{
		"index.html": "<!DOCTYPE html>\n<a href=\"file:///nonexistent/locator-test.txt\">a</a>\n" +
			"<a href=\"file://host:21/x.txt\">b</a>\n<a href=\"file:///nonexistent/locator-test.txt\">again</a>\n",
	}
	addr, _ := startPoliteSite(t, files)
	h := "http://" + addr
	want := "refused by local policy, not asked (not broken):\n" +
		"file:///nonexistent/locator-test.txt: policy (" + fileOnPageText + "its syntax is valid): 2 links\n" +
		"  " + h + "/index.html <a href> line 2 column 10\n" +
		"  " + h + "/index.html <a href> line 4 column 10\n" +
		"file://host:21/x.txt: policy (" + fileOnPageText + "its syntax: offset 11: violation: fileurl: a file URL has no port: file://<host>/<path> (RFC 1738 §3.10, §5)): 1 link\n" +
		"  " + h + "/index.html <a href> line 3 column 10\n"
	for _, check := range []bool{false, true} {
		args := []string{"crawl", h + "/index.html"}
		if check {
			args = append(args, "--check")
		}
		code, out, errs := runCLI(t, "", args...)
		if code != exitOK || out != want || !strings.Contains(errs, "locator crawl: 3 links refused by local policy, not asked") ||
			strings.Contains(errs, "not judged") {
			t.Errorf("--check %v: exit %d\n%s\nwant:\n%s\n%s", check, code, out, want, errs)
		}
	}
}

// TestCrawlSummaryJSON (issue 46 item 8): --json's summary counts the
// links refused by policy, never dropped, and those not judged, and the
// octets received.
func TestCrawlSummaryJSON(t *testing.T) {
	files := map[string]string{
		"index.html": "<!DOCTYPE html>\n<a href=\"file:///etc/hosts\">a</a>\n<a href=\"http://other.invalid/\">b</a>\n<a href=\"//127.0.0.1:25/\">c</a>\n",
	}
	addr, _ := startPoliteSite(t, files)
	// The link to port 25, SMTP's (RFC 1738 §6), is refused by policy
	// before any connection, as the file URL is.
	code, out, errs := runCLI(t, "", "crawl", "--json", "http://"+addr+"/index.html")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var sum crawlSummaryRecord
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &sum); err != nil || code != exitOK {
		t.Fatalf("exit %d, %v: %s\n%s", code, err, out, errs)
	}
	if sum.Event != "summary" || sum.Pages != 2 || sum.Links != 3 || sum.Refused != 2 || sum.Unjudged != 1 || sum.Octets < int64(len(files["index.html"])) {
		t.Errorf("summary %+v", sum)
	}
}

const fileOnPageText = "a file URL on a page of another scheme names a file of each reader's own machine (RFC 1738 §3.10): not looked for on this one; "

// TestCrawlWgetFlags (issue 46 item 7): wget's crawl flags are each
// said with locator crawl's own, and the command line written again;
// nothing is fetched.
func TestCrawlWgetFlags(t *testing.T) {
	code, out, errs := runCLI(t, "", "crawl", "-r", "-np", "-l", "3", "--wait=2", "-e", "robots=off", "--reject", "pdf,*.zip",
		"--spider", "-q", "-nv", "-P", "/tmp/x", "--jobs", "2", "http://127.0.0.1:1/a/")
	want := "locator crawl: wget's flags; locator crawl's own:\n" +
		"  -r: drop it: crawl always follows links\n" +
		"  -np: drop it: --scope prefix, the default, never goes above the seed's directory\n" +
		"  -l 3: --depth 3 (the same meaning; the default is 5 in both)\n" +
		"  --wait=2: --delay 2 (seconds when bare, as wget's; given, it holds whatever robots.txt's Crawl-delay says)\n" +
		"  -e robots=off: --no-robots (for a site's own owner: robots.txt is neither read nor obeyed)\n" +
		"  --reject pdf,*.zip: --exclude '(\\.pdf|/[^/]*\\.zip)$' (a URL matched is neither fetched nor read for its links (--check still probes it))\n" +
		"  --spider: drop it: crawl never keeps what it fetches\n" +
		"  -q: drop it: crawl writes the broken links on standard output and a few summary lines on standard error, which 2>/dev/null silences\n" +
		"  -nv: drop it: crawl writes a line a broken target, not a line a request\n" +
		"  -P /tmp/x: drop it: crawl keeps no files; --warc FILE archives what it fetches\n" +
		"that is:\n  locator crawl --depth 3 --delay 2 --no-robots --exclude '(\\.pdf|/[^/]*\\.zip)$' --jobs 2 http://127.0.0.1:1/a/\n" +
		"usage: locator crawl [flags] URL...\n"
	if code != exitTrouble || out != "" || errs != want {
		t.Errorf("exit %d, stdout %q\n%s\nwant:\n%s", code, out, errs, want)
	}
	// -l3, --level=inf, -A; an unknown flag not wget's is said as ever.
	code, _, errs = runCLI(t, "", "crawl", "-l3", "--level=inf", "-A", "html", "http://127.0.0.1:1/")
	if code != exitTrouble || !strings.Contains(errs, "  locator crawl --depth 3 --depth 0 --include '(\\.html)$' http://127.0.0.1:1/\n") {
		t.Errorf("exit %d\n%s", code, errs)
	}
	code, _, errs = runCLI(t, "", "crawl", "--frobnicate", "http://127.0.0.1:1/")
	if code != exitTrouble || !strings.HasPrefix(errs, "locator crawl: unknown flag --frobnicate\n") {
		t.Errorf("exit %d\n%s", code, errs)
	}
}

// TestCrawlProgressETA (issue 46 item 8): the progress line guesses an
// ETA from the queue and the rate once etaPages pages are fetched, and
// counts the octets a Gopher crawl receives (its menus are read as
// listings, which a page's octets never counted).
func TestCrawlProgressETA(t *testing.T) {
	crawlProgressForced = true
	defer func() { crawlProgressForced = false }()
	s := startCrawlSite(t, false)
	code, _, errs := runCLI(t, "", "crawl", "--delay", "30ms", "--depth", "0", "http://"+s.http+"/")
	if code != exitOK || !regexp.MustCompile(`\rlocator crawl: [0-9]+ pages, [0-9.]+ [KMG]?i?B, queue [0-9]+, 0 errors, [0-9.]+ pages/s, ETA [0-9hms.]+\x1b\[K`).MatchString(errs) {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
	code, _, errs = runCLI(t, "", "crawl", "--delay", "0", "gopher://"+s.gopher+"/1/")
	m := regexp.MustCompile(`locator crawl: 2 pages \(([0-9]+) octets received\)`).FindStringSubmatch(errs)
	if code != exitOK || m == nil || m[1] == "0" || !strings.Contains(errs, "\rlocator crawl: 1 pages, ") || strings.Contains(errs, "\rlocator crawl: 1 pages, 0 B") {
		t.Errorf("gopher: exit %d, stderr %q", code, errs)
	}
}
