package crawl

import (
	"fmt"
	"strconv"
	"testing"

	"github.com/rfc1738/locator/internal/peer"
)

// TestNewsGroup: a group's overview is a listing whose articles are
// followed, at most MaxLinks of them; with FollowText an article's URLs
// are links, placed by line and column.
func TestNewsGroup(t *testing.T) {
	in := peer.INN(t)
	free := strconv.Itoa(peer.FreePort(t))
	for i := 1; i <= 3; i++ {
		in.Post(t, fmt.Sprintf("From: tester@locator.test\r\nNewsgroups: %s\r\nSubject: article %d\r\nMessage-ID: <crawl%d.%s@locator.test>\r\n\r\n"+
			"Article %d.\r\nSee http://127.0.0.1:%s/a%d for more.\r\n", in.Group, i, i, in.Tag, i, free, i))
	}
	g := "nntp://" + in.Addr + "/" + in.Group
	r, evs := run(t, &Crawler{Delay: NoDelay, Scope: ScopeHost, FollowText: true, MaxLinks: 2}, g)
	diff(t, "fetched", fetched(evs), []string{g, g + "/1", g + "/2"})
	// Line 14: INN adds its header fields (Path, Date, Lines, ...)
	// before the body.
	diff(t, "broken", broken(r), []string{
		g + "/1 text line 14 column 5 -> http://127.0.0.1:" + free + "/a1",
		g + "/2 text line 14 column 5 -> http://127.0.0.1:" + free + "/a2",
	})
}
