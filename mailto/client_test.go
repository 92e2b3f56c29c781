package mailto

import (
	"context"
	"errors"
	"net"
	"strings"
	"testing"

	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/internal/loctest"
)

// A Client's Get refuses a mailto URL at Check, before any connection
// (RFC 6068 §3: nothing is retrieved), with an *access.ActionError that
// names the action and the command that does it; the client the
// registry made and a configured Client refuse alike.
func TestClientRefuses(t *testing.T) {
	u := loctest.MustParse(t, "mailto:joe@example.com?subject=hi")
	dial := func(ctx context.Context, network, addr string) (net.Conn, error) {
		t.Errorf("dialed %s", addr)
		return nil, errors.New("no connection in this test")
	}
	for _, c := range []*access.Client{{Dial: dial}, {Dial: dial, Schemes: map[string]access.Fetcher{"mailto": Client{}}}} {
		res, err := c.Get(context.Background(), u)
		var ae *access.ActionError
		if res != nil || !errors.As(err, &ae) || ae.Action != "send a message" || ae.Rule != "RFC 6068 §3" ||
			!strings.Contains(ae.Reason, "`locator send 'mailto:joe@example.com?subject=hi'`") || access.Classify(err) != access.Forbidden {
			t.Errorf("Get = %v, %v; want an ActionError, Forbidden", res, err)
		}
	}
}
