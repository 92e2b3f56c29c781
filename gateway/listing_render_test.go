package gateway

import (
	"testing"

	"github.com/rfc1738/locator/access"
)

// TestEntryViewApproximateSize: a listing page shows a size the server
// only estimates (a Gopher+ +VIEWS size, Gopher+ §2.5) as one.
func TestEntryViewApproximateSize(t *testing.T) {
	x := &exchange{}
	if got := x.entryView(access.Entry{Type: "file", Name: "a", Size: 2048, SizeApprox: true}).Meta; got != "about 2.0 KiB" {
		t.Errorf("estimated size shown as %q", got)
	}
	if got := x.entryView(access.Entry{Type: "file", Name: "a", Size: 2048}).Meta; got != "2.0 KiB" {
		t.Errorf("counted size shown as %q", got)
	}
}
