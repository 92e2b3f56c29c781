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
// for news URLs (RFC 1738 §3.6) and nntp URLs (§3.7).
func TestProbeINN(t *testing.T) {
	in := startINN(t)
	_, _, c, _, _, idC, _ := articles(in)
	in.post(t, c)
	nntpBase := "nntp://" + in.srv.Addr + "/" + in.group
	for _, tc := range []struct {
		url, state, code string
		listing          bool
	}{
		{"news:" + strings.Trim(idC, "<>"), "ok", "223", false},
		{"news:nothing-" + in.tag + "@feas.test", "gone", "430", false},
		{"news:" + in.group, "ok", "211", true},
		{"news:no.such.group" + in.tag, "gone", "411", false},
		{nntpBase + "/1", "ok", "223", false},
		{nntpBase + "/99", "gone", "423", false},
		{"nntp://" + in.srv.Addr + "/no.such.group" + in.tag, "gone", "411", false},
	} {
		var dlg bytes.Buffer
		st := access.Probe(context.Background(), loctest.MustParse(t, tc.url), in.opts(&dlg))
		if string(st.State) != tc.state || st.Code != tc.code || st.Listing != tc.listing {
			t.Errorf("%s: %s %s listing %v (%v), want %s %s %v\n%s", tc.url, st.State, st.Code, st.Listing, st.Err, tc.state, tc.code, tc.listing, dlg.String())
		}
		if strings.Contains(dlg.String(), "> ARTICLE") || strings.Contains(dlg.String(), "> OVER") || !strings.HasSuffix(dlg.String(), "> QUIT\n< 205 Bye!\n") {
			t.Errorf("%s: dialogue:\n%s", tc.url, dlg.String())
		}
	}
}
