package crawl

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/internal/peer"
)

// nginxTypes gives the site's files their media types.
const nginxTypes = `types { text/html html; image/png png; text/plain txt; }`

// siteRobots is the site's robots.txt.
const siteRobots = "User-agent: *\nDisallow: /private/\nCrawl-delay: 0.001\n\nUser-agent: slowbot\nCrawl-delay: 0.3\n"

// sitePages is the number of pages of the generated site.
const sitePages = 1000

// page returns the path of the site's page i.
func page(i int) string { return fmt.Sprintf("/d%d/p%d.html", i/100, i) }

// startSite serves the generated site with nginx, and gophernicus and
// vsftpd trees it links into. Every page i links to page i+1 (an
// absolute path), page 2i+1 (a relative reference, "../dN/pM.html"), page
// 7i+3 (a full URL with a fragment) and an image; the planted links,
// each alone on line 7 of its page, are:
//
//	p17:  <a href="missing-17.html">           a page that is not there
//	p500: <img src="/img/none.png">            an image that is not there
//	p999: <a href="http://localhost:P/gone.html"> out of scope, not there
//	p250: <a href="gopher://G/1/nothing/">     a gopher menu not there
//	p750: <a href="ftp://F/pub/missing.txt">   an FTP file not there
//	p3:   <a href="http://localhost:P/d0/p1.html"> out of scope, there
//	p5:   <a href="mailto:someone@example.org">  a mailbox
//	p6:   <a href="telnet://127.0.0.1:1/">      a session
//	p42:  <a href="/private/b.html">           disallowed by robots.txt
type site struct {
	http, gopher, ftp string // host:port
	log               string // nginx's access log of the crawl
}

func startSite(t *testing.T) *site {
	t.Helper()
	root := t.TempDir()
	dir := t.TempDir()
	log := filepath.Join(dir, "crawl.log")
	n := peer.Nginx(t, root, peer.NginxConfig{
		HTTP:        nginxTypes + "\nlog_format crawl '$msec $request_time \"$request\" $status \"$http_user_agent\"';",
		Connections: 64,
		Server: "access_log " + log + " crawl;\nlocation /cal/ { default_type text/html; return 200 '<a href=\"m/\">next month</a>'; }\n" +
			"location = /busy { return 503; }",
	})
	groot := t.TempDir()
	write(t, groot, map[string]string{
		"robots.txt":   "User-agent: *\nDisallow: /secret\n",
		"a.txt":        "hello\n",
		"sub/b.txt":    "b\n",
		"secret/c.txt": "c\n",
	})
	g := peer.Gophernicus(t, groot)
	f := startVsftpd(t, func(r string) {
		write(t, r, map[string]string{"pub/x.txt": "x\n"})
		if err := os.Symlink(".", filepath.Join(r, "pub", "loop")); err != nil {
			t.Fatal(err)
		}
	})
	s := &site{http: n.Addr, gopher: g.Addr, ftp: f.Addr, log: log}
	files := map[string]string{
		"robots.txt": siteRobots,
		"index.html": fmt.Sprintf("<!DOCTYPE html>\n<title>index</title>\n<a href=\"d0/p0.html\">start</a>\n"+
			"<a href=\"/private/a.html\">private</a>\n<a href=\"gopher://%s/1/\">gopher</a>\n<a href=\"ftp://%s/pub/\">ftp</a>\n",
			s.gopher, s.ftp),
		"private/a.html": "<a href=\"b.html\">b</a>",
		"private/b.html": "private",
	}
	for i := 0; i < 10; i++ {
		files[fmt.Sprintf("img/%d.png", i)] = "\x89PNG\r\n\x1a\n"
	}
	planted := map[int]string{
		17:  `<a href="missing-17.html">broken</a>`,
		500: `<img src="/img/none.png">`,
		999: fmt.Sprintf(`<a href="http://localhost:%s/gone.html">gone</a>`, strings.Split(s.http, ":")[1]),
		250: fmt.Sprintf(`<a href="gopher://%s/1/nothing/">none</a>`, s.gopher),
		750: fmt.Sprintf(`<a href="ftp://%s/pub/missing.txt">none</a>`, s.ftp),
		3:   fmt.Sprintf(`<a href="http://localhost:%s/d0/p1.html">there</a>`, strings.Split(s.http, ":")[1]),
		5:   `<a href="mailto:someone@example.org">mail</a>`,
		6:   `<a href="telnet://127.0.0.1:1/">session</a>`,
		42:  `<a href="/private/b.html">private</a>`,
	}
	for i := 0; i < sitePages; i++ {
		next, rel, full := (i+1)%sitePages, (2*i+1)%sitePages, (7*i+3)%sitePages
		files[page(i)[1:]] = fmt.Sprintf("<!DOCTYPE html>\n<html><head><title>p%d</title></head><body>\n"+
			"<a href=\"%s\">next</a>\n<a href=\"../d%d/p%d.html\">rel</a>\n<a href=\"http://%s%s#f\">full</a>\n"+
			"<img src=\"/img/%d.png\">\n%s\n</body></html>\n",
			i, page(next), rel/100, rel, s.http, page(full), i%10, planted[i])
	}
	write(t, root, files)
	return s
}

// TestSite crawls the generated site: exactly its pages, the trees it
// links into on the same host (cross-scheme, in scope), nothing robots.txt
// disallows; every planted broken link reported with its page and place,
// and nothing else.
func TestSite(t *testing.T) {
	s := startSite(t)
	c := &Crawler{Delay: NoDelay, Depth: -1, PerHost: 4, Jobs: 8, Check: true}
	r, evs := run(t, c, "http://"+s.http+"/")
	h := "http://" + s.http
	want := []string{h + "/", h + "/d0/missing-17.html", h + "/img/none.png",
		"gopher://" + s.gopher + "/1/", "gopher://" + s.gopher + "/0/a.txt", "gopher://" + s.gopher + "/0/robots.txt",
		"gopher://" + s.gopher + "/1/sub/", "gopher://" + s.gopher + "/0/sub/b.txt", "gopher://" + s.gopher + "/1/nothing/",
		"ftp://" + s.ftp + "/pub/", "ftp://" + s.ftp + "/pub/x.txt", "ftp://" + s.ftp + "/pub/missing.txt"}
	for i := 0; i < sitePages; i++ {
		want = append(want, h+page(i))
	}
	for i := 0; i < 10; i++ {
		want = append(want, fmt.Sprintf("%s/img/%d.png", h, i))
	}
	diff(t, "pages fetched", fetched(evs), want)
	diff(t, "pages skipped", skipped(evs), []string{"robots " + h + "/private/a.html", "robots " + h + "/private/b.html",
		"robots gopher://" + s.gopher + "/1/secret/"})
	lp := strings.Split(s.http, ":")[1]
	diff(t, "broken links", broken(r), []string{
		h + `/d0/p17.html <a href> line 7 column 10 -> ` + h + `/d0/missing-17.html`,
		h + `/d5/p500.html <img src> line 7 column 11 -> ` + h + `/img/none.png`,
		h + `/d9/p999.html <a href> line 7 column 10 -> http://localhost:` + lp + `/gone.html`,
		h + `/d2/p250.html <a href> line 7 column 10 -> gopher://` + s.gopher + `/1/nothing/`,
		h + `/d7/p750.html <a href> line 7 column 10 -> ftp://` + s.ftp + `/pub/missing.txt`,
	})
	// The links not followed were checked, each once.
	var checked []string
	for _, e := range evs {
		if ck, ok := e.(*Checked); ok {
			checked = append(checked, fmt.Sprintf("%s %s", ck.URL, ck.Status.State))
		}
	}
	diff(t, "checked", checked, []string{
		"http://localhost:" + lp + "/gone.html gone", "http://localhost:" + lp + "/d0/p1.html ok", "mailto:someone@example.org ok"})
	// The telnet link is recorded, not followed nor checked.
	found := false
	for _, e := range evs {
		if l, ok := e.(*Link); ok && l.URL != nil && l.URL.Scheme() == "telnet" {
			found = l.Reason == "session" && !l.Follow
		}
	}
	if !found {
		t.Error("the telnet link is not recorded as a session")
	}
	// Nginx saw each page once, and robots.txt first.
	// The pages, index and robots.txt, the images, the two 404s, and the
	// two checks (HEAD) of the links to localhost.
	const requests = sitePages + 1 + 1 + 10 + 2 + 2
	lines := crawlLog(t, s.log, requests)
	if !strings.Contains(lines[0], `"GET /robots.txt `) {
		t.Errorf("first request: %s", lines[0])
	}
	seen := map[string]int{}
	for _, l := range lines {
		f := strings.Fields(l)
		seen[f[2]+" "+f[3]]++
		if !strings.Contains(l, `"locator (RFC 1738 crawler)"`) {
			t.Errorf("user agent: %s", l)
			break
		}
	}
	for p, n := range seen {
		if n != 1 {
			t.Errorf("%s asked %d times", p, n)
		}
	}
	if len(lines) != requests {
		t.Errorf("%d requests", len(lines))
	}
}

// crawlLog returns the lines of nginx's log of the crawl's requests (the
// harness's "HEAD /" that found the server ready left out), once there
// are want of them or after a few seconds: nginx writes a request's line
// after its reply, which the crawler may have read before.
func crawlLog(t *testing.T, log string, want int) []string {
	t.Helper()
	var out []string
	for try := 0; try < 100; try++ {
		b, err := os.ReadFile(log)
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

// TestGopherTree: gopher menus (UMN gophermaps through Gophernicus)
// linking each other and themselves, each fetched once; the robots.txt
// selector honoured; a telnet item recorded, not followed.
func TestGopherTree(t *testing.T) {
	root := t.TempDir()
	g := peer.Gophernicus(t, root)
	free := peer.FreePort(t) // nothing listens there
	write(t, root, map[string]string{
		"robots.txt":         "User-agent: *\nDisallow: /b/hidden\n",
		"gophermap":          "1Menu A\t/a\n1Menu B\t/b\n1Myself\t/\n1Missing\t/nothing/\n8Telnet\t\t127.0.0.1\t23\nhHTML link\tURL:http://127.0.0.1:" + strconv.Itoa(free) + "/x\n",
		"a/gophermap":        "1Back to the top\t/\n1Menu B\t/b\n1Myself\t/a\n0Text\t/a/t.txt\n",
		"a/t.txt":            "text\n",
		"b/gophermap":        "1Menu A\t/a\n1Hidden\t/b/hidden\n1Myself\t/b\n",
		"b/hidden/gophermap": "0Nothing\t/b/hidden/x\n",
	})
	gp := "gopher://" + g.Addr
	r, evs := run(t, &Crawler{Delay: NoDelay, Depth: -1, Scope: ScopeHost}, gp+"/1/")
	diff(t, "fetched", fetched(evs), []string{gp + "/1/", gp + "/1/a", gp + "/1/b", gp + "/0/a/t.txt", gp + "/1/nothing/"})
	// The HTML link's server cannot be reached: its robots.txt neither
	// (RFC 9309 §2.3.1.4: complete disallow), and the page is reported
	// with that error.
	diff(t, "skipped", skipped(evs), []string{"robots " + gp + "/1/b/hidden", "robots http://127.0.0.1:" + strconv.Itoa(free) + "/x"})
	diff(t, "broken", broken(r), []string{
		gp + `/1/ entry 4 "Missing" -> ` + gp + "/1/nothing/",
		gp + `/1/ entry 6 "HTML link" -> http://127.0.0.1:` + strconv.Itoa(free) + "/x",
	})
	n := 0
	for _, e := range evs {
		if l, ok := e.(*Link); ok && l.URL.Scheme() == "telnet" {
			n++
			if l.Follow || l.Reason != "session" {
				t.Errorf("telnet item: follow %v, %q", l.Follow, l.Reason)
			}
		}
	}
	if n != 1 {
		t.Errorf("%d telnet links", n)
	}
}

// TestFTPLoop: a symbolic link to its own directory is a URL seen
// already; a link to a directory elsewhere is listed; the crawl ends.
func TestFTPLoop(t *testing.T) {
	f := startVsftpd(t, func(r string) {
		write(t, r, map[string]string{"pub/x.txt": "x\n", "other/y.txt": "y\n"})
		for name, target := range map[string]string{"pub/loop": ".", "pub/up": "..", "pub/o": "../other"} {
			if err := os.Symlink(target, filepath.Join(r, filepath.FromSlash(name))); err != nil {
				t.Fatal(err)
			}
		}
	})
	fp := "ftp://" + f.Addr
	r, evs := run(t, &Crawler{Delay: NoDelay, Scope: ScopeHost}, fp+"/pub/")
	diff(t, "fetched", fetched(evs), []string{fp + "/pub/", fp + "/pub/x.txt", fp + "/", fp + "/other", fp + "/other/", fp + "/other/y.txt"})
	diff(t, "broken", broken(r), nil)
}

// TestBounds: Depth and MaxURLs bound a calendar-style trap (every page
// links to a new one below it), and links past the bound are said so.
func TestBounds(t *testing.T) {
	s := startSite(t)
	h := "http://" + s.http
	for _, tc := range []struct {
		c     Crawler
		pages int
	}{
		{Crawler{Depth: 3}, 4}, // /cal/ and three below
		{Crawler{Depth: 50, MaxURLs: 7}, 7},
		{Crawler{Depth: -1, MaxURLs: 20}, 20},
	} {
		c := tc.c
		c.Delay = NoDelay
		_, evs := run(t, &c, h+"/cal/")
		got := fetched(evs)
		want := []string{h + "/cal/"}
		for i := 1; i < tc.pages; i++ {
			want = append(want, h+"/cal/"+strings.Repeat("m/", i))
		}
		diff(t, fmt.Sprintf("depth %d, max-urls %d", c.Depth, c.MaxURLs), got, want)
		var last *Link
		for _, e := range evs {
			if l, ok := e.(*Link); ok {
				last = l
			}
		}
		wantReason := "depth"
		if c.MaxURLs > 0 {
			wantReason = "max-urls"
		}
		if last == nil || last.Follow || last.Reason != wantReason {
			t.Errorf("depth %d, max-urls %d: last link %+v", c.Depth, c.MaxURLs, last)
		}
	}
	// Include and Exclude.
	_, evs := run(t, &Crawler{Delay: NoDelay, Depth: 1, Exclude: []*regexp.Regexp{regexp.MustCompile(`/d0/p[0-9]+\.html$`)}}, h+"/")
	for _, p := range fetched(evs) {
		if strings.Contains(p, "/d0/") {
			t.Errorf("excluded page fetched: %s", p)
		}
	}
	_, evs = run(t, &Crawler{Delay: NoDelay, Depth: 2, Include: []*regexp.Regexp{regexp.MustCompile(`^http://`)}}, h+"/")
	diff(t, "include", fetched(evs), []string{h + "/", h + "/d0/p0.html", h + page(1), h + page(3), h + "/img/0.png"})
}

// TestPoliteness: one request at a time to the server, each begun at
// least Delay, or the robots.txt Crawl-delay when longer, after the one
// before ended, robots.txt first: measured in nginx's log ($msec is when a
// request ended, $request_time how long it took).
func TestPoliteness(t *testing.T) {
	s := startSite(t)
	h := "http://" + s.http
	check := func(min float64, pages int) {
		t.Helper()
		var starts, ends []float64
		var reqs []string
		for _, l := range crawlLog(t, s.log, pages+1) {
			f := strings.Fields(l)
			end, _ := strconv.ParseFloat(f[0], 64)
			took, _ := strconv.ParseFloat(f[1], 64)
			starts, ends = append(starts, end-took), append(ends, end)
			reqs = append(reqs, f[3])
		}
		if len(reqs) != pages+1 || reqs[0] != "/robots.txt" {
			t.Fatalf("requests %q", reqs)
		}
		idx := make([]int, len(starts))
		for i := range idx {
			idx[i] = i
		}
		sort.Slice(idx, func(a, b int) bool { return starts[idx[a]] < starts[idx[b]] })
		for k := 1; k < len(idx); k++ {
			a, b := idx[k-1], idx[k]
			// nginx writes its log line right after the reply, which
			// the crawler may have read a little before: a few
			// milliseconds at most on a busy machine.
			if gap := starts[b] - ends[a]; gap < min-0.005 {
				t.Errorf("%s began %.3fs after %s ended, want %.3fs", reqs[b], gap, reqs[a], min)
			}
		}
	}
	// The site's robots.txt says Crawl-delay 0.001, shorter than Delay:
	// Delay holds, however many Jobs.
	c := &Crawler{Delay: 100 * time.Millisecond, Depth: 3, Jobs: 4, MaxURLs: 5}
	_, evs := run(t, c, h+"/d0/p0.html")
	if n := len(fetched(evs)); n != 5 {
		t.Fatalf("%d pages", n)
	}
	check(0.1, 5)
	// A longer Crawl-delay replaces Delay.
	if err := os.WriteFile(s.log, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	c = &Crawler{Delay: 100 * time.Millisecond, Depth: 3, Jobs: 4, MaxURLs: 4, Agent: "slowbot"}
	_, evs = run(t, c, h+"/d0/p0.html")
	if n := len(fetched(evs)); n != 4 {
		t.Fatalf("%d pages", n)
	}
	check(0.3, 4)
}

// TestBusy: a 503 is asked again Retries times, after Backoff and then
// twice as long (nginx's log: the requests' spacing).
func TestBusy(t *testing.T) {
	s := startSite(t)
	c := &Crawler{Delay: NoDelay, Retries: 2, Backoff: 50 * time.Millisecond}
	r, evs := run(t, c, "http://"+s.http+"/busy")
	p, ok := evs[0].(*Page)
	var se *access.ServerError
	if !ok || p.Tries != 3 || !errors.As(p.Err, &se) || se.Code != "503" {
		t.Fatalf("%+v", evs[0])
	}
	if len(r.Broken()) != 0 {
		t.Error("a seed has no link to be broken")
	}
	var starts []float64
	for _, l := range crawlLog(t, s.log, 4) {
		f := strings.Fields(l)
		if f[3] == "/busy" {
			end, _ := strconv.ParseFloat(f[0], 64)
			took, _ := strconv.ParseFloat(f[1], 64)
			starts = append(starts, end-took)
		}
	}
	if len(starts) != 3 {
		t.Fatalf("%d requests", len(starts))
	}
	if g1, g2 := starts[1]-starts[0], starts[2]-starts[1]; g1 < 0.035 || g2 < 0.075 {
		t.Errorf("waits %.3fs, %.3fs; want 0.05s, 0.1s", g1, g2)
	}
}

// TestMaxBytes: the crawl ends with a *LimitError once MaxBytes octets
// are read, having read no more than that (one job: no page under way
// beside the one that reached it).
func TestMaxBytes(t *testing.T) {
	s := startSite(t)
	const max = 2000
	c := &Crawler{Delay: NoDelay, Depth: -1, Jobs: 1, MaxBytes: max}
	var read int64
	pages := 0
	err := c.Crawl(t.Context(), []*locator.URL{parse(t, "http://"+s.http+"/d0/p0.html")}, func(e Event) error {
		if p, ok := e.(*Page); ok {
			read += p.Read
			pages++
		}
		return nil
	})
	var le *LimitError
	if !errors.As(err, &le) || le.Max != max {
		t.Fatalf("err %v", err)
	}
	// robots.txt and pages of some 210 octets each: the ninth page
	// reaches the limit, and is cut there.
	if read+int64(len(siteRobots)) != max || pages != 9 {
		t.Errorf("%d octets in %d pages", read, pages)
	}
}
