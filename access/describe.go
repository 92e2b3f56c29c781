package access

import (
	"context"

	"github.com/rfc1738/locator"
)

// A Describer is a Fetcher that can also say, without retrieving the
// object, which representations of it the server offers (a Gopher+
// item's +VIEWS; RFC 1738 §3.4.8). Options.View then asks for one.
type Describer interface {
	Views(ctx context.Context, u *locator.URL, req *Request) ([]View, error)
}

// A View is one representation of an object a server offers.
type View struct {
	// Name is what Options.View takes to ask for this view: the media
	// type and, after a space, the language ("text/plain En_US").
	Name     string `json:"name"`
	Type     string `json:"type"`               // the media type, as the server writes it
	Language string `json:"language,omitempty"` // the language, or ""
	// Size is the size the server says, in octets (often an estimate),
	// or -1.
	Size int64 `json:"size"`
}

// Views returns the representations the server offers of the object u
// names, in the server's order (the first its preferred one), through
// the client registered for u's scheme. Policy and the client's Check
// apply as for Get. A scheme with no client fails with an
// *UnsupportedError, one whose client is not a Describer with a
// *PolicyError (rule "views"): both are refused before connecting.
func Views(ctx context.Context, u *locator.URL, opts Options) ([]View, error) {
	if u == nil {
		return nil, &PolicyError{Rule: "url", Reason: "no URL"}
	}
	f, info, ok := Lookup(u.Scheme())
	if !ok {
		return nil, &UnsupportedError{Scheme: u.Scheme()}
	}
	d, ok := f.(Describer)
	if !ok {
		return nil, &PolicyError{URL: Masked(u), Rule: "views", Reason: "the " + u.Scheme() + " client cannot say which representations a server offers"}
	}
	req := &Request{Options: &opts, URL: u, info: info}
	if err := opts.Policy.check(u, info); err != nil {
		return nil, err
	}
	if err := f.Check(u, req); err != nil {
		return nil, err
	}
	return d.Views(ctx, u, req)
}
