package crawl

import (
	"context"
	"fmt"
	"sort"
	"testing"
	"time"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/internal/peer"
)

// sessionCrawl crawls seeds breadth first with a Session, a frontier
// of its own in memory (the caller's, as the Session's doc says), and
// returns its events: Crawl's, one page at a time.
func sessionCrawl(t *testing.T, c *Crawler, seeds ...string) []Event {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var us []*locator.URL
	for _, s := range seeds {
		us = append(us, parse(t, s))
	}
	s, err := c.Session(ctx, us)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	seen := map[string]bool{}
	var queue []Item
	for _, u := range us {
		k, _ := Key(u)
		seen[k.String()] = true
		queue = append(queue, Item{URL: k.String()})
	}
	var evs []Event
	var check []*locator.URL
	for len(queue) > 0 {
		it := queue[0]
		queue = queue[1:]
		page, links, err := s.Fetch(ctx, it)
		if err != nil {
			t.Fatal(err)
		}
		evs = append(evs, page)
		for _, l := range links {
			if l.Follow && !seen[l.URL.String()] {
				seen[l.URL.String()] = true
				l.First = true
				queue = append(queue, Item{URL: l.URL.String(), Depth: LinkDepth(page.Depth, l), From: page.URL.String()})
			}
			if Checks(l.Reason) && !seen["check "+l.URL.String()] {
				seen["check "+l.URL.String()] = true
				check = append(check, l.URL)
			}
			evs = append(evs, l)
		}
	}
	err = s.Check(ctx, func(yield func(*locator.URL) bool) {
		for _, u := range check {
			if !yield(u) {
				return
			}
		}
	}, func(c *Checked) error {
		evs = append(evs, c)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return evs
}

// eventLines writes events as lines to compare, sorted.
func eventLines(evs []Event) []string {
	var out []string
	for _, e := range evs {
		switch e := e.(type) {
		case *Page:
			out = append(out, fmt.Sprintf("page %s depth %d from %v err %v skipped %q type %q size %d read %d links %d tries %d",
				e.URL, e.Depth, e.From, e.Err, e.Skipped, e.MediaType, e.Size, e.Read, e.Links, e.Tries))
		case *Link:
			out = append(out, fmt.Sprintf("link %s %s %q -> %v follow %v first %v reason %q err %v", e.From, e.Place, e.Ref, e.URL, e.Follow, e.First, e.Reason, e.Err))
		case *Checked:
			out = append(out, fmt.Sprintf("checked %s %s %s %s tries %d", e.URL, e.Status.State, e.Status.Code, e.Status.Text, e.Tries))
		}
	}
	sort.Strings(out)
	return out
}

// TestSessionIsCrawl: a Session's pages, links (their scope, depth,
// robots.txt: RFC 9309 §2.2.2) and checks are those of Crawl with Check
// on the same seeds, a crawl breadth first one request at a time.
func TestSessionIsCrawl(t *testing.T) {
	root := t.TempDir()
	n := peer.Nginx(t, root, peer.NginxConfig{HTTP: nginxTypes, Connections: 16})
	base := "http://" + n.Addr
	write(t, root, map[string]string{
		"robots.txt":       "User-agent: *\nDisallow: /s/private/\n",
		"s/index.html":     `<a href="a.html">a</a> <a href="b/">b</a> <a href="missing.html">m</a> <a href="/out.html">out</a> <a href="private/x.html">p</a> <a href="file:///etc/passwd">f</a>`,
		"s/a.html":         `<a href="index.html">up</a> <a href="b/c.html#frag">c</a> <img src="/gone.png">`,
		"s/b/index.html":   `<a href="c.html">c</a> <a href="d.html">d</a> <a href="telnet://127.0.0.1:1/">t</a>`,
		"s/b/c.html":       `<a href="d.html">d</a> <a href="e.html">e</a>`,
		"s/b/d.html":       `<a href="../a.html">a</a>`,
		"s/b/e.html":       `deep`,
		"s/private/x.html": `x`,
		"out.html":         `out`,
	})
	c := func() *Crawler {
		return &Crawler{Client: &access.Client{}, Depth: 2, Delay: NoDelay, Jobs: 1, Check: true}
	}
	_, want := run(t, c(), base+"/s/index.html")
	got := sessionCrawl(t, c(), base+"/s/index.html")
	w, g := eventLines(want), eventLines(got)
	diff(t, "events", g, w)
	if len(w) != 27 {
		t.Errorf("Crawl gave %d events, want 27 (the site's)", len(w))
		for _, l := range w {
			t.Log(l)
		}
	}
}
