package main

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/png"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rfc1738/locator/internal/peer"
)

// replaySiteImages are the small site's images (testdata/replaysite
// names them), each one colour, so that a screenshot shows whether it
// was loaded.
var replaySiteImages = []struct {
	name string
	w, h int
	c    color.RGBA
}{
	{"img/logo.png", 120, 60, color.RGBA{0x1f, 0x8a, 0x3c, 0xff}},
	{"img/stripe.png", 8, 48, color.RGBA{0x6a, 0x2c, 0x91, 0xff}},
	{"img/mark.png", 40, 40, color.RGBA{0xe0, 0x90, 0x10, 0xff}},
	{"img/box.png", 80, 40, color.RGBA{0x30, 0x60, 0xc0, 0xff}},
	{"img/bg.png", 6, 4, color.RGBA{0xc8, 0x10, 0x50, 0xff}},
}

// TestReplayLooksLiveChromium: a site crawled from nginx with crawl
// --warc, and replayed by gateway --warc, looks in headless Chromium as
// it did live: the screenshots are the same, pixel for pixel. The
// small site of testdata/replaysite loads a style sheet by a
// root-relative link, which @imports another (CSS Cascade 4 §2.1), whose
// url() (CSS Values 4 §4.5) names an image relative to itself; an <img>,
// a style attribute's and a <style> element's url()s, a frame of
// another of its pages, and a script; its
// live screenshot shows each image's colour and the theme's, so that
// the comparison is of a styled page. While the replay is loaded, nginx
// is asked nothing (its access log gains no line), and the gateway
// serves each of the page's requests from the archive (200).
// Sphinx documentation as Debian installs it (python3-aiosmtpd's: the
// Read the Docs theme, its web fonts), where there, is compared the
// same way with the live page's scripts off, for a replayed page runs
// none (the theme's script adds one button to the menu, 88 pixels).
func TestReplayLooksLiveChromium(t *testing.T) {
	peer.Require(t, "chromium")
	site := t.TempDir()
	if err := os.CopyFS(site, os.DirFS("testdata/replaysite")); err != nil {
		t.Fatal(err)
	}
	for _, im := range replaySiteImages {
		writePNG(t, filepath.Join(site, im.name), im.w, im.h, im.c)
	}
	t.Run("testdata", func(t *testing.T) {
		live, replayed := replayScreenshots(t, site, "index.html", true, "/css/theme.css", "/img/bg.png", "/about.html")
		for _, im := range replaySiteImages {
			if n := countColour(live, im.c); n == 0 {
				t.Errorf("the live page shows no pixel of %s's colour", im.name)
			}
		}
		if countColour(live, color.RGBA{0xf4, 0xf1, 0xe8, 0xff}) == 0 {
			t.Errorf("the live page shows no pixel of theme.css's background")
		}
		comparePNG(t, live, replayed)
	})
	t.Run("sphinx", func(t *testing.T) {
		docs := "/usr/share/doc/python3-aiosmtpd/html"
		if _, err := os.Stat(filepath.Join(docs, "_static/css/theme.css")); err != nil {
			t.Skip("no Sphinx documentation installed (python3-aiosmtpd's)")
		}
		live, replayed := replayScreenshots(t, docs, "intro.html", false, "/_static/css/theme.css", "/_static/fonts/Lato-Regular.woff2",
			"/_static/fonts/RobotoSlab-Bold.woff2", "/_static/fonts/fontawesome-webfont.woff2?v=4.7.0")
		comparePNG(t, live, replayed)
	})
}

// replayScreenshots serves root with nginx, crawls page from it with
// crawl --warc, and returns Chromium's screenshot of the page live and
// replayed by gateway --warc, checking that the replay asked nginx
// nothing and that the gateway served each of want (paths of the site)
// from the archive with 200. A replayed page runs no script (rewrite.go):
// without liveScripts the live page is served with scripts off too
// (nginx adds Content-Security-Policy: script-src 'none').
func replayScreenshots(t *testing.T, root, page string, liveScripts bool, want ...string) (live, replayed image.Image) {
	t.Helper()
	dir := t.TempDir()
	cfg := peer.NginxConfig{Dir: dir, Connections: 32,
		HTTP: "types { text/html html; text/css css; image/png png; application/javascript js; font/woff2 woff2; font/ttf ttf; }"}
	if !liveScripts {
		// Chromium's own switch (--blink-settings=scriptEnabled=false)
		// is not obeyed by its headless mode; the page's policy is.
		cfg.Server = `add_header Content-Security-Policy "script-src 'none'";`
	}
	ng := peer.Nginx(t, root, cfg)
	site := "http://" + ng.Addr
	warc := filepath.Join(t.TempDir(), "site.warc.gz")
	// Exit 1: a broken link (Sphinx's pages name a few files Debian
	// leaves out); the rest is crawled.
	if code, out, errs := runCLI(t, "", "crawl", "--delay", "0", "--depth", "3", "--warc", warc, site+"/"+page); code != exitOK && code != 1 {
		t.Fatalf("crawl: exit %d\n%s%s", code, out, errs)
	} else if code == 1 {
		t.Logf("crawl: %s", lastLines(out, 5))
	}
	art := artefacts(t)
	live = screenshot(t, site+"/"+page, filepath.Join(art, "live.png"))

	logFile := filepath.Join(t.TempDir(), "gateway.log")
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	o := &gatewayOptions{}
	if err := newGatewayFlagSet(o).Parse([]string{"--warc", warc}); err != nil {
		t.Fatal(err)
	}
	lf, err := os.Create(logFile)
	if err != nil {
		t.Fatal(err)
	}
	defer lf.Close()
	o.cfg.Log = lf // as runGateway sets it from --log
	e := &env{stdout: io.Discard, stderr: io.Discard}
	closeWARC, code := o.openWARC(e)
	if code != exitOK {
		t.Fatalf("openWARC: %d", code)
	}
	defer closeWARC()
	// What nginx was asked before the replay (the crawl, the live
	// screenshot): nginx writes a request's line once its reply is
	// sent, so the log is read once its length holds still (a bound,
	// not a timing).
	before := settledLog(t, filepath.Join(dir, "access.log"))
	stop := make(chan struct{})
	done := make(chan int)
	go func() { done <- serveGateway(e, l, o, stop) }()
	gw := "http://" + l.Addr().String()
	replayed = screenshot(t, gw+"/"+site+"/"+page, filepath.Join(art, "replayed.png"))
	close(stop)
	<-done

	if after := settledLog(t, filepath.Join(dir, "access.log")); len(after) != len(before) {
		t.Errorf("the replay asked nginx:\n%s", strings.Join(after[len(before):], "\n"))
	}
	glog, _ := os.ReadFile(logFile)
	for _, p := range append([]string{"/" + page}, want...) {
		if !strings.Contains(string(glog), " GET "+site+p+" 200 ") {
			t.Errorf("the gateway did not serve %s from the archive:\n%s", site+p, glog)
		}
	}
	if strings.Contains(string(glog), " 403 ") {
		t.Errorf("the gateway refused a request of the replayed page:\n%s", glog)
	}
	return live, replayed
}

// artefacts is where a test's screenshots go: $LOCATOR_ARTEFACTS/<test>
// when set, else a temporary directory.
func artefacts(t *testing.T) string {
	t.Helper()
	d := os.Getenv("LOCATOR_ARTEFACTS")
	if d == "" {
		return t.TempDir()
	}
	d = filepath.Join(d, strings.ReplaceAll(t.Name(), "/", "_"))
	if err := os.MkdirAll(d, 0o755); err != nil {
		t.Fatal(err)
	}
	return d
}

// screenshot loads u in headless Chromium (every name but loopback
// unresolvable, background traffic off, a fresh profile) and returns
// its screenshot, kept at path.
func screenshot(t *testing.T, u, path string) image.Image {
	t.Helper()
	bin := peer.Require(t, "chromium")[0]
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-default-apps",
		"--disable-extensions", "--user-data-dir="+t.TempDir(), "--hide-scrollbars", "--window-size=1000,900",
		"--force-device-scale-factor=1", "--virtual-time-budget=5000",
		"--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost",
		"--screenshot="+path, u)
	cmd.Env = []string{"HOME=" + t.TempDir(), "PATH=" + os.Getenv("PATH")}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("chromium %s: %v\n%s", u, err, out)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return img
}

// comparePNG reports the pixels where got differs from want.
func comparePNG(t *testing.T, want, got image.Image) {
	t.Helper()
	if want.Bounds() != got.Bounds() {
		t.Fatalf("screenshots of %v and %v", want.Bounds(), got.Bounds())
	}
	diff, first := 0, image.Point{-1, -1}
	b := want.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r1, g1, b1, a1 := want.At(x, y).RGBA()
			r2, g2, b2, a2 := got.At(x, y).RGBA()
			if r1 != r2 || g1 != g2 || b1 != b2 || a1 != a2 {
				if diff == 0 {
					first = image.Pt(x, y)
				}
				diff++
			}
		}
	}
	if diff > 0 {
		t.Errorf("the replayed screenshot differs from the live one in %d of %d pixels, the first at %v", diff, b.Dx()*b.Dy(), first)
	}
}

// countColour counts the pixels of img that are c.
func countColour(img image.Image, c color.RGBA) int {
	n := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if uint8(r>>8) == c.R && uint8(g>>8) == c.G && uint8(bl>>8) == c.B {
				n++
			}
		}
	}
	return n
}

// writePNG writes a w × h image of one colour.
func writePNG(t *testing.T, path string, w, h int, c color.RGBA) {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.SetRGBA(x, y, c)
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// settledLog reads an nginx access log once two readings 200 ms apart
// agree, within a minute: nginx writes a request's line after its reply.
func settledLog(t *testing.T, path string) []string {
	t.Helper()
	var last []byte
	for end := time.Now().Add(time.Minute); time.Now().Before(end); time.Sleep(200 * time.Millisecond) {
		b, err := os.ReadFile(path)
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		if last != nil && bytes.Equal(b, last) {
			break
		}
		last = b
	}
	var l []string
	for _, s := range strings.Split(strings.TrimSpace(string(last)), "\n") {
		if s != "" {
			l = append(l, s)
		}
	}
	return l
}

// lastLines is the last n lines of s.
func lastLines(s string, n int) string {
	l := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(l) > n {
		l = l[len(l)-n:]
	}
	return strings.Join(l, "\n")
}
