// Package replayweb opens an archive in ReplayWeb.page, the Webrecorder
// player, for tests: its static app (npm replaywebpage) and the archive
// are served on 127.0.0.1 (a service worker needs a secure context,
// which loopback HTTP is), and headless Chromium (Debian's, driven by
// npm puppeteer-core through testdata/replay.cjs) reports what a person
// sees: the Pages view's entries, and for each URL asked for the
// replayed page's text and links, and what a click on a link opens.
// Screenshots are kept as test artefacts.
package replayweb

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

//go:embed testdata/replay.cjs
var script []byte

// Versions pinned: what the tests were written against.
const (
	ReplayWebPage = "2.5.3"
	PuppeteerCore = "25.19.0"
)

// Chromium is the browser driven.
const Chromium = "/usr/bin/chromium"

// Dir is the npm prefix that holds node_modules/replaywebpage and
// node_modules/puppeteer-core, made by ./test.sh:
//
//	npm install --prefix DIR puppeteer-core@25.19.0
//	npm pack replaywebpage@2.5.3, unpacked into DIR/node_modules/replaywebpage
//
// (replaywebpage's static app is one bundle: its npm dependencies, the
// sources it was built from, are not needed). DIR is
// $LOCATOR_REPLAYWEB, else the user's cache folder's
// locator-peers/replaywebpage.
func Dir() string {
	if d := os.Getenv("LOCATOR_REPLAYWEB"); d != "" {
		return d
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(cache, "locator-peers", "replaywebpage")
}

// A Replay asks for URL to be replayed (at TS, a 14-digit timestamp,
// when given) and for the links named Click to be clicked on it, one at
// a time: the link whose text is the name, else the first whose text
// begins with it.
type Replay struct {
	URL   string   `json:"url"`
	TS    string   `json:"ts,omitempty"`
	Click []string `json:"click,omitempty"`
}

// A Seen is what the replay frame showed: its location, title, text
// and links, and its screenshot's file.
type Seen struct {
	URL   string `json:"url"`
	Title string `json:"title"`
	Text  string `json:"text"`
	Links []Link `json:"links"`
	Shot  string `json:"shot"`
	Error string `json:"error"`
}

// A Link is an <a href> of a replayed page, its href as the page's
// script reads it.
type Link struct {
	Text string `json:"text"`
	Href string `json:"href"`
}

// A Click is what a click on a link opened.
type Click struct {
	Text     string `json:"text"` // the link's
	Href     string `json:"href"`
	URL      string `json:"url"` // the frame's location after it
	Title    string `json:"title"`
	PageText string `json:"pageText"`
	Links    []Link `json:"links"`
	Shot     string `json:"shot"`
	Error    string `json:"error"`
}

// A Result is what the person saw.
type Result struct {
	Pages     []string `json:"pages"` // each entry of the Pages view, as text
	PagesShot string   `json:"pagesShot"`
	Replays   []struct {
		Seen
		Clicks []Click `json:"clicks"`
	} `json:"replays"`
	Console []string `json:"console"` // the app's console messages
}

// Artefacts is the folder t's screenshots go to:
// $LOCATOR_ARTEFACTS/TEST-NAME when set (kept after the test), else a
// folder of t's own (removed with it).
func Artefacts(t testing.TB) string {
	t.Helper()
	root := os.Getenv("LOCATOR_ARTEFACTS")
	if root == "" {
		return t.TempDir()
	}
	dir := filepath.Join(root, regexp.MustCompile(`[^A-Za-z0-9._-]+`).ReplaceAllString(t.Name(), "_"))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// Open serves archive and ReplayWeb.page on 127.0.0.1, opens it in
// headless Chromium, replays what replays asks, and returns what was
// seen. It skips t when node, Chromium or the npm packages are absent.
// archive's name's ending tells ReplayWeb.page what it is: a WACZ
// (".wacz"), a WARC file (".warc.gz", read whole), or a CDXJ index
// (".cdxj"), whose records ReplayWeb.page reads from the WARC files it
// names, beside it, one record at a time as they are replayed.
func Open(t testing.TB, archive string, replays ...Replay) *Result {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	if _, err := os.Stat(Chromium); err != nil {
		t.Skipf("%s is not installed", Chromium)
	}
	dir := Dir()
	app := filepath.Join(dir, "node_modules", "replaywebpage")
	for _, f := range []string{filepath.Join(app, "sw.js"), filepath.Join(dir, "node_modules", "puppeteer-core", "package.json")} {
		if _, err := os.Stat(f); err != nil {
			t.Skipf("replaywebpage@%s and puppeteer-core@%s are not installed in %s (./test.sh installs them)", ReplayWebPage, PuppeteerCore, dir)
		}
	}
	name := filepath.Base(archive)
	art := Artefacts(t)
	// The archive opened (and the WARC files beside a CDXJ), beside its
	// screenshots.
	if ents, err := os.ReadDir(filepath.Dir(archive)); err == nil {
		for _, e := range ents {
			if b, err := os.ReadFile(filepath.Join(filepath.Dir(archive), e.Name())); err == nil && e.Type().IsRegular() {
				os.WriteFile(filepath.Join(art, e.Name()), b, 0o644)
			}
		}
	}
	mux := http.NewServeMux()
	// The archive's folder: a CDXJ index's WARC files are beside it.
	// http.FileServer answers range requests, as a WACZ or a CDXJ's
	// WARC is read.
	mux.Handle("/archive/", http.StripPrefix("/archive/", http.FileServer(http.Dir(filepath.Dir(archive)))))
	mux.Handle("/", http.FileServer(http.Dir(app)))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: mux}
	go srv.Serve(ln)
	defer srv.Close()
	base := "http://" + ln.Addr().String() + "/"

	work := t.TempDir()
	js := filepath.Join(work, "replay.cjs")
	if err := os.WriteFile(js, script, 0o644); err != nil {
		t.Fatal(err)
	}
	job, err := json.Marshal(map[string]any{
		"chromium": Chromium, "app": base, "source": base + "archive/" + name,
		"out": art, "tmp": work, "replay": replays,
	})
	if err != nil {
		t.Fatal(err)
	}
	jobFile := filepath.Join(work, "job.json")
	if err := os.WriteFile(jobFile, job, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, js, jobFile)
	cmd.Env = append(os.Environ(), "NODE_PATH="+filepath.Join(dir, "node_modules"))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("ReplayWeb.page in Chromium: %v\n%s", err, stderr.Bytes())
	}
	var res Result
	if err := json.Unmarshal(bytes.TrimSpace(out), &res); err != nil {
		t.Fatalf("the script printed %q: %v", out, err)
	}
	t.Logf("ReplayWeb.page %s: screenshots in %s", ReplayWebPage, filepath.Dir(res.PagesShot))
	return &res
}

// Text is a page's text with its runs of white space made one space.
func Text(s string) string { return strings.Join(strings.Fields(s), " ") }
