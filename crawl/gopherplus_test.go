package crawl

import (
	"testing"

	"github.com/rfc1738/locator/internal/peer"
)

// TestGopherPlusViews: the items of a Gopher+ menu served by UMN gopherd
// offer alternative views (+VIEWS, Gopher+ A3.0): a directory's is an
// HTML page of its menu. The crawl reads every item's attributes with one
// "$" request a menu, follows each view that is not the item's default
// nor a menu as a link of its item's entry (the URL asking for the view,
// RFC 1738 §3.4.8), and reads the links of the HTML view it fetches.
func TestGopherPlusViews(t *testing.T) {
	data := t.TempDir()
	write(t, data, map[string]string{
		"hello.txt":        "Hello from UMN gopherd.\n",
		"subdir/inner.txt": "Inside the subdirectory.\n",
	})
	s := peer.UMNGopherd(t, data)
	gp := "gopher://" + s.Addr
	view := gp + "/11/subdir%09%09+text/html%20En_US"
	r, evs := run(t, &Crawler{Delay: NoDelay, Depth: -1, Scope: ScopeHost}, gp+"/1/")
	diff(t, "fetched", fetched(evs), []string{gp + "/1/", gp + "/00/hello.txt", gp + "/11/subdir", gp + "/00/subdir/inner.txt", view})
	diff(t, "broken", broken(r), nil)
	var views, fromView []string
	for _, e := range evs {
		l, ok := e.(*Link)
		if !ok || l.URL == nil {
			continue
		}
		if l.Place.Element == "+VIEWS" {
			views = append(views, l.From.String()+" "+l.Place.String()+" -> "+l.URL.String())
		}
		if l.From.String() == view && l.Follow {
			fromView = append(fromView, l.Place.Element+" "+l.URL.String())
		}
	}
	diff(t, "views", views, []string{gp + `/1/ entry 2 +VIEWS "text/html En_US" -> ` + view})
	diff(t, "links of the HTML view", fromView, []string{"a " + gp + "/00/subdir/inner.txt"})
}
