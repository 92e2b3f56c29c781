package main

// What locator crawl writes: the readable summary of the broken links
// grouped by page, the NDJSON records of --json, and --junit's XML.
// Every URL is written with its password masked (access.Masked).

import (
	"encoding/xml"
	"errors"
	"strings"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/crawl"
)

// A brokenLink is one broken link as the outputs write it. A seed that
// could not be fetched is one too, with no page and the place "seed":
// nothing links to it, and it is the first thing broken.
type brokenLink struct {
	page, place, ref, url string
	status, err           string
	u                     *locator.URL // the link's target
}

// seedPlace is the place of a broken seed.
const seedPlace = "seed"

// pageStatus says, as probe's states do, why p could not be fetched:
// gone (the server says it is not there, or refuses it), error (a
// network or protocol failure), policy; and the error's text without
// the URL it begins with.
func pageStatus(p *crawl.Page) (status, msg string) {
	if p.Err == nil {
		return string(access.StateOK), ""
	}
	var f *crawl.Failure // read back from --state's events file
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
	return status, strings.TrimPrefix(message(p.Err), access.Masked(p.URL)+": ")
}

// statusText is a check's answer: the error, else the server's code and
// text.
func statusText(st *access.Status) string {
	if st.Err != nil {
		return strings.TrimPrefix(message(st.Err), access.Masked(st.URL)+": ")
	}
	return strings.TrimSpace(st.Code + " " + st.Text)
}

// The records of `locator crawl --json`, one a line, told apart by
// "event".
type (
	crawlPageRecord struct {
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
	crawlLinkRecord struct {
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
	crawlCheckedRecord struct {
		Event  string `json:"event"` // "checked"
		URL    string `json:"url"`
		Status string `json:"status"`
		Code   string `json:"code,omitempty"`
		Text   string `json:"text,omitempty"`
		Error  string `json:"error,omitempty"`
		Tries  int    `json:"tries"`
	}
	crawlBrokenRecord struct {
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
	crawlSummaryRecord struct {
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

// eventRecord is the --json record of a crawl event.
func eventRecord(ev crawl.Event) any {
	switch ev := ev.(type) {
	case *crawl.Page:
		status, msg := pageStatus(ev)
		if ev.Skipped != "" && ev.Err == nil {
			status = "skipped"
		}
		return crawlPageRecord{Event: "page", URL: access.Masked(ev.URL), Depth: ev.Depth, From: maskedURL(ev.From), Final: finalURL(ev),
			Status: status, Skipped: ev.Skipped, MediaType: ev.MediaType, Size: ev.Size, Read: ev.Read, Listing: ev.Listing,
			Links: ev.Links, Tries: ev.Tries, Error: msg}
	case *crawl.Link:
		r := crawlLinkRecord{Event: "link", From: access.Masked(ev.From), Place: ev.Place.String(), Element: ev.Place.Element, Attr: ev.Place.Attr,
			Name: ev.Place.Name, Line: ev.Place.Line, Column: ev.Place.Column, Ref: maskedText(ev.Ref), URL: maskedURL(ev.URL),
			Follow: ev.Follow, Reason: ev.Reason}
		if ev.Err != nil {
			r.Error = message(ev.Err)
		}
		return r
	case *crawl.Checked:
		r := crawlCheckedRecord{Event: "checked", URL: access.Masked(ev.URL), Tries: ev.Tries}
		if st := ev.Status; st != nil {
			r.Status, r.Code, r.Text = string(st.State), st.Code, st.Text
			if st.Err != nil && st.State != access.StateOK {
				r.Error = statusText(st)
			}
		}
		return r
	}
	return nil
}

func (b brokenLink) record() crawlBrokenRecord {
	return crawlBrokenRecord{Event: "broken", Page: b.page, Place: b.place, Ref: b.ref, URL: b.url, Status: b.status, Error: b.err}
}

func (s *crawlStats) record(broken, refused, unjudged int) crawlSummaryRecord {
	return crawlSummaryRecord{Event: "summary", Pages: s.pages, Octets: s.received.Load(), Links: s.links, Checked: s.checked, Errors: s.errors,
		Broken: broken, Refused: refused, Unjudged: unjudged}
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

// The JUnit XML of --junit, as CI servers read it (Jenkins, GitLab):
// a testsuite for each page with broken links, a failed testcase for
// each of them.
type (
	junitSuites struct {
		XMLName  xml.Name     `xml:"testsuites"`
		Name     string       `xml:"name,attr"`
		Tests    int          `xml:"tests,attr"`
		Failures int          `xml:"failures,attr"`
		Suites   []junitSuite `xml:"testsuite"`
	}
	junitSuite struct {
		Name     string      `xml:"name,attr"`
		Tests    int         `xml:"tests,attr"`
		Failures int         `xml:"failures,attr"`
		Cases    []junitCase `xml:"testcase"`
	}
	junitCase struct {
		Name      string        `xml:"name,attr"`
		Classname string        `xml:"classname,attr"`
		Failure   *junitFailure `xml:"failure"`
	}
	junitFailure struct {
		Message string `xml:"message,attr"`
		Type    string `xml:"type,attr"`
		Text    string `xml:",chardata"`
	}
)
