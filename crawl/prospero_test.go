package crawl

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/rfc1738/locator/internal/peer"
)

// TestProsperoDirectory: a Prospero directory (RFC 1738 §3.11) is a
// listing whose files and subdirectories are followed, the
// subdirectory's listing too.
func TestProsperoDirectory(t *testing.T) {
	peer.BuildShared(t, "prospero")
	r := t.TempDir()
	write(t, r, map[string]string{
		"info-tree/readme.txt":                          "hello\n",
		"info-tree/docs/a.txt":                          "doc\n",
		"shadow" + r + "/info-tree/.directory#contents": "VERSION 5\nINCLUDE-NATIVE INCLREAL\n",
	})
	for _, d := range []string{"security", "pfsdat"} {
		if err := os.MkdirAll(filepath.Join(r, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	s, _ := peer.Dirsrv(t, r)
	seed := "prospero://" + s.Addr + "/" + r + "/info-tree" // the path is absolute: "//tmp/..."
	// The server names itself LOCALHOST in the URLs it gives: another
	// host than the seed's, so that the scope is any Prospero URL.
	base := fmt.Sprintf("prospero://localhost:%d/%s/info-tree", s.Port, r)
	rep, evs := run(t, &Crawler{Delay: NoDelay, Scope: ScopeAny, Include: []*regexp.Regexp{regexp.MustCompile("^prospero:")}}, seed)
	diff(t, "fetched", fetched(evs), []string{seed, base + "/readme.txt", base + "/docs", base + "/docs/a.txt"})
	diff(t, "broken", broken(rep), nil)
}
