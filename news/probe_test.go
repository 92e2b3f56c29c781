package news_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/internal/loctest"
	"github.com/rfc1738/locator/news"
	_ "github.com/rfc1738/locator/nntp"
)

// TestProbeINN: STAT and GROUP (RFC 3977 §6.2.4, §6.1.1) against INN,
// for news URLs (RFC 1738 §3.6) and nntp URLs (§3.7), through one
// Client: the news client configured, the nntp client the one the
// registry makes for the Client. Each keeps its connection: the first
// probe of each scheme connects, every later one of that scheme reuses
// it, and the Client's CloseIdle ends both with QUIT.
func TestProbeINN(t *testing.T) {
	in := startINN(t)
	_, _, c, _, _, idC, _ := articles(in)
	in.Post(t, c)
	nntpBase := "nntp://" + in.Addr + "/" + in.Group
	var dlg bytes.Buffer
	cl := &access.Client{Dialogue: &dlg, Schemes: map[string]access.Fetcher{"news": &news.Client{Server: in.Addr}}}
	connected := map[string]bool{}
	for i, tc := range []struct {
		url, state, code string
		listing          bool
	}{
		{"news:" + strings.Trim(idC, "<>"), "ok", "223", false},
		{"news:nothing-" + in.Tag + "@feas.test", "gone", "430", false},
		{"news:" + in.Group, "ok", "211", true},
		{"news:no.such.group" + in.Tag, "gone", "411", false},
		{nntpBase + "/1", "ok", "223", false},
		{nntpBase + "/99", "gone", "423", false},
		{"nntp://" + in.Addr + "/no.such.group" + in.Tag, "gone", "411", false},
	} {
		u := loctest.MustParse(t, tc.url)
		before := dlg.Len()
		st := cl.Probe(context.Background(), u)
		d := dlg.String()[before:]
		if string(st.State) != tc.state || st.Code != tc.code || st.Listing != tc.listing {
			t.Errorf("%s: %s %s listing %v (%v), want %s %s %v\n%s", tc.url, st.State, st.Code, st.Listing, st.Err, tc.state, tc.code, tc.listing, d)
		}
		first := !connected[u.Scheme()]
		connected[u.Scheme()] = true
		if strings.Contains(d, "> ARTICLE") || strings.Contains(d, "> OVER") || strings.Contains(d, "> QUIT") ||
			first != strings.Contains(d, "* connect ") || first == strings.Contains(d, "reused") {
			t.Errorf("%s (probe %d): dialogue:\n%s", tc.url, i+1, d)
		}
	}
	before := dlg.Len()
	cl.CloseIdle()
	if d := dlg.String()[before:]; strings.Count(d, "> QUIT\n< 205 Bye!\n") != 2 {
		t.Errorf("CloseIdle: not one QUIT for each scheme's connection:\n%s", d)
	}
}
