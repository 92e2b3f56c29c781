package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestCrawlBadInput: an unreadable --seeds, a seed that is not a URL,
// an output under a file, a policy rule that does not read, a --wacz
// in no directory or a directory: exit 2, before any request (the seeds name a
// port nothing listens on, and no output is made).
func TestCrawlBadInput(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	os.WriteFile(file, nil, 0o644)
	for _, args := range [][]string{
		{"--seeds", filepath.Join(dir, "none.txt"), "--output", filepath.Join(dir, "a")},
		{"--output", filepath.Join(dir, "b"), "http://[::1"},
		{"--output", filepath.Join(file, "out"), "http://127.0.0.1:1/"},
		{"--output", filepath.Join(dir, "c"), "--scope", "site", "http://127.0.0.1:1/"},
		{"--output", filepath.Join(dir, "d"), "--deny-host", "127.0.0.1:99999", "http://127.0.0.1:1/"},
		{"--output", filepath.Join(dir, "e"), "--allow-host", "[::1", "http://127.0.0.1:1/"},
		{"--output", filepath.Join(dir, "f"), "--allow-port", "0", "http://127.0.0.1:1/"},
		{"--output", filepath.Join(dir, "g"), "--wacz", filepath.Join(dir, "none", "crawl.wacz"), "http://127.0.0.1:1/"},
		{"--output", filepath.Join(dir, "h"), "--wacz", dir, "http://127.0.0.1:1/"},
	} {
		if code := crawlMain(args); code != 2 {
			t.Errorf("crawl %q: exit %d, want 2", args, code)
		}
	}
	for _, d := range []string{"a", "b", "d", "e", "g", "h"} {
		if _, err := os.Stat(filepath.Join(dir, d, "db")); err == nil {
			t.Errorf("%s: a crawl was begun", d)
		}
	}
}
