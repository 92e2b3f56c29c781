package loctest

import (
	"errors"
	"sync"

	"github.com/rfc1738/locator/access"
)

// A Listing streams: its entries can be read once. Tests read each
// listing whole, once, through these helpers, which keep what they read.
var (
	listedMu sync.Mutex
	listed   = map[*access.Listing]listResult{}
)

type listResult struct {
	entries []access.Entry
	err     error
}

func readListing(l *access.Listing) listResult {
	listedMu.Lock()
	defer listedMu.Unlock()
	r, ok := listed[l]
	if !ok {
		r.entries, r.err = l.ReadAll()
		listed[l] = r
	}
	return r
}

// Entries returns l's entries (those read before an error).
func Entries(l *access.Listing) []access.Entry { return readListing(l).entries }

// Truncated reports whether l was cut at MaxEntries.
func Truncated(l *access.Listing) bool {
	var te *access.TruncatedError
	return errors.As(readListing(l).err, &te)
}

// ListingErr returns err, or when it is nil and res is a listing, the
// error that ended the listing other than its cut at MaxEntries.
func ListingErr(res *access.Resource, err error) error {
	if err != nil || res == nil || res.Listing == nil {
		return err
	}
	if lerr := readListing(res.Listing).err; lerr != nil && !Truncated(res.Listing) {
		return lerr
	}
	return nil
}
