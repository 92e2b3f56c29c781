package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rfc1738/locator/crawl"
)

// TestCrawlStateDamaged: --resume of a crawl whose frontier.db was cut
// short (a SIGBUS when bbolt mapped it) or had pages zeroed (a panic
// inside bbolt) exits 2 with an error that names DIR, says it is
// damaged and what to do, and fetches nothing.
func TestCrawlStateDamaged(t *testing.T) {
	s := startCrawlSite(t, true)
	seed := "http://" + s.http + "/"
	state := filepath.Join(t.TempDir(), "state")
	code, _, errs := runCLI(t, "", "crawl", "--delay", "0", "--depth", "0", "--state", state, "--max-urls", "10", seed)
	if code == exitTrouble || code == exitFailed {
		t.Fatalf("first run: exit %d\n%s", code, errs)
	}
	whole, err := os.ReadFile(filepath.Join(state, crawl.StateFrontier))
	if err != nil {
		t.Fatal(err)
	}
	zeroed := append([]byte(nil), whole...)
	clear(zeroed[2*4096 : 6*4096])
	for name, b := range map[string][]byte{"cut short": whole[:len(whole)/2], "pages zeroed": zeroed, "cut to nothing but a page": whole[:4096]} {
		t.Run(name, func(t *testing.T) {
			if err := os.WriteFile(filepath.Join(state, crawl.StateFrontier), b, 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Truncate(s.log, 0); err != nil {
				t.Fatal(err)
			}
			code, _, errs := runCLI(t, "", "crawl", "--delay", "0", "--depth", "0", "--state", state, "--resume")
			want := "locator crawl: --state: the crawl state in " + state + " is damaged (frontier.db: "
			if code != exitTrouble || !strings.HasPrefix(errs, want) || !strings.Contains(errs, "remove "+state+" to begin anew") {
				t.Errorf("exit %d, want 2 and %q...:\n%s", code, want, errs)
			}
			t.Log(strings.TrimSpace(errs))
			if got := s.requests(t, 0); len(got) != 0 {
				t.Errorf("a damaged state fetched %v", got)
			}
		})
	}
}

// TestCrawlStateSymlinks: symbolic links planted in a --state DIR are
// never followed: the events file and the frontier named by a link are
// not opened (the crawl says why and exits 2), the seeds file's link is
// replaced by the seeds, and no link's target is written.
func TestCrawlStateSymlinks(t *testing.T) {
	s := startCrawlSite(t, false)
	seed := "http://" + s.http + "/"
	for _, name := range []string{crawl.StateEvents, crawl.StateSeeds, crawl.StateFrontier} {
		t.Run(name, func(t *testing.T) {
			state := filepath.Join(t.TempDir(), "state")
			if err := os.Mkdir(state, 0o700); err != nil {
				t.Fatal(err)
			}
			target := filepath.Join(t.TempDir(), "precious")
			if err := os.WriteFile(target, []byte("precious\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(target, filepath.Join(state, name)); err != nil {
				t.Fatal(err)
			}
			args := []string{"crawl", "--delay", "0", "--depth", "0", "--state", state}
			if name == crawl.StateFrontier {
				args = append(args, "--resume") // a frontier there is one to go on with
			}
			code, _, errs := runCLI(t, "", append(args, seed)...)
			switch name {
			case crawl.StateSeeds:
				if code != exitOK {
					t.Errorf("exit %d, want 0:\n%s", code, errs)
				}
				if fi, err := os.Lstat(filepath.Join(state, name)); err != nil || !fi.Mode().IsRegular() {
					t.Errorf("%s: %v, %v: want the seeds, a file of its own", name, fi.Mode(), err)
				}
			default:
				if code != exitTrouble || !strings.Contains(errs, "too many levels of symbolic links") {
					t.Errorf("exit %d, want 2 and the link refused:\n%s", code, errs)
				}
			}
			t.Log(strings.TrimSpace(errs))
			if b, _ := os.ReadFile(target); string(b) != "precious\n" {
				t.Errorf("the link's target now holds %q", b)
			}
		})
	}
}

// FuzzReplayEvents: whatever an events file holds (a line cut short by a
// kill, a damaged file), replaying it into a report returns, never
// panics, and a report built from it reads back.
func FuzzReplayEvents(f *testing.F) {
	f.Add([]byte(`{"event":"page","url":"http://h/","depth":0,"status":"ok"}
{"event":"link","from":"http://h/","url":"http://h/gone","ref":"gone","place":"<a href> line 3 column 9","element":"a","attr":"href","line":3,"column":9,"follow":true}
{"event":"page","url":"http://h/gone","from":"http://h/","depth":1,"status":"gone","error":"404 Not Found"}
{"event":"checked","url":"http://x/","status":"error","code":"500","text":"oops"}
{"event":"link","from":"http://h/","url":"http://x/","reason":"scope","element":"a","attr":"href","line":4,"column":1}
{"event":"page","url":"http://h/cut`))
	f.Add([]byte("{\"event\":\"link\",\"from\":\"\",\"url\":\"http://h/\"}\n\n\x00{"))
	f.Fuzz(func(t *testing.T, b []byte) {
		r := &crawl.Report{Dir: t.TempDir()}
		defer r.Close()
		pages, err := replayEvents(bytes.NewReader(b), r)
		if err != nil {
			t.Fatalf("replay: %v", err)
		}
		if pages < 0 || pages > bytes.Count(b, []byte("\n"))+1 {
			t.Fatalf("%d pages from %d lines", pages, bytes.Count(b, []byte("\n"))+1)
		}
		n, _, err := r.Count()
		if err != nil {
			t.Fatal(err)
		}
		seen := 0
		if err := r.EachBroken(func(crawl.Broken, int) error { seen++; return nil }); err != nil || seen != n {
			t.Fatalf("%d broken links read back, %d counted (%v)", seen, n, err)
		}
	})
}
