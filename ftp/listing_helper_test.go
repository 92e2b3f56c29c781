package ftp_test

import (
	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/internal/loctest"
)

// A Listing streams; the tests read each whole once (loctest keeps it).
func entries(l *access.Listing) []access.Entry         { return loctest.Entries(l) }
func truncated(l *access.Listing) bool                 { return loctest.Truncated(l) }
func listingErr(res *access.Resource, err error) error { return loctest.ListingErr(res, err) }
