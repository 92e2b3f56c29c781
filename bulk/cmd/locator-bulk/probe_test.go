package main

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/rfc1738/locator/bulk/internal/scratch"
	"github.com/rfc1738/locator/internal/peer"
)

func TestMain(m *testing.M) {
	os.Exit(scratch.Main("locator-bulk-cmd-test-", m.Run))
}

// jobServer starts prism as a standalone job server on a free port and
// returns its port and log; it is killed by its process id when t ends.
func jobServer(t *testing.T) (port, log string) {
	t.Helper()
	prism := scratch.Build(t, ".", "github.com/apache/beam/sdks/v2/go/cmd/prism")
	log = filepath.Join(t.TempDir(), "prism.log")
	lf, err := os.Create(log)
	if err != nil {
		t.Fatal(err)
	}
	srv := exec.Command(prism, "--job_port=0", "--serve_http=false", "--log_kind=text")
	srv.Stdout, srv.Stderr = lf, lf
	// The PROCESS environment's boot, prism's child, writes
	// pipeline_options.json in its working directory.
	srv.Dir = t.TempDir()
	if err := srv.Start(); err != nil {
		lf.Close()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		srv.Process.Kill()
		srv.Wait()
		lf.Close()
	})
	for range 600 {
		b, _ := os.ReadFile(log)
		if i := bytes.Index(b, []byte("localhost:")); i >= 0 {
			p := b[i+len("localhost:"):]
			j := 0
			for j < len(p) && p[j] >= '0' && p[j] <= '9' {
				j++
			}
			if j > 0 {
				return string(p[:j]), log
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	b, _ := os.ReadFile(log)
	t.Fatalf("prism did not say its port within 60 s:\n%s", b)
	return "", ""
}

// probeInput writes n URLs of nginx on 127.0.0.1:port (files of root),
// every fifth broken (a missing file: gone; the closed port: refused,
// an error), every seventh given twice, and a line that is not a URL.
func probeInput(t *testing.T, root string, port, closed, n int) string {
	t.Helper()
	var b strings.Builder
	for i := range n {
		name := fmt.Sprintf("f%d.txt", i)
		u := fmt.Sprintf("http://127.0.0.1:%d/%s", port, name)
		switch {
		case i%10 == 3:
			u = fmt.Sprintf("http://127.0.0.1:%d/missing-%d.txt", port, i)
		case i%10 == 8:
			u = fmt.Sprintf("http://127.0.0.1:%d/%s", closed, name)
		default:
			if err := os.WriteFile(filepath.Join(root, name), []byte(strings.Repeat("y", i%89)), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		b.WriteString(u + "\n")
		if i%7 == 0 {
			b.WriteString(u + "\n")
		}
	}
	b.WriteString("not a url\n")
	in := filepath.Join(t.TempDir(), "urls.txt")
	if err := os.WriteFile(in, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return in
}

// freePort returns a port of 127.0.0.1 where nothing listens.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// commandRecords runs `locator probe --json -` (the main module's
// command) on in with args and returns its records.
func commandRecords(t *testing.T, in string, args ...string) []string {
	t.Helper()
	bin := scratch.Build(t, filepath.Join("..", "..", ".."), "./cmd/locator")
	f, err := os.Open(in)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cmd := exec.Command(bin, append(append([]string{"probe", "--json"}, args...), "-")...)
	cmd.Stdin = f
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	cmd.Run() // exit 1: some URLs are broken
	if out.Len() == 0 {
		t.Fatalf("locator probe wrote nothing: %s", stderr.Bytes())
	}
	return strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
}

// outputRecords reads dir's final record files (records-*-of-*.ndjson).
func outputRecords(t *testing.T, dir string) []string {
	t.Helper()
	names, _ := filepath.Glob(filepath.Join(dir, "records-*-of-*.ndjson"))
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

// sameRecords holds the pipeline's records to the command's: equal
// once sorted, each without "ms" (a probe's duration).
func sameRecords(t *testing.T, got, want []string) {
	t.Helper()
	norm := func(recs []string) []string {
		out := make([]string, 0, len(recs))
		for _, r := range recs {
			var m map[string]any
			if err := json.Unmarshal([]byte(r), &m); err != nil {
				t.Fatalf("record %q: %v", r, err)
			}
			delete(m, "ms")
			b, _ := json.Marshal(m)
			out = append(out, string(b))
		}
		sort.Strings(out)
		return out
	}
	g, w := norm(got), norm(want)
	if slices.Equal(g, w) {
		return
	}
	t.Errorf("%d records, the command %d; they differ", len(g), len(w))
	shown := 0
	for _, x := range g {
		if _, ok := slices.BinarySearch(w, x); !ok && shown < 5 {
			t.Errorf("only the pipeline's: %s", x)
			shown++
		}
	}
	shown = 0
	for _, x := range w {
		if _, ok := slices.BinarySearch(g, x); !ok && shown < 5 {
			t.Errorf("only the command's: %s", x)
			shown++
		}
	}
}

// TestProbeJobServer submits `locator-bulk probe`, unchanged, to prism
// started as a standalone job server (the portable Job API of Flink,
// Spark and Dataflow job services) with the LOOPBACK environment: 300
// URLs of nginx on 127.0.0.1, 60 of them broken, 43 repeats and a line
// that is not a URL (no "scheme:", RFC 1738 §2.1). The
// records equal `locator probe --json`'s on the same input.
func TestProbeJobServer(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: building the job and prism binaries is left out")
	}
	start := time.Now()
	bin := scratch.Build(t, filepath.Join("..", ".."), "./cmd/locator-bulk")
	port, log := jobServer(t)
	root := t.TempDir()
	ng := peer.Nginx(t, root, peer.NginxConfig{Connections: 512})
	in := probeInput(t, root, ng.Port, freePort(t), 300)
	out := filepath.Join(t.TempDir(), "out")

	cmd := exec.Command(bin, "probe", "--runner=universal", "--endpoint=127.0.0.1:"+port,
		"--environment_type=LOOPBACK", "--input="+in, "--output="+out, "--per-host=2")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	ran := time.Now()
	if err := cmd.Run(); err != nil {
		b, _ := os.ReadFile(log)
		t.Fatalf("locator-bulk probe on the job server: %v\n%s\nprism's log:\n%s", err, stderr.Bytes(), b)
	}
	took := time.Since(ran)
	got := outputRecords(t, out)
	// 300 URLs, 43 of them twice, and the line that is not a URL.
	if len(got) != 344 {
		t.Errorf("%d records, want 344", len(got))
	}
	sameRecords(t, got, commandRecords(t, in, "--per-host", "2"))
	if left, _ := filepath.Glob(filepath.Join(out, ".tmp-*")); len(left) > 0 {
		t.Errorf("temporaries left: %q", left)
	}
	summary := strings.TrimSpace(stderr.String())
	summary = summary[strings.LastIndexByte(summary, '\n')+1:]
	t.Logf("the job took %v, the test %v (builds included); %s", took.Round(time.Millisecond), time.Since(start).Round(time.Millisecond), summary)
}

// lines counts the lines of a file (0 when it is absent).
func lines(name string) int {
	b, _ := os.ReadFile(name)
	return bytes.Count(b, []byte("\n"))
}

// processEnv makes the PROCESS environment's command: a wrapper of the
// Go SDK's boot (built from the SDK) that strips the quotes prism
// v2.77.0 puts around the worker id (environments.go:318 runs
// `command --id='ID'` without a shell) and gives boot semi, a
// directory of the test's that boot hands on to the worker
// (--semi_persist_dir), by which the test finds both processes. It
// returns the wrapper's path; when t ends, every process whose command
// line names semi is killed by its id (prism leaves the worker, boot's
// child, running after the job) and boot's copies of the worker binary
// (/tmp/bin*/worker, a place boot fixes) are removed.
func processEnv(t *testing.T, semi string) string {
	t.Helper()
	boot := scratch.Build(t, ".", "github.com/apache/beam/sdks/v2/go/container")
	wrapper := filepath.Join(t.TempDir(), "boot.sh")
	script := `#!/bin/sh
for a; do
  case "$a" in
  --id=*) id=${a#--id=}; id=${id#\'}; id=${id%\'} ;;
  --provision_endpoint=*) prov=${a#--provision_endpoint=} ;;
  esac
done
exec ` + boot + ` --id="$id" --provision_endpoint="$prov" --semi_persist_dir=` + semi + "\n"
	if err := os.WriteFile(wrapper, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for _, pid := range named(semi) {
			removeCopy(pid)
			syscall.Kill(pid, syscall.SIGKILL)
		}
	})
	return wrapper
}

// named returns the ids of the processes whose command line holds s.
func named(s string) []int {
	var out []int
	dirs, _ := os.ReadDir("/proc")
	for _, d := range dirs {
		pid, err := strconv.Atoi(d.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", d.Name(), "cmdline"))
		if err == nil && bytes.Contains(b, []byte(s)) {
			out = append(out, pid)
		}
	}
	return out
}

// removeCopy removes boot's copy of the worker binary that process pid
// runs (/tmp/binNNN/worker), if it runs one.
func removeCopy(pid int) {
	exe, err := os.Readlink(fmt.Sprintf("/proc/%d/exe", pid))
	if err == nil && filepath.Base(exe) == "worker" && strings.HasPrefix(exe, "/tmp/bin") {
		os.RemoveAll(filepath.Dir(exe))
	}
}

// running is a command started and waited for in the background.
type running struct {
	cmd    *exec.Cmd
	stderr bytes.Buffer
	done   chan error
}

func start(t *testing.T, bin string, args ...string) *running {
	t.Helper()
	r := &running{cmd: exec.Command(bin, args...), done: make(chan error, 1)}
	r.cmd.Stderr = &r.stderr
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { r.done <- r.cmd.Wait() }()
	return r
}

// wait waits at most limit for the command to end; after that it kills
// the command by its process id and says it hung.
func (r *running) wait(limit time.Duration) (hung bool, err error) {
	select {
	case err := <-r.done:
		return false, err
	case <-time.After(limit):
		r.cmd.Process.Kill()
		return true, <-r.done
	}
}

// TestProbeWorkerKilled kills the worker of a `locator-bulk probe` run
// on prism as a job server, in the PROCESS environment (the worker a
// process of its own, staged and started by the SDK's boot as on a
// cluster), by its process id: mid-probe (once nginx has served 30
// requests) and mid-write (once a temporary of the records is in the
// output). It holds the run to what the job's writing guarantees
// whatever the runner does: the killed run's output shows no partial
// result as final records (temporaries, .tmp-records-*, or, when the
// kill came after the finalize, the whole records), and a run again on
// the same --output gives the records of `locator probe --json`, none
// lost or duplicated, and removes the temporaries.
//
// prism v2.77.0 does not retry the work of a killed worker: a bundle
// under way fails and the job fails (stage.go:211, execute.go:385); a
// kill between bundles leaves the job RUNNING for ever, its next
// bundle sent to the stopped worker and never answered (worker/
// bundle.go:176-184, stage.go:204-208). The test bounds that wait (60
// s), then kills the client by its process id.
func TestProbeWorkerKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: building the job, prism and boot binaries is left out")
	}
	bin := scratch.Build(t, filepath.Join("..", ".."), "./cmd/locator-bulk")
	t.Run("mid-probe", func(t *testing.T) { killWorker(t, bin, false) })
	t.Run("mid-write", func(t *testing.T) { killWorker(t, bin, true) })
}

// killWorker runs the job of TestProbeWorkerKilled, kills its worker
// once nginx has served 30 requests or, midWrite, as soon as a
// temporary of the records is created, and checks the killed run's
// output and a run again.
func killWorker(t *testing.T, bin string, midWrite bool) {
	begin := time.Now()
	port, log := jobServer(t)
	root, ngDir := t.TempDir(), t.TempDir()
	ng := peer.Nginx(t, root, peer.NginxConfig{Dir: ngDir, Connections: 512})
	access := filepath.Join(ngDir, "access.log")
	in := probeInput(t, root, ng.Port, freePort(t), 300)
	out := filepath.Join(t.TempDir(), "out")
	semi := t.TempDir()
	wrapper := processEnv(t, semi)
	args := []string{"probe", "--runner=universal", "--endpoint=127.0.0.1:" + port,
		"--environment_type=PROCESS", `--environment_config={"command":"` + wrapper + `"}`,
		"--worker_binary=" + bin, "--input=" + in, "--output=" + out, "--per-host=1", "--delay=20ms"}
	want := commandRecords(t, in, "--per-host", "1")

	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	writing := created(t, out, ".tmp-records-")
	before := lines(access) // nginx's readiness check
	now := func() bool {
		if !midWrite {
			return lines(access)-before >= 30
		}
		select {
		case <-writing:
			return true
		default:
			return false
		}
	}
	run := start(t, bin, args...)
	worker, workers := 0, map[int]bool{}
	for i, deadline := 0, time.Now().Add(3*time.Minute); ; i++ {
		select {
		case err := <-run.done:
			b, _ := os.ReadFile(log)
			t.Fatalf("the job ended (%v) before its worker was killed:\n%s\nprism's log:\n%s", err, run.stderr.Bytes(), b)
		default:
		}
		if worker == 0 || i%50 == 0 {
			for _, pid := range named(semi) {
				if exe, err := os.Readlink(fmt.Sprintf("/proc/%d/exe", pid)); err == nil && filepath.Base(exe) == "worker" {
					workers[pid], worker = true, pid
				}
			}
		}
		if worker != 0 && now() {
			break
		}
		if time.Now().After(deadline) {
			run.cmd.Process.Kill()
			<-run.done
			b, _ := os.ReadFile(log)
			t.Fatalf("no worker process, or no time to kill it, within 3 minutes:\n%s\nprism's log:\n%s", run.stderr.Bytes(), b)
		}
		time.Sleep(2 * time.Millisecond)
	}
	removeCopy(worker)
	if err := syscall.Kill(worker, syscall.SIGKILL); err != nil {
		t.Fatalf("killing worker %d: %v", worker, err)
	}
	served := lines(access) - before
	// prism v2.77.0 starts one worker per environment of the job
	// (execute.go:52-71), however many bundles run at once (at most 8,
	// execute.go:351-352).
	if len(workers) != 1 {
		t.Errorf("%d worker processes seen, want 1 (prism starts one an environment)", len(workers))
	}
	// A job whose bundle failed with the worker ends within a second or
	// two; one killed between bundles never ends (docs/bulk.md).
	hung, err := run.wait(15 * time.Second)
	switch {
	case hung:
		t.Logf("worker %d killed after %d requests: the job hung in RUNNING; the client was killed after 15 s", worker, served)
	case err != nil:
		t.Logf("worker %d killed after %d requests: the job failed (%v)", worker, served, err)
	default:
		t.Logf("worker %d killed after %d requests: the job succeeded", worker, served)
	}
	killed := time.Since(begin)

	// No partial result as final records: none, or the whole of them.
	temps, _ := filepath.Glob(filepath.Join(out, ".tmp-*"))
	for _, f := range temps {
		if !strings.HasPrefix(filepath.Base(f), ".tmp-records-") && !strings.HasPrefix(filepath.Base(f), ".tmp-deadletter-") {
			t.Errorf("the killed run left %s", f)
		}
	}
	if finals, _ := filepath.Glob(filepath.Join(out, "records-*")); len(finals) > 0 {
		t.Logf("the killed run's finalize had run: %q", finals)
		sameRecords(t, outputRecords(t, out), want)
	}
	var sizes []int64
	for _, f := range temps {
		if fi, err := os.Stat(f); err == nil {
			sizes = append(sizes, fi.Size())
		}
	}
	t.Logf("the killed run left %d temporaries, of %v bytes", len(temps), sizes)
	if midWrite && len(temps) == 0 {
		t.Errorf("killed mid-write, the run left no temporary")
	}

	// Again, on the same output.
	again := start(t, bin, args...)
	if hung, err := again.wait(5 * time.Minute); err != nil || hung {
		b, _ := os.ReadFile(log)
		t.Fatalf("the run again: %v (hung %v)\n%s\nprism's log:\n%s", err, hung, again.stderr.Bytes(), b)
	}
	got := outputRecords(t, out)
	if len(got) != 344 {
		t.Errorf("%d records, want 344", len(got))
	}
	sameRecords(t, got, want)
	if left, _ := filepath.Glob(filepath.Join(out, ".tmp-*")); len(left) > 0 {
		t.Errorf("temporaries left after the run again: %q", left)
	}
	t.Logf("took %v, %v to the killed run's end", time.Since(begin).Round(time.Millisecond), killed.Round(time.Millisecond))
}

// created returns a channel closed when a file whose name begins with
// prefix is created in dir (inotify: the test acts within the moment).
func created(t *testing.T, dir, prefix string) <-chan struct{} {
	t.Helper()
	fd, err := syscall.InotifyInit1(syscall.IN_CLOEXEC | syscall.IN_NONBLOCK)
	if err != nil {
		t.Fatal(err)
	}
	f := os.NewFile(uintptr(fd), "inotify")
	if _, err := syscall.InotifyAddWatch(fd, dir, syscall.IN_CREATE); err != nil {
		f.Close()
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	ch := make(chan struct{})
	go func() {
		buf := make([]byte, 64<<10)
		for {
			n, err := f.Read(buf)
			if err != nil {
				return
			}
			// struct inotify_event: wd, mask, cookie, len, then len bytes of name.
			for off := 0; off+syscall.SizeofInotifyEvent <= n; {
				size := int(binary.NativeEndian.Uint32(buf[off+12:]))
				end := min(off+syscall.SizeofInotifyEvent+size, n)
				name := strings.TrimRight(string(buf[off+syscall.SizeofInotifyEvent:end]), "\x00")
				if strings.HasPrefix(name, prefix) {
					close(ch)
					return
				}
				off = end
			}
		}
	}()
	return ch
}

// TestProbeBadInput (issue 45, "Bad input"): an input pattern that
// names no file, an input that cannot be read, an output under a file,
// no output, a policy rule that does not read, --per-host 0: exit 2,
// with the reason on standard error, before any connection (the input
// names a listener of our own, which counts the connections it is
// offered) and with no output made.
func TestProbeBadInput(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: building the job is left out")
	}
	bin := scratch.Build(t, filepath.Join("..", ".."), "./cmd/locator-bulk")
	var offered atomic.Int64
	addr := peer.Hostile(t, func(c net.Conn) { offered.Add(1) })
	dir := t.TempDir()
	in := filepath.Join(dir, "urls.txt")
	os.WriteFile(in, []byte("http://"+addr+"/a\n"), 0o644)
	file := filepath.Join(dir, "file")
	os.WriteFile(file, nil, 0o644)
	unreadable := filepath.Join(dir, "unreadable")
	os.Mkdir(unreadable, 0o755) // a directory: it opens, and reading it fails
	for _, tc := range []struct {
		args []string
		says string
	}{
		{[]string{"--input", filepath.Join(dir, "none-*.txt"), "--output", filepath.Join(dir, "a")}, ": no file matches"},
		{[]string{"--input", unreadable, "--output", filepath.Join(dir, "b")}, ": is a directory"},
		{[]string{"--input", in, "--output", filepath.Join(file, "out")}, ": not a directory"},
		{[]string{"--input", in}, "no output directory"},
		{[]string{"--input", in, "--output", filepath.Join(dir, "c"), "--allow-host", "[::1"}, `--allow-host: rule "[::1": an unclosed [`},
		{[]string{"--input", in, "--output", filepath.Join(dir, "d"), "--per-host", "0"}, "--per-host must be positive"},
	} {
		cmd := exec.Command(bin, append([]string{"probe"}, tc.args...)...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 2 {
			t.Errorf("probe %q: %v, want exit 2\n%s", tc.args, err, stderr.Bytes())
		} else if !strings.Contains(stderr.String(), tc.says) {
			t.Errorf("probe %q: standard error does not say %q:\n%s", tc.args, tc.says, stderr.Bytes())
		}
	}
	for _, d := range []string{"a", "b", "c", "d"} {
		if ents, _ := os.ReadDir(filepath.Join(dir, d)); len(ents) > 0 {
			t.Errorf("%s: output made: %v", d, ents)
		}
	}
	if n := offered.Load(); n != 0 {
		t.Errorf("%d connections offered before the input was judged bad", n)
	}
}
