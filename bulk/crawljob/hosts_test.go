package crawljob

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rfc1738/locator/internal/peer"
)

// hosts20 are 127.0.0.2 … 127.0.0.21: all this machine, 20 servers to
// the crawl's politeness (crawl.Server: the host, any port).
func hosts20() []string {
	var h []string
	for i := 2; i <= 21; i++ {
		h = append(h, fmt.Sprintf("127.0.0.%d", i))
	}
	return h
}

// freePort is a port no one listens on at any of hosts20 (nor at
// 127.0.0.1) when it is asked.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", hosts20()[0]+":0")
	if err != nil {
		t.Skipf("no loopback address %s here: %v", hosts20()[0], err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	for _, h := range append(hosts20(), "127.0.0.1") {
		l, err := net.Listen("tcp", fmt.Sprintf("%s:%d", h, port))
		if err != nil {
			t.Skipf("%s:%d: %v", h, port, err)
		}
		l.Close()
	}
	return port
}

// A site20 is nginx listening on one port of each of hosts20, pygopherd
// on two of them, and a port where nothing listens.
type site20 struct {
	port, closed int
	log          string // nginx's access log: logLine's format
	gopher       map[int]int
	seeds        []string // the index of hosts 0, 5, 10 and 15
}

// gopherHosts are the hosts (indexes in hosts20) where pygopherd serves
// menu/ too, linked from their index.
var gopherHosts = []int{1, 11}

// startSite20 writes and serves the site: host h's /hH/index.html links
// to its a.html and b.html, to the next host's index.html and c.html,
// and to one broken URL (even h: a missing page; odd h: the closed
// port); a.html links back to the index, to t.txt, u.txt and b.html,
// and to one broken URL. Each page but an index is linked from one page
// that the crawl follows, and each index from the one before it or as a
// seed, so that a page's depth and first referrer ("from") are the same
// whatever order the fetches end in.
func startSite20(t *testing.T) *site20 {
	t.Helper()
	peer.Require(t, "/usr/sbin/nginx", "/usr/sbin/pygopherd")
	hs := hosts20()
	s := &site20{port: freePort(t), gopher: map[int]int{}}
	s.closed = freePort(t)
	at := func(h int) string { return fmt.Sprintf("http://%s:%d/h%d/", hs[h%len(hs)], s.port, h%len(hs)) }
	root, groot := t.TempDir(), t.TempDir()
	for p, c := range map[string]string{"menu/a.txt": "a\n", "menu/sub/b.txt": "b\n", "menu/sub/c.txt": "c\n"} {
		f := filepath.Join(groot, p)
		os.MkdirAll(filepath.Dir(f), 0o755)
		if err := os.WriteFile(f, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ports := make([]int, len(gopherHosts))
	peer.Parallel(t, len(gopherHosts), func(tb testing.TB, i int) {
		ports[i] = peer.PygopherdWith(tb, groot, peer.PygopherdOptions{Host: hs[gopherHosts[i]], Threads: true}).Port
	})
	for i, h := range gopherHosts {
		s.gopher[h] = ports[i]
	}
	files := map[string]string{}
	for h := range hs {
		broken := func(name string) string {
			if h%2 == 0 {
				return fmt.Sprintf("missing-%s.html", name)
			}
			return fmt.Sprintf("http://%s:%d/h%d/%s.html", hs[h], s.closed, h, name)
		}
		a := func(href string) string { return fmt.Sprintf("<a href=%q>%s</a>\n", href, href) }
		index := "<!DOCTYPE html>\n<title>index</title>\n" + a("a.html") + a("b.html") + a(at(h+1)+"index.html") + a(at(h+1)+"c.html") + a(broken("index-link"))
		if p, ok := s.gopher[h]; ok {
			index += a(fmt.Sprintf("gopher://%s:%d/1/menu/", hs[h], p)) // RFC 1738 §3.4
		}
		files[fmt.Sprintf("h%d/index.html", h)] = index
		files[fmt.Sprintf("h%d/a.html", h)] = "<!DOCTYPE html>\n<title>a</title>\n" + a("index.html") + a("t.txt") + a("u.txt") + a("b.html") + a(broken("a-link"))
		for _, n := range []string{"b.html", "c.html", "t.txt", "u.txt"} {
			files[fmt.Sprintf("h%d/%s", h, n)] = n + "\n"
		}
	}
	for p, c := range files {
		f := filepath.Join(root, p)
		os.MkdirAll(filepath.Dir(f), 0o755)
		if err := os.WriteFile(f, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// One server block listening on every address: its log names the
	// address reached, the connection, the end and the duration.
	dir := t.TempDir()
	s.log = filepath.Join(dir, "hosts.log")
	var listen strings.Builder
	for _, h := range hs {
		fmt.Fprintf(&listen, "listen %s:%d;\n", h, s.port)
	}
	fmt.Fprintf(&listen, "access_log %s hosts;\n", s.log)
	peer.Nginx(t, root, peer.NginxConfig{Dir: dir, Connections: 256,
		HTTP:   "types { text/html html; text/plain txt; }\nlog_format hosts '$server_addr $connection $msec $request_time $status $request';",
		Server: listen.String()})
	for _, h := range []int{0, 5, 10, 15} {
		s.seeds = append(s.seeds, at(h)+"index.html")
	}
	return s
}

// A hit is one request in nginx's log.
type hit struct {
	line       int
	conn       string
	begin, end int64  // ms: $msec less $request_time, and $msec
	text       string // the line
}

// settledLog waits until nginx's log has not grown for 200 ms (it logs
// a request after it answered it), 5 s at most, and returns its length.
func settledLog(t *testing.T, log string) int64 {
	t.Helper()
	size := func() int64 {
		fi, err := os.Stat(log)
		if err != nil {
			return 0
		}
		return fi.Size()
	}
	last := size()
	for end := time.Now().Add(5 * time.Second); time.Now().Before(end); {
		time.Sleep(200 * time.Millisecond)
		if now := size(); now != last {
			last = now
			continue
		}
		break
	}
	return last
}

// hitsBetween reads the requests nginx logged from one length of its
// log to another, by the address they reached.
func hitsBetween(t *testing.T, log string, from, to int64) map[string][]hit {
	t.Helper()
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	by := map[string][]hit{}
	sc := bufio.NewScanner(strings.NewReader(string(b[from:to])))
	for i := 0; sc.Scan(); i++ {
		var addr string
		var msec, dur float64
		r := hit{line: i, text: sc.Text()}
		if _, err := fmt.Sscanf(sc.Text(), "%s %s %f %f", &addr, &r.conn, &msec, &dur); err != nil {
			t.Fatalf("nginx log line %q: %v", sc.Text(), err)
		}
		r.end = int64(msec*1000 + 0.5)
		r.begin = r.end - int64(dur*1000+0.5)
		by[addr] = append(by[addr], r)
	}
	return by
}

// connsAtOnce is the most connections of hits open at once, each seen
// from its first request's beginning to its last one's end (its idle
// time is not logged: a lower bound of the truth), an end before a
// beginning of the same millisecond.
func connsAtOnce(hits []hit) int {
	span := map[string][2]int64{}
	for _, r := range hits {
		s, ok := span[r.conn]
		if !ok {
			s = [2]int64{r.begin, r.end}
		}
		span[r.conn] = [2]int64{min(s[0], r.begin), max(s[1], r.end)}
	}
	type ev struct{ at, step int64 }
	var evs []ev
	for _, s := range span {
		evs = append(evs, ev{s[0], 1}, ev{s[1], -1})
	}
	slices.SortFunc(evs, func(a, b ev) int {
		if a.at != b.at {
			return int(a.at - b.at)
		}
		return int(a.step - b.step)
	})
	most, now := 0, 0
	for _, e := range evs {
		now += int(e.step)
		most = max(most, now)
	}
	return most
}

// leastGap is the least time between the end of a request and the
// beginning of another that begins after it, and those two requests.
func leastGap(hits []hit) (ms int64, before, after hit, ok bool) {
	for _, a := range hits {
		for _, b := range hits {
			if b.line != a.line && b.begin >= a.end && (!ok || b.begin-a.end < ms) {
				ms, before, after, ok = b.begin-a.end, a, b, true
			}
		}
	}
	return ms, before, after, ok
}

// runAndLog runs the job with o, compares its records and summary with
// `locator crawl --check --json` given flags on the same seeds, and
// returns the job's records, its summary and what nginx logged of the
// job's requests (not the command's), by address.
func runAndLog(t *testing.T, s *site20, o Options, flags ...string) ([]string, map[string]any, map[string][]hit) {
	t.Helper()
	before := settledLog(t, s.log)
	start := time.Now()
	if _, err := Run(context.Background(), o, prismRun); err != nil {
		t.Fatal(err)
	}
	t.Logf("the job, --per-host %d --delay %v: %v", o.PerHost, o.Delay, time.Since(start).Round(time.Millisecond))
	after := settledLog(t, s.log)
	got, gotSum := jobLines(t, o.Output)
	want, wantSum, _ := commandLines(t, o.Depth, o.Seeds, flags...)
	equalLines(t, "records", got, want)
	if fmt.Sprint(gotSum) != fmt.Sprint(wantSum) {
		t.Errorf("summary %v, want %v", gotSum, wantSum)
	}
	return got, gotSum, hitsBetween(t, s.log, before, after)
}

// TestCrawl20Hosts (issue 45, "Checked"): `locator-bulk crawl` on prism
// in-process over a site spread on 20 loopback hosts (nginx on each, a
// Gopher menu on two, RFC 1436 §3.8, linked from HTML; links across
// hosts; a fifth of the links broken: missing pages, a closed port),
// seeds on 4 hosts, --scope any --check: its records and summary (but
// octets) equal `locator crawl --check --json` with the same flags on
// the same seeds, after sorting; and nginx's log, the server's own
// account (RFC 9110 §9.3.1's GETs and the robots.txt of RFC 9309 §2.2.3
// alike), shows on every host never more than --per-host 2 connections
// at once; a second, smaller run at --per-host 1 --delay 100ms, never
// less than the delay between the end of a request to a host and the
// beginning of the next.
func TestCrawl20Hosts(t *testing.T) {
	s := startSite20(t)
	o := Options{Seeds: s.seeds, Output: filepath.Join(t.TempDir(), "out"), Depth: 3, Scope: "any", PerHost: 2, Check: true, WARC: true, Allow: []string{"127.0.0.0/24"}}
	got, sum, hits := runAndLog(t, s, o, "--scope", "any", "--allow-host", "127.0.0.0/24", "--jobs", "8", "--per-host", "2")
	gopher := 0
	for _, l := range got {
		if strings.HasPrefix(l, `{"event":"page","url":"gopher://`) && strings.Contains(l, `"status":"ok"`) {
			gopher++
		}
	}
	t.Logf("%d records, %d Gopher pages; summary %v", len(got), gopher, sum)
	// 20 hosts' pages to depth 3 from 4 seeds: 94 pages (the Gopher
	// menus, their items and sub-menus among them), 28 links broken (a
	// missing page or the closed port), 44 URLs too deep checked.
	if len(got) != 316 || sum["pages"] != 94.0 || sum["broken"] != 28.0 || sum["checked"] != 44.0 || gopher != 6 {
		t.Errorf("%d records, %v pages, %v broken, %v checked, %d Gopher pages: want 316, 94, 28, 44, 6 (the site's)", len(got), sum["pages"], sum["broken"], sum["checked"], gopher)
	}
	if len(hits) != 20 {
		t.Errorf("nginx saw the job on %d hosts, want 20", len(hits))
	}
	n, robots, most := 0, 0, 0
	for h, hs := range hits {
		n += len(hs)
		for _, r := range hs {
			if strings.Contains(r.text, " /robots.txt ") {
				robots++
			}
		}
		m := connsAtOnce(hs)
		if m > o.PerHost {
			t.Errorf("%s: %d connections at once, want at most %d", h, m, o.PerHost)
		}
		most = max(most, m)
	}
	if robots == 0 {
		t.Error("nginx logged no robots.txt request of the job (RFC 9309 §2.2.3)")
	}
	// A request here takes a millisecond or less, and a connection is
	// seen only while its requests are: two at once show in some runs,
	// not all.
	t.Logf("nginx logged %d requests of the job (%d of robots.txt); at most %d connections at once to a host", n, robots, most)

	// Two seeds, depth 2, one request at a time, 100 ms apart.
	o = Options{Seeds: s.seeds[:2], Output: filepath.Join(t.TempDir(), "small"), Depth: 2, Scope: "any", PerHost: 1,
		Delay: 100 * time.Millisecond, DelaySet: true, Check: true, WARC: true, Allow: []string{"127.0.0.0/24"}}
	got, sum, hits = runAndLog(t, s, o, "--scope", "any", "--allow-host", "127.0.0.0/24", "--jobs", "8", "--per-host", "1", "--delay", "100ms")
	t.Logf("small run: %d records; summary %v", len(got), sum)
	if len(got) != 114 || sum["pages"] != 29.0 || sum["broken"] != 10.0 || sum["checked"] != 22.0 {
		t.Errorf("small run: %d records, %v pages, %v broken, %v checked: want 114, 29, 10, 22", len(got), sum["pages"], sum["broken"], sum["checked"])
	}
	n, robots = 0, 0
	for h, hs := range hits {
		n += len(hs)
		for _, r := range hs {
			if strings.Contains(r.text, " /robots.txt ") {
				robots++
			}
		}
		if most := connsAtOnce(hs); most > 1 {
			t.Errorf("small run, %s: %d connections at once, want 1", h, most)
		}
		if gap, a, b, ok := leastGap(hs); ok && gap < o.Delay.Milliseconds()-2 {
			t.Errorf("small run, %s: %d ms between the end of a request and the beginning of the next, want at least %v (less 2 ms of nginx's rounding):\n%s\n%s", h, gap, o.Delay, a.text, b.text)
		}
	}
	if robots == 0 {
		t.Error("small run: nginx logged no robots.txt request of the job")
	}
	t.Logf("small run: nginx logged %d requests (%d of robots.txt) on %d hosts", n, robots, len(hits))
}
