package access

import "context"

// Allow applies to host:port the policy Dial applies, and returns the
// *PolicyError Dial would, without connecting. A scheme client that
// keeps connections open between requests (an HTTP keep-alive pool)
// calls it for each request before it takes a connection an earlier
// Request's Dial opened, so that a kept connection never lets a request
// reach an address local policy would not let it connect to (RFC 1738
// §6's caution on ports included; a redirection from the open Internet
// onto loopback, SpecialGiven).
func (r *Request) Allow(host string, port int) error {
	if err := r.checkPort(host, port); err != nil {
		return err
	}
	p := &r.Client.Policy
	if len(p.Allow) == 0 && len(p.Deny) == 0 && p.Special == SpecialGiven && !r.fromServer {
		return nil // nothing could refuse it but a host no lookup takes
	}
	ctx, cancel := context.WithTimeout(context.Background(), r.Client.connectTimeout())
	defer cancel()
	_, _, err := r.resolve(ctx, host, port, false)
	return err
}
