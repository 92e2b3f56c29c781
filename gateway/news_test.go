package gateway_test

// News through the gateway, against INN on loopback (shared/peers/
// debian.md §4), started as the news package's tests start it: one INN
// per machine, so the same lock file is taken first; innd runs as user
// news in the foreground on a free port with a copy of inn.conf whose
// nnrpdloadlimit is 0, a group of the test's own is created and removed
// with ctlinnd, and innd is shut down, then stopped by its process id.

import (
	"bufio"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rfc1738/locator/gateway"
	"github.com/rfc1738/locator/internal/peer"
)

const (
	innBin  = "/usr/lib/news/bin/"
	innLock = "/run/lock/locator-inn.lock" // news/inn_test.go's
)

func TestNews(t *testing.T) {
	peer.RequireRoot(t, "innd (run as user news, started by root)")
	peer.Require(t, innBin+"innd", innBin+"ctlinnd", "setpriv")
	conf, err := os.ReadFile("/etc/news/inn.conf")
	if err != nil {
		t.Skipf("inn: %v", err)
	}
	lock, err := os.OpenFile(innLock, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lock.Close() })
	if b, err := os.ReadFile("/run/news/innd.pid"); err == nil {
		var pid int
		if _, err := fmt.Sscan(string(b), &pid); err == nil && syscall.Kill(pid, 0) == nil {
			t.Skipf("inn: an innd (pid %d) not started by this test runs already", pid)
		}
	}
	dir, err := os.MkdirTemp("", "locator-inn")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	os.Chmod(dir, 0o755)
	c := strings.ReplaceAll("\n"+string(conf), "\nnnrpdloadlimit:", "\nnnrpdloadlimit: 0\n#nnrpdloadlimit:")
	write(t, filepath.Join(dir, "inn.conf"), c[1:], 0o644)
	env := []string{"INNCONF=" + filepath.Join(dir, "inn.conf")}
	asNews := func(prog string, args ...string) error {
		cmd := exec.Command("setpriv", append([]string{"--reuid=news", "--regid=news", "--init-groups", innBin + prog}, args...)...)
		cmd.Env = append(os.Environ(), env...)
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("%s %v: %v\n%s", prog, args, err, out)
		}
		return nil
	}
	srv := peer.Start(t, peer.Spec{
		Name: "innd", Program: "setpriv", Env: env,
		Args: func(port int) ([]string, error) {
			return []string{"--reuid=news", "--regid=news", "--init-groups", innBin + "innd", "-f", "-4", peer.Host, "-P", fmt.Sprint(port)}, nil
		},
		Ready: peer.ReadyLine("200 "),
	})
	t.Cleanup(func() {
		if err := asNews("ctlinnd", "shutdown", "locator gateway test done"); err != nil {
			t.Log(err)
		}
	})
	var r [4]byte
	rand.Read(r[:])
	tag := hex.EncodeToString(r[:])
	group := "locator.g" + tag
	if err := asNews("ctlinnd", "newgroup", group, "y", "locator"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		asNews("ctlinnd", "rmgroup", group)
		os.RemoveAll(filepath.Join("/var/spool/news/articles", strings.ReplaceAll(group, ".", "/")))
	})
	id := "<gw." + tag + "@locator.test>"
	post(t, srv.Addr, "From: tester@locator.test\r\nNewsgroups: "+group+"\r\nSubject: Through the gateway\r\nMessage-ID: "+id+"\r\n\r\nHello, news reader.\r\n")

	gw, _ := startGateway(t, gateway.Config{Policy: gateway.Policy{Allow: rules(t, srv.Addr)}, NewsServer: srv.Addr})
	res, page := get(t, gw.URL+"/nntp://"+srv.Addr+"/"+group)
	if res.StatusCode != 200 || !strings.Contains(page, "Through the gateway") || !contains(hrefs(page), "/nntp://"+srv.Addr+"/"+group+"/1") {
		t.Fatalf("group: %d %q\n%s", res.StatusCode, hrefs(page), page)
	}
	res, body := get(t, gw.URL+"/nntp://"+srv.Addr+"/"+group+"/1")
	if res.StatusCode != 200 || !strings.Contains(body, "Hello, news reader.") || !strings.Contains(body, "Message-ID: "+id) {
		t.Errorf("article: %d\n%s", res.StatusCode, body)
	}
	// news: names no server (RFC 1738 §3.6): the configured one; Lynx
	// sends it so to its news_proxy.
	res, body = raw(t, gw.Listener.Addr().String(), "GET news:"+strings.Trim(id, "<>")+" HTTP/1.0\nHost: x\n\n")
	if res.StatusCode != 200 || !strings.Contains(body, "Hello, news reader.") {
		t.Errorf("news: article by its message-id: %d\n%s", res.StatusCode, body)
	}
	if peer.Require(t, "lynx") != nil {
		out := client(t, []string{"news_proxy=" + gw.URL + "/"}, "lynx", "-dump", "news:"+group)
		if !strings.Contains(out, "Through the gateway") {
			t.Errorf("lynx news_proxy:\n%s", out)
		}
	}
}

// post sends one article with POST after MODE READER (RFC 3977 §6.3.1).
func post(t *testing.T, addr, article string) {
	t.Helper()
	c, err := net.DialTimeout("tcp", addr, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(30 * time.Second))
	br := bufio.NewReader(c)
	expect := func(code string) {
		t.Helper()
		line, err := br.ReadString('\n')
		if err != nil || !strings.HasPrefix(line, code) {
			t.Fatalf("post: want %s, got %q (%v)", code, line, err)
		}
	}
	expect("200 ")
	io.WriteString(c, "MODE READER\r\n")
	expect("200 ")
	io.WriteString(c, "POST\r\n")
	expect("340 ")
	io.WriteString(c, article+".\r\n")
	expect("240 ")
	io.WriteString(c, "QUIT\r\n")
}
