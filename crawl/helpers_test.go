package crawl

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/internal/peer"
	_ "github.com/rfc1738/locator/schemes"
)

// write writes files (path → content) under root.
func write(t testing.TB, root string, files map[string]string) {
	t.Helper()
	for p, c := range files {
		f := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func parse(t testing.TB, s string) *locator.URL {
	t.Helper()
	u, err := locator.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// run crawls seeds with c and returns the report and the events.
func run(t *testing.T, c *Crawler, seeds ...string) (*Report, []Event) {
	t.Helper()
	var us []*locator.URL
	for _, s := range seeds {
		us = append(us, parse(t, s))
	}
	if c.Client != nil {
		defer c.Client.CloseIdle()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	r := &Report{}
	var evs []Event
	err := c.Crawl(ctx, us, func(e Event) error {
		r.Add(e)
		evs = append(evs, e)
		return nil
	})
	if err != nil {
		t.Fatalf("crawl: %v", err)
	}
	return r, evs
}

// fetched returns the URLs of the pages fetched (not skipped), sorted.
func fetched(evs []Event) []string {
	var out []string
	for _, e := range evs {
		if p, ok := e.(*Page); ok && p.Skipped == "" {
			out = append(out, p.URL.String())
		}
	}
	sort.Strings(out)
	return out
}

// skipped returns the URLs of the pages skipped, with the reason.
func skipped(evs []Event) []string {
	var out []string
	for _, e := range evs {
		if p, ok := e.(*Page); ok && p.Skipped != "" {
			out = append(out, p.Skipped+" "+p.URL.String())
		}
	}
	sort.Strings(out)
	return out
}

// broken writes the report's broken links as "FROM PLACE -> URL".
func broken(r *Report) []string {
	var out []string
	for _, b := range r.Broken() {
		out = append(out, fmt.Sprintf("%s %s -> %s", b.Link.From, b.Link.Place, b.Link.URL))
	}
	sort.Strings(out)
	return out
}

func diff(t *testing.T, what string, got, want []string) {
	t.Helper()
	sort.Strings(want)
	g, w := map[string]bool{}, map[string]bool{}
	for _, s := range got {
		g[s] = true
	}
	for _, s := range want {
		w[s] = true
	}
	var extra, missing []string
	for _, s := range got {
		if !w[s] {
			extra = append(extra, s)
		}
	}
	for _, s := range want {
		if !g[s] {
			missing = append(missing, s)
		}
	}
	if len(extra) > 0 || len(missing) > 0 || len(got) != len(want) {
		if len(extra) > 20 {
			extra = extra[:20]
		}
		if len(missing) > 20 {
			missing = missing[:20]
		}
		t.Errorf("%s: %d, want %d\nunexpected:\n  %s\nmissing:\n  %s", what, len(got), len(want),
			strings.Join(extra, "\n  "), strings.Join(missing, "\n  "))
	}
}

// startVsftpd serves the tree fill makes under its root anonymously with
// vsftpd, which asks no password of an anonymous login.
func startVsftpd(t *testing.T, fill func(root string)) *peer.Server {
	t.Helper()
	return startVsftpdConf(t, "", fill)
}

// startVsftpdConf is startVsftpd with more lines of configuration.
func startVsftpdConf(t *testing.T, more string, fill func(root string)) *peer.Server {
	t.Helper()
	return peer.Vsftpd(t, "no_anon_password=YES\n"+more, fill).Server
}
