package mailto

import (
	"context"
	"strings"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
)

func init() {
	access.Register("mailto", access.Info{}, func() access.Fetcher { return Client{} })
}

// Client is the mailto client of package access. A mailto URL
// designates a mailbox, not an object: "the 'mailto' URI is not intended
// as a way of retrieving such objects automatically" (RFC 6068 §3), and
// RFC 1738 §3.5 says it "designates the Internet mailing address of an
// individual or service. No additional information other than an
// Internet mailing address is present or implied." So access.Client's
// Get refuses it before any connection with an *access.ActionError
// (Classify: Forbidden, `locator get` exit 4) that names the action,
// sending a message, and the command that does it: Compose and Send,
// `locator send URL`. It has no settings: its zero value is the client.
type Client struct{}

// Check refuses every mailto URL: there is nothing to retrieve.
func (Client) Check(u *locator.URL, req *access.Request) error {
	return &access.ActionError{
		URL:    access.Masked(u),
		Rule:   "RFC 6068 §3",
		Action: "send a message",
		Reason: "a mailto URL designates a mailbox, which a client writes a message to (RFC 1738 §3.5); compose and send one with `locator send " + shellQuote(access.Masked(u)) + "`",
	}
}

// Fetch is never reached: Check refuses first.
func (c Client) Fetch(ctx context.Context, u *locator.URL, req *access.Request) (*access.Resource, error) {
	return nil, c.Check(u, req)
}

// shellQuote writes s as one word of a POSIX shell command line.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
