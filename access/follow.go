package access

import "context"

type followKey struct{}

// WithFollow returns a context that asks every client whose object is
// a pointer to other URLs (RFC 1738 §3.11: a Prospero object's access
// methods, "which might themselves be represented as different URLs")
// to follow the first of them it can, as a *Redirect, instead of
// listing them. Get checks each URL followed anew.
func WithFollow(ctx context.Context) context.Context {
	return context.WithValue(ctx, followKey{}, true)
}

// Following reports whether ctx was made by WithFollow.
func Following(ctx context.Context) bool {
	v, _ := ctx.Value(followKey{}).(bool)
	return v
}
