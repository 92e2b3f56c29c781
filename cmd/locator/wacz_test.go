package main

import (
	"archive/zip"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
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

	// Replayed from the WACZ as the live gateway serves them.
	replay, stop := gatewayOn(t, "--warc", wacz, "--log", "none")
	defer stop()
	live, stopLive := gatewayOn(t, "--allow-host", s.http+","+s.gopher, "--log", "none")
	defer stopLive()
	for _, u := range fetched {
		lc, lb := gatewayBody(t, live, u)
		rc, rb := gatewayBody(t, replay, u)
		if lc != 200 || rc != lc || rb != lb {
			t.Errorf("%s: live %d, replayed %d; bodies differ: %v\nlive:\n%.3000s\nreplayed:\n%.300s", u, lc, rc, rb != lb, lb, rb)
		}
	}
}
