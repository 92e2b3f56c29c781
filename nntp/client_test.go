package nntp_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"testing"

	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/internal/loctest"
	_ "github.com/rfc1738/locator/nntp"
)

var errNoDial = errors.New("no connection in this test")

// Check refuses before connecting (exit 4): what §3.7 leaves without a
// server or group, an article that is not a number, and a decoded CR, LF
// or NUL (RFC 1738 §6), space or TAB (RFC 3977 §3.1) in the group, at
// the offset of the octet in the input. The Client's Dial fails the
// test if anything connects.
func TestCheckRefusesBeforeConnecting(t *testing.T) {
	tests := []struct {
		url  string
		want string // "offset rule", or "" when Check lets it through
	}{
		{"nntp://h/comp.lang.go/12", ""},
		{"nntp://h/comp.lang.go", ""},
		{"nntp://h/odd!name", ""},
		{"nntp:comp.lang.go", "5 RFC 1738 §3.7"},
		{"nntp:///g/1", "7 RFC 1738 §3.7"},
		{"nntp://h/", "9 nntpurl"},
		{"nntp://h/g/x1", "11 nntpurl"},
		{"nntp://h/g/1/2", "11 nntpurl"},
		{"nntp://h/g/", "11 nntpurl"},
		{"nntp://h/a%0Db/1", "10 RFC 1738 §6"},
		{"nntp://h/a%0ab", "10 RFC 1738 §6"},
		{"nntp://h/ab%00", "11 RFC 1738 §6"},
		{"nntp://h/a%20b/1", "10 RFC 3977 §3.1"},
		{"nntp://h/a%09b", "10 RFC 3977 §3.1"},
		{"nntp://h:25/g", "9 RFC 1738 §6"},
	}
	for _, tt := range tests {
		u := loctest.MustParse(t, tt.url)
		c := &access.Client{Resolver: &loctest.FakeDNS{}, Dial: func(ctx context.Context, network, addr string) (net.Conn, error) {
			return nil, errNoDial
		}}
		_, err := c.Get(context.Background(), u)
		var pe *access.PolicyError
		got := ""
		if errors.As(err, &pe) {
			got = fmt.Sprintf("%d %s", pe.Offset, pe.Rule)
			if access.Classify(err) != access.Forbidden {
				t.Errorf("%s: outcome %v", tt.url, access.Classify(err))
			}
		} else if !errors.Is(err, errNoDial) {
			t.Errorf("%s: %v, want a PolicyError or a dial", tt.url, err)
		}
		if got != tt.want {
			t.Errorf("%s: %q, want %q (%v)", tt.url, got, tt.want, err)
		}
	}
}
