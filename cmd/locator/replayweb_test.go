package main

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rfc1738/locator/internal/peer"
	"github.com/rfc1738/locator/internal/replayweb"
)

// TestReplayWebPageOldProtocols: what crawl --warc records of a Gopher
// menu (RFC 1436 §3.1) and its items, a Gopher+ item (Gopher+ §2.4), an
// FTP directory (RFC 959 §4.1.3 LIST), a news group and its article
// (RFC 3977 §6.1.1, §6.2.1) and a Gemini page (Gemini §5) opens in
// ReplayWeb.page, the Webrecorder player, in Chromium as a person
// reads it: each as a page whose items are links, a click on which
// replays that item's capture, within the host, to another host's and
// into another scheme. locator's own replay still reads the captures'
// octets.
func TestReplayWebPageOldProtocols(t *testing.T) {
	groot := t.TempDir()
	writeTree(t, groot, map[string]string{"hello.txt": "Hello from the gopherhole.\n", "sub/deep.txt": "Deep down.\n"})
	g := peer.Pygopherd(t, groot)
	froot := t.TempDir()
	writeTree(t, froot, map[string]string{"pub/readme.txt": "Read me over FTP.\n"})
	f := peer.Pyftpdlib(t, froot, peer.PyftpdOptions{})
	in := peer.INN(t)
	id := "<rwp." + in.Tag + "@locator.test>"
	in.Post(t, "From: tester@locator.test\r\nNewsgroups: "+in.Group+"\r\nSubject: Seen in the player\r\nMessage-ID: "+id+"\r\n\r\nAn article replayed.\r\n")
	mroot := t.TempDir()
	gopherMenu := "gopher://" + g.Addr + "/1/"
	writeTree(t, mroot, map[string]string{
		"index.gmi": "# A capsule\n=> other.gmi The other page\n=> " + gopherMenu + " The gopherhole\n* a list item\n",
		"other.gmi": "# Other\nThe other page's text.\n",
	})
	m := peer.MollyBrown(t, mroot, peer.MollyConfig{})
	t.Setenv("XDG_CONFIG_HOME", t.TempDir()) // Gemini's known hosts: trusted on first use

	warc := filepath.Join(t.TempDir(), "old.warc.gz")
	gopherPlus := "gopher://" + g.Addr + "/0/hello.txt%09%09+"
	ftpDir := "ftp://" + f.Addr + "/pub/"
	group := "news:" + in.Group
	capsule := peer.GeminiURL(m, "/index.gmi")
	code, out, errs := runCLI(t, "", "crawl", "--delay", "0", "--depth", "2", "--allow-host", "127.0.0.1",
		"--nntp-server", in.Server.Addr, "--warc", warc, gopherMenu, gopherPlus, ftpDir, group, capsule)
	if code != exitOK {
		t.Fatalf("crawl: exit %d\n%s%s", code, out, errs)
	}
	// locator's own replay reads the capture, not the page drawn from it.
	if code, menu, errs := runCLI(t, "", "get", "--from-warc", warc, gopherMenu); code != 0 || !strings.Contains(menu, "hello") || strings.Contains(menu, "<html") {
		t.Errorf("get --from-warc %s: exit %d\n%s%s", gopherMenu, code, menu, errs)
	}

	// The WARC file's CDXJ index: ReplayWeb.page reads each record it
	// replays by its offset (as it reads a WACZ). Read whole, the file
	// stops ReplayWeb.page at the first capture of another protocol
	// whose block holds no empty line: its WARC reader (warcio.js)
	// reads every 'response' block's HTTP header, past the record's end
	// when the block has none (docs/archive.md).
	res := replayweb.Open(t, warc+".cdxj",
		replayweb.Replay{URL: gopherMenu, Click: []string{"hello", "sub"}},
		replayweb.Replay{URL: gopherPlus},
		replayweb.Replay{URL: ftpDir, Click: []string{"readme.txt"}},
		replayweb.Replay{URL: group, Click: []string{"Seen in the player"}},
		replayweb.Replay{URL: capsule, Click: []string{"The other page", "The gopherhole"}},
	)
	want := []struct {
		text   string   // in the replayed page
		clicks []string // in what each click opened, in order
	}{
		{"hello", []string{"Hello from the gopherhole.", "deep"}},
		{"Hello from the gopherhole.", nil},
		{"readme.txt", []string{"Read me over FTP."}},
		{"Seen in the player", []string{"An article replayed."}},
		{"A capsule", []string{"The other page's text.", "[dir] sub"}},
	}
	if len(res.Replays) != len(want) {
		t.Fatalf("%d replays, want %d: %+v", len(res.Replays), len(want), res)
	}
	for i, r := range res.Replays {
		w := want[i]
		if r.Error != "" || !strings.Contains(r.Text, w.text) {
			t.Errorf("%s: replayed %q (%s), want %q in it; screenshot %s", r.URL, replayweb.Text(r.Text), r.Error, w.text, r.Shot)
			continue
		}
		if len(r.Clicks) != len(w.clicks) {
			t.Errorf("%s: %d clicks, want %d: %+v", r.URL, len(r.Clicks), len(w.clicks), r.Clicks)
			continue
		}
		for j, c := range r.Clicks {
			if c.Error != "" || c.Href == "" || !strings.Contains(c.PageText, w.clicks[j]) {
				t.Errorf("%s: a click on %q (%s) opened %s: %q (%s), want %q in it; screenshot %s",
					r.URL, c.Text, c.Href, c.URL, replayweb.Text(c.PageText), c.Error, w.clicks[j], c.Shot)
			}
		}
	}
	if t.Failed() {
		t.Logf("console: %s", strings.Join(res.Console, "\n"))
	}
}

// TestReplayWebPageWAISProspero: a WAIS search's result list (Z39.50
// searchResponse, wais-protspec) and a Prospero directory (Prospero
// protocol §LIST) recorded by crawl --warc open in ReplayWeb.page as
// pages whose items are links to their captures: a result to its
// document, a subdirectory to its listing.
func TestReplayWebPageWAISProspero(t *testing.T) {
	ws := peer.FreeWAIS(t, map[string]string{
		"wais.txt":   "Wide Area Information Servers use the Z39.50 protocol over TCP.\n",
		"gopher.txt": "The Internet Gopher protocol was developed at the University of Minnesota.\n",
	})
	ps, tree := startDirsrv(t)
	search := "wais://" + ws.Addr + "/demo?Z39.50"
	dir := "prospero://" + ps.Addr + "/" + tree
	warc := filepath.Join(t.TempDir(), "wp.warc.gz")
	// dirsrv names itself LOCALHOST in its links: --scope any follows
	// them (to 127.0.0.1 all the same).
	code, out, errs := runCLI(t, "", "crawl", "--delay", "0", "--depth", "1", "--scope", "any", "--allow-host", "127.0.0.1",
		"--allow-host", "localhost", "--warc", warc, search, dir)
	if code != exitOK {
		t.Fatalf("crawl: exit %d\n%s%s", code, out, errs)
	}
	res := replayweb.Open(t, warc+".cdxj",
		replayweb.Replay{URL: search, Click: []string{"wais.txt"}},
		replayweb.Replay{URL: dir, Click: []string{"docs"}},
	)
	want := []struct{ text, click string }{
		{"wais.txt", "Wide Area Information Servers use the Z39.50 protocol over TCP."},
		{"readme.txt", "a.txt"},
	}
	if len(res.Replays) != len(want) {
		t.Fatalf("%d replays, want %d: %+v", len(res.Replays), len(want), res)
	}
	for i, r := range res.Replays {
		if r.Error != "" || !strings.Contains(r.Text, want[i].text) {
			t.Errorf("%s: replayed %q (%s), want %q in it; screenshot %s", r.URL, replayweb.Text(r.Text), r.Error, want[i].text, r.Shot)
			continue
		}
		if len(r.Clicks) != 1 || r.Clicks[0].Error != "" || !strings.Contains(r.Clicks[0].PageText, want[i].click) {
			t.Errorf("%s: clicks %+v, want %q in what the click opened", r.URL, r.Clicks, want[i].click)
		}
	}
}

// TestReplayWebPageWACZ: a WACZ that crawl --wacz writes of an nginx
// site and a pygopherd menu opens in ReplayWeb.page as the archive
// world opens a WACZ (WACZ 1.2 §pages.jsonl): the Pages view lists
// every page the crawl fetched, an HTML page with its title; an HTML
// page replays with its text; the gopher menu replays as a page whose
// item names are links to captures that replay too.
func TestReplayWebPageWACZ(t *testing.T) {
	s := startWACZSite(t, 3, 200)
	seed := "http://" + s.http + "/"
	wacz := filepath.Join(t.TempDir(), "site.wacz")
	code, out, errs := runCLI(t, "", "crawl", "--delay", "0", "--depth", "0", "--json", "--wacz", wacz, seed)
	if code != exitOK {
		t.Fatalf("crawl: exit %d\n%s%s", code, out, errs)
	}
	fetched := pagesFetched(t, out, nil)
	menu := "gopher://" + s.gopher + "/1/"
	res := replayweb.Open(t, wacz,
		replayweb.Replay{URL: seed + "p/1.html"},
		replayweb.Replay{URL: menu, Click: []string{"about", "sub"}},
	)
	// The Pages view: an entry for each page fetched (the index, 3
	// pages, the menu, its file, its directory and the directory's
	// file), the HTML pages by their titles.
	if len(res.Pages) != len(fetched) {
		t.Errorf("the Pages view lists %d pages, the crawl fetched %d: %q", len(res.Pages), len(fetched), res.Pages)
	}
	for _, title := range []string{"The index", "Page 0", "Page 1", "Page 2"} {
		if !slices.ContainsFunc(res.Pages, func(p string) bool { return strings.Contains(p, title) }) {
			t.Errorf("the Pages view has no page titled %q: %q; screenshot %s", title, res.Pages, res.PagesShot)
		}
	}
	if len(res.Replays) != 2 {
		t.Fatalf("%d replays, want 2: %+v", len(res.Replays), res)
	}
	if r := res.Replays[0]; r.Error != "" || r.Title != "Page 1" || !strings.Contains(r.Text, "up") {
		t.Errorf("%s: replayed %q titled %q (%s); screenshot %s", r.URL, replayweb.Text(r.Text), r.Title, r.Error, r.Shot)
	}
	r := res.Replays[1]
	if r.Error != "" || !strings.Contains(r.Text, "[dir] sub") {
		t.Errorf("%s: replayed %q (%s); screenshot %s", r.URL, replayweb.Text(r.Text), r.Error, r.Shot)
	}
	want := []string{"About this hole.", "[file] deep"} // pygopherd names an item by its file's name, less its extension
	if len(r.Clicks) != len(want) {
		t.Fatalf("%s: %d clicks, want %d: %+v", r.URL, len(r.Clicks), len(want), r.Clicks)
	}
	for j, c := range r.Clicks {
		if c.Error != "" || c.Href == "" || !strings.Contains(c.PageText, want[j]) {
			t.Errorf("%s: a click on %q (%s) opened %s: %q (%s), want %q in it; screenshot %s",
				r.URL, c.Text, c.Href, c.URL, replayweb.Text(c.PageText), c.Error, want[j], c.Shot)
		}
	}
	if t.Failed() {
		t.Logf("console: %s", strings.Join(res.Console, "\n"))
	}
}
