package access

import (
	"context"
	"errors"
	"net"
	"strconv"
	"time"

	"github.com/rfc1738/locator/internal/printable"
)

// A ServerError says the server answered that the object does not exist
// or that it refuses it: an FTP 550, an HTTP 404 or 403, a Gopher type-3
// item, an NNTP 430.
type ServerError struct {
	URL     string // the URL followed, password masked
	Command string // the command the server answered, password masked
	Code    string // the protocol's own code ("550", "404")
	Text    string // the server's text, as it sent it
	// Rule, when set, is the client's note on the refusal: the rule of
	// the text the refused command carries out and what else may work
	// (FTP's "RFC 1738 §3.2.2: an empty <cwd> is sent as \"CWD \" ...").
	// It is kept apart from Text, which is only the server's.
	Rule string
	// Body, when the scheme client was asked to keep it (an HTTP
	// client's ErrorBody), is the page the server sent with its refusal,
	// as it sent it, at most MaxErrorBody octets.
	Body []byte
	// RetryAfter is the wait the server asked for before another
	// request (HTTP Retry-After, RFC 9110 §10.2.3); 0 when it asked none.
	RetryAfter time.Duration
}

// An OffsetError says that the offset a transfer was to resume at
// (Client.GetFrom) lies past the end of the object, Size octets long:
// nothing is to be resumed, and what the caller kept is not the
// beginning of this object. Classify counts it a failure.
type OffsetError struct {
	URL          string // the URL, password masked
	Offset, Size int64
}

func (e *OffsetError) Error() string {
	return printable.String(e.URL) + ": cannot resume at octet " + strconv.FormatInt(e.Offset, 10) + ": the object has " + strconv.FormatInt(e.Size, 10) + " octets"
}

// MaxErrorBody bounds ServerError.Body.
const MaxErrorBody = 1 << 20

// Error returns "URL: the server says CODE TEXT (to "COMMAND"): RULE",
// each part left out when empty, made printable (package printable): the
// server's text may hold controls meant for a terminal, and an error's
// message ends up on one or in a log. The fields keep what was sent.
func (e *ServerError) Error() string {
	s := "the server says " + e.Code
	if e.URL != "" {
		s = e.URL + ": " + s
	}
	if e.Text != "" {
		s += " " + e.Text
	}
	if e.Command != "" {
		s += " (to " + strconv.Quote(e.Command) + ")"
	}
	if e.Rule != "" {
		s += ": " + e.Rule
	}
	return printable.String(s)
}

// A PolicyError says local policy refuses a URL before any connection:
// a port that belongs to another service, a denied host, a decoded CR,
// LF or NUL that would become a protocol delimiter (RFC 1738 §6).
type PolicyError struct {
	URL    string // the URL refused, password masked
	Offset int    // byte offset in the URL's input of the part refused
	Rule   string // the rule: "RFC 1738 §6", "port", "host", ...
	Reason string
}

// Error returns "URL: refused by local policy (RULE, at OFFSET): REASON",
// made printable (the reason may quote a decoded part of the URL).
func (e *PolicyError) Error() string {
	s := "refused by local policy"
	if e.URL != "" {
		s = e.URL + ": " + s
	}
	if e.Rule != "" {
		s += " (" + e.Rule + ", at " + strconv.Itoa(e.Offset) + ")"
	}
	return printable.String(s + ": " + e.Reason)
}

// A ProtocolError says the server's reply broke its protocol: malformed,
// oversized, or without end.
type ProtocolError struct {
	URL string // the URL followed, password masked
	Msg string
}

// Error returns "URL: protocol error: MSG", made printable (the message
// may quote what the server sent).
func (e *ProtocolError) Error() string {
	if e.URL == "" {
		return printable.String("protocol error: " + e.Msg)
	}
	return printable.String(e.URL + ": protocol error: " + e.Msg)
}

// ErrTooLarge is returned by a Body (or a listing read) that exceeds
// Client.MaxSize.
var ErrTooLarge = errors.New("access: object larger than the size limit")

// ErrNoPassword is returned when the URL names a user without a password,
// the server asks for one, and Client.Password is nil (nobody to ask).
var ErrNoPassword = errors.New("access: the server asks for a password, the URL gives none, and there is no terminal to ask (RFC 1738 §3.2.1)")

// An Outcome classifies the result of following a URL: a program maps
// it to what it reports (the locator command to its exit status).
type Outcome int

// The Outcomes.
const (
	// Delivered: the object was delivered.
	Delivered Outcome = iota
	// Absent: the server says the object does not exist, or refuses it.
	Absent
	// Failed: a network or protocol failure, or a limit reached.
	Failed
	// Forbidden: local policy refused the URL before any connection.
	Forbidden
)

var outcomeNames = [...]string{"delivered", "absent", "failed", "forbidden"}

func (o Outcome) String() string {
	if o >= 0 && int(o) < len(outcomeNames) {
		return outcomeNames[o]
	}
	return "Outcome(" + strconv.Itoa(int(o)) + ")"
}

// Classify returns the Outcome of an error returned by a Client or read
// from a Body.
func Classify(err error) Outcome {
	var se *ServerError
	var pe *PolicyError
	var ue *UnsupportedError
	switch {
	case err == nil:
		return Delivered
	case errors.As(err, &se):
		return Absent
	case errors.As(err, &pe), errors.As(err, &ue), errors.Is(err, ErrNoPassword):
		return Forbidden
	}
	return Failed
}

// Timeout reports whether err is a deadline that passed (a stalled
// server, or the caller's context).
func Timeout(err error) bool {
	var ne net.Error
	return errors.Is(err, context.DeadlineExceeded) || errors.As(err, &ne) && ne.Timeout()
}
