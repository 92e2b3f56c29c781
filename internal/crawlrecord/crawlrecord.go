// Package crawlrecord holds the NDJSON records of `locator crawl --json`
// (page, link, checked, broken, summary), how a crawl event becomes one
// and how one is read back into an event, so that the command and the
// bulk crawl (bulk/crawljob) write the same octets and rebuild the same
// report. Every URL is written with its password masked (access.Masked).
package crawlrecord

import (
	"errors"
	"strings"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/crawl"
	"github.com/rfc1738/locator/internal/proberecord"
)

// The records, one a line, told apart by "event".
type (
	Page struct {
		Event     string `json:"event"` // "page"
		URL       string `json:"url"`
		Depth     int    `json:"depth"`
		From      string `json:"from,omitempty"`
		Final     string `json:"final,omitempty"`
		Status    string `json:"status"`
		Skipped   string `json:"skipped,omitempty"`
		MediaType string `json:"type,omitempty"`
		Size      int64  `json:"size"`
		Read      int64  `json:"read"`
		Listing   bool   `json:"listing,omitempty"`
		Links     int    `json:"links"`
		Tries     int    `json:"tries"`
		Error     string `json:"error,omitempty"`
	}
	Link struct {
		Event   string `json:"event"` // "link"
		From    string `json:"from"`
		Place   string `json:"place"`
		Element string `json:"element,omitempty"`
		Attr    string `json:"attr,omitempty"`
		Name    string `json:"name,omitempty"`
		Line    int    `json:"line,omitempty"`
		Column  int    `json:"column,omitempty"`
		Ref     string `json:"ref"`
		URL     string `json:"url,omitempty"`
		Follow  bool   `json:"follow"`
		Reason  string `json:"reason,omitempty"`
		Error   string `json:"error,omitempty"`
	}
	Checked struct {
		Event  string `json:"event"` // "checked"
		URL    string `json:"url"`
		Status string `json:"status"`
		Code   string `json:"code,omitempty"`
		Text   string `json:"text,omitempty"`
		Error  string `json:"error,omitempty"`
		Tries  int    `json:"tries"`
	}
	Broken struct {
		Event  string `json:"event"` // "broken"
		Page   string `json:"page,omitempty"`
		Place  string `json:"place"`
		Ref    string `json:"ref"`
		URL    string `json:"url"`
		Status string `json:"status"`
		Error  string `json:"error,omitempty"`
		// Archived is --archive's closest capture of URL, as
		// /web/TIMESTAMP/URL on `locator gateway --warc`.
		Archived string `json:"archived,omitempty"`
	}
	Summary struct {
		Event    string `json:"event"` // "summary"
		Pages    int    `json:"pages"`
		Octets   int64  `json:"octets"` // received off the network
		Links    int    `json:"links"`
		Checked  int    `json:"checked"`
		Errors   int    `json:"errors"`
		Broken   int    `json:"broken"`
		Refused  int    `json:"refused"`  // links local policy refused
		Unjudged int    `json:"unjudged"` // links neither followed nor checked
	}
)

// SeedPlace is the place of a broken seed: nothing links to it.
const SeedPlace = "seed"

// Message is err's words without the module's prefix ("locator: ").
func Message(err error) string {
	return strings.TrimPrefix(err.Error(), "locator: ")
}

// PageStatus says, as probe's states do, why p could not be fetched:
// gone (the server says it is not there, or refuses it), error (a
// network or protocol failure), policy; and the error's text without
// the URL it begins with.
func PageStatus(p *crawl.Page) (status, msg string) {
	if p.Err == nil {
		return string(access.StateOK), ""
	}
	var f *crawl.Failure // read back from a record
	if errors.As(p.Err, &f) {
		return string(f.State), f.Text
	}
	switch access.Classify(p.Err) {
	case access.Absent:
		status = string(access.StateGone)
	case access.Forbidden:
		status = string(access.StatePolicy)
	default:
		status = string(access.StateError)
	}
	return status, strings.TrimPrefix(Message(p.Err), access.Masked(p.URL)+": ")
}

// StatusText is a check's answer: the error, else the server's code and
// text.
func StatusText(st *access.Status) string {
	if st.Err != nil {
		return strings.TrimPrefix(Message(st.Err), access.Masked(st.URL)+": ")
	}
	return strings.TrimSpace(st.Code + " " + st.Text)
}

// Of is the record of a crawl event: a Page, a Link or a Checked; nil
// for any other.
func Of(ev crawl.Event) any {
	switch ev := ev.(type) {
	case *crawl.Page:
		status, msg := PageStatus(ev)
		if ev.Skipped != "" && ev.Err == nil {
			status = "skipped"
		}
		return Page{Event: "page", URL: access.Masked(ev.URL), Depth: ev.Depth, From: maskedURL(ev.From), Final: finalURL(ev),
			Status: status, Skipped: ev.Skipped, MediaType: ev.MediaType, Size: ev.Size, Read: ev.Read, Listing: ev.Listing,
			Links: ev.Links, Tries: ev.Tries, Error: msg}
	case *crawl.Link:
		r := Link{Event: "link", From: access.Masked(ev.From), Place: ev.Place.String(), Element: ev.Place.Element, Attr: ev.Place.Attr,
			Name: ev.Place.Name, Line: ev.Place.Line, Column: ev.Place.Column, Ref: proberecord.MaskedText(ev.Ref), URL: maskedURL(ev.URL),
			Follow: ev.Follow, Reason: ev.Reason}
		if ev.Err != nil {
			r.Error = Message(ev.Err)
		}
		return r
	case *crawl.Checked:
		r := Checked{Event: "checked", URL: access.Masked(ev.URL), Tries: ev.Tries}
		if st := ev.Status; st != nil {
			r.Status, r.Code, r.Text = string(st.State), st.Code, st.Text
			if st.Err != nil && st.State != access.StateOK {
				r.Error = StatusText(st)
			}
		}
		return r
	}
	return nil
}

// OfBroken is the record of a broken link of a crawl.Report; a seed
// that could not be fetched has no page and the place SeedPlace.
func OfBroken(b crawl.Broken) Broken {
	r := Broken{Event: "broken"}
	if b.Failure != nil {
		r.Status, r.Error = string(b.Failure.State), b.Failure.Text
	}
	if b.Link.From == nil {
		u := access.Masked(b.Link.URL)
		r.Place, r.Ref, r.URL = SeedPlace, u, u
	} else {
		r.Page, r.Place, r.Ref, r.URL = access.Masked(b.Link.From), b.Link.Place.String(), proberecord.MaskedText(b.Link.Ref), access.Masked(b.Link.URL)
	}
	return r
}

func maskedURL(u *locator.URL) string {
	if u == nil {
		return ""
	}
	return access.Masked(u)
}

// finalURL is the URL p's object came from when a redirection led
// elsewhere, else "".
func finalURL(p *crawl.Page) string {
	if p.Final == nil || p.Final.String() == p.URL.String() {
		return ""
	}
	return access.Masked(p.Final)
}

// Any reads any record of page, link or checked (their fields), to
// rebuild its event (Rebuild).
type Any struct {
	Event, URL, From, Status, Error string
	Skipped                         string
	Depth                           int
	Place, Element, Attr, Name, Ref string
	Line, Column                    int
	Follow                          bool
	Reason, Code, Text              string
	Read                            int64
}

// Rebuild rebuilds the event of rec, or nil. A failure is a
// *crawl.Failure: its state and words, not its type, are kept, and a
// crawl.Report keeps the state recorded.
func (rec *Any) Rebuild() crawl.Event {
	u, err := locator.Parse(rec.URL)
	if err != nil && rec.Event != "link" {
		return nil
	}
	failed := func() error {
		switch access.State(rec.Status) {
		case access.StateGone, access.StateRefused, access.StateError, access.StatePolicy:
			// policy too: a page local policy refused is no fetch that
			// went well, and the report counts the links to it refused.
			return &crawl.Failure{State: access.State(rec.Status), Text: rec.Error}
		}
		return nil
	}
	switch rec.Event {
	case "page":
		p := &crawl.Page{URL: u, Depth: rec.Depth, Skipped: rec.Skipped, Err: failed()}
		if rec.From != "" {
			p.From, _ = locator.Parse(rec.From)
		}
		return p
	case "link":
		from, err := locator.Parse(rec.From)
		if err != nil || u == nil {
			return nil // a link that names no URL is never broken
		}
		return &crawl.Link{From: from, URL: u, Ref: rec.Ref, Follow: rec.Follow, Reason: rec.Reason,
			Place: crawl.Place{Element: rec.Element, Attr: rec.Attr, Name: rec.Name, Line: rec.Line, Column: rec.Column}}
	case "checked":
		return &crawl.Checked{URL: u, Status: &access.Status{State: access.State(rec.Status), Code: rec.Code, Text: rec.Text, URL: u, Err: failed()}}
	}
	return nil
}
