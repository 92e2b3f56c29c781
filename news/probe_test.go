package news_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/internal/loctest"
	_ "github.com/rfc1738/locator/nntp"
)

// TestProbeINN: STAT and GROUP (RFC 3977 §6.2.4, §6.1.1) against INN,
// for news URLs (RFC 1738 §3.6) and nntp URLs (§3.7), on one connection
// that every probe after the first reuses.
func TestProbeINN(t *testing.T) {
	in := startINN(t)
	_, _, c, _, _, idC, _ := articles(in)
	in.Post(t, c)
	nntpBase := "nntp://" + in.Addr + "/" + in.Group
	i := 0
	for _, tc := range []struct {
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
		i++
		var dlg bytes.Buffer
		st := access.Probe(context.Background(), loctest.MustParse(t, tc.url), in.opts(&dlg))
		if string(st.State) != tc.state || st.Code != tc.code || st.Listing != tc.listing {
			t.Errorf("%s: %s %s listing %v (%v), want %s %s %v\n%s", tc.url, st.State, st.Code, st.Listing, st.Err, tc.state, tc.code, tc.listing, dlg.String())
		}
		d := dlg.String()
		if strings.Contains(d, "> ARTICLE") || strings.Contains(d, "> OVER") || strings.Contains(d, "> QUIT") ||
			(i == 1) != strings.Contains(d, "* connect ") || (i > 1) != strings.Contains(d, "reused") {
			t.Errorf("%s (probe %d): dialogue:\n%s", tc.url, i, d)
		}
	}
	var dlg bytes.Buffer
	opts := in.opts(&dlg)
	access.Probe(context.Background(), loctest.MustParse(t, "news:"+in.Group), opts)
	access.CloseIdle()
	if !strings.HasSuffix(dlg.String(), "> QUIT\n< 205 Bye!\n") {
		t.Errorf("CloseIdle: no QUIT:\n%s", dlg.String())
	}
}
