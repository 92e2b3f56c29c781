package main

// What locator crawl writes: the readable summary of the broken links
// grouped by page, the NDJSON records of --json, and --junit's XML.
// Every URL is written with its password masked (access.Masked).

import (
	"encoding/xml"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/crawl"
	"github.com/rfc1738/locator/internal/crawlrecord"
)

// A brokenLink is one broken link as the outputs write it. A seed that
// could not be fetched is one too, with no page and the place "seed":
// nothing links to it, and it is the first thing broken.
type brokenLink struct {
	page, place, ref, url string
	status, err           string
	u                     *locator.URL // the link's target
}

// The records of `locator crawl --json`, one a line, told apart by
// "event" (package crawlrecord: the bulk crawl writes them too).
type (
	crawlBrokenRecord  = crawlrecord.Broken
	crawlSummaryRecord = crawlrecord.Summary
)

// eventRecord is the --json record of a crawl event.
func eventRecord(ev crawl.Event) any { return crawlrecord.Of(ev) }

func (b brokenLink) record() crawlBrokenRecord {
	return crawlBrokenRecord{Event: "broken", Page: b.page, Place: b.place, Ref: b.ref, URL: b.url, Status: b.status, Error: b.err}
}

func (s *crawlStats) record(broken, refused, unjudged int) crawlSummaryRecord {
	return crawlSummaryRecord{Event: "summary", Pages: s.pages, Octets: s.received.Load(), Links: s.links, Checked: s.checked, Errors: s.errors,
		Broken: broken, Refused: refused, Unjudged: unjudged}
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
