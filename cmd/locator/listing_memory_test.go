package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/internal/peer"
)

// The memory a listing takes is bounded by a constant, not by the
// listing: a hostile gopher server's huge or endless menu, rendered by
// the gateway as a page or printed by `locator get` as a table, is read
// and written entry by entry. These tests run the real binary (built
// into a temporary directory; LOCATOR_TEST_BIN names another, to
// measure an older build) against a gopher listener on 127.0.0.1 that
// generates the menu as it sends it, and read the process's peak
// resident memory.

// maxListingRSS is the bound on a process's peak resident memory while
// it streams a listing of any size.
const maxListingRSS = 64 << 20

// menuLine is line n of the generated menu: about 100 octets.
func menuLine(n int, port int) string {
	return fmt.Sprintf("0Item %09d of a menu that a hostile server sends without end\t/items/%09d.txt\t127.0.0.1\t%d\r\n", n, n, port)
}

// menuServer serves, on 127.0.0.1, to every request a menu of total
// octets (total < 0: without end, until the client goes away or 4 GiB
// were sent) and returns its port. The server stops with the test.
func menuServer(t *testing.T, total int64) int {
	t.Helper()
	addr := peer.Hostile(t, func(c net.Conn) {
		port := c.LocalAddr().(*net.TCPAddr).Port
		bufio.NewReader(c).ReadString('\n') // the selector
		w := bufio.NewWriterSize(c, 64<<10)
		limit := total
		if limit < 0 {
			limit = 4 << 30
		}
		var sent int64
		for n := 0; sent < limit; n++ {
			k, err := w.WriteString(menuLine(n, port))
			if err != nil {
				return
			}
			sent += int64(k)
		}
		w.WriteString(".\r\n")
		w.Flush()
	})
	_, port, _ := net.SplitHostPort(addr)
	n, _ := strconv.Atoi(port)
	return n
}

// locatorBin builds the command into a temporary directory, or returns
// LOCATOR_TEST_BIN.
func locatorBin(t *testing.T) string {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("peak resident memory is read from /proc and rusage as Linux gives them")
	}
	if b := os.Getenv("LOCATOR_TEST_BIN"); b != "" {
		return b
	}
	bin := filepath.Join(t.TempDir(), "locator")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// vmHWM reads a running process's peak resident set size (VmHWM, in
// kB) from /proc/PID/status.
func vmHWM(t *testing.T, pid int) int64 {
	t.Helper()
	n, err := readHWM(pid)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// readHWM is vmHWM's reading, its error returned: a process that has
// just ended has no status to read.
func readHWM(pid int) (int64, error) { return readStatus(pid, "VmHWM") }

// readStatus reads the field key (in kB) of /proc/PID/status, in octets.
func readStatus(pid int, key string) (int64, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0, err
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, key+":"); ok {
			n, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			if err != nil {
				return 0, fmt.Errorf("%s %q: %v", key, v, err)
			}
			return n << 10, nil
		}
	}
	return 0, fmt.Errorf("no %s in /proc/%d/status", key, pid)
}

// TestGatewayListingMemory: a 100 MB menu from a hostile gopher server
// (about a million entries) is served by `locator gateway` as one page,
// read whole by the client, while the gateway's peak resident memory
// stays under 64 MiB: the page is written entry by entry as the menu is
// read, never held.
func TestGatewayListingMemory(t *testing.T) {
	bin := locatorBin(t)
	const menu = 100 << 20
	port := menuServer(t, menu)
	cmd := exec.Command(bin, "gateway", "--listen", "127.0.0.1:0", "--allow-host", "127.0.0.1:"+strconv.Itoa(port),
		"--max-entries", "2000000", "--log", "none")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer stopProcess(cmd)
	// "serving on http://ADDR/ (Ctrl-C ends)"
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("gateway start: %v", err)
	}
	i := strings.Index(line, "http://")
	if i < 0 {
		t.Fatalf("gateway says %q", line)
	}
	base, _, _ := strings.Cut(strings.TrimSpace(line[i:]), " ")
	go io.Copy(io.Discard, stdout)

	client := &http.Client{Timeout: 5 * time.Minute}
	res, err := client.Get(base + "gopher://127.0.0.1:" + strconv.Itoa(port) + "/1/")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != 200 {
		t.Fatalf("status %s", res.Status)
	}
	page, items, last := int64(0), 0, ""
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		l := sc.Text()
		page += int64(len(l)) + 1
		if strings.HasPrefix(l, "<li>") {
			items++
		}
		if strings.TrimSpace(l) != "" {
			last = l
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("reading the page: %v", err)
	}
	want := menu/len(menuLine(0, port)) + 1
	if items < want-1 || items > want+1 {
		t.Errorf("the page lists %d entries; the menu has about %d", items, want)
	}
	if !strings.Contains(last, "</html>") {
		t.Errorf("the page does not end with its foot: %q", last)
	}
	hwm := vmHWM(t, cmd.Process.Pid)
	t.Logf("menu %d MB, page %d MB, %d entries; gateway peak RSS (VmHWM) %.1f MiB", menu>>20, page>>20, items, float64(hwm)/(1<<20))
	if hwm > maxListingRSS {
		t.Errorf("the gateway's peak resident memory is %.1f MiB, over %d MiB", float64(hwm)/(1<<20), maxListingRSS>>20)
	}
}

// TestGetEndlessListing: `locator get` of an endless menu prints the
// entries up to --max-entries (the default, 1,048,576, for the table;
// 100,000 for NDJSON), then says on
// standard error that the listing was cut, and exits 3 (a listing not
// delivered whole is a failure, not a success); its peak resident
// memory stays under 64 MiB. Peak memory is the child's VmHWM, read
// while it prints: not its ru_maxrss, which Linux carries over exec from
// the memory the child shared with the test process it was started
// from (os/exec starts children with vfork), so that a test binary
// grown large by earlier tests would be counted as the child's.
func TestGetEndlessListing(t *testing.T) {
	bin := locatorBin(t)
	port := menuServer(t, -1)
	for _, json := range []bool{false, true} {
		args, max := []string{"get"}, 1<<20
		if json {
			args, max = append(args, "--json", "--max-entries", "100000"), 100000
		}
		cmd := exec.Command(bin, append(args, "gopher://127.0.0.1:"+strconv.Itoa(port)+"/1/")...)
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		var stderr strings.Builder
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		lines := 0
		var rss int64
		br := bufio.NewReaderSize(stdout, 64<<10)
		for {
			_, err := br.ReadSlice('\n')
			if errors.Is(err, bufio.ErrBufferFull) {
				continue
			}
			if err != nil {
				break
			}
			lines++
			if lines%4096 == 0 {
				if n, err := readHWM(cmd.Process.Pid); err == nil {
					rss = n // a high-water mark: the latest reading is the peak so far
				}
			}
		}
		if n, err := readHWM(cmd.Process.Pid); err == nil {
			rss = n
		}
		err = cmd.Wait()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 3 {
			t.Errorf("json %v: %v, want exit status 3", json, err)
		}
		want := "the listing has more than " + strconv.Itoa(max) + " entries; the rest were not read (--max-entries)"
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("json %v: stderr %q, want %q", json, stderr.String(), want)
		}
		entries := lines
		if !json {
			entries-- // the table's head
		}
		if entries != max {
			t.Errorf("json %v: %d entries printed, want %d", json, entries, max)
		}
		if rss == 0 {
			t.Fatalf("json %v: no reading of the process's peak memory", json)
		}
		t.Logf("json %v: %d entries printed; peak RSS %.1f MiB", json, entries, float64(rss)/(1<<20))
		if rss > maxListingRSS {
			t.Errorf("json %v: peak resident memory %.1f MiB, over %d MiB", json, float64(rss)/(1<<20), maxListingRSS>>20)
		}
	}
}

// TestListingRowApproximateSize: a size the server only estimates (a
// Gopher+ +VIEWS size, Gopher+ §2.5) is shown as one: "~" in the table,
// "size_approx" in NDJSON; a counted size as it is.
func TestListingRowApproximateSize(t *testing.T) {
	if got := row(access.Entry{Type: "file", Size: 2000, SizeApprox: true})[1]; got != "~2000" {
		t.Errorf("estimated size shown as %q, want ~2000", got)
	}
	if got := row(access.Entry{Type: "file", Size: 2000})[1]; got != "2000" {
		t.Errorf("counted size shown as %q, want 2000", got)
	}
	var b strings.Builder
	res := &access.Resource{Listing: access.ListingOf([]access.Entry{{Name: "a", Type: "file", Size: 2000, SizeApprox: true}}, false, 0)}
	if err := writeListing(&b, res, &getOptions{json: true}); err != nil || !strings.Contains(b.String(), `"size":2000,"size_approx":true`) {
		t.Errorf("NDJSON %q, %v", b.String(), err)
	}
}

// watchHWM samples the peak resident memory (VmHWM) of the process pid
// every 20 ms until the function it returns is called, which returns
// the highest reading. rusage's ru_maxrss is no measure of a child of a
// test: Linux counts in it the memory of the test process it was forked
// from, before its exec.
func watchHWM(pid int) func() int64 {
	var peak atomic.Int64
	stop := make(chan struct{})
	done := make(chan struct{})
	sample := func() {
		if n, err := readHWM(pid); err == nil && n > peak.Load() {
			peak.Store(n)
		}
	}
	go func() {
		defer close(done)
		t := time.NewTicker(20 * time.Millisecond)
		defer t.Stop()
		for {
			sample()
			select {
			case <-stop:
				return
			case <-t.C:
			}
		}
	}()
	return func() int64 {
		close(stop)
		<-done
		return peak.Load()
	}
}

// stopProcess ends cmd, a server a test started: SIGTERM, then after
// 10 s SIGKILL, and waits for it.
func stopProcess(cmd *exec.Cmd) {
	cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		<-done
	}
}
