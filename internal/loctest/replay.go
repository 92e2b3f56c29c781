package loctest

import (
	"errors"
	"io"
	"testing"

	"github.com/rfc1738/locator/access"
)

// ReadReplay reads what a replay gave, its Listing or its Body, to the
// end and closes it, and stops t unless every error on the way is one a
// live reading of the same protocol may return: a *access.ProtocolError
// (what breaks the protocol), a *access.ServerError (the server's
// refusal), a *access.TruncatedError or ErrTooLarge (the limits'), and,
// where redirects is true, a *access.Redirect. It is the check shared by
// the scheme packages' FuzzReplay targets: recorded octets, garbage or
// cut short, fail only as a live reply does, never with a panic or an
// error of some other kind.
func ReadReplay(t testing.TB, res *access.Resource, err error, redirects bool) {
	t.Helper()
	if err != nil {
		replayAllowed(t, err, redirects)
		return
	}
	if res.Listing != nil {
		_, err = res.Listing.ReadAll()
	} else if res.Body != nil {
		_, err = io.ReadAll(res.Body)
	}
	if err != nil {
		replayAllowed(t, err, redirects)
	}
	if err := res.Close(); err != nil {
		replayAllowed(t, err, redirects)
	}
}

func replayAllowed(t testing.TB, err error, redirects bool) {
	t.Helper()
	var pe *access.ProtocolError
	var se *access.ServerError
	var te *access.TruncatedError
	var rd *access.Redirect
	switch {
	case errors.As(err, &pe), errors.As(err, &se), errors.As(err, &te), errors.Is(err, access.ErrTooLarge):
	case redirects && errors.As(err, &rd):
	default:
		t.Fatalf("%T %v", err, err)
	}
}
