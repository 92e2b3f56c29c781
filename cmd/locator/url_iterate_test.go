package main

import (
	"bufio"
	"os/exec"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/rfc1738/locator/urledit"
)

// values returns n --iterate values "1 2 ... n".
func values(n int) string {
	v := make([]string, n)
	for i := range v {
		v[i] = strconv.Itoa(i + 1)
	}
	return strings.Join(v, " ")
}

// TestURLIterateCap: --iterate's combinations are bounded as get's globs
// are (--max-urls, 10000 by default): more is refused with status 11,
// naming the count, before any URL is written; the bound itself is
// written whole.
func TestURLIterateCap(t *testing.T) {
	if urledit.DefaultMaxCombinations != defaultMaxURLs || defaultMaxURLs != 10000 {
		t.Fatalf("url's bound %d, get's %d; want both 10000", urledit.DefaultMaxCombinations, defaultMaxURLs)
	}
	v1000 := values(1000)
	code, out, errOut := runURLTest("", "http://h/", "--iterate", "port="+v1000, "--iterate", "path="+v1000, "--iterate", "query="+v1000)
	if code != urlExitIterate || out != "" || !strings.Contains(errOut, "make 1000000000 combinations, more than the bound of 10000 (--max-urls N raises it)") {
		t.Errorf("3 × 1,000 values: exit %d, stdout %d octets, stderr %q", code, len(out), errOut)
	}
	code, out, errOut = runURLTest("", "http://h/", "--iterate", "port="+values(100), "--iterate", "path="+values(100))
	if code != 0 || strings.Count(out, "\n") != 10000 || errOut != "" || !strings.HasPrefix(out, "http://h:1/1\nhttp://h:1/2\n") || !strings.HasSuffix(out, "http://h:100/100\n") {
		t.Errorf("100 × 100 values: exit %d, %d lines, stderr %q", code, strings.Count(out, "\n"), errOut)
	}
	code, out, errOut = runURLTest("", "http://h/", "--iterate", "port="+values(10001))
	if code != urlExitIterate || out != "" || !strings.Contains(errOut, "make 10001 combinations") {
		t.Errorf("10,001 values: exit %d, stdout %d octets, stderr %q", code, len(out), errOut)
	}
	code, out, errOut = runURLTest("", "http://h/", "--max-urls", "10001", "--iterate", "port="+values(10001))
	if code != 0 || strings.Count(out, "\n") != 10001 || errOut != "" {
		t.Errorf("10,001 values, --max-urls 10001: exit %d, %d lines, stderr %q", code, strings.Count(out, "\n"), errOut)
	}
	code, _, errOut = runURLTest("", "http://h/", "--max-urls", "-1")
	if code != urlExitFlag || !strings.Contains(errOut, "--max-urls takes a number") {
		t.Errorf("--max-urls -1: exit %d, stderr %q", code, errOut)
	}
}

// maxIterateRSS bounds the peak resident memory of locator url while it
// writes combinations of --iterate: they are made one at a time, so the
// bound does not depend on their number.
const maxIterateRSS = 64 << 20

// TestURLIterateStreams runs the real binary with three --iterate of
// 1,000 values each (10^9 combinations, the bound raised to allow them)
// into a pipe of which two lines are read, as `| head -2` does: the
// first lines come before the rest are made, and the process's peak
// resident memory stays under maxIterateRSS (it reached 3.27 GB, with
// nothing written, when every combination was held before the first was
// written). A watchdog kills the process if it passes the bound, so a
// regression fails rather than taking the machine's memory.
func TestURLIterateStreams(t *testing.T) {
	bin := locatorBin(t)
	v := values(1000)
	cmd := exec.Command(bin, "url", "http://h/", "--max-urls", "1000000000", "--iterate", "port="+v, "--iterate", "path="+v, "--iterate", "query="+v)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var errOut strings.Builder
	cmd.Stderr = &errOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	over := make(chan int64, 1)
	var whole atomic.Int64 // the highest reading over the whole run
	go func() {
		for {
			select {
			case <-done:
				return
			default:
			}
			n, err := readHWM(cmd.Process.Pid)
			if err == nil && n > whole.Load() {
				whole.Store(n)
			}
			if err == nil && n > maxIterateRSS {
				over <- n
				cmd.Process.Kill()
				return
			}
			syscall.Nanosleep(&syscall.Timespec{Nsec: 20e6}, nil)
		}
	}()
	br := bufio.NewReader(stdout)
	var lines []string
	for len(lines) < 2 {
		l, err := br.ReadString('\n')
		if err != nil {
			break
		}
		lines = append(lines, l)
	}
	// The process is alive, blocked on the full pipe or making more:
	// its peak so far, then the whole run's once the pipe is closed.
	hwm, hwmErr := readHWM(cmd.Process.Pid)
	stdout.Close()
	cmd.Wait()
	close(done)
	select {
	case n := <-over:
		t.Fatalf("peak resident memory passed %d MiB (%.1f MiB) before two lines were read; read %q", maxIterateRSS>>20, float64(n)/(1<<20), lines)
	default:
	}
	if strings.Join(lines, "") != "http://h:1/1?1\nhttp://h:1/1?2\n" {
		t.Fatalf("first lines %q; stderr %q", lines, errOut.String())
	}
	if hwmErr != nil {
		t.Fatal(hwmErr)
	}
	// VmHWM sampled until the end, not rusage's ru_maxrss, which counts
	// the test process the child was forked from (watchHWM).
	maxrss := whole.Load()
	t.Logf("peak RSS with two lines read: %.1f MiB (VmHWM); over the whole run: %.1f MiB (VmHWM sampled); ended by %v", float64(hwm)/(1<<20), float64(maxrss)/(1<<20), cmd.ProcessState)
	if hwm > maxIterateRSS || maxrss > maxIterateRSS {
		t.Errorf("peak resident memory %.1f MiB (whole run %.1f MiB), over %d MiB", float64(hwm)/(1<<20), float64(maxrss)/(1<<20), maxIterateRSS>>20)
	}
}
