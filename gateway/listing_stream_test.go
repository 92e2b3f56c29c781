package gateway_test

import (
	"bufio"
	"fmt"
	"net"
	"strings"
	"testing"

	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/gateway"
	"github.com/rfc1738/locator/internal/peer"
)

// TestListingCut: a menu longer than MaxEntries from a gopher server
// that never ends it is shown up to the limit, and the page ends with a
// note that the listing was cut, after the entries: the page is
// written as the menu is read (a listing is never held whole).
func TestListingCut(t *testing.T) {
	addr := peer.Hostile(t, func(c net.Conn) {
		bufio.NewReader(c).ReadString('\n')
		w := bufio.NewWriter(c)
		port := c.LocalAddr().(*net.TCPAddr).Port
		for n := 0; n < 1<<20; n++ { // without end for the client: cut well before
			if _, err := fmt.Fprintf(w, "0item %d\t/i/%d\t127.0.0.1\t%d\r\n", n, n, port); err != nil {
				return
			}
		}
		w.Flush()
	})
	_, port, _ := net.SplitHostPort(addr)
	ts, _ := startGateway(t, gateway.Config{MaxEntries: 300, Policy: access.Policy{Allow: rules(t, "127.0.0.1:"+port)}})
	res, page := get(t, ts.URL+"/gopher://127.0.0.1:"+port+"/1/")
	if res.StatusCode != 200 {
		t.Fatalf("status %s", res.Status)
	}
	items := strings.Count(page, "<li>")
	note := strings.Index(page, "The listing was cut: it has more than 300 entries")
	if items != 300 || note < strings.LastIndex(page, "<li>") || !strings.HasSuffix(strings.TrimSpace(page), "</html>") {
		t.Errorf("%d entries, note at %d (last entry at %d); want 300 entries and the note after them\n%s", items, note, strings.LastIndex(page, "<li>"), page[max(0, len(page)-600):])
	}
}
