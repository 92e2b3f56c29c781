package ftp_test

// Sessions reused across retrievals (ftp.Client, "Sessions"): one login
// for many URLs of one server through one access.Client, back in the
// login directory before each URL's CWD sequence (RFC 1738 §3.2.2); no
// reuse after a Body closed early; a session the server ended while it
// waited idle replaced without the caller seeing it; concurrent requests
// on sessions of their own. On pyftpdlib, whose log has each command, and
// on vsftpd, whose idle_session_timeout ends an idle session with 421 and
// whose sessions are processes of their own.

import (
	"bytes"
	"context"
	"io"
	"os"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/ftp"
	"github.com/rfc1738/locator/internal/loctest"
)

// fetch follows raw with c, reads the whole Body and closes it, and fails
// t unless the body is want.
func fetch(t *testing.T, c *access.Client, raw, want string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := c.Get(ctx, loctest.MustParse(t, raw))
	if err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	b, err := io.ReadAll(res.Body)
	if cerr := res.Close(); err == nil {
		err = cerr
	}
	if err != nil || string(b) != want {
		t.Fatalf("%s: body %q, %v; want %q", raw, b, err, want)
	}
}

// list follows raw, a directory, with c and returns its entries' names.
func list(t *testing.T, c *access.Client, raw string) []string {
	t.Helper()
	res, err := c.Get(context.Background(), loctest.MustParse(t, raw))
	if err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	var names []string
	for _, e := range entries(res.Listing) {
		names = append(names, e.Type+" "+e.Name)
	}
	if err := listingErr(res, nil); err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	return names
}

// TestReusePyftpdlib follows URLs in several directories of pyftpdlib
// through one access.Client: one login (USER once), PWD before the first
// CWD, and each later URL whose session left the login directory begins
// with CWD back to it; TYPE for each transfer as the URL says, TYPE A
// before a listing that follows a TYPE I transfer; every body exact.
func TestReusePyftpdlib(t *testing.T) {
	srv := startPyftpd(t)
	h := srv.Addr
	_, off := srv.commands(t, 0)
	var dlg lockedBuffer
	c := &access.Client{Dialogue: &dlg, IdleTimeout: 20 * time.Second}
	fetch(t, c, "ftp://"+h+"/pub/hello.txt;type=a", anonFiles["pub/hello.txt"])
	fetch(t, c, "ftp://"+h+"/pub/sub/deep.txt", anonFiles["pub/sub/deep.txt"])
	if got, want := list(t, c, "ftp://"+h+"/pub/sub/"), []string{"file deep.txt", "directory inner"}; !reflect.DeepEqual(got, want) {
		t.Errorf("listing %q, want %q", got, want)
	}
	fetch(t, c, "ftp://"+h+"/top.txt", anonFiles["top.txt"])
	fetch(t, c, "ftp://"+h+"/top.txt", anonFiles["top.txt"])
	fetch(t, c, "ftp://"+h+"/%2Fetc/motd", anonFiles["etc/motd"])
	fetch(t, c, "ftp://"+h+"/pub/bin.dat", anonFiles["pub/bin.dat"])
	c.CloseIdle()
	srv.waitQuit(t, off)
	cmds, _ := srv.commands(t, off)
	want := []string{"USER anonymous", "PASS ******",
		"PWD", "CWD pub", "TYPE A", "EPSV", "RETR hello.txt",
		"CWD /", "CWD pub", "CWD sub", "TYPE I", "EPSV", "RETR deep.txt",
		"CWD /", "CWD pub", "CWD sub", "TYPE A", "EPSV", "NLST", "FEAT", "EPSV", "MLSD",
		"CWD /", "TYPE I", "EPSV", "RETR top.txt",
		"TYPE I", "EPSV", "RETR top.txt", // the session did not leave the login directory
		"CWD /etc", "TYPE I", "EPSV", "RETR motd",
		"CWD /", "CWD pub", "TYPE I", "EPSV", "RETR bin.dat",
		"QUIT"}
	if !reflect.DeepEqual(cmds, want) {
		t.Errorf("the server received\n  %q\nwant\n  %q", cmds, want)
	}
	d, _ := dlg.since(0)
	if n := strings.Count(d, "* connect "+h+"\n"); n != 1 {
		t.Errorf("%d control connections, want 1:\n%s", n, tail(d))
	}
	if n := strings.Count(d, "* the logged-in session of an earlier request is reused\n"); n != 6 {
		t.Errorf("%d reuse notes, want 6:\n%s", n, tail(d))
	}
}

// vsftpdLogins counts the logins vsftpd logged after offset from.
func (v *vsftpd) logins(t *testing.T, from int) int {
	t.Helper()
	b, err := os.ReadFile(v.Log)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Count(string(b[from:]), `FTP command: Client "127.0.0.1", "USER `)
}

// logSize returns the length of vsftpd's log.
func (v *vsftpd) logSize(t *testing.T) int {
	t.Helper()
	b, err := os.ReadFile(v.Log)
	if err != nil {
		t.Fatal(err)
	}
	return len(b)
}

// TestReuseVsftpd: ten URLs in different directories of vsftpd through
// one access.Client log in once, on one session process, and every body
// is exact.
func TestReuseVsftpd(t *testing.T) {
	v := startVsftpd(t)
	h := v.Addr
	from := v.logSize(t)
	c := &access.Client{IdleTimeout: 20 * time.Second}
	urls := []struct{ path, body string }{
		{"/pub/hello.txt", anonFiles["pub/hello.txt"]},
		{"/pub/sub/deep.txt", anonFiles["pub/sub/deep.txt"]},
		{"/pub/sub/inner/leaf.txt", anonFiles["pub/sub/inner/leaf.txt"]},
		{"/top.txt", anonFiles["top.txt"]},
		{"/%2Fetc/motd", anonFiles["etc/motd"]},
		{"/etc/motd", anonFiles["etc/motd"]},
		{"/pub/bin.dat", anonFiles["pub/bin.dat"]},
		{"/pub/with%20space.txt", anonFiles["pub/with space.txt"]},
		{"/pub/crlf.txt;type=a", "a\nb\n"},
		{"/big.bin", strings.Repeat("0123456789abcdef", 1<<16)},
	}
	for _, u := range urls {
		fetch(t, c, "ftp://"+h+u.path, u.body)
	}
	c.CloseIdle()
	v.waitQuit(t, from)
	if n := v.logins(t, from); n != 1 {
		t.Errorf("%d logins for %d URLs, want 1", n, len(urls))
	}
	all, _ := v.sessions(t, from)
	if len(all) != 1 {
		t.Fatalf("sessions %q, want 1", all)
	}
	want := "PWD|CWD pub|TYPE I|EPSV|RETR hello.txt|" +
		"CWD /|CWD pub|CWD sub|TYPE I|EPSV|RETR deep.txt|" +
		"CWD /|CWD pub|CWD sub|CWD inner|TYPE I|EPSV|RETR leaf.txt|" +
		"CWD /|TYPE I|EPSV|RETR top.txt|" +
		"CWD /etc|TYPE I|EPSV|RETR motd|" + // top.txt left the session in the login directory
		"CWD /|CWD etc|TYPE I|EPSV|RETR motd|" +
		"CWD /|CWD pub|TYPE I|EPSV|RETR bin.dat|" +
		"CWD /|CWD pub|TYPE I|EPSV|RETR with space.txt|" +
		"CWD /|CWD pub|TYPE A|EPSV|RETR crlf.txt|" +
		"CWD /|TYPE I|EPSV|RETR big.bin|QUIT"
	for _, cmds := range all {
		if got := strings.Join(cmds, "|"); got != want {
			t.Errorf("the session received\n  %s\nwant\n  %s", got, want)
		}
	}
}

// TestReuseNotAfterAbort: a Body closed before its end is aborted (ABOR)
// and its session ended (QUIT): the next Get logs in anew. So is the
// session after the server refused the file.
func TestReuseNotAfterAbort(t *testing.T) {
	srv := startPyftpd(t)
	srv.bigFile(t, "big.bin", 16<<20)
	h := srv.Addr
	_, off := srv.commands(t, 0)
	c := &access.Client{IdleTimeout: 20 * time.Second}
	defer c.CloseIdle()
	res, err := c.Get(context.Background(), loctest.MustParse(t, "ftp://"+h+"/big.bin"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.ReadFull(res.Body, make([]byte, 100)); err != nil {
		t.Fatal(err)
	}
	if err := res.Close(); err != nil {
		t.Fatalf("Close after an early end: %v", err)
	}
	srv.waitQuit(t, off)
	cmds, off := srv.commands(t, off)
	if want := []string{"USER anonymous", "PASS ******", "TYPE I", "EPSV", "RETR big.bin", "ABOR", "QUIT"}; !reflect.DeepEqual(cmds, want) {
		t.Errorf("the server received\n  %q\nwant\n  %q", cmds, want)
	}
	if _, err := c.Get(context.Background(), loctest.MustParse(t, "ftp://"+h+"/pub/nothere.txt")); err == nil {
		t.Fatal("a missing file was delivered")
	}
	srv.waitQuit(t, off)
	cmds, off = srv.commands(t, off)
	if want := []string{"USER anonymous", "PASS ******", "PWD", "CWD pub", "TYPE I", "EPSV", "RETR nothere.txt", "QUIT"}; !reflect.DeepEqual(cmds, want) {
		t.Errorf("after the refusal the server received\n  %q\nwant\n  %q", cmds, want)
	}
	fetch(t, c, "ftp://"+h+"/top.txt", anonFiles["top.txt"])
	c.CloseIdle()
	srv.waitQuit(t, off)
	cmds, _ = srv.commands(t, off)
	if want := []string{"USER anonymous", "PASS ******", "TYPE I", "EPSV", "RETR top.txt", "QUIT"}; !reflect.DeepEqual(cmds, want) {
		t.Errorf("the next Get: the server received\n  %q\nwant\n  %q", cmds, want)
	}
}

// TestReuseAfterServerEnd: vsftpd ends a session idle for
// idle_session_timeout (1 s) with "421 Timeout." and closes it; the next
// Get, whose first command (CWD back to the login directory, or TYPE for
// a session that never left it) meets the 421, logs in anew and delivers
// the file, the caller none the wiser. A session whose process is killed
// (its connection closed without a reply) is replaced the same way.
func TestReuseAfterServerEnd(t *testing.T) {
	v := startVsftpdConf(t, "idle_session_timeout=1\n", func(root string) { tree(t, root, anonFiles) })
	h := v.Addr
	var dlg lockedBuffer
	c := &access.Client{Dialogue: &dlg, IdleTimeout: 20 * time.Second}
	defer c.CloseIdle()
	// waitEnded waits until vsftpd has ended the idle session.
	waitEnded := func(from int) {
		t.Helper()
		for range 500 {
			b, _ := os.ReadFile(v.Log)
			if strings.Contains(string(b[from:]), `FTP response: Client "127.0.0.1", "421 Timeout."`) {
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
		t.Fatal("vsftpd did not end the idle session")
	}

	t.Run("CWD back meets the 421", func(t *testing.T) {
		from := v.logSize(t)
		_, at := dlg.since(0)
		fetch(t, c, "ftp://"+h+"/pub/hello.txt", anonFiles["pub/hello.txt"])
		waitEnded(from)
		fetch(t, c, "ftp://"+h+"/pub/sub/deep.txt", anonFiles["pub/sub/deep.txt"])
		d, _ := dlg.since(at)
		for _, want := range []string{"> CWD /\n< 421 Timeout.\n", "* ftp: the server ended the idle session: \"421 Timeout.\": another session follows\n"} {
			if !strings.Contains(d, want) {
				t.Errorf("the dialogue has no %q:\n%s", want, tail(d))
			}
		}
		if n := strings.Count(d, "* connect "+h+"\n"); n != 2 {
			t.Errorf("%d logins, want 2:\n%s", n, tail(d))
		}
		c.CloseIdle()
	})
	t.Run("the first command of the request meets the 421", func(t *testing.T) {
		from := v.logSize(t)
		_, at := dlg.since(0)
		fetch(t, c, "ftp://"+h+"/top.txt", anonFiles["top.txt"])
		waitEnded(from)
		fetch(t, c, "ftp://"+h+"/top.txt", anonFiles["top.txt"])
		d, _ := dlg.since(at)
		for _, want := range []string{"> TYPE I\n< 421 Timeout.\n", "* ftp: the server ended the idle session: \"421 Timeout.\": the request begins again on a new login\n"} {
			if !strings.Contains(d, want) {
				t.Errorf("the dialogue has no %q:\n%s", want, tail(d))
			}
		}
		if n := v.logins(t, from); n != 2 {
			t.Errorf("%d logins, want 2:\n%s", n, tail(d))
		}
		c.CloseIdle()
	})
	t.Run("the session's process killed: no reply, the connection closed", func(t *testing.T) {
		from := v.logSize(t)
		_, at := dlg.since(0)
		fetch(t, c, "ftp://"+h+"/top.txt", anonFiles["top.txt"])
		all, _ := v.sessions(t, from)
		if len(all) != 1 {
			t.Fatalf("sessions %q, want 1", all)
		}
		for pid := range all {
			// The session's process and its privileged parent, both forked
			// for the session by the vsftpd this test started: stopped
			// first, so that neither answers when the other goes, then
			// killed; the connection closes without a reply.
			n, err := strconv.Atoi(pid)
			if err != nil {
				t.Fatal(err)
			}
			stat, err := os.ReadFile("/proc/" + pid + "/stat")
			if err != nil {
				t.Fatal(err)
			}
			f := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
			parent, err := strconv.Atoi(f[1])
			if err != nil || parent == v.Pid() {
				t.Fatalf("the session's parent %q: not its own", f[1])
			}
			for _, sig := range []syscall.Signal{syscall.SIGSTOP, syscall.SIGKILL} {
				for _, p := range []int{n, parent} {
					if err := syscall.Kill(p, sig); err != nil {
						t.Fatal(err)
					}
				}
			}
			for range 500 {
				if syscall.Kill(n, 0) != nil && syscall.Kill(parent, 0) != nil {
					break
				}
				time.Sleep(10 * time.Millisecond)
			}
		}
		fetch(t, c, "ftp://"+h+"/top.txt", anonFiles["top.txt"])
		d, _ := dlg.since(at)
		if !regexp.MustCompile(`\* ftp: the server closed the idle session: .*: the request begins again on a new login\n`).MatchString(d) {
			t.Errorf("no note of the closed session:\n%s", tail(d))
		}
		if n := strings.Count(d, "* connect "+h+"\n"); n != 2 {
			t.Errorf("%d logins, want 2:\n%s", n, tail(d))
		}
	})
}

// TestReuseConcurrent: Gets whose Bodies are open at once each have a
// session of their own (six logins); closed, at most four of them wait
// for reuse (the others end with QUIT at once), and CloseIdle ends those.
// Then Gets from several goroutines on one Client, each body exact.
func TestReuseConcurrent(t *testing.T) {
	srv := startPyftpd(t)
	h := srv.Addr
	_, off := srv.commands(t, 0)
	c := &access.Client{IdleTimeout: 20 * time.Second}
	defer c.CloseIdle()
	files := []string{"pub/hello.txt", "pub/sub/deep.txt", "top.txt", "etc/motd", "pub/bin.dat", "pub/sub/inner/leaf.txt"}
	var open []*access.Resource
	for _, f := range files {
		res, err := c.Get(context.Background(), loctest.MustParse(t, "ftp://"+h+"/"+f))
		if err != nil {
			t.Fatal(err)
		}
		open = append(open, res)
	}
	count := func(verb string) int {
		cmds, _ := srv.commands(t, off)
		return strings.Count("\n"+strings.Join(cmds, "\n"), "\n"+verb)
	}
	if n := count("USER"); n != len(files) {
		t.Errorf("%d logins for %d open Bodies, want %d", n, len(files), len(files))
	}
	for i, res := range open {
		b, err := io.ReadAll(res.Body)
		if err != nil || string(b) != anonFiles[files[i]] {
			t.Errorf("%s: %q, %v", files[i], b, err)
		}
		res.Close()
	}
	quits := func(want int) {
		t.Helper()
		for range 500 {
			if count("QUIT") >= want {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		time.Sleep(50 * time.Millisecond)
		if n := count("QUIT"); n != want {
			t.Errorf("%d QUIT, want %d", n, want)
		}
	}
	quits(len(files) - 4)
	c.CloseIdle()
	quits(len(files))

	_, off = srv.commands(t, 0)
	var wg sync.WaitGroup
	for g := range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 8 {
				f := files[(g+i)%len(files)]
				ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
				res, err := c.Get(ctx, loctest.MustParse(t, "ftp://"+h+"/"+f))
				if err != nil {
					cancel()
					t.Error(err)
					return
				}
				b, err := io.ReadAll(res.Body)
				res.Close()
				cancel()
				if err != nil || !bytes.Equal(b, []byte(anonFiles[f])) {
					t.Errorf("%s: %q, %v", f, b, err)
				}
			}
		}()
	}
	wg.Wait()
	if n := count("USER"); n < 1 || n > 6 {
		t.Errorf("%d logins for 6 goroutines' 48 Gets, want 1 to 6", n)
	}
	if n := count("RETR"); n != 48 {
		t.Errorf("%d RETR, want 48", n)
	}
}

// TestReuseBounds: one ftp.Client given to five access.Clients keeps at
// most 16 idle sessions in all: twenty sessions released, the four
// oldest end with QUIT at once, and CloseIdle ends the rest.
func TestReuseBounds(t *testing.T) {
	srv := startPyftpd(t)
	h := srv.Addr
	_, off := srv.commands(t, 0)
	f := &ftp.Client{}
	var open []*access.Resource
	var clients []*access.Client
	for range 5 {
		c := &access.Client{IdleTimeout: 20 * time.Second, Schemes: withFTP(f)}
		clients = append(clients, c)
		for range 4 {
			res, err := c.Get(context.Background(), loctest.MustParse(t, "ftp://"+h+"/top.txt"))
			if err != nil {
				t.Fatal(err)
			}
			open = append(open, res)
		}
	}
	defer clients[0].CloseIdle()
	count := func(verb string) int {
		cmds, _ := srv.commands(t, off)
		return strings.Count("\n"+strings.Join(cmds, "\n"), "\n"+verb)
	}
	for _, res := range open {
		if b, err := io.ReadAll(res.Body); err != nil || string(b) != anonFiles["top.txt"] {
			t.Errorf("body %q, %v", b, err)
		}
		res.Close()
	}
	quits := func(want int) {
		t.Helper()
		for range 500 {
			if count("QUIT") >= want {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		time.Sleep(50 * time.Millisecond)
		if n := count("QUIT"); n != want {
			t.Errorf("%d QUIT, want %d", n, want)
		}
	}
	if n := count("USER"); n != 20 {
		t.Errorf("%d logins, want 20", n)
	}
	quits(4)
	clients[0].CloseIdle() // the ftp.Client's: every idle session
	quits(20)
}
