package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rfc1738/locator/crawl"
)

// wholeCrawl starts the crawl site and crawls it whole with --check,
// as the tests of stopped crawls compare their runs with: the site, its
// seed, the report and the requests nginx logged (the 56 of the site's
// pages and the check of the link to localhost), the log then emptied.
func wholeCrawl(t *testing.T) (*crawlSite, string, string, []string) {
	t.Helper()
	s := startCrawlSite(t, true)
	seed := "http://" + s.http + "/"
	code, out, errs := runCLI(t, "", "crawl", "--delay", "0", "--depth", "0", "--check", seed)
	if code != exitNegative {
		t.Fatalf("whole crawl: exit %d\n%s", code, errs)
	}
	whole := s.requests(t, 56)
	if err := os.Truncate(s.log, 0); err != nil {
		t.Fatal(err)
	}
	return s, seed, out, whole
}

// compareRuns checks that the requests of runs that stopped and went on
// (both) are those of one whole crawl (whole): each asked, none other,
// robots.txt once a run, and at most most pages asked twice (those under
// way at a stop).
func compareRuns(t *testing.T, whole, both []string, most int) {
	t.Helper()
	got, want := map[string]int{}, map[string]int{}
	for _, l := range both {
		got[l]++
	}
	for _, l := range whole {
		want[l]++
	}
	robots := `"GET /robots.txt HTTP/1.1" 200`
	twice := 0
	for l, n := range got {
		switch {
		case l == robots:
		case want[l] == 0:
			t.Errorf("%s: not asked by the whole crawl", l)
		case n == 2:
			twice++
		case n != 1:
			t.Errorf("%s asked %d times", l, n)
		}
	}
	for l := range want {
		if got[l] == 0 {
			t.Errorf("%s: not asked by the runs", l)
		}
	}
	if twice > most {
		t.Errorf("%d pages asked twice, want at most %d", twice, most)
	}
}

// TestCrawlKilledOften: a crawl with --check kept in --state, killed by
// SIGKILL again and again at several moments of its course — as it
// begins, before the state is made or while it is; after robots.txt;
// early; midway; near its end — and gone on with by --resume each time,
// fetches in all its runs what one whole crawl fetches, each page once
// but the one under way at each kill, and the last run's report is the
// whole crawl's.
func TestCrawlKilledOften(t *testing.T) {
	bin := locatorBin(t)
	s, seed, wholeOut, whole := wholeCrawl(t)
	state := filepath.Join(t.TempDir(), "state")
	args := []string{"crawl", "--delay", "50ms", "--per-host", "1", "--depth", "0", "--check", "--state", state}
	// Each moment is a count of requests nginx logged in all the runs
	// (a run reads robots.txt first); 0 is a kill 20 ms after the start.
	moments := []int{0, 1, 4, 20, 40, 55}
	for i, at := range moments {
		a := append([]string{}, args...)
		if i > 0 {
			a = append(a, "--resume")
		}
		cmd := exec.Command(bin, append(a, seed)...)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		n := 0
		if at == 0 {
			time.Sleep(20 * time.Millisecond)
		} else {
			n = len(s.requests(t, at))
		}
		if err := cmd.Process.Kill(); err != nil {
			t.Fatal(err)
		}
		err := cmd.Wait()
		if ee, ok := err.(*exec.ExitError); !ok || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
			t.Logf("run %d (kill at %d requests) ended before the kill: %v", i, at, err)
		}
		t.Logf("run %d killed after %d requests in all", i, n)
	}
	code, out, errs := runCLI(t, "", append(args, "--resume")...)
	if code != exitNegative {
		t.Fatalf("resume: exit %d\n%s", code, errs)
	}
	if out != wholeOut {
		t.Errorf("report after the kills:\n%s\nwant the whole crawl's:\n%s", out, wholeOut)
	}
	compareRuns(t, whole, s.requests(t, len(whole)), len(moments))
}

// TestCrawlDiskFull: a crawl whose --state DIR fills its disk stops with
// a clear error naming DIR, exit 3; once there is room again, --resume
// goes on from a state that lost nothing: the runs fetch what one whole
// crawl fetches and the report is the whole crawl's. The disk is a small
// tmpfs, mounted for the test (root only).
func TestCrawlDiskFull(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("mounting a tmpfs wants root")
	}
	if _, err := exec.LookPath("mount"); err != nil {
		t.Skip("no mount(8)")
	}
	s, seed, wholeOut, whole := wholeCrawl(t)
	mnt := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=1m", "locator-crawl-test", mnt).CombinedOutput(); err != nil {
		t.Skipf("mount -t tmpfs: %v: %s", err, out)
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", mnt).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v: %s", mnt, err, out)
		}
	})
	// Ballast fills the disk but for room for part of the crawl.
	const room = 64 << 10
	var st syscall.Statfs_t
	if err := syscall.Statfs(mnt, &st); err != nil {
		t.Fatal(err)
	}
	ballast := filepath.Join(mnt, "ballast")
	if err := os.WriteFile(ballast, make([]byte, int64(st.Bavail)*st.Bsize-room), 0o600); err != nil {
		t.Fatal(err)
	}
	state := filepath.Join(mnt, "state")
	args := []string{"crawl", "--delay", "0", "--per-host", "1", "--depth", "0", "--check", "--state", state}
	code, _, errs := runCLI(t, "", append(args, seed)...)
	first := s.requests(t, 1)
	t.Logf("the first run: %d requests; %s", len(first), strings.TrimSpace(errs))
	if code != exitFailed || !strings.Contains(errs, "--state "+state+": ") || !strings.Contains(errs, "no space left on device") ||
		!strings.Contains(errs, "--resume") {
		t.Fatalf("the first run: exit %d, want 3 and the error naming the state directory:\n%s", code, errs)
	}
	if len(first) < 3 || len(first) >= len(whole) {
		t.Fatalf("the first run stopped after %d requests, want some of the %d", len(first), len(whole))
	}
	if err := os.Remove(ballast); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runCLI(t, "", append(args, "--resume")...)
	if code != exitNegative {
		t.Fatalf("resume: exit %d\n%s", code, errs)
	}
	if out != wholeOut {
		t.Errorf("report after --resume:\n%s\nwant the whole crawl's:\n%s", out, wholeOut)
	}
	// Asked twice: at most the pages under way when the events of one
	// could not be written, one a job (fetched while it was handled).
	compareRuns(t, whole, s.requests(t, len(whole)), crawl.DefaultJobs)
}
