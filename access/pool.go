package access

import "strconv"

// Allow applies to host:port the host and port policy Dial applies, and
// returns the *PolicyError Dial would, without connecting. A scheme
// client that keeps connections open between requests (an HTTP
// keep-alive pool) calls it for each request before it takes a
// connection an earlier Request's Dial opened, so that a kept
// connection never lets a request reach an address local policy would
// not let it connect to (RFC 1738 §6's caution on ports included).
func (r *Request) Allow(host string, port int) error {
	if !r.Client.Policy.allowsHost(host) {
		return &PolicyError{URL: Masked(r.URL), Rule: "host", Reason: "host " + strconv.Quote(host) + " is not allowed by local policy"}
	}
	return r.checkPort(host, port)
}
