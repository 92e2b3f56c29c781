package crawl

import (
	"path/filepath"
	"testing"

	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/gemini"
	"github.com/rfc1738/locator/internal/peer"
)

// TestGeminiCapsule: a crawl of a capsule (molly-brown) follows the link
// lines of its text/gemini documents, relative and absolute, and reports
// a link to a document that is not there broken, with its line and name.
func TestGeminiCapsule(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{
		"index.gmi":     "# Capsule\n=> sub/page.gmi A page\n=> missing.gmi Not there\nText, not a link: sub/other.gmi\n",
		"sub/page.gmi":  "=> ../index.gmi Home\n=> other.gmi Other\n",
		"sub/other.gmi": "the end\n",
	})
	m := peer.MollyBrown(t, root, peer.MollyConfig{})
	g := "gemini://" + m.Addr
	c := &access.Client{Schemes: map[string]access.Fetcher{
		"gemini": &gemini.Client{KnownHosts: filepath.Join(t.TempDir(), "known_hosts")}}}
	r, evs := run(t, &Crawler{Client: c, Delay: NoDelay}, g+"/index.gmi")
	diff(t, "fetched", fetched(evs), []string{g + "/index.gmi", g + "/sub/page.gmi", g + "/missing.gmi", g + "/sub/other.gmi"})
	diff(t, "broken", broken(r), []string{g + `/index.gmi => line 3 "Not there" -> ` + g + "/missing.gmi"})
}
