package news_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"testing"

	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/internal/loctest"
	"github.com/rfc1738/locator/news"
)

var errNoDial = errors.New("no connection in this test")

// Check refuses before connecting (exit 4): no server to ask (RFC 1738
// §3.6: news URLs name none), a decoded CR, LF or NUL (§6), space or TAB
// (RFC 3977 §3.1) in a message-id or group, "<" or ">" inside a
// message-id (RFC 5536 §3.1.3), and bad message numbers; offsets are
// the octet's in the input. What passes is dialed at the server
// Client.Server names, or the URL's own (draft-gilman).
func TestCheckRefusesBeforeConnecting(t *testing.T) {
	tests := []struct {
		url, server string
		want        string // "offset rule", or "dial ADDR"
	}{
		{"news:abc@example.com", "127.0.0.1:1119", "dial 127.0.0.1:1119"},
		{"news:<abc@example.com>", "news.example.com", "dial news.example.com:119"},
		{"news:comp.lang.go", "[::1]:1563", "dial [::1]:1563"},
		{"news:*", "::1", "dial [::1]:119"},
		{"news:comp.*", "h:8119", "dial h:8119"},
		{"news://other.example:1234/comp.lang.go", "127.0.0.1:1119", "dial other.example:1234"},
		{"news://other.example/", "", "dial other.example:119"},
		{"news:abc@example.com", "", "0 RFC 1738 §3.6"},
		{"news:abc@example.com", "h:0", "0 server"},
		{"news:abc@example.com", "h:x", "0 server"},
		{"news:abc@example.com", "a b", "0 server"},
		{"news:ab%0Dc@example.com", "h", "7 RFC 1738 §6"},
		{"news:ab%0ac@example.com", "h", "7 RFC 1738 §6"},
		{"news:ab%00c@example.com", "h", "7 RFC 1738 §6"},
		{"news:ab%20c@example.com", "h", "7 RFC 3977 §3.1"},
		{"news:ab%09c@example.com", "h", "7 RFC 3977 §3.1"},
		{"news:<ab%0Dc@example.com>", "h", "8 RFC 1738 §6"},
		{"news:%3Cab%20c@example.com%3E", "h", "10 RFC 3977 §3.1"},
		{"news:a%3Eb@example.com", "h", "6 RFC 5536 §3.1.3"},
		{"news:a>b@example.com", "h", "6 RFC 5536 §3.1.3"},
		{"news:comp%0D.lang", "h", "9 RFC 1738 §6"},
		{"news:comp%20lang", "h", "9 RFC 3977 §3.1"},
		{"news:comp.lang/1-x", "h", "17 refbygroup"},
		{"news:comp.lang/1", "h", "dial h:119"},
		{"news:comp.lang/1-9", "h", "dial h:119"},
		{"news:comp.lang", "h:25", "0 RFC 1738 §6"},
	}
	for _, tt := range tests {
		u := loctest.MustParse(t, tt.url)
		var dialed string
		dns := &loctest.FakeDNS{}
		c := &access.Client{Resolver: dns, Dial: func(ctx context.Context, network, addr string) (net.Conn, error) {
			dialed = dns.Name(addr)
			return nil, errNoDial
		}, Schemes: map[string]access.Fetcher{"news": &news.Client{Server: tt.server}}}
		_, err := c.Get(context.Background(), u)
		var pe *access.PolicyError
		got := "dial " + dialed
		if errors.As(err, &pe) {
			got = fmt.Sprintf("%d %s", pe.Offset, pe.Rule)
			if access.Classify(err) != access.Forbidden {
				t.Errorf("%s: outcome %v", tt.url, access.Classify(err))
			}
		} else if !errors.Is(err, errNoDial) {
			t.Errorf("%s: %v, want a PolicyError or a dial", tt.url, err)
		}
		if got != tt.want {
			t.Errorf("%s (server %q): %q, want %q (%v)", tt.url, tt.server, got, tt.want, err)
		}
	}
}

func TestSplitServer(t *testing.T) {
	for in, want := range map[string]string{
		"news.example.com":      "news.example.com 119",
		"news.example.com:1119": "news.example.com 1119",
		"127.0.0.1:119":         "127.0.0.1 119",
		"[::1]:1119":            "::1 1119",
		"[::1]":                 "::1 119",
		"::1":                   "::1 119",
		"":                      "error",
		":119":                  "error",
		"h:65536":               "error",
		"h:":                    "error",
		"[::1]x":                "error",
		"h/x":                   "error",
	} {
		h, p, err := news.SplitServer(in)
		got := fmt.Sprint(h, " ", p)
		if err != nil {
			got = "error"
		}
		if got != want {
			t.Errorf("SplitServer(%q) = %s, want %s", in, got, want)
		}
	}
}
