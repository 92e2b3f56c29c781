package peer

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// WarcioDir is where the tests look for Webrecorder's warcio (the npm
// package, an independent WARC reader): a folder under the user's cache
// that holds node_modules/warcio, made by
//
//	npm install --prefix "$(cache)/locator-peers/warcio" --no-audit --no-fund warcio@2.4.11
//
// where cache is os.UserCacheDir (~/.cache). LOCATOR_WARCIO names
// another folder.
func WarcioDir() string {
	if d := os.Getenv("LOCATOR_WARCIO"); d != "" {
		return d
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(cache, "locator-peers", "warcio")
}

// A WarcioRecord is what warcio read of one record (the script's line).
type WarcioRecord struct {
	File          string `json:"file"`
	Offset        int64  `json:"offset"`
	Type          string `json:"type"`
	URI           string `json:"uri"`
	Length        int64  `json:"length"`
	ContentLength int64  `json:"contentLength"`
	BlockOK       *bool  `json:"blockOK"`
	PayloadOK     *bool  `json:"payloadOK"`
	Payload       string `json:"payload"`
	Truncated     string `json:"truncated"` // WARC-Truncated
	// Error is what warcio said when it could not read on (a file cut
	// short), in a line of its own after the records it read.
	Error string `json:"error"`
}

// Warcio runs the node script (a file that require()s "warcio") on
// WARC files and returns the records it printed, one JSON object a
// line. It skips t when node or warcio is absent, and fails it when the
// script fails.
func Warcio(t testing.TB, script string, files ...string) []WarcioRecord {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	dir := WarcioDir()
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "warcio", "package.json")); err != nil {
		t.Skipf("warcio is not installed in %s (npm install --prefix %s warcio@2.4.11)", dir, dir)
	}
	cmd := exec.Command(node, append([]string{script}, files...)...)
	cmd.Env = append(os.Environ(), "NODE_PATH="+filepath.Join(dir, "node_modules"))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("warcio %s: %v\n%s", files, err, stderr.Bytes())
	}
	var recs []WarcioRecord
	for _, line := range bytes.Split(bytes.TrimSpace(out), []byte("\n")) {
		if len(line) == 0 {
			continue
		}
		var r WarcioRecord
		if err := json.Unmarshal(line, &r); err != nil {
			t.Fatalf("warcio printed %q: %v", line, err)
		}
		recs = append(recs, r)
	}
	return recs
}
