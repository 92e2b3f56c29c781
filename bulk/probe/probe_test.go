package probe

import (
	"bufio"
	"bytes"
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
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/rfc1738/locator/bulk/internal/scratch"
	"github.com/rfc1738/locator/bulk/job"
	"github.com/rfc1738/locator/internal/peer"
)

func TestMain(m *testing.M) {
	os.Exit(scratch.Main("locator-bulk-probe-test-", func() int { return ptest.MainRet(m) }))
}

// hosts are the 20 loopback addresses the servers listen on: 20
// destinations to the pipeline's keying, all this machine.
func hosts() []string {
	var h []string
	for i := 2; i <= 21; i++ {
		h = append(h, "127.0.0."+strconv.Itoa(i))
	}
	return h
}

// nginxOn20 starts nginx listening on one port of 127.0.0.1 (for the
// readiness check) and of each of hosts(), logging each request's
// server address, connection, end ($msec) and duration, and serving
// root. It returns the port and the access log's path.
func nginxOn20(t *testing.T, root string) (int, string) {
	t.Helper()
	dir := t.TempDir()
	for _, h := range hosts() {
		l, err := net.Listen("tcp", h+":0")
		if err != nil {
			t.Skipf("no loopback address %s here: %v", h, err)
		}
		l.Close()
	}
	user := ""
	if os.Geteuid() == 0 {
		user = "user root root;"
	}
	log := filepath.Join(dir, "access.log")
	s := peer.Start(t, peer.Spec{
		Name:    "nginx",
		Program: "/usr/sbin/nginx",
		Stop:    syscall.SIGQUIT,
		Args: func(port int) ([]string, error) {
			var listen strings.Builder
			fmt.Fprintf(&listen, "listen 127.0.0.1:%d;", port)
			for _, h := range hosts() {
				fmt.Fprintf(&listen, " listen %s:%d;", h, port)
			}
			conf := fmt.Sprintf(`daemon off; master_process on; worker_processes 1; %[4]s
pid %[1]s/nginx.pid; error_log %[1]s/error.log info;
events { worker_connections 512; }
http { log_format probe '$server_addr $connection $msec $request_time $status $request';
  access_log %[5]s probe;
  client_body_temp_path %[1]s/body; proxy_temp_path %[1]s/proxy;
  fastcgi_temp_path %[1]s/fastcgi; uwsgi_temp_path %[1]s/uwsgi; scgi_temp_path %[1]s/scgi;
  server { %[2]s root %[3]s; }
}
`, dir, listen.String(), root, user, log)
			p := filepath.Join(dir, "nginx.conf")
			return []string{"-e", "stderr", "-p", dir, "-c", p}, os.WriteFile(p, []byte(conf), 0o644)
		},
	})
	return s.Port, log
}

// urlSet writes n URLs over hosts() (port port), a fifth of them broken
// (a missing file: gone; a port where nothing listens: refused), every
// tenth given twice, a line that is not a URL and an extract record with
// its place. It returns the input file.
func urlSet(t *testing.T, root string, port, closed, n int) string {
	t.Helper()
	var b strings.Builder
	hs := hosts()
	for i := 0; i < n; i++ {
		h := hs[i%len(hs)]
		name := fmt.Sprintf("f%d.txt", i)
		var u string
		switch {
		case (i/len(hs))%5 == 1 && i%2 == 0:
			u = fmt.Sprintf("http://%s:%d/missing-%d.txt", h, port, i) // gone
		case (i/len(hs))%5 == 1:
			u = fmt.Sprintf("http://%s:%d/%s", h, closed, name) // refused: an error
		default:
			os.WriteFile(filepath.Join(root, name), []byte(strings.Repeat("x", i%97)), 0o644)
			u = fmt.Sprintf("http://%s:%d/%s", h, port, name)
		}
		b.WriteString(u + "\n")
		if i%10 == 0 {
			b.WriteString(u + "\n") // a repeat: its answer, no probe
		}
	}
	b.WriteString("not a url\n\n")
	fmt.Fprintf(&b, `{"url":"http://%s:%d/f1.txt","offset":12,"line":2,"column":5,"file":"page.html"}`+"\n", hs[1], port)
	in := filepath.Join(t.TempDir(), "urls.txt")
	if err := os.WriteFile(in, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return in
}

// closedPort returns a port of 127.0.0.1 where nothing listens (the
// same is free on the other loopback addresses: nothing listens there).
func closedPort(t *testing.T) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := l.Addr().(*net.TCPAddr).Port
	l.Close()
	return p
}

// cliProbe runs `locator probe --json` on in (standard input), built
// from the repository root, with args.
func cliProbe(t *testing.T, in string, args ...string) []string {
	t.Helper()
	bin := scratch.Build(t, filepath.Join("..", ".."), "./cmd/locator")
	f, err := os.Open(in)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cmd := exec.Command(bin, append([]string{"probe", "--json"}, append(args, "-")...)...)
	cmd.Stdin = f
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	cmd.Run() // exit 1 or 2: some URLs are broken, one is not a URL
	if out.Len() == 0 {
		t.Fatalf("locator probe wrote nothing: %s", stderr.String())
	}
	return strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
}

// readRecords reads the records-*.ndjson files of dir.
func readRecords(t *testing.T, dir string) []string {
	t.Helper()
	names, _ := filepath.Glob(filepath.Join(dir, "records-*.ndjson"))
	if len(names) == 0 {
		t.Fatalf("no records in %s", dir)
	}
	var out []string
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		if s := strings.TrimSuffix(string(b), "\n"); s != "" {
			out = append(out, strings.Split(s, "\n")...)
		}
	}
	return out
}

// comparable returns the records sorted, each re-encoded without the
// keys that vary between runs (ms) or that the command does not write
// (the extract record's place).
func comparable(t *testing.T, recs []string) []string {
	t.Helper()
	out := make([]string, 0, len(recs))
	for _, r := range recs {
		var m map[string]any
		if err := json.Unmarshal([]byte(r), &m); err != nil {
			t.Fatalf("record %q: %v", r, err)
		}
		for _, k := range []string{"ms", "file", "line", "column", "offset"} {
			delete(m, k)
		}
		b, _ := json.Marshal(m)
		out = append(out, string(b))
	}
	sort.Strings(out)
	return out
}

// request is one line of the nginx log: its host, connection, and when
// it began and ended (nginx's clock, milliseconds).
type request struct {
	index      int // its line in the log, from 0
	host       string
	conn       string
	begin, end int64
}

func readLog(t *testing.T, log string) map[string][]request {
	t.Helper()
	f, err := os.Open(log)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	by := map[string][]request{}
	sc := bufio.NewScanner(f)
	for i := 0; sc.Scan(); i++ {
		r := request{index: i}
		var msec, dur float64
		if _, err := fmt.Sscanf(sc.Text(), "%s %s %f %f", &r.host, &r.conn, &msec, &dur); err != nil {
			t.Fatalf("log line %q: %v", sc.Text(), err)
		}
		r.end = int64(msec*1000 + 0.5)
		r.begin = r.end - int64(dur*1000+0.5)
		by[r.host] = append(by[r.host], r)
	}
	return by
}

// TestProbeLoopback runs the pipeline on prism in-process against nginx
// on 20 loopback addresses: the records equal `locator probe --json`'s
// on the same input (sorted, ms and the extract record's place left
// out), and nginx's log shows, for each host, never more than --per-host
// 2 connections open at once; a second run at --per-host 1 --delay
// 100ms, never less than the delay between the end of a request and the
// beginning of the next (at --per-host 2 the probes of a round begin
// together, and the log cannot tell a round's second probe from the
// next round's first).
func TestProbeLoopback(t *testing.T) {
	peer.Require(t, "/usr/sbin/nginx")
	root := t.TempDir()
	port, log := nginxOn20(t, root)
	const n = 1000
	in := urlSet(t, root, port, closedPort(t), n)
	// A URL given 72 times in all: past MaxInputs, its answer is joined
	// with the inputs a task does not carry (repeatFn).
	f, err := os.OpenFile(in, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprint(f, strings.Repeat(fmt.Sprintf("http://%s:%d/f0.txt\n", hosts()[0], port), 70))
	f.Close()

	o := Defaults()
	o.Inputs = []string{in}
	o.Output = filepath.Join(t.TempDir(), "out")
	o.PerHost, o.Delay = 2, 0
	o.Block = 4 << 10 // several ranges: several workers read
	p, s := beam.NewPipelineWithRoot()
	if err := Build(context.Background(), s, o); err != nil {
		t.Fatal(err)
	}
	res, err := ptest.RunWithMetrics(p)
	if err != nil {
		t.Fatal(err)
	}
	got := readRecords(t, o.Output)
	c := job.Counters(res.Metrics())

	// The place of the extract record is kept.
	placed := 0
	for _, r := range got {
		if strings.Contains(r, `"file":"page.html","line":2,"column":5,"offset":12}`) {
			placed++
		}
	}
	if placed != 1 {
		t.Errorf("%d records carry the extract record's place, want 1", placed)
	}

	logged := readLog(t, log) // before the command's run adds to it
	want := cliProbe(t, in, "--per-host", "2")
	g, w := comparable(t, got), comparable(t, want)
	if !slices.Equal(g, w) {
		t.Errorf("%d records, the command %d; they differ:", len(g), len(w))
		only := func(a, b []string) []string {
			var out []string
			for _, x := range a {
				if i, ok := slices.BinarySearch(b, x); !ok || b[i] != x {
					out = append(out, x)
				}
			}
			return out
		}
		for i, x := range only(g, w) {
			if i < 5 {
				t.Errorf("only the pipeline's: %s", x)
			}
		}
		for i, x := range only(w, g) {
			if i < 5 {
				t.Errorf("only the command's: %s", x)
			}
		}
	}
	// 1,000 URLs, 100 of them twice and f0.txt 70 times more, a line
	// that is not a URL, an extract record (a repeat of f1.txt): 1,172
	// records; 1,000 distinct URLs probed; 100 gone (120 records with
	// the repeats), 100 refused connections (an error, as the command
	// says) and the line that is not a URL.
	wantCounts := map[string]int64{"probed": 1000, "ok": 951, "gone": 120, "refused": 0, "error": 101}
	// A counter is read as committed and as attempted: prism may leave
	// a bundle's increment out of one of them (seen once in 16 runs: the
	// committed "error" one short, every record right).
	attempted := map[string]int64{}
	for _, m := range res.Metrics().AllMetrics().Counters() {
		if m.Namespace() == "locator" {
			attempted[m.Name()] += m.Attempted
		}
	}
	for k, v := range wantCounts {
		if c[k] != v && attempted[k] != v {
			t.Errorf("counter %s = %d (attempted %d), want %d (all: %v)", k, c[k], attempted[k], v, c)
		}
	}
	if len(got) != 1172 {
		t.Errorf("%d records, want 1172", len(got))
	}

	// Politeness, as nginx saw it.
	if len(logged) != 20 {
		t.Errorf("nginx saw %d hosts, want 20: %v", len(logged), slices.Sorted(maps.Keys(logged)))
	}
	for host, reqs := range logged {
		if most := mostAtOnce(reqs); most > o.PerHost {
			t.Errorf("%s: %d connections at once, want at most %d", host, most, o.PerHost)
		}
	}

	// One at a time, 100 ms apart.
	before := 0
	for _, reqs := range readLog(t, log) {
		before += len(reqs)
	}
	small := urlSet(t, root, port, closedPort(t), 200)
	o.Inputs, o.Output = []string{small}, filepath.Join(t.TempDir(), "out")
	o.PerHost, o.Delay = 1, 100*time.Millisecond
	p, s = beam.NewPipelineWithRoot()
	if err := Build(context.Background(), s, o); err != nil {
		t.Fatal(err)
	}
	if _, err := ptest.RunWithMetrics(p); err != nil {
		t.Fatal(err)
	}
	if recs := readRecords(t, o.Output); len(recs) != 222 {
		t.Errorf("second run: %d records, want 222; missing: %v", len(recs), missing(t, small, recs))
	}
	seen := 0
	for host, reqs := range readLog(t, log) {
		seen += len(reqs)
		reqs = slices.DeleteFunc(reqs, func(r request) bool { return r.index < before })
		if most := mostAtOnce(reqs); most > 1 {
			t.Errorf("%s: %d connections at once, want 1", host, most)
		}
		if gap, ok := leastGap(reqs); ok && gap < o.Delay.Milliseconds()-2 {
			t.Errorf("%s: %d ms between the end of a request and the next, want at least %v (less 2 ms of nginx's rounding)", host, gap, o.Delay)
		}
	}
	// 200 URLs, 20 on a closed port (no request), 20 repeats (no
	// request): 180 requests.
	if seen-before != 180 {
		t.Errorf("second run: nginx logged %d requests, want 180", seen-before)
	}
}

// mostAtOnce is the largest number of connections of reqs open at once,
// a connection being open from its first request's beginning to its last
// one's end.
func mostAtOnce(reqs []request) int {
	span := map[string][2]int64{}
	for _, r := range reqs {
		s, ok := span[r.conn]
		if !ok {
			s = [2]int64{r.begin, r.end}
		}
		s[0], s[1] = min(s[0], r.begin), max(s[1], r.end)
		span[r.conn] = s
	}
	type ev struct {
		at   int64
		step int
	}
	var evs []ev
	for _, s := range span {
		evs = append(evs, ev{s[0], 1}, ev{s[1], -1})
	}
	// An end and a beginning at the same millisecond: the end first
	// (nginx's times are rounded to the millisecond).
	sort.Slice(evs, func(i, j int) bool {
		if evs[i].at != evs[j].at {
			return evs[i].at < evs[j].at
		}
		return evs[i].step < evs[j].step
	})
	most, now := 0, 0
	for _, e := range evs {
		now += e.step
		most = max(most, now)
	}
	return most
}

// leastGap is the least time between the end of a request and the
// beginning of one that began after it ended; ok false when there is
// none.
func leastGap(reqs []request) (int64, bool) {
	least, ok := int64(0), false
	for _, a := range reqs {
		for _, b := range reqs {
			if b.begin >= a.end && a.index != b.index {
				if g := b.begin - a.end; !ok || g < least {
					least, ok = g, true
				}
			}
		}
	}
	return least, ok
}

// TestStallHoldsOnlyItsKey: a host that accepts and never answers (a
// hostile listener of our own: no real server does it on purpose) holds
// up its own key only. While its probes wait for --idle-timeout, nginx
// serves every request of the 20 other hosts: when the stalled
// connections end, nginx's log is complete.
func TestStallHoldsOnlyItsKey(t *testing.T) {
	peer.Require(t, "/usr/sbin/nginx")
	root := t.TempDir()
	port, log := nginxOn20(t, root)
	in := urlSet(t, root, port, closedPort(t), 200)

	var mu sync.Mutex
	var atEnd []int // nginx's log lines when each stalled connection ended
	stall := peer.Hostile(t, func(c net.Conn) {
		io.Copy(io.Discard, c) // never answers; returns when the client gives up
		b, _ := os.ReadFile(log)
		mu.Lock()
		atEnd = append(atEnd, bytes.Count(b, []byte("\n")))
		mu.Unlock()
	})
	f, err := os.OpenFile(in, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(f, "http://%s/a\nhttp://%s/b\n", stall, stall)
	f.Close()

	o := Defaults()
	o.Inputs = []string{in}
	o.Output = filepath.Join(t.TempDir(), "out")
	o.Idle, o.Retries = 8*time.Second, 0
	p, s := beam.NewPipelineWithRoot()
	if err := Build(context.Background(), s, o); err != nil {
		t.Fatal(err)
	}
	if _, err := ptest.RunWithMetrics(p); err != nil {
		t.Fatal(err)
	}
	recs := readRecords(t, o.Output)
	stalled := 0
	for _, r := range recs {
		if strings.Contains(r, `"url":"http://`+stall+`/`) {
			stalled++
			if !strings.Contains(r, `"status":"error"`) {
				t.Errorf("stalled URL's record: %s", r)
			}
		}
	}
	b, _ := os.ReadFile(log)
	total := bytes.Count(b, []byte("\n"))
	mu.Lock()
	defer mu.Unlock()
	if stalled != 2 || len(atEnd) != 2 {
		t.Fatalf("%d records and %d connections of the stalled host, want 2 and 2", stalled, len(atEnd))
	}
	for _, n := range atEnd {
		if n != total {
			t.Errorf("a stalled connection ended when nginx had served %d of its %d requests: the other hosts waited for it", n, total)
		}
	}
}

// missing returns the inputs of file in that no record of recs is for.
func missing(t *testing.T, file string, recs []string) []string {
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]int{}
	for _, r := range recs {
		var m struct{ URL string }
		json.Unmarshal([]byte(r), &m)
		have[m.URL]++
	}
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "http") {
			if have[l] == 0 {
				out = append(out, l)
			}
			have[l]--
		}
	}
	return out
}
