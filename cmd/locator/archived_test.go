package main

// crawl --check --archive and probe --archive against nginx and
// pygopherd: pages captured by a first crawl (and a gopher file by
// get --warc), then removed from the servers, are reported broken with
// their capture as /web/TIMESTAMP/URL.

import (
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rfc1738/locator/internal/peer"
)

// archivedTS returns the timestamp of the capture of u that the index
// of warc holds (its only one).
func archivedTS(t *testing.T, warc, u string) string {
	t.Helper()
	b, err := os.ReadFile(warc + ".cdxj")
	if err != nil {
		t.Fatal(err)
	}
	for l := range strings.SplitSeq(string(b), "\n") {
		if strings.Contains(l, `"url":"`+u+`"`) {
			return strings.Fields(l)[1]
		}
	}
	t.Fatalf("%s holds no capture of %s:\n%s", warc, u, b)
	return ""
}

func TestCrawlCheckArchive(t *testing.T) {
	www, gph := t.TempDir(), t.TempDir()
	writeTree(t, gph, map[string]string{"Gone.txt": "a gopher file\n", "Kept.txt": "kept\n"})
	gs := peer.Pygopherd(t, gph)
	gone := "gopher://" + gs.Addr + "/0/Gone.txt"
	writeTree(t, www, map[string]string{
		"index.html": `<a href="a.html">a</a> <a href="b.html">b</a> <a href="` + gone + `">g</a>`,
		"a.html":     "page a", "b.html": "page b",
	})
	ng := peer.Nginx(t, www, peer.NginxConfig{Connections: 16})
	seed := "http://" + ng.Addr + "/"
	dir := t.TempDir()
	warc, gwarc := filepath.Join(dir, "A.warc.gz"), filepath.Join(dir, "G.warc.gz")
	if code, _, errs := runCLI(t, "", "crawl", "--delay", "0", "--allow-host", "127.0.0.1", "--warc", warc, seed); code != exitOK {
		t.Fatalf("first crawl: exit %d\n%s", code, errs)
	}
	if code, _, errs := runCLI(t, "", "get", "--allow-host", "127.0.0.1", "-o", filepath.Join(dir, "g"), "--warc", gwarc, gone); code != exitOK {
		t.Fatalf("get: exit %d\n%s", code, errs)
	}
	// G's index is made of the file: it has none.
	if err := os.Remove(gwarc + ".cdxj"); err != nil {
		t.Fatal(err)
	}
	tsA := archivedTS(t, warc, seed+"a.html")
	if err := os.Remove(filepath.Join(www, "a.html")); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(gph, "Gone.txt")); err != nil {
		t.Fatal(err)
	}
	args := []string{"crawl", "--delay", "0", "--check", "--allow-host", "127.0.0.1", "--archive", warc, "--archive", gwarc}
	code, out, errs := runCLI(t, "", append(append(args, "--json"), seed)...)
	if code != exitNegative {
		t.Fatalf("exit %d, want %d\n%s\n%s", code, exitNegative, out, errs)
	}
	archived := map[string]string{}
	for l := range strings.SplitSeq(out, "\n") {
		var rec struct{ Event, URL, Status, Archived string }
		if json.Unmarshal([]byte(l), &rec) == nil && rec.Event == "broken" {
			archived[rec.URL] = rec.Archived
		}
	}
	gts := regexp.MustCompile(`^/web/(\d{14})/` + regexp.QuoteMeta(gone) + `$`)
	if len(archived) != 2 || archived[seed+"a.html"] != "/web/"+tsA+"/"+seed+"a.html" || !gts.MatchString(archived[gone]) {
		t.Errorf("broken records: %v\n%s", archived, out)
	}
	// The readable report: a line under the broken URL.
	code, out, _ = runCLI(t, "", append(args, seed)...)
	if code != exitNegative || !strings.Contains(out, "\n  archived: /web/"+tsA+"/"+seed+"a.html\n") || !strings.Contains(out, "  archived: /web/") ||
		strings.Count(out, "archived: ") != 2 {
		t.Errorf("report:\n%s", out)
	}

	// probe --archive: archived= on the line of a URL that is not ok,
	// the archived field of --json; none on one that is ok.
	code, out, errs = runCLI(t, "", "probe", "--allow-host", "127.0.0.1", "--archive", warc, seed+"a.html", seed+"b.html", seed+"none.html")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != exitNegative || len(lines) != 3 || !strings.HasPrefix(lines[0], "gone") || !strings.HasSuffix(lines[0], " archived=/web/"+tsA+"/"+seed+"a.html") && !strings.Contains(lines[0], " archived=/web/"+tsA+"/"+seed+"a.html ") ||
		strings.Contains(lines[1], "archived=") || strings.Contains(lines[2], "archived=") {
		t.Errorf("probe: exit %d\n%s\n%s", code, out, errs)
	}
	_, out, _ = runCLI(t, "", "probe", "--json", "--allow-host", "127.0.0.1", "--archive", warc, seed+"a.html")
	var rec struct{ Status, Archived string }
	if err := json.Unmarshal([]byte(out), &rec); err != nil || rec.Status != "gone" || rec.Archived != "/web/"+tsA+"/"+seed+"a.html" {
		t.Errorf("probe --json: %v %q", err, out)
	}
}

// TestGatewayWaybackCollection: gateway --warc --collection NAME
// answers the Wayback layout under /NAME/ (a capture written by get
// --warc from nginx), not under /web/; a name that is not one is a
// usage error.
func TestGatewayWaybackCollection(t *testing.T) {
	www := t.TempDir()
	writeTree(t, www, map[string]string{"p.html": "the page"})
	ng := peer.Nginx(t, www, peer.NginxConfig{Connections: 16})
	page := "http://" + ng.Addr + "/p.html"
	warc := filepath.Join(t.TempDir(), "p.warc.gz")
	if code, _, errs := runCLI(t, "", "get", "--allow-host", "127.0.0.1", "-o", filepath.Join(t.TempDir(), "p"), "--warc", warc, page); code != exitOK {
		t.Fatalf("get: exit %d\n%s", code, errs)
	}
	ts := archivedTS(t, warc, page)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	o := &gatewayOptions{}
	if err := newGatewayFlagSet(o).Parse([]string{"--log", "none", "--warc", warc, "--collection", "arc"}); err != nil {
		t.Fatal(err)
	}
	e := &env{stdout: io.Discard, stderr: io.Discard}
	closeWARC, code := o.openWARC(e)
	if code != exitOK {
		t.Fatalf("openWARC: %d", code)
	}
	defer closeWARC()
	stop := make(chan struct{})
	done := make(chan int)
	go func() { done <- serveGateway(e, l, o, stop) }()
	defer func() { close(stop); <-done }()
	base := "http://" + l.Addr().String()
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	fetch := func(u string) (*http.Response, string) {
		t.Helper()
		res, err := client.Get(u)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		return res, string(b)
	}
	if res, body := fetch(base + "/arc/cdx?output=json&url=" + url.QueryEscape(page)); res.StatusCode != 200 || strings.Count(body, "\n") != 1 || !strings.Contains(body, `"timestamp": "`+ts+`"`) {
		t.Errorf("/arc/cdx: %d %q", res.StatusCode, body)
	}
	if res, _ := fetch(base + "/web/cdx?url=" + url.QueryEscape(page)); res.StatusCode != http.StatusNotFound {
		t.Errorf("/web/cdx with --collection arc: %d", res.StatusCode)
	}
	res, _ := fetch(base + "/arc/" + page)
	if res.StatusCode != http.StatusFound || res.Header.Get("Location") != base+"/arc/"+ts+"/"+page {
		t.Fatalf("TimeGate: %d %q", res.StatusCode, res.Header.Get("Location"))
	}
	if res, body := fetch(res.Header.Get("Location")); res.StatusCode != 200 || body != "the page" || res.Header.Get("Memento-Datetime") == "" {
		t.Errorf("memento: %d %q %v", res.StatusCode, body, res.Header)
	}
	if code, _, errs := runCLI(t, "", "gateway", "--warc", warc, "--collection", "a b"); code != exitTrouble || !strings.Contains(errs, "--collection") {
		t.Errorf("--collection 'a b': exit %d %q", code, errs)
	}
}
