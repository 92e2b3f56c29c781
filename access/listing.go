package access

import (
	"errors"
	"io"
	"strconv"
	"sync"
	"time"
)

// A Listing is the content of a collection (a directory, a menu, a
// group, search results), read from the server entry by entry as the
// caller asks for it, so that the memory a listing takes is bounded by a
// constant and not by what the server sends.
//
// Next returns the entries in the server's order, then io.EOF; a
// *TruncatedError when the collection has more entries than
// Client.MaxEntries (the rest are not read); or the error that ended
// the transfer (a *ProtocolError, ErrTooLarge, a network error). Once
// Next has returned an error it returns the same error again, and the
// transfer is over: its connection is released (or closed) at once.
//
// The caller must Close the listing (Resource.Close does) when it stops
// before the end: Close ends the transfer, closing its connection. Close
// may be called from another goroutine while Next blocks, which then
// returns an error; no other method is safe for concurrent use.
//
//	for {
//		e, err := l.Next()
//		if err == io.EOF {
//			break
//		}
//		if err != nil {
//			return err // *access.TruncatedError: cut at MaxEntries
//		}
//		use(e)
//	}
type Listing struct {
	next  func() (Entry, error)
	close func() error
	max   int
	n     int   // entries delivered
	err   error // the error that ended the listing, returned again

	once     sync.Once
	closeErr error
	mu       sync.Mutex
	closed   bool
}

// NewListing returns a Listing whose entries next reads one by one: next
// returns io.EOF after the last (the protocol's end of the listing read,
// and the transfer completed), a *TruncatedError when the source knows
// that entries remain beyond the limit, or another error. close, which
// may be nil, ends the transfer; it is called once, when Next has
// returned an error or when the caller calls Close, whichever comes
// first.
//
// max (Request.MaxEntries) bounds the entries delivered: when max have
// been, next is asked once more, and an entry there makes Next return a
// *TruncatedError (the rest is not read) where io.EOF ends it otherwise.
// max <= 0 means DefaultMaxEntries.
func NewListing(max int, next func() (Entry, error), close func() error) *Listing {
	if max <= 0 {
		max = DefaultMaxEntries
	}
	return &Listing{next: next, close: close, max: max}
}

// ListingOf returns a Listing of entries already in memory, for a
// collection whose size a protocol constant bounds (one reply message)
// or a test. truncated says that the source had more entries than it
// kept. At most max are delivered (max <= 0: DefaultMaxEntries); then a
// *TruncatedError when there were more or truncated is set.
func ListingOf(entries []Entry, truncated bool, max int) *Listing {
	i := 0
	return NewListing(max, func() (Entry, error) {
		if i < len(entries) {
			i++
			return entries[i-1], nil
		}
		if truncated {
			return Entry{}, &TruncatedError{Max: max}
		}
		return Entry{}, io.EOF
	}, nil)
}

// Next returns the next entry, io.EOF after the last, a *TruncatedError
// when the listing was cut at MaxEntries, or the error that ended the
// transfer.
func (l *Listing) Next() (Entry, error) {
	if l.err != nil {
		return Entry{}, l.err
	}
	l.mu.Lock()
	closed := l.closed
	l.mu.Unlock()
	if closed {
		return Entry{}, l.end(ErrListingClosed)
	}
	e, err := l.next()
	if err != nil {
		var te *TruncatedError
		if errors.As(err, &te) && te.Max <= 0 {
			te.Max = l.max
		}
		l.mu.Lock()
		closed = l.closed
		l.mu.Unlock()
		if closed && err != io.EOF {
			err = ErrListingClosed
		}
		return Entry{}, l.end(err)
	}
	if l.n == l.max {
		return Entry{}, l.end(&TruncatedError{Max: l.max})
	}
	l.n++
	return e, nil
}

// end records err as the listing's end and ends the transfer.
func (l *Listing) end(err error) error {
	l.err = err
	l.Close()
	return err
}

// Close ends the transfer, closing its connection when the listing was
// not read to its end. It returns the error of ending it, and nil when
// it had ended already.
func (l *Listing) Close() error {
	if l == nil {
		return nil
	}
	l.mu.Lock()
	l.closed = true
	l.mu.Unlock()
	l.once.Do(func() {
		if l.close != nil {
			l.closeErr = l.close()
		}
	})
	return l.closeErr
}

// ReadAll reads the remaining entries and closes the listing: a
// convenience for small callers and tests, bounded by MaxEntries. The
// error is nil when the listing was read to its end, else the one Next
// returned (a *TruncatedError with the entries up to the limit).
func (l *Listing) ReadAll() ([]Entry, error) {
	defer l.Close()
	entries := []Entry{}
	for {
		e, err := l.Next()
		if err == io.EOF {
			return entries, nil
		}
		if err != nil {
			return entries, err
		}
		entries = append(entries, e)
	}
}

// A TruncatedError says that a listing has more entries than
// Client.MaxEntries: the entries up to the limit were delivered, the
// rest not read. access.Classify counts it a failure (the collection was
// not delivered whole).
type TruncatedError struct {
	Max int // the limit in force
}

func (e *TruncatedError) Error() string {
	return "the listing has more than " + strconv.Itoa(e.Max) + " entries; the rest were not read (MaxEntries)"
}

// ErrListingClosed is returned by Next after Close.
var ErrListingClosed = errors.New("access: the listing was closed before its end")

// Entry types (Entry.Type): what an entry is, for a person.
const (
	TypeFile      = "file"
	TypeDirectory = "directory"
	TypeSearch    = "search"
	TypeSession   = "session"
	TypeArticle   = "article"
	TypeGroup     = "group"
	TypeLink      = "link"
	TypeInfo      = "info"
	TypeError     = "error"
)

// An Entry is one member of a Listing.
type Entry struct {
	// URL is the entry's absolute URL, written by its scheme's builder;
	// "" for an entry that names nothing (an information line).
	URL string `json:"url"`
	// Name is the entry's name as a person reads it (decoded).
	Name string `json:"name"`
	// Type is one of the Type constants.
	Type string `json:"type"`
	// Size is the size in octets when the server says it, or -1.
	Size int64 `json:"size"`
	// SizeApprox is true when Size is the server's estimate, not a
	// count: a Gopher+ +VIEWS size ("<2k>"), which "might NOT be the
	// exact size that the server will wind up delivering" (Gopher+ §2.5).
	SizeApprox bool `json:"size_approx,omitempty"`
	// Modified is the modification time when the server says it.
	Modified time.Time `json:"modified"`
	// Parts holds what the protocol says of the entry in its own terms
	// (a Gopher item type, FTP facts), or nil.
	Parts map[string]any `json:"parts,omitempty"`
}
