package ftp_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/ftp"
	"github.com/rfc1738/locator/internal/loctest"
)

// lockedBuffer is a dialogue log that may be written by a Client's
// goroutines (a pooled session's QUIT) while the test reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// since returns what was written after the first n octets, and the
// length now.
func (l *lockedBuffer) since(n int) (string, int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()[n:], l.b.Len()
}

// vsftpdCommand matches a command line of vsftpd's log, with the process
// that read it: `[pid 123] [ftp] FTP command: Client "127.0.0.1",
// "QUIT"`.
var vsftpdCommand = regexp.MustCompile(`\[pid (\d+)\](?: \[[^\]]*\])? FTP command: Client "[^"]*", "([^"]*)"`)

// sessions returns, from vsftpd's log after offset from, the commands
// each logged-in session received after its login, by the process id
// that serves it, and the new offset. vsftpd reads USER and PASS in one
// process and serves the session from another once logged in, so the
// login is left out: a session is known by its process after the login.
func (v *vsftpd) sessions(t *testing.T, from int) (map[string][]string, int) {
	t.Helper()
	b, err := os.ReadFile(v.Log)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string][]string{}
	for _, s := range vsftpdCommand.FindAllStringSubmatch(string(b[from:]), -1) {
		if verb, _, _ := strings.Cut(s[2], " "); verb != "USER" && verb != "PASS" {
			m[s[1]] = append(m[s[1]], s[2])
		}
	}
	return m, len(b)
}

// TestClientsConcurrent runs three access.Clients with different
// settings at once against one vsftpd: one whose policy allows the host
// probes and fetches a file, both on one login; one whose policy denies
// the host is refused before any connection (*access.PolicyError); one
// whose MaxSize is below the file's size gets access.ErrTooLarge (its
// aborted session ends), then probes the file. Then each Client's pool
// of sessions is its own: CloseIdle on the first ends its logged-in
// session (vsftpd logs that session's QUIT, and only it), and the
// third's next probe reuses its own session, still open, while the
// first's logs in anew.
func TestClientsConcurrent(t *testing.T) {
	v := startVsftpd(t)
	host, _, _ := net.SplitHostPort(v.Addr)
	var allowLog, denyLog, smallLog lockedBuffer
	allow := &access.Client{IdleTimeout: 20 * time.Second, Dialogue: &allowLog,
		Policy: access.Policy{Allow: mustRules(t, host)}}
	deny := &access.Client{IdleTimeout: 20 * time.Second, Dialogue: &denyLog,
		Policy: access.Policy{Deny: mustRules(t, host)}}
	small := &access.Client{IdleTimeout: 20 * time.Second, Dialogue: &smallLog, MaxSize: 1000,
		Schemes: withFTP(&ftp.Client{UserAddress: "small@example.org"})}
	defer allow.CloseIdle()
	defer small.CloseIdle()
	hello := loctest.MustParse(t, "ftp://"+v.Addr+"/pub/hello.txt")
	big := loctest.MustParse(t, "ftp://"+v.Addr+"/big.bin")
	ctx := context.Background()

	t.Run("at once", func(t *testing.T) {
		t.Run("policy allows the host", func(t *testing.T) {
			t.Parallel()
			if st := allow.Probe(ctx, hello); st.State != access.StateOK || st.Size != 12 {
				t.Errorf("probe: %s size %d (%v)", st.State, st.Size, st.Err)
			}
			res, err := allow.Get(ctx, hello)
			if err != nil {
				t.Fatal(err)
			}
			b, err := io.ReadAll(res.Body)
			res.Close()
			if err != nil || string(b) != "line1\nline2\n" {
				t.Errorf("body %q, %v", b, err)
			}
		})
		t.Run("policy denies the host", func(t *testing.T) {
			t.Parallel()
			_, err := deny.Get(ctx, hello)
			var pe *access.PolicyError
			if !errors.As(err, &pe) || pe.Rule != "host" || access.Classify(err) != access.Forbidden {
				t.Errorf("get: %v, want a *access.PolicyError of rule host", err)
			}
			if st := deny.Probe(ctx, hello); st.State != access.StatePolicy {
				t.Errorf("probe: %s (%v), want policy", st.State, st.Err)
			}
			if d, _ := denyLog.since(0); strings.Contains(d, "* connect") {
				t.Errorf("a denied host was connected to:\n%s", d)
			}
		})
		t.Run("MaxSize below the file's size", func(t *testing.T) {
			t.Parallel()
			res, err := small.Get(ctx, big)
			if err == nil {
				_, err = io.Copy(io.Discard, res.Body)
				res.Close()
			}
			if !errors.Is(err, access.ErrTooLarge) || access.Classify(err) != access.Failed {
				t.Errorf("get: %v, want access.ErrTooLarge", err)
			}
			if st := small.Probe(ctx, big); st.State != access.StateOK || st.Size != 1<<20 {
				t.Errorf("probe: %s size %d (%v)", st.State, st.Size, st.Err)
			}
		})
	})
	if t.Failed() {
		return
	}

	// Each of allow and small keeps one logged-in session (for
	// ftp.ProbeIdle): allow's served its probe and then its Get; small's
	// Get, aborted, ended its own session, and its probe logged in anew.
	// The server's log says which session is whose: the one that sent
	// SIZE hello.txt is allow's, SIZE big.bin small's.
	all, off := v.sessions(t, 0)
	var allowPid, smallPid string
	for pid, cmds := range all {
		c := strings.Join(cmds, "|")
		switch {
		case strings.Contains(c, "SIZE hello.txt"):
			allowPid = pid
		case strings.Contains(c, "SIZE big.bin"):
			smallPid = pid
		}
	}
	if allowPid == "" || smallPid == "" || len(all) != 3 {
		t.Fatalf("sessions %q: want 3, two of them probes (SIZE hello.txt, SIZE big.bin)", all)
	}
	if c := strings.Join(all[allowPid], "|"); !strings.HasSuffix(c, "SIZE hello.txt|MDTM hello.txt|CWD /|CWD pub|TYPE I|EPSV|RETR hello.txt") {
		t.Errorf("allow's session %s: %s, want its probe, then its Get back in the login directory", allowPid, c)
	}
	for _, pid := range []string{allowPid, smallPid} {
		if cmds := all[pid]; cmds[len(cmds)-1] == "QUIT" {
			t.Fatalf("probe session %s ended before CloseIdle: %q", pid, cmds)
		}
	}

	// small's Get session has ended; vsftpd may log its last lines
	// (QUIT) after off was taken: what follows counts only the idle
	// sessions and new ones.
	probesAndNew := func(m map[string][]string) map[string][]string {
		for pid := range m {
			if _, old := all[pid]; old && pid != allowPid && pid != smallPid {
				delete(m, pid)
			}
		}
		return m
	}
	_, allowAt := allowLog.since(0)
	_, smallAt := smallLog.since(0)
	allow.CloseIdle()
	var after map[string][]string
	for range 500 {
		if after, _ = v.sessions(t, off); len(after[allowPid]) > 0 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	after = probesAndNew(after)
	if len(after) != 1 || strings.Join(after[allowPid], "|") != "QUIT" {
		t.Fatalf("after allow.CloseIdle vsftpd logged %q, want QUIT from allow's session %s alone", after, allowPid)
	}

	// small's session is still there: its next probe reuses it, no new
	// login; allow's next probe logs in anew.
	if st := small.Probe(ctx, big); st.State != access.StateOK {
		t.Errorf("small's probe after allow.CloseIdle: %s (%v)", st.State, st.Err)
	}
	if d, _ := smallLog.since(smallAt); !strings.Contains(d, "* the logged-in session of an earlier request is reused\n") || strings.Contains(d, "* connect") {
		t.Errorf("small's probe did not reuse its session:\n%s", d)
	}
	if st := allow.Probe(ctx, hello); st.State != access.StateOK {
		t.Errorf("allow's probe after its CloseIdle: %s (%v)", st.State, st.Err)
	}
	if d, _ := allowLog.since(allowAt); strings.Contains(d, "reused") || !strings.Contains(d, "* connect "+v.Addr+"\n") {
		t.Errorf("allow's probe after CloseIdle did not log in anew:\n%s", d)
	}
	after, _ = v.sessions(t, off)
	after = probesAndNew(after)
	// small's session never left its login directory: no CWD back.
	if len(after) != 3 || strings.Join(after[smallPid], "|") != "TYPE I|SIZE big.bin|MDTM big.bin" {
		t.Errorf("after CloseIdle vsftpd logged %q: want allow's QUIT, small's probe on its session %s, and a new login", after, smallPid)
	}
}

// mustRules reads ss as policy rules (access.ParseRules).
func mustRules(t *testing.T, ss ...string) []access.Rule {
	t.Helper()
	rs, err := access.ParseRules(ss)
	if err != nil {
		t.Fatal(err)
	}
	return rs
}
