package access

// An ActionError says that a URL names no object to retrieve: what its
// scheme designates is acted on, not fetched (RFC 6068 §3: a URL that
// designates a mailbox "is not intended as a way of retrieving such
// objects"; the client "creates a message to the designated address").
// A client's Check returns it before any connection, so the Client contacts
// nobody. Classify counts it Forbidden, as it does a scheme with no client:
// nothing was contacted and nothing can be delivered.
type ActionError struct {
	URL    string // the URL, password masked
	Rule   string // the text that says so: "RFC 6068 §3"
	Action string // what is done with such a URL instead: "send a message"
	Reason string // why it names no object, and how to act on it
}

func (e *ActionError) Error() string {
	s := "names no object to retrieve"
	if e.URL != "" {
		s = e.URL + ": " + s
	}
	if e.Rule != "" {
		s += " (" + e.Rule + ")"
	}
	if e.Reason != "" {
		s += ": " + e.Reason
	}
	return s
}

// As lets errors.As see an ActionError as the *PolicyError it amounts to
// (refused before any connection), so that Classify returns Forbidden.
func (e *ActionError) As(target any) bool {
	p, ok := target.(**PolicyError)
	if !ok {
		return false
	}
	*p = &PolicyError{URL: e.URL, Rule: e.Rule, Reason: "names no object to retrieve; its action is to " + e.Action + ": " + e.Reason}
	return true
}
