package http

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/internal/peer"
)

// TestRetryAfter: nginx's Retry-After on a 503 and a 429, in seconds and
// as an HTTP-date (RFC 9110 §10.2.3), is the ServerError's RetryAfter;
// one too long is bounded, a malformed one and one on a 404 are none.
func TestRetryAfter(t *testing.T) {
	date := time.Now().Add(90 * time.Second).UTC().Format(time.RFC1123)
	date = date[:len(date)-3] + "GMT"
	n := peer.Nginx(t, t.TempDir(), peer.NginxConfig{Connections: 16, Server: `
location = /s { add_header Retry-After 7 always; return 503; }
location = /date { add_header Retry-After "` + date + `" always; return 429; }
location = /long { add_header Retry-After 86400 always; return 503; }
location = /bad { add_header Retry-After "7 seconds" always; return 503; }
location = /none { return 503; }
location = /gone { add_header Retry-After 7 always; return 404; }
`})
	c := &Client{}
	for _, tc := range []struct {
		path     string
		code     string
		min, max time.Duration
	}{
		{"/s", "503", 7 * time.Second, 7 * time.Second},
		{"/date", "429", 80 * time.Second, 90 * time.Second},
		{"/long", "503", time.Hour, time.Hour},
		{"/bad", "503", 0, 0},
		{"/none", "503", 0, 0},
		{"/gone", "404", 0, 0},
	} {
		u, err := locator.Parse("http://" + n.Addr + tc.path)
		if err != nil {
			t.Fatal(err)
		}
		_, err = (&access.Client{Schemes: map[string]access.Fetcher{"http": c}}).Get(context.Background(), u)
		var se *access.ServerError
		if !errors.As(err, &se) || se.Code != tc.code {
			t.Errorf("%s: %v", tc.path, err)
			continue
		}
		if se.RetryAfter < tc.min || se.RetryAfter > tc.max {
			t.Errorf("%s: RetryAfter %v, want %v to %v", tc.path, se.RetryAfter, tc.min, tc.max)
		}
	}
}
