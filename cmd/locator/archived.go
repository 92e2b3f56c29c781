package main

// --archive of crawl and probe: a broken link's closest capture in a
// web archive, as the /web/TIMESTAMP/URL a person opens on
// `locator gateway --warc FILE` (lychee's --suggest does this with the
// Wayback Machine, for HTTP only).

import (
	"time"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/gateway"
	"github.com/rfc1738/locator/wayback"
)

// archivedLinks finds captures in --archive's files.
type archivedLinks struct {
	ix *wayback.Index
	at time.Time // the check's time: the capture closest to it is given
}

// openArchived opens the index of files (each FILE.cdxj, or one made
// of FILE), or returns nil when there are none.
func openArchived(files []string) (*archivedLinks, error) {
	if len(files) == 0 {
		return nil, nil
	}
	ix, err := openWayback(files)
	if err != nil {
		return nil, err
	}
	return &archivedLinks{ix: ix, at: time.Now()}, nil
}

// url is the memento of u closest to the check's time, as a path of the
// gateway's default collection ("/web/20261107120000/gopher://h/0/x"),
// or "" when the archive holds none (or a nil a).
func (a *archivedLinks) url(u *locator.URL) string {
	if a == nil || u == nil {
		return ""
	}
	row, err := a.ix.Closest(u, a.at)
	if err != nil || row == nil {
		return ""
	}
	return "/" + gateway.DefaultCollection + "/" + row.Timestamp + "/" + row.URL
}

func (a *archivedLinks) close() {
	if a != nil {
		a.ix.Close()
	}
}
