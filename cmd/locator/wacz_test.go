package main

import (
	"archive/zip"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/rfc1738/locator/internal/peer"
)

// waczSite is an nginx site of n HTML pages (each with a title and
// size octets of text no compressor shrinks much) and a pygopherd
// gopherhole, linked from its index.
type waczSite struct{ http, gopher string }

func startWACZSite(t *testing.T, n, size int) *waczSite {
	t.Helper()
	root, groot := t.TempDir(), t.TempDir()
	filler := func() string {
		b := make([]byte, size*3/4)
		rand.Read(b)
		return base64.StdEncoding.EncodeToString(b)
	}
	writeTree(t, groot, map[string]string{"about.txt": "About this hole.\n" + filler() + "\n", "sub/deep.txt": "deep\n" + filler() + "\n"})
	g := peer.Pygopherd(t, groot) // it is probed with a menu: its files first
	ng := peer.Nginx(t, root, peer.NginxConfig{HTTP: "types { text/html html; text/plain txt; }", Connections: 64})
	files := map[string]string{}
	var index strings.Builder
	index.WriteString("<!DOCTYPE html>\n<title>The index</title>\n")
	fmt.Fprintf(&index, "<a href=\"gopher://%s/1/\">gopher</a>\n", g.Addr)
	for i := 0; i < n; i++ {
		fmt.Fprintf(&index, "<a href=\"p/%d.html\">%d</a>\n", i, i)
		files[fmt.Sprintf("p/%d.html", i)] = fmt.Sprintf("<!DOCTYPE html>\n<html><head><title>Page %d</title></head>\n<body><a href=\"/\">up</a>\n<p>%s</p></body></html>\n", i, filler())
	}
	files["index.html"] = index.String()
	writeTree(t, root, files)
	return &waczSite{http: ng.Addr, gopher: g.Addr}
}

// waczPages reads pages/pages.jsonl of the WACZ at path: its header
// line, and each page's title by URL.
func waczPages(t *testing.T, path string) (string, map[string]string) {
	t.Helper()
	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	rc, err := zr.Open("pages/pages.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	b, _ := io.ReadAll(rc)
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	pages := map[string]string{}
	for _, l := range lines[1:] {
		var p struct{ URL, TS, Title string }
		if err := json.Unmarshal([]byte(l), &p); err != nil || p.TS == "" {
			t.Fatalf("pages.jsonl line %q: %v", l, err)
		}
		pages[p.URL] = p.Title
	}
	return lines[0], pages
}

// gatewayBody is what the gateway at base answers for u.
func gatewayBody(t *testing.T, base, u string) (int, string) {
	t.Helper()
	res, err := http.Get(base + u)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

// TestCrawlWACZ: crawl --wacz of an nginx site and a pygopherd menu
// writes a WACZ (WACZ 1.2) that Python's zipfile, unzip and warcio read,
// whose pages.jsonl lists every page the crawl fetched with the titles
// of the HTML ones, and that gateway --warc serves as the live gateway
// serves the same URLs.
func TestCrawlWACZ(t *testing.T) {
	s := startWACZSite(t, 5, 2000)
	seed := "http://" + s.http + "/"
	wacz := filepath.Join(t.TempDir(), "crawl.wacz")
	code, out, errs := runCLI(t, "", "crawl", "--delay", "0", "--depth", "0", "--json", "--wacz", wacz, seed)
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	fetched := pagesFetched(t, out, nil)
	// The index, 5 pages, the gopher menu, its file and its directory,
	// and the directory's file.
	if len(fetched) != 10 {
		t.Fatalf("%d pages fetched: %v", len(fetched), fetched)
	}
	entries := peer.ZipEntries(t, wacz)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name)
		if strings.HasPrefix(e.Name, "archive/") && e.Compress != 0 {
			t.Errorf("%s compressed (%d)", e.Name, e.Compress)
		}
	}
	if entries != nil && strings.Join(names, " ") != "archive/crawl.warc.gz indexes/index.cdxj pages/pages.jsonl datapackage.json datapackage-digest.json" {
		t.Errorf("entries: %v", names)
	}
	recs := peer.WarcioWACZ(t, "../../archive/testdata/warccheck.cjs", wacz)
	var responses []string
	for _, r := range recs {
		if r.Error != "" || r.BlockOK == nil || !*r.BlockOK || r.PayloadOK != nil && !*r.PayloadOK {
			t.Errorf("warcio: %+v", r)
		}
		if r.Type == "response" && !strings.HasSuffix(r.URI, "robots.txt") {
			responses = append(responses, r.URI)
		}
	}
	sort.Strings(responses)
	// Beside the pages, the Gopher+ attribute requests the gopher
	// client makes of a menu ("/\t\t$") are recorded.
	var plus []string
	for _, u := range responses {
		if strings.HasSuffix(u, "%09%09$") {
			plus = append(plus, u)
		}
	}
	if len(plus) != 2 {
		t.Errorf("%d Gopher+ attribute requests recorded, want 2 (one per menu)", len(plus))
	}
	responses = slices.DeleteFunc(responses, func(u string) bool { return strings.HasSuffix(u, "%09%09$") })
	diffLines(t, "responses", responses, fetched)

	header, pages := waczPages(t, wacz)
	if header != `{"format": "json-pages-1.0", "id": "pages", "title": "All Pages"}` {
		t.Errorf("pages.jsonl header %s", header)
	}
	var listed []string
	for u, title := range pages {
		listed = append(listed, u)
		want := ""
		switch {
		case u == seed:
			want = "The index"
		case strings.HasPrefix(u, seed+"p/"):
			want = "Page " + strings.TrimSuffix(strings.TrimPrefix(u, seed+"p/"), ".html")
		}
		if title != want {
			t.Errorf("%s: title %q, want %q", u, title, want)
		}
	}
	sort.Strings(listed)
	diffLines(t, "pages", listed, fetched)

	// Replayed from the WACZ as the live gateway serves them: a menu as
	// the same page; an HTML page with its links rewritten into the
	// replay (docs/gateway.md), so its octets are compared as get
	// --from-warc reads them from the WACZ and get fetches them live.
	replay, stop := gatewayOn(t, "--warc", wacz, "--log", "none")
	defer stop()
	live, stopLive := gatewayOn(t, "--allow-host", s.http+","+s.gopher, "--log", "none")
	defer stopLive()
	for _, u := range fetched {
		lc, lb := gatewayBody(t, live, u)
		rc, rb := gatewayBody(t, replay, u)
		if strings.HasPrefix(u, "http:") {
			_, lb, _ = runCLI(t, "", "get", "--allow-host", s.http, u)
			_, rb, _ = runCLI(t, "", "get", "--from-warc", wacz, u)
		}
		if lc != 200 || rc != lc || rb != lb || lb == "" {
			t.Errorf("%s: live %d, replayed %d; bodies differ: %v\nlive:\n%.3000s\nreplayed:\n%.300s", u, lc, rc, rb != lb, lb, rb)
		}
	}
}

// TestDedupAgainstWACZ: a re-crawl of an unchanged site of 2,000 pages
// and a gopherhole with --dedup-against the first crawl's WACZ writes
// revisit records (WARC 1.1 §6.7.2) for its payloads, and a WACZ a small
// part of the first's size, which names the first
// (relation.requires); the gateway over both files replays the first
// crawl's bytes.
func TestDedupAgainstWACZ(t *testing.T) {
	const pages = 2000
	s := startWACZSite(t, pages, 40000)
	seed := "http://" + s.http + "/"
	dir := t.TempDir()
	old, young := filepath.Join(dir, "old.wacz"), filepath.Join(dir, "new.wacz")
	if code, _, errs := runCLI(t, "", "crawl", "--delay", "0", "--depth", "0", "--wacz", old, seed); code != exitOK {
		t.Fatalf("first crawl: exit %d\n%s", code, errs)
	}
	if code, _, errs := runCLI(t, "", "crawl", "--delay", "0", "--depth", "0", "--wacz", young, "--dedup-against", old, seed); code != exitOK {
		t.Fatalf("second crawl: exit %d\n%s", code, errs)
	}
	types := func(path string) map[string]int {
		m := map[string]int{}
		for _, r := range peer.WarcioWACZ(t, "../../archive/testdata/warccheck.cjs", path) {
			if r.Error != "" || r.BlockOK == nil || !*r.BlockOK {
				t.Errorf("warcio: %+v", r)
			}
			m[r.Type]++
		}
		return m
	}
	first, second := types(old), types(young)
	captures := second["response"] + second["resource"] + second["revisit"]
	if first["response"] != captures {
		t.Errorf("first crawl %v, second %v: not the same captures", first, second)
	}
	oldSize, newSize := fileSize(t, old), fileSize(t, young)
	if out, err := exec.Command("unzip", "-v", young).CombinedOutput(); err == nil {
		t.Logf("%s", out)
	}
	revisits := float64(second["revisit"]) / float64(captures)
	growth := float64(newSize) / float64(oldSize)
	t.Logf("first crawl %d octets %v; second %d octets %v: %.1f%% revisits, %.2f%% of the first's size",
		oldSize, first, newSize, second, 100*revisits, 100*growth)
	// Measured: every capture of the second crawl a revisit (the 2,000
	// pages, the index, the 404 of robots.txt, the two menus, their
	// Gopher+ attributes and the two files); 4.14% of the first's size
	// (pages of 40,000 octets: a revisit and its request, compressed,
	// are about 1,240 octets, their index and pages lines 65).
	if second["revisit"] != captures || captures != pages+9 {
		t.Errorf("%d revisits of %d captures, want all of %d", second["revisit"], captures, pages+9)
	}
	if revisits < 0.95 || growth > 0.05 || growth < 0.040 || growth > 0.043 {
		t.Errorf("%.1f%% revisits (want ≥ 95%%), %.2f%% of the first's size (want ≤ 5%%; measured 4.14%%)", 100*revisits, 100*growth)
	}

	zr, err := zip.OpenReader(young)
	if err != nil {
		t.Fatal(err)
	}
	rc, _ := zr.Open("datapackage.json")
	var pkg struct {
		Relation struct{ Requires []string }
	}
	if err := json.NewDecoder(rc).Decode(&pkg); err != nil || len(pkg.Relation.Requires) != 1 || pkg.Relation.Requires[0] != "old.wacz" {
		t.Errorf("new.wacz's relation %+v (%v), want requires [old.wacz]", pkg.Relation, err)
	}
	rc.Close()
	zr.Close()

	// Replay of both files: each URL as the first crawl alone replays it.
	both, stopBoth := gatewayOn(t, "--warc", old, "--warc", young, "--log", "none")
	defer stopBoth()
	firstOnly, stopFirst := gatewayOn(t, "--warc", old, "--log", "none")
	defer stopFirst()
	urls := []string{seed, "gopher://" + s.gopher + "/1/", "gopher://" + s.gopher + "/0/about.txt", "gopher://" + s.gopher + "/0/sub/deep.txt"}
	for i := 0; i < pages; i += 97 {
		urls = append(urls, fmt.Sprintf("%sp/%d.html", seed, i))
	}
	for _, u := range urls {
		fc, fb := gatewayBody(t, firstOnly, u)
		bc, bb := gatewayBody(t, both, u)
		if fc != 200 || bc != fc || bb != fb {
			t.Errorf("%s: the first crawl replays %d, both files %d; bodies differ: %v\n%.300s", u, fc, bc, bb != fb, bb)
		}
	}
	// The second file alone holds revisits without their payloads.
	secondOnly, stopSecond := gatewayOn(t, "--warc", young, "--log", "none")
	defer stopSecond()
	if code, body := gatewayBody(t, secondOnly, seed+"p/1.html"); code == 200 {
		t.Errorf("the second crawl alone replays a revisit: %d\n%.300s", code, body)
	}
}

func fileSize(t *testing.T, path string) int64 {
	t.Helper()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return st.Size()
}

// TestGetWACZ: get --wacz of an HTML page and a gopher file writes a
// WACZ whose pages are the URLs given (the HTML page's with its title);
// get --from-warc reads them back from it with no server; a WACZ whose
// WARC file was altered is refused, naming the entry.
func TestGetWACZ(t *testing.T) {
	s := startWACZSite(t, 2, 100)
	page, hole := "http://"+s.http+"/p/1.html", "gopher://"+s.gopher+"/0/about.txt"
	dir := t.TempDir()
	wacz := filepath.Join(dir, "get.wacz")
	code, live, errs := runCLI(t, "", "get", "--wacz", wacz, page, hole)
	if code != exitOK {
		t.Fatalf("get --wacz: exit %d\n%s", code, errs)
	}
	for _, r := range peer.WarcioWACZ(t, "../../archive/testdata/warccheck.cjs", wacz) {
		if r.Error != "" || r.BlockOK == nil || !*r.BlockOK || r.PayloadOK != nil && !*r.PayloadOK {
			t.Errorf("warcio: %+v", r)
		}
	}
	peer.ZipEntries(t, wacz)
	_, pages := waczPages(t, wacz)
	if len(pages) != 2 || pages[page] != "Page 1" || pages[hole] != "" {
		t.Errorf("pages %v, want %s (Page 1) and %s", pages, page, hole)
	}
	if code, _, _ := runCLI(t, "", "get", "--wacz", wacz, page); code == exitOK {
		t.Error("get --wacz over an existing file succeeded")
	}
	if code, _, _ := runCLI(t, "", "get", "--wacz", filepath.Join(dir, "x.wacz"), "--warc", filepath.Join(dir, "x.warc.gz"), page); code != 2 {
		t.Errorf("get --wacz with --warc: exit %d, want 2", code)
	}
	if code, _, _ := runCLI(t, "", "crawl", "--wacz", filepath.Join(dir, "y.wacz"), "--warc", filepath.Join(dir, "y.warc.gz"), page); code != 2 {
		t.Errorf("crawl --wacz with --warc: exit %d, want 2", code)
	}
	code, replayed, errs := runCLI(t, "", "get", "--from-warc", wacz, page, hole)
	if code != exitOK || replayed != live {
		t.Errorf("--from-warc: exit %d %s; replayed %d octets, live %d", code, errs, len(replayed), len(live))
	}

	// One octet of the stored WARC file changed: refused, the entry named.
	data, _ := os.ReadFile(wacz)
	zr, err := zip.OpenReader(wacz)
	if err != nil {
		t.Fatal(err)
	}
	off, _ := zr.File[0].DataOffset()
	name := zr.File[0].Name
	zr.Close()
	data[off+100] ^= 1
	bad := filepath.Join(dir, "bad.wacz")
	os.WriteFile(bad, data, 0o644)
	code, _, errs = runCLI(t, "", "get", "--from-warc", bad, page)
	if code == exitOK || !strings.Contains(errs, `entry "`+name+`"`) {
		t.Errorf("an altered WACZ: exit %d %s, want an error naming %s", code, errs, name)
	}
}
