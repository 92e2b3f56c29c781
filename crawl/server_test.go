package crawl

import (
	"bufio"
	"errors"
	"net"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/internal/peer"
)

// startRedirects serves, with nginx, a page linking to three redirects:
// out of scope (to localhost, which is not the seed's host), to a path
// robots.txt disallows, and to a page in scope; and a 503 asking for a
// wait of 2 seconds. It returns the address and nginx's log.
func startRedirects(t *testing.T) (addr, log string) {
	t.Helper()
	root := t.TempDir()
	log = filepath.Join(t.TempDir(), "crawl.log")
	write(t, root, map[string]string{
		"robots.txt":       "User-agent: *\nDisallow: /private/\n",
		"index.html":       `<a href="/r/out">out</a> <a href="/r/private">private</a> <a href="/r/in">in</a>`,
		"in.html":          `<a href="/index.html">home</a>`,
		"private/a.html":   "private",
		"private/b.html":   "private",
		"elsewhere/x.html": "x",
	})
	n := peer.Nginx(t, root, peer.NginxConfig{
		HTTP:        nginxTypes + "\nlog_format crawl '$msec $request_time \"$request\" $status';",
		Connections: 16,
		Server: "access_log " + log + " crawl;\n" +
			"location = /r/out { return 302 http://localhost:$server_port/gone.html; }\n" +
			"location = /r/private { return 302 /private/a.html; }\n" +
			"location = /r/in { return 302 /in.html; }\n" +
			"location = /busy { add_header Retry-After 2 always; return 503; }\n",
	})
	return n.Addr, log
}

// TestRedirects: a redirect out of scope is not followed, its target
// checked as a link of Place "redirect"; one to a path robots.txt
// disallows is not fetched; one in scope, on the same server, is
// followed within the fetch (Page.Final).
func TestRedirects(t *testing.T) {
	addr, log := startRedirects(t)
	h := "http://" + addr
	lp := strings.Split(addr, ":")[1]
	r, evs := run(t, &Crawler{Delay: NoDelay, Check: true}, h+"/index.html")
	diff(t, "fetched", fetched(evs), []string{h + "/index.html", h + "/r/out", h + "/r/private", h + "/r/in"})
	diff(t, "skipped", skipped(evs), []string{"robots " + h + "/private/a.html"})
	diff(t, "broken", broken(r), []string{h + "/r/out redirect -> http://localhost:" + lp + "/gone.html"})
	for _, e := range evs {
		p, ok := e.(*Page)
		if !ok {
			continue
		}
		switch p.URL.String() {
		case h + "/r/in":
			if p.Final == nil || p.Final.String() != h+"/in.html" || p.Redirect != nil || p.Links != 1 {
				t.Errorf("/r/in: final %v, redirect %v, %d links", p.Final, p.Redirect, p.Links)
			}
		case h + "/r/out", h + "/r/private":
			if p.Redirect == nil || p.Err != nil || p.Depth != 1 {
				t.Errorf("%s: redirect %v, err %v, depth %d", p.URL, p.Redirect, p.Err, p.Depth)
			}
		case h + "/private/a.html":
			if p.Depth != 1 {
				t.Errorf("%s: depth %d, want the redirect's", p.URL, p.Depth)
			}
		}
	}
	// nginx was asked for neither target with a GET: the one out of
	// scope was checked (HEAD), the disallowed one not asked at all.
	var reqs []string
	for _, l := range crawlLog(t, log, 7) {
		f := strings.Fields(l)
		reqs = append(reqs, strings.Trim(f[2], `"`)+" "+f[3])
	}
	diff(t, "requests", reqs, []string{"GET /robots.txt", "GET /index.html", "GET /r/out", "GET /r/private", "GET /r/in", "GET /in.html", "HEAD /gone.html"})
}

// TestRetryAfterWait: a 503 with Retry-After 2 is asked again no sooner
// than 2 seconds after it ended, though Backoff is shorter (nginx's log).
func TestRetryAfterWait(t *testing.T) {
	addr, log := startRedirects(t)
	_, evs := run(t, &Crawler{Delay: NoDelay, Retries: 1, Backoff: 50 * time.Millisecond}, "http://"+addr+"/busy")
	p, ok := evs[0].(*Page)
	var se *access.ServerError
	if !ok || p.Tries != 2 || !errors.As(p.Err, &se) || se.Code != "503" || se.RetryAfter != 2*time.Second {
		t.Fatalf("%+v", evs[0])
	}
	var starts, ends []float64
	for _, l := range crawlLog(t, log, 3) {
		f := strings.Fields(l)
		if f[3] == "/busy" {
			end, _ := strconv.ParseFloat(f[0], 64)
			took, _ := strconv.ParseFloat(f[1], 64)
			starts, ends = append(starts, end-took), append(ends, end)
		}
	}
	if len(starts) != 2 {
		t.Fatalf("%d requests", len(starts))
	}
	// nginx writes its log line right after the reply, which the
	// crawler may have read a little before.
	if gap := starts[1] - ends[0]; gap < 2-0.005 {
		t.Errorf("asked again %.3fs after the 503, want 2s", gap)
	}
	t.Logf("asked again %.3fs after the 503", starts[1]-ends[0])
}

// TestGopherMissingText: Gophernicus answers a text item's selector that
// names no file with one line "Error: ..." in place of the text; the
// crawl reports the link broken, and a text item that is there not.
func TestGopherMissingText(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{
		"gophermap": "0There\t/a.txt\n0Missing\t/nothing.txt\n1Missing menu\t/nodir/\n",
		"a.txt":     "Error: this line is the text, and not all of it\nsecond line\n",
	})
	g := peer.Gophernicus(t, root)
	gp := "gopher://" + g.Addr
	r, evs := run(t, &Crawler{Delay: NoDelay}, gp+"/1/")
	diff(t, "fetched", fetched(evs), []string{gp + "/1/", gp + "/0/a.txt", gp + "/0/nothing.txt", gp + "/1/nodir/"})
	diff(t, "broken", broken(r), []string{
		gp + `/1/ entry 2 "Missing" -> ` + gp + "/0/nothing.txt",
		gp + `/1/ entry 3 "Missing menu" -> ` + gp + "/1/nodir/",
	})
}

// TestMaxURLsFrontier: with a Frontier that outlives the crawl, MaxURLs
// bounds the pages fetched while every link is pushed, so that the next
// Crawl on the Frontier goes on from them (the calendar trap: three
// pages, then the next three).
func TestMaxURLsFrontier(t *testing.T) {
	s := startSite(t)
	h := "http://" + s.http
	f, err := OpenBolt(filepath.Join(t.TempDir(), "frontier.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for round := range 2 {
		_, evs := run(t, &Crawler{Delay: NoDelay, Depth: -1, MaxURLs: 3, Frontier: f}, h+"/cal/")
		var want []string
		for i := 3 * round; i < 3*round+3; i++ {
			want = append(want, h+"/cal/"+strings.Repeat("m/", i))
		}
		diff(t, "round "+strconv.Itoa(round), fetched(evs), want)
		for _, e := range evs {
			if l, ok := e.(*Link); ok && (!l.Follow || l.Reason != "") {
				t.Errorf("round %d: link %s: follow %v, %q", round, l.URL, l.Follow, l.Reason)
			}
		}
	}
}

// TestFTPBusy: vsftpd at its max_clients answers a connection with 421
// ("There are too many connected users"): the crawler asks again
// Retries times, as for an HTTP 503, and reports the 421.
func TestFTPBusy(t *testing.T) {
	f := startVsftpdConf(t, "max_clients=1\n", func(r string) {
		write(t, r, map[string]string{"pub/x.txt": "x\n"})
	})
	// The one client vsftpd takes (once the harness's, which found it
	// ready, is gone).
	for try := 0; ; try++ {
		conn, err := net.Dial("tcp", f.Addr)
		if err != nil {
			t.Fatal(err)
		}
		line, err := bufio.NewReader(conn).ReadString('\n')
		if strings.HasPrefix(line, "220") {
			defer conn.Close()
			break
		}
		conn.Close()
		if try == 50 {
			t.Fatalf("greeting %q, %v", line, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	_, evs := run(t, &Crawler{Delay: NoDelay, Retries: 2, Backoff: 20 * time.Millisecond}, "ftp://"+f.Addr+"/pub/x.txt")
	p, ok := evs[0].(*Page)
	var se *access.ServerError
	if !ok || p.Tries != 3 || !errors.As(p.Err, &se) || se.Code != "421" {
		t.Fatalf("%+v", evs[0])
	}
}
