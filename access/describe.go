package access

import (
	"context"

	"github.com/rfc1738/locator"
)

// A Describer is a Fetcher that can also say, without retrieving the
// object, which representations of it the server offers (a Gopher+
// item's +VIEWS; RFC 1738 §3.4.8). A request's Options.View then asks
// for one (Request.View).
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
