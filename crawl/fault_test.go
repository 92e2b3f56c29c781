package crawl

import (
	"bufio"
	"errors"
	"io"
	"net"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/internal/peer"
	"github.com/rfc1738/locator/internal/robots"
)

// hostileHTTP answers HTTP requests as the faults no real server makes
// on purpose: /robots.txt is a 404; /stall.html sends its header and
// the beginning of its page, then nothing; /reset.html sends its header
// and part of its page, which links to after, then resets the
// connection (RST: SO_LINGER 0).
func hostileHTTP(t *testing.T, after string) string {
	return peer.Hostile(t, func(c net.Conn) {
		c.SetDeadline(time.Now().Add(30 * time.Second))
		br := bufio.NewReader(c)
		line, err := br.ReadString('\n')
		if err != nil {
			return
		}
		for {
			h, err := br.ReadString('\n')
			if err != nil {
				return
			}
			if strings.TrimSpace(h) == "" {
				break
			}
		}
		f := strings.Fields(line)
		if len(f) < 2 {
			return
		}
		head := "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 100000\r\nConnection: close\r\n\r\n"
		switch f[1] {
		case "/stall.html":
			io.WriteString(c, head+"<!DOCTYPE html>\n<title>stall</title>\n")
			io.Copy(io.Discard, br) // until the client gives up
		case "/reset.html":
			io.WriteString(c, head+"<!DOCTYPE html>\n<a href=\""+after+"\">after</a>\n"+strings.Repeat("<p>text</p>\n", 100))
			time.Sleep(100 * time.Millisecond)
			c.(*net.TCPConn).SetLinger(0)
		default:
			io.WriteString(c, "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
		}
	})
}

// TestStallAndReset: a server that stalls in the middle of a page, and
// one that resets the connection in the middle of another: the crawl
// goes on, reports each page failed with why (the idle timeout; the
// reset), follows the links of the part of the page it read, and
// finishes.
func TestStallAndReset(t *testing.T) {
	root := t.TempDir()
	n := peer.Nginx(t, root, peer.NginxConfig{HTTP: nginxTypes, Connections: 16})
	h := "http://" + n.Addr
	bad := "http://" + hostileHTTP(t, h+"/after.html")
	write(t, root, map[string]string{
		"index.html": "<a href=\"" + bad + "/stall.html\">stall</a>\n<a href=\"" + bad + "/reset.html\">reset</a>\n<a href=\"ok.html\">ok</a>\n",
		"ok.html":    "ok",
		"after.html": "after",
	})
	start := time.Now()
	c := &Crawler{Delay: NoDelay, Client: &access.Client{IdleTimeout: 500 * time.Millisecond}}
	r, evs := run(t, c, h+"/index.html")
	if took := time.Since(start); took > 20*time.Second {
		t.Errorf("the crawl took %v", took)
	}
	diff(t, "fetched", fetched(evs), []string{h + "/index.html", h + "/ok.html", h + "/after.html", bad + "/stall.html", bad + "/reset.html"})
	diff(t, "broken", broken(r), []string{
		h + "/index.html <a href> line 1 column 10 -> " + bad + "/stall.html",
		h + "/index.html <a href> line 2 column 10 -> " + bad + "/reset.html",
	})
	for _, e := range evs {
		p, ok := e.(*Page)
		if !ok {
			continue
		}
		var ne net.Error
		switch p.URL.String() {
		case bad + "/stall.html":
			if !errors.As(p.Err, &ne) || !ne.Timeout() || access.Classify(p.Err) != access.Failed {
				t.Errorf("stall: %v, want a timeout", p.Err)
			}
		case bad + "/reset.html":
			if !errors.Is(p.Err, syscall.ECONNRESET) || access.Classify(p.Err) != access.Failed {
				t.Errorf("reset: %v, want a reset", p.Err)
			}
			if p.Links != 1 || p.Read == 0 {
				t.Errorf("reset: %d links in %d octets read", p.Links, p.Read)
			}
		}
	}
}

// TestHugeRobots: a robots.txt of 10 MB, served by nginx, is read up to
// RFC 9309's limit (§2.5: "at least 500 kibibytes"), and no further: a
// rule within the first 500 KiB, however far down, is obeyed, one past
// them is not, and the crawl allocates a small part of the file.
func TestHugeRobots(t *testing.T) {
	root := t.TempDir()
	n := peer.Nginx(t, root, peer.NginxConfig{HTTP: nginxTypes, Connections: 16})
	h := "http://" + n.Addr
	var b strings.Builder
	b.WriteString("User-agent: *\nDisallow: /early/\n")
	pad := "# " + strings.Repeat("padding ", 12) + "\n"
	for b.Len() < robots.MaxSize-10<<10 {
		b.WriteString(pad)
	}
	b.WriteString("Disallow: /mid/\n")
	for b.Len() < robots.MaxSize+10<<10 {
		b.WriteString(pad)
	}
	b.WriteString("Disallow: /late/\n")
	for b.Len() < 10<<20 {
		b.WriteString(pad)
	}
	write(t, root, map[string]string{
		"robots.txt":   b.String(),
		"index.html":   `<a href="early/a.html">a</a> <a href="mid/a.html">b</a> <a href="late/a.html">c</a>`,
		"early/a.html": "a", "mid/a.html": "b", "late/a.html": "c",
	})
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	before := ms.TotalAlloc
	_, evs := run(t, &Crawler{Delay: NoDelay}, h+"/index.html")
	runtime.ReadMemStats(&ms)
	alloc := ms.TotalAlloc - before
	diff(t, "fetched", fetched(evs), []string{h + "/index.html", h + "/late/a.html"})
	diff(t, "skipped", skipped(evs), []string{"robots " + h + "/early/a.html", "robots " + h + "/mid/a.html"})
	t.Logf("a crawl of 4 pages under a robots.txt of %d octets allocated %.1f MB", b.Len(), float64(alloc)/(1<<20))
	if alloc > 4<<20 {
		t.Errorf("allocated %.1f MB, want under 4", float64(alloc)/(1<<20))
	}
}
