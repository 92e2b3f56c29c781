package gopher_test

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/gopher"
	"github.com/rfc1738/locator/internal/loctest"
	"github.com/rfc1738/locator/internal/peer"
)

// RFC 1738 §3.4.1 and §6: a decoded CR, LF, NUL or TAB in a selector or
// search never reaches the wire; Check refuses it before connecting,
// with its offset in the URL.
func TestCheck(t *testing.T) {
	dialed := false
	client := func() *access.Client {
		return &access.Client{
			Resolver: &loctest.FakeDNS{},
			Dial: func(ctx context.Context, network, addr string) (net.Conn, error) {
				dialed = true
				return nil, errors.New("no network in this test")
			},
			Schemes: map[string]access.Fetcher{"gopher": &gopher.Client{}},
		}
	}
	for _, c := range []struct {
		url  string
		o    *access.Options // the request's own values
		want string          // "offset rule"
	}{
		{"gopher://h/0a%0Db", nil, "13 RFC 1738 §6"},
		{"gopher://h/0a%0ab", nil, "13 RFC 1738 §6"},
		{"gopher://h/0a%00b", nil, "13 RFC 1738 §6"},
		{"gopher://h/7find%09a%0Ab", nil, "20 RFC 1738 §6"},
		{"gopher://h/7find%09a%00", nil, "20 RFC 1738 §6"},
		{"gopher://h/%0Dsel", nil, "11 RFC 1738 §6"},
		{"gopher://h/0sel%09%09+view%0D%0A", nil, "26 gopher+_string"},
		{"gopher://h/0sel%09%09*", nil, "21 gopher+_string"},
		{"gopher://h/7find", nil, "11 RFC 1738 §3.4.2"},
		{"gopher://h/7find", &access.Options{Search: "a\r\nb"}, "0 RFC 1738 §6"},
		{"gopher://h/0x", &access.Options{View: "text/plain\r\n"}, "0 RFC 1738 §6"},
		{"gopher://h/0x%09%09+text/html", &access.Options{View: "text/plain"}, "19 RFC 1738 §3.4.8"},
		{"gopher://h/0x%09%09!", &access.Options{View: "text/plain"}, "19 RFC 1738 §3.4.8"},
		{"gopher://h/2", nil, "11 RFC 1436 §3.8"},
		{"gopher:///0x", nil, "9 RFC 1738 §3.4.1"},
	} {
		dialed = false
		_, err := client().Do(context.Background(), loctest.MustParse(t, c.url), c.o)
		var pe *access.PolicyError
		if !errors.As(err, &pe) || errString(pe) != c.want || dialed || access.Classify(err) != access.Forbidden {
			t.Errorf("%s: %v (dialed %v), want %q", c.url, err, dialed, c.want)
		}
	}
	// What Check lets through reaches the dialer.
	for _, u := range []string{"gopher://h/7find%09words", "gopher://h/0a%20b", "gopher://h/0x%09%09+text/plain", "gopher://h/0x%09%09+TEXT/PLAIN"} {
		dialed = false
		_, err := client().Do(context.Background(), loctest.MustParse(t, u), &access.Options{View: "text/plain"})
		if !dialed || access.Classify(err) != access.Failed {
			t.Errorf("%s: %v (dialed %v)", u, err, dialed)
		}
	}
}

func errString(pe *access.PolicyError) string {
	return itoa(pe.Offset) + " " + pe.Rule
}

func itoa(n int) string {
	s := ""
	for {
		s = string(rune('0'+n%10)) + s
		n /= 10
		if n == 0 {
			return s
		}
	}
}

// Type 8 and T items and "h" items with a URL: selector are handed back
// to the access.Client as redirections (RFC 1436 §3.8; the URL:
// convention).
func TestRedirects(t *testing.T) {
	for _, c := range []struct{ url, to string }{
		{"gopher://lib.example.org:23/8guest", "telnet://guest@lib.example.org/"},
		{"gopher://mvs.example.org:2023/Tibm", "tn3270://ibm@mvs.example.org:2023/"},
		{"gopher://h/hURL:http://www.example.org/", "http://www.example.org/"},
	} {
		var log strings.Builder
		ac := &access.Client{Dialogue: &log, MaxRedirects: 1, Policy: access.Policy{AllowPorts: []int{23}},
			Dial: func(context.Context, string, string) (net.Conn, error) {
				return nil, errors.New("no network in this test")
			}}
		_, err := ac.Get(context.Background(), loctest.MustParse(t, c.url))
		if !strings.Contains(log.String(), "redirect 1 to "+c.to) {
			t.Errorf("%s: %v\n%s", c.url, err, log.String())
		}
	}
}

// hostile serves one misbehaviour per connection (peer.Hostile): it
// reads the request line, then runs act. Only the cases a real server
// cannot be made to show (stall, flood, no end) are tested this way.
func hostile(t *testing.T, act func(c net.Conn)) string {
	return peer.Hostile(t, func(c net.Conn) {
		if _, err := bufio.NewReader(c).ReadString('\n'); err != nil {
			return
		}
		act(c)
	})
}

// endless writes line again and again until the client goes away.
func endless(first, line string) func(net.Conn) {
	return func(c net.Conn) {
		if _, err := io.WriteString(c, first); err != nil {
			return
		}
		b := []byte(strings.Repeat(line, 64))
		for {
			if _, err := c.Write(b); err != nil {
				return
			}
		}
	}
}

func TestHostilePeers(t *testing.T) {
	stall := hostile(t, func(c net.Conn) { io.Copy(io.Discard, c) })
	flood := hostile(t, endless("", "x"))
	menu := hostile(t, endless("", "0item\t/sel\th\t70\r\n"))
	attrs := hostile(t, endless("+-2\r\n+INFO: 0item\t/sel\th\t70\t+\r\n+ABSTRACT:\r\n", " more and more\r\n"))
	text := hostile(t, endless("", "text text text\r\n"))
	short := hostile(t, func(c net.Conn) { io.WriteString(c, "+100\r\nonly ten..") })
	header := hostile(t, endless("+", "9"))

	small := func() *access.Client {
		return &access.Client{IdleTimeout: 300 * time.Millisecond, MaxLine: 1024, MaxEntries: 50}
	}
	limit := func(max int64) *access.Client {
		return &access.Client{MaxSize: max, IdleTimeout: 5 * time.Second}
	}
	for _, c := range []struct {
		name, url string
		ac        *access.Client
		check     func(res *access.Resource, body []byte, err error) bool
	}{
		{"stall", "gopher://" + stall + "/0x", small(), func(_ *access.Resource, _ []byte, err error) bool {
			return access.Timeout(err) && access.Classify(err) == access.Failed
		}},
		{"endless menu line", "gopher://" + flood + "/1", small(), func(_ *access.Resource, _ []byte, err error) bool {
			var pe *access.ProtocolError
			return errors.As(err, &pe) && strings.Contains(err.Error(), "longer than 1024 octets")
		}},
		{"endless menu", "gopher://" + menu + "/1", small(), func(res *access.Resource, _ []byte, err error) bool {
			return err == nil && truncated(res.Listing) && len(entries(res.Listing)) == 50
		}},
		{"endless attribute block", "gopher://" + attrs + "/0x%09%09!", small(), func(_ *access.Resource, _ []byte, err error) bool {
			return access.Classify(err) == access.Failed && strings.Contains(err.Error(), "more than 50 lines (MaxEntries)")
		}},
		{"endless attribute octets", "gopher://" + attrs + "/0x%09%09!", limit(2000), func(_ *access.Resource, _ []byte, err error) bool {
			return errors.Is(err, access.ErrTooLarge)
		}},
		{"endless menu octets", "gopher://" + menu + "/1", limit(2000), func(_ *access.Resource, _ []byte, err error) bool {
			return errors.Is(err, access.ErrTooLarge)
		}},
		{"endless text", "gopher://" + text + "/0x", limit(10000), func(_ *access.Resource, body []byte, err error) bool {
			return errors.Is(err, access.ErrTooLarge) && len(body) == 10000
		}},
		{"endless binary", "gopher://" + flood + "/9x", limit(4096), func(_ *access.Resource, body []byte, err error) bool {
			return errors.Is(err, access.ErrTooLarge) && len(body) == 4096
		}},
		{"short +N", "gopher://" + short + "/0x%09%09+", small(), func(_ *access.Resource, body []byte, err error) bool {
			var pe *access.ProtocolError
			return errors.As(err, &pe) && string(body) == "only ten.." && strings.Contains(err.Error(), "90 octets before the length")
		}},
		{"endless header", "gopher://" + header + "/0x%09%09!", small(), func(_ *access.Resource, _ []byte, err error) bool {
			return access.Classify(err) == access.Failed && strings.Contains(err.Error(), "does not speak Gopher+")
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, err := c.ac.Get(context.Background(), loctest.MustParse(t, c.url))
			err = listingErr(res, err)
			var body []byte
			if err == nil && res.Body != nil {
				body, err = io.ReadAll(res.Body)
				res.Close()
			}
			if !c.check(res, body, err) {
				t.Errorf("%s: %d octets, %v", c.url, len(body), err)
			}
		})
	}
}
