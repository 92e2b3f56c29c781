package archive_test

// Round trips through real servers (internal/peer): what an
// access.Client fetches with an archive.Writer as its Recorder is
// served again by the gateway from an archive.Reader, with no network,
// as the gateway serves it live.

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/archive"
	"github.com/rfc1738/locator/crawl"
	"github.com/rfc1738/locator/gateway"
	"github.com/rfc1738/locator/gemini"
	"github.com/rfc1738/locator/gopher"
	lochttp "github.com/rfc1738/locator/http"
	"github.com/rfc1738/locator/internal/peer"
	"github.com/rfc1738/locator/news"
	"github.com/rfc1738/locator/nntp"
	"github.com/rfc1738/locator/prospero"
	_ "github.com/rfc1738/locator/schemes"
	"github.com/rfc1738/locator/wais"
)

// fetch follows url with c and reads the object or listing to its end,
// so that the record is made (when the Resource is closed).
func fetch(t *testing.T, c *access.Client, url string) string {
	t.Helper()
	u, err := locator.Parse(url)
	if err != nil {
		t.Fatal(err)
	}
	res, err := c.Get(context.Background(), u)
	if err != nil {
		t.Fatalf("%s: %v", url, err)
	}
	var b strings.Builder
	if res.Listing != nil {
		for {
			e, err := res.Listing.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("%s: %v", url, err)
			}
			fmt.Fprintf(&b, "%+v\n", e)
		}
	} else if _, err := io.Copy(&b, res.Body); err != nil {
		t.Fatalf("%s: %v", url, err)
	}
	if err := res.Close(); err != nil {
		t.Fatalf("%s: close: %v", url, err)
	}
	return b.String()
}

// record fetches the URLs with a Client whose Recorder writes one WARC
// file, and returns the file and what each URL gave.
func record(t *testing.T, urls ...string) (string, map[string]string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "live.warc.gz")
	w, err := archive.Create(path, archive.Options{Software: "locator test"})
	if err != nil {
		t.Fatal(err)
	}
	c := &access.Client{Recorder: w, Policy: access.Policy{}}
	got := map[string]string{}
	for _, u := range urls {
		got[u] = fetch(t, c, u)
	}
	c.CloseIdle()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return path, got
}

func startGateway(t *testing.T, cfg gateway.Config) *httptest.Server {
	t.Helper()
	ts := httptest.NewServer(gateway.New(cfg))
	t.Cleanup(ts.Close)
	return ts
}

func allow(t *testing.T, ss ...string) access.Policy {
	var p access.Policy
	for _, s := range ss {
		r, err := access.ParseRule(s)
		if err != nil {
			t.Fatal(err)
		}
		p.Allow = append(p.Allow, r)
	}
	return p
}

// page asks the gateway gw for url (its path form) and returns the
// status and page.
func page(t *testing.T, gw *httptest.Server, url string) (int, string) {
	t.Helper()
	c := gw.Client()
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	resp, err := c.Get(gw.URL + "/" + url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b)
}

func openReader(t *testing.T, files ...string) *archive.Reader {
	t.Helper()
	rd, err := archive.Open(files...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rd.Close() })
	if p := rd.Problems(); len(p) > 0 {
		t.Errorf("problems: %v", p)
	}
	return rd
}

// replayable skips t when the scheme's client cannot yet read a
// recorded exchange back.
func replayable(t *testing.T, client any) {
	if _, ok := client.(access.Replayer); !ok {
		t.Skipf("the %T client is no access.Replayer yet", client)
	}
}

func warcioCheck(t *testing.T, files ...string) []peer.WarcioRecord {
	t.Helper()
	recs := peer.Warcio(t, "testdata/warccheck.cjs", files...)
	for _, r := range recs {
		if r.Error != "" || r.BlockOK == nil || !*r.BlockOK || r.PayloadOK != nil && !*r.PayloadOK {
			t.Errorf("warcio: %+v", r)
		}
	}
	return recs
}

func TestGopherThroughGateway(t *testing.T) {
	replayable(t, &gopher.Client{})
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "hello.txt"), []byte("Hello, gopher.\n"), 0o644)
	os.Mkdir(filepath.Join(root, "sub"), 0o755)
	os.WriteFile(filepath.Join(root, "sub", "deep.txt"), []byte("deep\n"), 0o644)
	s := peer.Pygopherd(t, root)
	base := "gopher://" + s.Addr
	urls := []string{base + "/1/", base + "/0/hello.txt", base + "/1/sub"}
	path, _ := record(t, urls...)
	recs := warcioCheck(t, path)
	if n := countTypes(recs)["response"]; n != len(urls) {
		t.Errorf("%d response records, want %d", n, len(urls))
	}

	live := startGateway(t, gateway.Config{Policy: allow(t, s.Addr)})
	rd := openReader(t, path)
	replay := startGateway(t, gateway.Config{Archive: rd})
	for _, u := range urls {
		lc, lp := page(t, live, u)
		rc, rp := page(t, replay, u)
		if lc != 200 || rc != lc || rp != lp {
			t.Errorf("%s: live %d, replayed %d; pages differ: %v\nlive:\n%s\nreplayed:\n%s", u, lc, rc, rp != lp, lp, rp)
		}
	}
	code, p := page(t, replay, base+"/0/absent.txt")
	if code != http.StatusNotFound || !strings.Contains(p, "not in the archive") {
		t.Errorf("an absent URL: %d\n%s", code, p)
	}
	fallback := startGateway(t, gateway.Config{Archive: rd, ArchiveFallback: true, Policy: allow(t, s.Addr)})
	if code, p := page(t, fallback, base+"/0/sub/deep.txt"); code != 200 || !strings.Contains(p, "deep") {
		t.Errorf("--warc-fallback: %d\n%s", code, p)
	}
}

var hrefRE = regexp.MustCompile(`href="[^"]*"`)

func countTypes(recs []peer.WarcioRecord) map[string]int {
	m := map[string]int{}
	for _, r := range recs {
		m[r.Type]++
	}
	return m
}

func TestFTPThroughGateway(t *testing.T) {
	v := peer.Vsftpd(t, "", func(root string) {
		os.MkdirAll(filepath.Join(root, "pub"), 0o755)
		os.WriteFile(filepath.Join(root, "pub", "f.txt"), []byte("an FTP file\n"), 0o644)
	})
	u := "ftp://" + v.Addr + "/pub/f.txt"
	path, got := record(t, u)
	if got[u] != "an FTP file\n" {
		t.Fatalf("live: %q", got[u])
	}
	recs := warcioCheck(t, path)
	types := countTypes(recs)
	if types["resource"] != 1 || types["metadata"] != 1 {
		t.Errorf("records %v, want a resource and its metadata", types)
	}
	live := startGateway(t, gateway.Config{Policy: allow(t, v.Addr)})
	replay := startGateway(t, gateway.Config{Archive: openReader(t, path)})
	lc, lp := page(t, live, u)
	rc, rp := page(t, replay, u)
	if lc != 200 || rc != lc || rp != lp {
		t.Errorf("%s: live %d, replayed %d\nlive:\n%s\nreplayed:\n%s", u, lc, rc, lp, rp)
	}
}

func TestHTTPAndFileThroughGateway(t *testing.T) {
	replayable(t, &lochttp.Client{})
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "index.html"), []byte("<html><body><a href=\"a.html\">a</a></body></html>\n"), 0o644)
	os.WriteFile(filepath.Join(root, "a.html"), []byte("<p>page a</p>\n"), 0o644)
	s := peer.Nginx(t, root, peer.NginxConfig{Connections: 64})
	file := filepath.Join(t.TempDir(), "note.txt")
	os.WriteFile(file, []byte("a local file\n"), 0o644)
	urls := []string{"http://" + s.Addr + "/", "http://" + s.Addr + "/a.html", "file://" + file}
	path, got := record(t, urls...)
	warcioCheck(t, path)
	replay := startGateway(t, gateway.Config{Archive: openReader(t, path), ArchiveFileURLs: true})
	// The gateway passes http URLs to the browser and serves no file:
	// what it replays is the object as fetched, an HTML page's links
	// rewritten (a file URL's capture only when told to:
	// ArchiveFileURLs).
	if code, p := page(t, startGateway(t, gateway.Config{Archive: openReader(t, path)}), "file://"+file); code != http.StatusForbidden || strings.Contains(p, "a local file") {
		t.Errorf("a file URL's capture without ArchiveFileURLs: %d %q", code, p)
	}
	for _, u := range urls {
		code, p := page(t, replay, u)
		want := got[u]
		if u == urls[0] {
			// An HTML page's links lead back through the gateway
			// (gateway/rewrite.go), so that its replay stays in the
			// archive; its other octets are as fetched.
			want = strings.Replace(want, `href="a.html"`, `href="/http://`+s.Addr+`/a.html"`, 1)
		}
		if code != 200 || p != want {
			t.Errorf("%s: replayed %d %q, fetched %q", u, code, p, got[u])
		}
	}
	if code, p := page(t, replay, "http://"+s.Addr+"/absent.html"); code != 404 || !strings.Contains(p, "not in the archive") {
		t.Errorf("an absent http URL: %d %s", code, p)
	}
	// With the fallback an http URL not archived is the browser's again.
	fb := startGateway(t, gateway.Config{Archive: openReader(t, path), ArchiveFallback: true})
	if code, _ := page(t, fb, "http://"+s.Addr+"/absent.html"); code != http.StatusFound {
		t.Errorf("an absent http URL with the fallback: %d, want a redirect to it", code)
	}
	if code, _ := page(t, fb, "file:///etc/passwd"); code != http.StatusForbidden {
		t.Errorf("an absent file URL with the fallback: %d, want 403", code)
	}
}

// TestSameDigestsAsWget: Debian's wget --warc-file and a crawl with a
// Writer as the Client's Recorder, over the same nginx site, record the
// same HTTP payload digests.
func TestSameDigestsAsWget(t *testing.T) {
	peer.Require(t, "/usr/bin/wget")
	root := t.TempDir()
	site := map[string]string{
		"index.html": `<html><body><a href="a.html">a</a> <a href="b.html">b</a> <img src="img.bin"> <a href="dir/c.html">c</a></body></html>`,
		"a.html":     `<html><body><a href="index.html">home</a> page a</body></html>`,
		"b.html":     `<html><body><a href="a.html">a</a> page b ` + strings.Repeat("text ", 5000) + `</body></html>`,
		"dir/c.html": `<html><body><a href="../a.html">up</a> <a href="d.txt">d</a></body></html>`,
		"dir/d.txt":  "plain text\n",
		"img.bin":    string(bytesOf(70000)),
	}
	for p, c := range site {
		os.MkdirAll(filepath.Dir(filepath.Join(root, p)), 0o755)
		os.WriteFile(filepath.Join(root, p), []byte(c), 0o644)
	}
	s := peer.Nginx(t, root, peer.NginxConfig{Connections: 64})
	seed := "http://" + s.Addr + "/index.html"

	dir := t.TempDir()
	wget := exec.Command("/usr/bin/wget", "-q", "--recursive", "--level=inf", "--no-parent", "--delete-after",
		"-P", filepath.Join(dir, "files"), "--warc-file="+filepath.Join(dir, "wget"), seed)
	if out, err := wget.CombinedOutput(); err != nil {
		t.Fatalf("wget: %v\n%s", err, out)
	}

	path := filepath.Join(dir, "crawl.warc.gz")
	w, err := archive.Create(path, archive.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cr := &crawl.Crawler{Client: &access.Client{Recorder: w}}
	u, _ := locator.Parse(seed)
	if err := cr.Crawl(context.Background(), []*locator.URL{u}, func(crawl.Event) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	// A crawl that records reads every object whole, an image included
	// (crawl.Crawler drains what it finds no links in when its Client
	// records), so the two sets of payloads are equal.
	digests := func(name string, recs []peer.WarcioRecord) map[string]string {
		m := map[string]string{}
		for _, r := range recs {
			if r.Type != "response" || r.Payload == "" || strings.HasSuffix(r.URI, "/robots.txt") {
				continue
			}
			if r.Truncated != "" {
				t.Errorf("%s: %s recorded cut short (%s)", name, r.URI, r.Truncated)
			}
			m[r.Payload] = r.URI
		}
		return m
	}
	ours := digests("crawl", warcioCheck(t, path))
	theirs := digests("wget", peer.Warcio(t, "testdata/warccheck.cjs", filepath.Join(dir, "wget.warc.gz")))
	if len(ours) != len(site) || len(theirs) != len(site) {
		t.Errorf("the crawl recorded %d payloads, wget %d, the site has %d: %v", len(ours), len(theirs), len(site), ours)
	}
	for d, u := range theirs {
		if _, ok := ours[d]; !ok {
			t.Errorf("wget recorded %s %s, the crawl did not", u, d)
		}
	}
	for d, u := range ours {
		if _, ok := theirs[d]; !ok {
			t.Errorf("the crawl recorded %s %s, wget did not", u, d)
		}
	}
}

func bytesOf(n int) []byte {
	b := make([]byte, n)
	x := uint32(1)
	for i := range b {
		x = x*1664525 + 1013904223
		b[i] = byte(x >> 24)
	}
	return b
}

// throughGateway records urls with c (a Client whose Recorder it sets),
// checks the file with warcio, and asks a live gateway (cfg, its Policy
// allowing the server) and one replaying the file (no Policy: it
// connects nowhere) for each URL: the two pages must be the same.
func throughGateway(t *testing.T, c *access.Client, cfg gateway.Config, urls ...string) *archive.Reader {
	t.Helper()
	return throughGatewayAs(t, c, cfg, func(p string) string { return p }, urls...)
}

// throughGatewayAs is throughGateway comparing what same keeps of each
// page.
func throughGatewayAs(t *testing.T, c *access.Client, cfg gateway.Config, same func(string) string, urls ...string) *archive.Reader {
	t.Helper()
	path := filepath.Join(t.TempDir(), "live.warc.gz")
	w, err := archive.Create(path, archive.Options{})
	if err != nil {
		t.Fatal(err)
	}
	c.Recorder = w
	for _, u := range urls {
		fetch(t, c, u)
	}
	c.CloseIdle()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	warcioCheck(t, path)
	live := startGateway(t, cfg)
	rd := openReader(t, path)
	rcfg := cfg
	rcfg.Policy, rcfg.Archive = access.Policy{}, rd
	replay := startGateway(t, rcfg)
	for _, u := range urls {
		lc, lp := page(t, live, u)
		rc, rp := page(t, replay, u)
		if lc != 200 || rc != lc || same(rp) != same(lp) {
			t.Errorf("%s: live %d, replayed %d\nlive:\n%s\nreplayed:\n%s", u, lc, rc, lp, rp)
		}
	}
	return rd
}

func TestGophernicusThroughGateway(t *testing.T) {
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "hello.txt"), []byte("Hello from gophernicus.\n"), 0o644)
	os.WriteFile(filepath.Join(root, "gophermap"), []byte("iA menu of gophernicus\t\t\t\n0Hello\thello.txt\n"), 0o644)
	s := peer.Gophernicus(t, root)
	throughGateway(t, &access.Client{}, gateway.Config{Policy: allow(t, s.Addr)},
		"gopher://"+s.Addr+"/1/", "gopher://"+s.Addr+"/0/hello.txt")
}

// TestUMNGopherPlusThroughGateway: a Gopher+ server's menu and item.
func TestUMNGopherPlusThroughGateway(t *testing.T) {
	data := t.TempDir()
	os.WriteFile(filepath.Join(data, "hello.txt"), []byte("Hello from UMN gopherd.\n"), 0o644)
	s := peer.UMNGopherd(t, data)
	throughGateway(t, &access.Client{}, gateway.Config{Policy: allow(t, s.Addr)},
		"gopher://"+s.Addr+"/1/", "gopher://"+s.Addr+"/0/hello.txt", "gopher://"+s.Addr+"/0/hello.txt%09%09+")
}

func TestGeminiThroughGateway(t *testing.T) {
	replayable(t, &gemini.Client{})
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "index.gmi"), []byte("# Index\n=> hello.txt Hello\nSome text\n"), 0o644)
	os.WriteFile(filepath.Join(root, "hello.txt"), []byte("hello, gemini\n"), 0o644)
	m := peer.MollyBrown(t, root, peer.MollyConfig{})
	known := filepath.Join(t.TempDir(), "known_hosts")
	c := &access.Client{Schemes: map[string]access.Fetcher{"gemini": &gemini.Client{KnownHosts: known}}}
	throughGateway(t, c, gateway.Config{Policy: allow(t, m.Addr), Schemes: c.Schemes},
		"gemini://"+m.Addr+"/", "gemini://"+m.Addr+"/hello.txt")
}

func TestNewsThroughGateway(t *testing.T) {
	replayable(t, &nntp.Client{})
	in := peer.INN(t)
	id := "<warc." + in.Tag + "@locator.test>"
	in.Post(t, "From: tester@locator.test\r\nNewsgroups: "+in.Group+"\r\nSubject: Archived\r\nMessage-ID: "+id+"\r\n\r\nHello, archive.\r\n")
	throughGateway(t, &access.Client{}, gateway.Config{Policy: allow(t, in.Addr), Schemes: map[string]access.Fetcher{"news": &news.Client{Server: in.Addr}}},
		"nntp://"+in.Addr+"/"+in.Group, "nntp://"+in.Addr+"/"+in.Group+"/1")
}

func TestWAISThroughGateway(t *testing.T) {
	replayable(t, &wais.Client{})
	ws := peer.FreeWAIS(t, map[string]string{
		"wais.txt":   "Wide Area Information Servers use the Z39.50 protocol over TCP.\n",
		"gopher.txt": "The Internet Gopher protocol was developed at the University of Minnesota.\n",
	})
	search := "wais://" + ws.Addr + "/demo?Z39.50"
	u, _ := locator.Parse(search)
	res, err := (&access.Client{}).Get(context.Background(), u)
	if err != nil || res.Listing == nil {
		t.Fatalf("search: %v", err)
	}
	entries, err := res.Listing.ReadAll()
	res.Close()
	if err != nil || len(entries) != 1 {
		t.Fatalf("search: %d entries, %v", len(entries), err)
	}
	throughGateway(t, &access.Client{}, gateway.Config{Policy: allow(t, ws.Addr)}, search, entries[0].URL)
}

func TestProsperoThroughGateway(t *testing.T) {
	replayable(t, &prospero.Client{})
	peer.BuildShared(t, "prospero")
	r := t.TempDir()
	for p, c := range map[string]string{
		"info-tree/readme.txt":                          "hello\n",
		"info-tree/docs/a.txt":                          "doc\n",
		"shadow" + r + "/info-tree/.directory#contents": "VERSION 5\nINCLUDE-NATIVE INCLREAL\n",
	} {
		os.MkdirAll(filepath.Dir(filepath.Join(r, p)), 0o755)
		os.WriteFile(filepath.Join(r, p), []byte(c), 0o644)
	}
	for _, d := range []string{"security", "pfsdat"} {
		os.MkdirAll(filepath.Join(r, d), 0o755)
	}
	s, _ := peer.Dirsrv(t, r)
	dir := "prospero://" + s.Addr + "/" + r + "/info-tree"
	// The live gateway's page may lack the entries' sizes and dates that
	// the recorded reply holds: the links are compared.
	links := func(p string) string { return strings.Join(hrefRE.FindAllString(p, -1), " ") }
	throughGatewayAs(t, &access.Client{}, gateway.Config{Policy: allow(t, s.Addr)}, links, dir, dir+"/docs")
}
