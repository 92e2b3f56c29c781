package access

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/rfc1738/locator"
)

// actionClient is a client whose scheme names no object (RFC 6068 §3's
// mailto is the real one): Check refuses before any connection.
type actionClient struct{ fetched *bool }

func (actionClient) Check(u *locator.URL, req *Request) error {
	return &ActionError{URL: Masked(u), Rule: "RFC 6068 §3", Action: "send a message", Reason: "a mailbox is written to, not read"}
}

func (c actionClient) Fetch(ctx context.Context, u *locator.URL, req *Request) (*Resource, error) {
	*c.fetched = true
	return nil, errors.New("Fetch called")
}

// TestActionError: Get stops at Check, nothing is fetched, the error says
// what the URL is for, and Classify counts it Forbidden (exit 4).
func TestActionError(t *testing.T) {
	fetched := false
	Register("x-action", Info{}, func() Fetcher { return actionClient{&fetched} })
	u, err := locator.Parse("x-action:someone")
	if err != nil {
		t.Fatal(err)
	}
	_, err = (&Client{}).Get(context.Background(), u)
	var ae *ActionError
	if !errors.As(err, &ae) || fetched {
		t.Fatalf("Get = %v (fetched %v), want an *ActionError before Fetch", err, fetched)
	}
	want := "x-action:someone: names no object to retrieve (RFC 6068 §3): a mailbox is written to, not read"
	if err.Error() != want {
		t.Errorf("Error() = %q, want %q", err.Error(), want)
	}
	if got := Classify(err); got != Forbidden {
		t.Errorf("Classify = %d, want Forbidden", got)
	}
	var pe *PolicyError
	if !errors.As(err, &pe) || pe.Rule != "RFC 6068 §3" || !strings.Contains(pe.Reason, "its action is to send a message") {
		t.Errorf("as a PolicyError: %+v", pe)
	}
	var se *ServerError
	if errors.As(err, &se) {
		t.Errorf("an ActionError is not a ServerError")
	}
}
