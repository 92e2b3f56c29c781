package probe

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/rfc1738/locator/bulk/job"
	"github.com/rfc1738/locator/internal/peer"
)

// A farm is nginx, vsftpd and pygopherd on each of hosts(): 20 hosts to
// the pipeline's keying (one destination an address, whatever the
// port), three servers each. nginx is one process listening on the 20
// addresses (its log names the address); vsftpd and pygopherd are one
// process an address, because pygopherd's log does not name the address
// the client reached, and vsftpd's max_clients counts one instance's
// connections.
type farm struct {
	root       string // nginx's files
	gopherRoot string // pygopherd's: the files in g/
	httpPort   int
	nginxLog   string
	gopher     []*peer.Server // by host, as hosts()
	// ftp are vsftpd without a limit of connections (the first run's,
	// and the command's), strict the same with max_clients=1 (the
	// second run's, at --per-host 1).
	ftp, strict []*peer.VsftpdServer
	closed      int // a port where nothing listens, on every address
}

// vsftpdExtra is added to peer's vsftpd configuration: one process a
// session (one_process_model, anonymous only), so that a session is one
// pid in the log from its CONNECT to its last line.
const vsftpdExtra = "one_process_model=YES\n"

// strictExtra adds max_clients=1: vsftpd itself refuses a second
// connection ("421 There are too many connected users"), counting a
// session from its accept until its process is reaped. It is not set
// for the first run: at --delay 0 a new connection can come in the
// moment after the last one closed, before vsftpd reaped its process,
// and be refused, politeness kept (seen with `locator probe`: a 421 in
// a run whose log showed never more than 2 sessions at once).
const strictExtra = vsftpdExtra + "max_clients=1\n"

// startFarm starts the servers (60, and 20 strict vsftpd), at once,
// serving the files files(h) names on each host. It skips without
// nginx, vsftpd (or root, which vsftpd needs) or pygopherd.
func startFarm(t *testing.T, files func(h int) []string) *farm {
	t.Helper()
	peer.Require(t, "/usr/sbin/nginx", "vsftpd", "/usr/sbin/pygopherd")
	peer.RequireRoot(t, "vsftpd")
	// pygopherd runs as nobody: every folder above its root must be
	// searchable (scratch.Main made the test binary's 0755).
	f := &farm{root: t.TempDir(), gopherRoot: t.TempDir()}
	// pygopherd's files one folder down: its top menu (read by the
	// servers' readiness check and by a client's Gopher+ check) one
	// line, not thousands.
	if err := os.Mkdir(filepath.Join(f.gopherRoot, "g"), 0o755); err != nil {
		t.Fatal(err)
	}
	content := func(n string) []byte { return []byte(strings.Repeat("x", len(n)%97)) }
	for h := range hosts() {
		for _, n := range files(h) {
			for _, p := range []string{filepath.Join(f.root, n), filepath.Join(f.gopherRoot, "g", n)} {
				if err := os.WriteFile(p, content(n), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	f.httpPort, f.nginxLog = nginxOn20(t, f.root)
	hs := hosts()
	f.ftp = make([]*peer.VsftpdServer, len(hs))
	f.strict = make([]*peer.VsftpdServer, len(hs))
	f.gopher = make([]*peer.Server, len(hs))
	peer.Parallel(t, 3*len(hs), func(tb testing.TB, i int) {
		h := i % len(hs)
		fill := func(r string) {
			for _, n := range files(h) {
				if err := os.WriteFile(filepath.Join(r, n), content(n), 0o644); err != nil {
					tb.Fatal(err)
				}
			}
		}
		switch i / len(hs) {
		case 0:
			f.ftp[h] = peer.VsftpdOn(tb, hs[h], vsftpdExtra, fill)
		case 1:
			f.strict[h] = peer.VsftpdOn(tb, hs[h], strictExtra, fill)
		default:
			f.gopher[h] = peer.PygopherdWith(tb, f.gopherRoot, peer.PygopherdOptions{Host: hs[h], Threads: true})
		}
	})
	f.closed = closedPort(t)
	return f
}

// A target is one URL of mixedSet, without its port.
type target struct {
	scheme string // http, ftp, gopher
	host   int    // index in hosts()
	path   string // after the port: "/f1.txt", "/0/f2.txt"
	closed bool   // on a port where nothing listens
}

// mixedSet returns n URLs over hosts(), the i-th on host i%20, by turns
// http, ftp and gopher ((i/20)%3), a fifth of them broken ((i/20)%5 ==
// 1: a missing file, path or selector, or, every other one, a port
// where nothing listens), and the names of the files each host must
// have.
func mixedSet(n int) ([]target, func(h int) []string) {
	hs := hosts()
	have := make([][]string, len(hs))
	var out []target
	for i := 0; i < n; i++ {
		x := target{scheme: []string{"http", "ftp", "gopher"}[(i/len(hs))%3], host: i % len(hs)}
		name := fmt.Sprintf("f%d.txt", i)
		broken := (i/len(hs))%5 == 1
		switch {
		case broken && i%2 == 0:
			name = fmt.Sprintf("missing-%d.txt", i)
		case broken:
			x.closed = true
		default:
			have[x.host] = append(have[x.host], name)
		}
		x.path = "/" + name
		if x.scheme == "gopher" {
			x.path = "/0/g/" + name // RFC 1738 §3.4: type 0, selector "/g/name"
		}
		out = append(out, x)
	}
	return out, func(h int) []string { return have[h] }
}

// write writes the URLs with f's ports, every tenth twice, a line that
// is not a URL and an extract record with its place (a repeat of the
// second URL), and returns the input file.
func (f *farm) write(t *testing.T, set []target, ftp []*peer.VsftpdServer) string {
	t.Helper()
	var b strings.Builder
	var second string
	for i, x := range set {
		port := map[string]int{"http": f.httpPort, "ftp": ftp[x.host].Port, "gopher": f.gopher[x.host].Port}[x.scheme]
		if x.closed {
			port = f.closed
		}
		u := fmt.Sprintf("%s://%s:%d%s", x.scheme, hosts()[x.host], port, x.path)
		if i == 1 {
			second = u
		}
		b.WriteString(u + "\n")
		if i%10 == 0 {
			b.WriteString(u + "\n") // a repeat: its answer, no probe
		}
	}
	b.WriteString("not a url\n\n")
	fmt.Fprintf(&b, `{"url":%q,"offset":12,"line":2,"column":5,"file":"page.html"}`+"\n", second)
	in := filepath.Join(t.TempDir(), "urls.txt")
	if err := os.WriteFile(in, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return in
}

// logs is the length of each server log at a moment: what was logged
// before it is one run's.
type logs struct {
	nginx       int64
	ftp, strict []int64
	gopher      []int64
}

// settle waits until no server log has grown for 300 ms (a server
// writes its last lines after it answered), 10 s at most, and returns
// their lengths.
func (f *farm) settle(t *testing.T) logs {
	t.Helper()
	size := func(p string) int64 {
		fi, err := os.Stat(p)
		if err != nil {
			return 0
		}
		return fi.Size()
	}
	measure := func() logs {
		l := logs{nginx: size(f.nginxLog)}
		for h := range hosts() {
			l.ftp = append(l.ftp, size(f.ftp[h].Log))
			l.strict = append(l.strict, size(f.strict[h].Log))
			l.gopher = append(l.gopher, size(f.gopher[h].Output))
		}
		return l
	}
	last := measure()
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); {
		time.Sleep(300 * time.Millisecond)
		now := measure()
		if now.nginx == last.nginx && slices.Equal(now.ftp, last.ftp) && slices.Equal(now.strict, last.strict) && slices.Equal(now.gopher, last.gopher) {
			return now
		}
		last = now
	}
	return last
}

// span reads the part of file from one length to another.
func span(t *testing.T, file string, from, to int64) string {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return string(b[from:min(to, int64(len(b)))])
}

// nginxSpan reads nginx's requests logged from one length to another
// (readLog's, by host).
func nginxSpan(t *testing.T, log string, from, to int64) map[string][]request {
	t.Helper()
	p := filepath.Join(t.TempDir(), "span.log")
	if err := os.WriteFile(p, []byte(span(t, log, from, to)), 0o644); err != nil {
		t.Fatal(err)
	}
	return readLog(t, p)
}

// An ftpSession is one vsftpd session as its log shows it: the lines of
// one pid (one_process_model) from its CONNECT, by their place in the
// log and their times (to the second).
type ftpSession struct {
	pid         string
	first, last int // line numbers
	begin, end  time.Time
	lines       []string
}

// ftpSessions reads vsftpd's log text: "Mon Dec  7 21:38:38 2026 [pid
// 12493] CONNECT: Client ...", one file appended to by every process of
// the instance (O_APPEND), so that its order is the order in which the
// lines were written.
func ftpSessions(t *testing.T, text string) []*ftpSession {
	t.Helper()
	var out []*ftpSession
	open := map[string]*ftpSession{}
	for i, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		if line == "" {
			continue
		}
		if len(line) < 25 {
			t.Fatalf("vsftpd log line %q", line)
		}
		at, err := time.Parse("Mon Jan _2 15:04:05 2006", line[:24])
		if err != nil {
			t.Fatalf("vsftpd log line %q: %v", line, err)
		}
		rest := line[25:]
		pid, rest, ok := strings.Cut(strings.TrimPrefix(rest, "[pid "), "] ")
		if !ok {
			t.Fatalf("vsftpd log line %q: no pid", line)
		}
		s := open[pid]
		if strings.HasPrefix(rest, "CONNECT: ") {
			s = &ftpSession{pid: pid, first: i, begin: at}
			open[pid] = s
			out = append(out, s)
		}
		if s == nil {
			t.Fatalf("vsftpd log line %q: pid %s has no CONNECT", line, pid)
		}
		s.last, s.end = i, at
		s.lines = append(s.lines, rest)
	}
	return out
}

// mostSessions is the largest number of sessions open at once by the
// log's order: a session open from its first line to its last. A
// session is open at least that long (its connection was accepted
// before its first line and closed after its last), so k sessions open
// at once here were open at once in fact; the converse is not proved.
func mostSessions(ss []*ftpSession) int {
	most := 0
	for _, a := range ss {
		n := 0
		for _, b := range ss {
			if b.first <= a.first && a.first <= b.last {
				n++
			}
		}
		most = max(most, n)
	}
	return most
}

// gopherRequests counts the selectors in pygopherd's log text: "client
// [Protocol/Handler]: selector" for an item served, "client
// [Protocol/None] EXCEPTION FileNotFound: 'selector' does not exist
// ..." for one missing. The log has no time and no client port.
func gopherRequests(t *testing.T, text string) map[string]int {
	t.Helper()
	n := map[string]int{}
	for _, line := range strings.Split(text, "\n") {
		if _, sel, ok := strings.Cut(line, "]: "); ok {
			n[sel]++
		} else if _, rest, ok := strings.Cut(line, "] EXCEPTION FileNotFound: '"); ok {
			sel, _, _ := strings.Cut(rest, "' does not exist")
			n[sel]++
		} else if strings.Contains(line, "EXCEPTION") {
			t.Errorf("pygopherd: %s", line)
		}
	}
	return n
}

// TestProbeServers (issue 45, "Checked"): the pipeline on prism
// in-process against nginx, vsftpd and pygopherd on each of 20 loopback
// addresses, 5,000 URLs by turns http, ftp and gopher, a fifth broken
// (a missing file, path or selector, or a closed port): the records
// equal `locator probe --json`'s on the same input (sorted, ms and the
// extract record's place left out), and the servers' logs bound the
// politeness as far as each can (one destination is an address, its
// three servers together; no server sees the others' connections):
//
//   - nginx ($connection, $msec, $request_time: to the millisecond):
//     never more than --per-host of its connections to one address
//     open at once, a connection seen from its first request's
//     beginning to its last one's end: its idle time before and after
//     is not logged, and a HEAD takes about a millisecond, so this sees
//     only requests that overlap (run at --per-host 12 and checked
//     against 2, it found nothing where vsftpd's found 3 or 4 sessions
//     at once on every host). In the second run (--per-host 1, --delay
//     1s), never less than the delay between the end of a request and
//     the beginning of the next: that it shows to the millisecond.
//   - vsftpd (log_ftp_protocol: every line of every session appended
//     to one file, so in the order written; times to the second): by
//     that order, never more than --per-host sessions of an address
//     open at once (a lower bound of the truth: see mostSessions). In
//     the second run vsftpd enforces it too: max_clients=1, so a second
//     connection at once would be refused with 421, which neither its
//     log nor any record (nor the retried counter) shows. Its seconds
//     cannot show a delay under a second; at 1s, a session must begin
//     in a later second than the one before it ended (t2 ≥ t1+1s ⇒
//     ⌊t2⌋ ≥ ⌊t1⌋+1), and an nginx request must end before the second
//     a session began in, or begin at least a second after the second
//     it ended in: checks a breach can pass only by straddling a
//     second's boundary.
//   - pygopherd (a line a request, the selector only: no time, no
//     client port, no end): every selector of a URL asked exactly once
//     (repeats answered from the first), nothing about connections at
//     once or the delay. Its top menu "/" (a client's Gopher+ check,
//     once a server and client) is not counted.
//
// vsftpd runs only as root: the test skips otherwise.
func TestProbeServers(t *testing.T) {
	const n = 5000
	set, files := mixedSet(n)
	start := time.Now()
	f := startFarm(t, files)
	t.Logf("80 servers started in %v", time.Since(start).Round(time.Millisecond))
	in := f.write(t, set, f.ftp)
	before := f.settle(t)

	o := Defaults()
	o.Inputs = []string{in}
	o.Output = filepath.Join(t.TempDir(), "out")
	o.PerHost, o.Delay = 2, 0
	o.Block = 16 << 10 // several ranges: several workers read
	p, s := beam.NewPipelineWithRoot()
	if err := Build(context.Background(), s, o); err != nil {
		t.Fatal(err)
	}
	start = time.Now()
	res, err := ptest.RunWithMetrics(p)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("pipeline, %d URLs: %v", n, time.Since(start).Round(time.Millisecond))
	got := readRecords(t, o.Output)
	after := f.settle(t) // before the command's run adds to the logs

	start = time.Now()
	want := cliProbe(t, in, "--per-host", "2")
	t.Logf("locator probe, %d URLs: %v", n, time.Since(start).Round(time.Millisecond))
	g, w := comparable(t, got), comparable(t, want)
	if !slices.Equal(g, w) {
		t.Errorf("%d records, the command %d; they differ:", len(g), len(w))
		for i, x := range onlyIn(g, w) {
			if i < 5 {
				t.Errorf("only the pipeline's: %s", x)
			}
		}
		for i, x := range onlyIn(w, g) {
			if i < 5 {
				t.Errorf("only the command's: %s", x)
			}
		}
	}
	// 5,000 URLs, 500 of them twice, a line that is not a URL, an
	// extract record (a repeat): 5,502 records. Of the 5,000 distinct,
	// 1,000 broken: 500 missing (gone: 600 records with their 100
	// repeats) and 500 on a closed port (an error, as the command says
	// it: 501 with the line that is not a URL); 4,401 ok.
	if len(got) != 5502 {
		t.Errorf("%d records, want 5502", len(got))
	}
	checkCounters(t, res, map[string]int64{"probed": 5000, "ok": 4401, "gone": 600, "refused": 0, "error": 501, "policy": 0, "retried": 0})
	checkLogs(t, f, set, false, before, after, o.PerHost, 0)

	// One at a time, a second apart, vsftpd refusing a second
	// connection: 120 URLs (6 a host: http, ftp, gopher, twice; the
	// second ftp broken).
	small := set[:120]
	in = f.write(t, small, f.strict)
	before = f.settle(t)
	o.Inputs, o.Output = []string{in}, filepath.Join(t.TempDir(), "out")
	o.PerHost, o.Delay = 1, time.Second
	p, s = beam.NewPipelineWithRoot()
	if err := Build(context.Background(), s, o); err != nil {
		t.Fatal(err)
	}
	start = time.Now()
	res, err = ptest.RunWithMetrics(p)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("pipeline, %d URLs, --per-host 1 --delay 1s: %v", len(small), time.Since(start).Round(time.Millisecond))
	// 120 URLs, 12 twice, the line that is not a URL, the extract
	// record: 134 records; 20 broken (10 missing: 12 records with 2
	// repeats; 10 on a closed port: 11 errors with the line that is not
	// a URL), 111 ok.
	if recs := readRecords(t, o.Output); len(recs) != 134 {
		t.Errorf("second run: %d records, want 134", len(recs))
	}
	checkCounters(t, res, map[string]int64{"probed": 120, "ok": 111, "gone": 12, "error": 11, "retried": 0})
	checkLogs(t, f, small, true, before, f.settle(t), o.PerHost, o.Delay)
}

// checkCounters compares the job's counters with want, each read as
// committed and as attempted (prism may leave a bundle's increment out
// of one of them: see TestProbeLoopback).
func checkCounters(t *testing.T, res beam.PipelineResult, want map[string]int64) {
	t.Helper()
	c := job.Counters(res.Metrics())
	attempted := map[string]int64{}
	for _, m := range res.Metrics().AllMetrics().Counters() {
		if m.Namespace() == "locator" {
			attempted[m.Name()] += m.Attempted
		}
	}
	for k, v := range want {
		if c[k] != v && attempted[k] != v {
			t.Errorf("counter %s = %d (attempted %d), want %d (all: %v)", k, c[k], attempted[k], v, c)
		}
	}
}

// onlyIn returns the strings of sorted a that sorted b lacks.
func onlyIn(a, b []string) []string {
	var out []string
	for _, x := range a {
		if i, ok := slices.BinarySearch(b, x); !ok || b[i] != x {
			out = append(out, x)
		}
	}
	return out
}

// checkLogs checks what nginx, vsftpd (f.ftp, or f.strict) and
// pygopherd logged between before and after against perHost and delay,
// and set's gopher selectors (see TestProbeServers for what each log can
// show).
func checkLogs(t *testing.T, f *farm, set []target, strict bool, before, after logs, perHost int, delay time.Duration) {
	t.Helper()
	ftp := f.ftp
	nginx := nginxSpan(t, f.nginxLog, before.nginx, after.nginx)
	if len(nginx) != 20 {
		t.Errorf("nginx saw %d hosts, want 20", len(nginx))
	}
	from, to := before.ftp, after.ftp
	if strict {
		ftp, from, to = f.strict, before.strict, after.strict
	}
	sessions := 0
	for i, h := range hosts() {
		reqs := nginx[h]
		if most := mostAtOnce(reqs); most > perHost {
			t.Errorf("nginx, %s: %d connections at once, want at most %d", h, most, perHost)
		}
		if gap, ok := leastGap(reqs); ok && delay > 0 && gap < delay.Milliseconds()-2 {
			t.Errorf("nginx, %s: %d ms between the end of a request and the next, want at least %v (less 2 ms of nginx's rounding)", h, gap, delay)
		}

		text := span(t, ftp[i].Log, from[i], to[i])
		ss := ftpSessions(t, text)
		sessions += len(ss)
		if most := mostSessions(ss); most > perHost {
			t.Errorf("vsftpd, %s: %d sessions open at once by its log's order, want at most %d", h, most, perHost)
		}
		if strings.Contains(text, `"421 `) {
			t.Errorf("vsftpd, %s: refused a connection (421: more than max_clients at once)", h)
		}
		if delay < time.Second {
			continue
		}
		whole := int64(delay / time.Second)
		for k := 1; k < len(ss); k++ {
			if d := ss[k].begin.Unix() - ss[k-1].end.Unix(); d < whole {
				t.Errorf("vsftpd, %s: a session began in the %d. second after the one before it ended (%v, %v), want at least %d", h, d, ss[k-1].end, ss[k].begin, whole)
			}
		}
		for _, r := range reqs {
			for _, s := range ss {
				if !(r.end-2 < s.begin.Unix()*1000 || r.begin+2 >= (s.end.Unix()+whole)*1000) {
					t.Errorf("%s: nginx's request %d–%d ms and vsftpd's session of the seconds %d–%d: less than %v apart", h, r.begin, r.end, s.begin.Unix(), s.end.Unix(), delay)
				}
			}
		}
	}
	if sessions == 0 {
		t.Error("vsftpd logged no session")
	}
	for h, host := range hosts() {
		asked := gopherRequests(t, span(t, f.gopher[h].Output, before.gopher[h], after.gopher[h]))
		for _, x := range set {
			if x.host == h && x.scheme == "gopher" && !x.closed {
				sel := strings.TrimPrefix(x.path, "/0")
				if asked[sel] != 1 {
					t.Errorf("pygopherd, %s: %q asked %d times, want once", host, sel, asked[sel])
				}
				delete(asked, sel)
			}
		}
		delete(asked, "/")
		if len(asked) > 0 {
			t.Errorf("pygopherd, %s: asked for no URL's selector: %v", host, asked)
		}
	}
}

// TestServerLogReaders: the readers of vsftpd's and pygopherd's logs on
// lines as the servers write them.
func TestServerLogReaders(t *testing.T) {
	ftp := `Mon Dec  7 21:38:38 2026 [pid 10] CONNECT: Client "127.0.0.1"
Mon Dec  7 21:38:38 2026 [pid 10] FTP response: Client "127.0.0.1", "220 locator test vsftpd"
Mon Dec  7 21:38:39 2026 [pid 11] CONNECT: Client "127.0.0.1"
Mon Dec  7 21:38:39 2026 [pid 10] [ftp] FTP response: Client "127.0.0.1", "221 Goodbye."
Mon Dec  7 21:38:39 2026 [pid 12] CONNECT: Client "127.0.0.1", "Connection refused: too many sessions."
Mon Dec  7 21:38:39 2026 [pid 12] FTP response: Client "127.0.0.1", "421 There are too many connected users, please try later."
Mon Dec  7 21:38:41 2026 [pid 11] [ftp] FTP response: Client "127.0.0.1", "221 Goodbye."
Mon Dec  7 21:38:42 2026 [pid 13] CONNECT: Client "127.0.0.1"
`
	ss := ftpSessions(t, ftp)
	if len(ss) != 4 {
		t.Fatalf("%d sessions, want 4", len(ss))
	}
	if a := ss[1]; a.pid != "11" || a.first != 2 || a.last != 6 || a.begin.Second() != 39 || a.end.Second() != 41 {
		t.Errorf("session 2: %+v", a)
	}
	// 10 and 11 at once (lines 2–3), then 11 and 12 (4–5); 13 alone.
	if most := mostSessions(ss); most != 2 {
		t.Errorf("mostSessions = %d, want 2", most)
	}
	if most := mostSessions(ss[3:]); most != 1 {
		t.Errorf("mostSessions of one = %d, want 1", most)
	}

	gopher := `Running.  Root is '/tmp/x'
127.0.0.1 [GopherProtocol/UMNDirHandler]: /
127.0.0.1 [GopherPlusProtocol/FileHandler]: /g/f40.txt
127.0.0.1 [GopherPlusProtocol/None] EXCEPTION FileNotFound: '/g/missing-60.txt' does not exist (no handler found)
127.0.0.1 [GopherProtocol/FileHandler]: /g/f40.txt
`
	got := gopherRequests(t, gopher)
	want := map[string]int{"/": 1, "/g/f40.txt": 2, "/g/missing-60.txt": 1}
	if !maps.Equal(got, want) {
		t.Errorf("gopherRequests = %v, want %v", got, want)
	}
}
