package loctest

import (
	"bytes"
	"context"
	"io"
	"reflect"
	"sync"
	"testing"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
)

// Kept is a record as an Archive keeps it: the access.Record without
// its Spools, and their octets.
type Kept struct {
	Record   access.Record // Request and Response nil
	Request  []byte        // nil when the record had no Request
	Response []byte
}

// An Archive is an access.Recorder and an access.Archive in memory,
// for tests: Record copies each record's octets, so that a test can
// look at what a Client kept and follow it again without a server. It
// keeps every record, in the order made; a URL recorded twice keeps
// both, and Lookup gives the later. Records are matched by the String
// of their URL, the form a Recorder is handed (the URL followed, not
// normalised). Its methods are safe for concurrent use; the zero
// Archive is empty and ready.
type Archive struct {
	mu   sync.Mutex
	recs []Kept
	urls []string // recs[i].Record.URL.String()
}

// Record keeps a copy of r: its fields and its Spools' octets
// (access.Recorder). It fails only when a Spool cannot be read.
func (a *Archive) Record(r *access.Record) error {
	k := Kept{Record: *r}
	k.Record.Request, k.Record.Response = nil, nil
	var err error
	if r.Request != nil {
		if k.Request, err = io.ReadAll(r.Request.Reader()); err != nil {
			return err
		}
	}
	if r.Response != nil {
		if k.Response, err = io.ReadAll(r.Response.Reader()); err != nil {
			return err
		}
	}
	a.keep(k)
	return nil
}

// Add keeps k as if it had been recorded: a record a test makes (a
// reply cut short, a fuzzer's octets). k.Record.URL must be set; the
// octets are copied.
func (a *Archive) Add(k Kept) {
	k.Request, k.Response = bytes.Clone(k.Request), bytes.Clone(k.Response)
	a.keep(k)
}

func (a *Archive) keep(k Kept) {
	u := k.Record.URL.String()
	a.mu.Lock()
	defer a.mu.Unlock()
	a.recs = append(a.recs, k)
	a.urls = append(a.urls, u)
}

// Lookup returns the latest record of u, its URL's String equal to
// u's, as a new access.Record with new Spools holding the octets kept
// (access.Archive): a Request Spool for a RecordExchange, none for a
// RecordResource (as a Recorder is handed them). A URL never recorded
// is an *access.NotArchivedError.
func (a *Archive) Lookup(ctx context.Context, u *locator.URL) (*access.Record, error) {
	k, ok := a.Latest(u.String())
	if !ok {
		return nil, &access.NotArchivedError{URL: access.Masked(u)}
	}
	r := k.Record
	if r.Kind == access.RecordExchange {
		r.Request = access.NewSpool()
		r.Request.Write(k.Request)
	}
	r.Response = access.NewSpool()
	r.Response.Write(k.Response)
	return &r, nil
}

// Records returns every record kept, in the order made.
func (a *Archive) Records() []Kept {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]Kept(nil), a.recs...)
}

// Of returns the records whose URL's String is s, in the order made.
func (a *Archive) Of(s string) []Kept {
	a.mu.Lock()
	defer a.mu.Unlock()
	var out []Kept
	for i, u := range a.urls {
		if u == s {
			out = append(out, a.recs[i])
		}
	}
	return out
}

// Latest returns the last record whose URL's String is s, and whether
// there is one.
func (a *Archive) Latest(s string) (Kept, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for i := len(a.urls) - 1; i >= 0; i-- {
		if a.urls[i] == s {
			return a.recs[i], true
		}
	}
	return Kept{}, false
}

// An Outcome is what a Get gave: the listing's entries or the body and
// the media type, and the error (of Get, of reading, or of Close).
type Outcome struct {
	Entries   []access.Entry
	Body      []byte
	MediaType string
	Err       error
}

// GetOutcome follows s with ac, reads the Resource whole and closes
// it; it is how a record/replay test compares a live Get with a replay.
func GetOutcome(t testing.TB, ac *access.Client, s string) Outcome {
	t.Helper()
	return DoOutcome(t, ac, s, nil)
}

// DoOutcome is GetOutcome with the request's own values opts
// (access.Client.Do).
func DoOutcome(t testing.TB, ac *access.Client, s string, opts *access.Options) Outcome {
	t.Helper()
	res, err := ac.Do(context.Background(), MustParse(t, s), opts)
	if err != nil {
		return Outcome{Err: err}
	}
	o := Outcome{MediaType: res.MediaType}
	if res.Listing != nil {
		o.Entries, o.Err = res.Listing.ReadAll()
	} else {
		o.Body, o.Err = io.ReadAll(res.Body)
	}
	if cerr := res.Close(); o.Err == nil {
		o.Err = cerr
	}
	return o
}

// SameOutcome fails the test unless again, the replay of s, gave what
// live gave: the same entries, body and media type, and an error of the
// same type and text, or none.
func SameOutcome(t testing.TB, s string, live, again Outcome) {
	t.Helper()
	if !reflect.DeepEqual(live.Entries, again.Entries) || !bytes.Equal(live.Body, again.Body) || live.MediaType != again.MediaType {
		t.Errorf("%s: replay gave %d entries, body %q (%s); live %d entries, body %q (%s)", s,
			len(again.Entries), again.Body, again.MediaType, len(live.Entries), live.Body, live.MediaType)
	}
	if (live.Err == nil) != (again.Err == nil) || live.Err != nil && (reflect.TypeOf(live.Err) != reflect.TypeOf(again.Err) || live.Err.Error() != again.Err.Error()) {
		t.Errorf("%s: replay's error %T %v, live %T %v", s, again.Err, again.Err, live.Err, live.Err)
	}
}
