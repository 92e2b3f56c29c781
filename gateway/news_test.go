package gateway_test

// News through the gateway, against INN on loopback, started with peer.INN as the news package's tests start
// it: one INN per machine, so the same lock file is taken first; innd
// runs as user news in the foreground on a free port with a copy of
// inn.conf whose nnrpdloadlimit is 0, a group of the test's own is
// created and removed with ctlinnd, and innd is shut down, then stopped
// by its process id.

import (
	"strings"
	"testing"

	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/gateway"
	"github.com/rfc1738/locator/internal/peer"
	"github.com/rfc1738/locator/news"
)

func TestNews(t *testing.T) {
	in := peer.INN(t)
	srv, group, tag := in.Server, in.Group, in.Tag
	id := "<gw." + tag + "@locator.test>"
	in.Post(t, "From: tester@locator.test\r\nNewsgroups: "+group+"\r\nSubject: Through the gateway\r\nMessage-ID: "+id+"\r\n\r\nHello, news reader.\r\n")

	gw, _ := startGateway(t, gateway.Config{Policy: access.Policy{Allow: rules(t, srv.Addr)}, Schemes: map[string]access.Fetcher{"news": &news.Client{Server: srv.Addr}}})
	res, page := get(t, gw.URL+"/nntp://"+srv.Addr+"/"+group)
	if res.StatusCode != 200 || !strings.Contains(page, "Through the gateway") || !contains(hrefs(page), "/nntp://"+srv.Addr+"/"+group+"/1") {
		t.Fatalf("group: %d %q\n%s", res.StatusCode, hrefs(page), page)
	}
	res, body := get(t, gw.URL+"/nntp://"+srv.Addr+"/"+group+"/1")
	if res.StatusCode != 200 || !strings.Contains(body, "Hello, news reader.") || !strings.Contains(body, "Message-ID: "+id) {
		t.Errorf("article: %d\n%s", res.StatusCode, body)
	}
	// news: names no server (RFC 1738 §3.6): the configured one; Lynx
	// sends it so to its news_proxy.
	res, body = raw(t, gw.Listener.Addr().String(), "GET news:"+strings.Trim(id, "<>")+" HTTP/1.0\nHost: x\n\n")
	if res.StatusCode != 200 || !strings.Contains(body, "Hello, news reader.") {
		t.Errorf("news: article by its message-id: %d\n%s", res.StatusCode, body)
	}
	if peer.Require(t, "lynx") != nil {
		out := client(t, []string{"news_proxy=" + gw.URL + "/"}, "lynx", "-dump", "news:"+group)
		if !strings.Contains(out, "Through the gateway") {
			t.Errorf("lynx news_proxy:\n%s", out)
		}
	}
}
