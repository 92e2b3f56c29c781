package prospero

import (
	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/internal/loctest"
)

// A Listing streams; the tests read each whole once (loctest keeps it).
func entries(l *access.Listing) []access.Entry { return loctest.Entries(l) }
