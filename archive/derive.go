package archive

import (
	"bytes"
	"context"
	"errors"
	"html/template"
	"io"
	"strings"
	"time"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/internal/htmlpage"
)

// Players of the archive world (ReplayWeb.page, pywb) read a WARC
// record's block as HTTP: a Gopher menu, an FTP listing, a news group
// or a Gemini page recorded as its own protocol's octets opens there as
// a broken page. So beside each capture of such a protocol the Writer
// writes a page drawn from it, which those players show: a 'resource'
// record of the capture's WARC-Target-URI and WARC-Date, Content-Type
// text/html (a listing, a text/gemini document drawn as the gateway
// draws them, package htmlpage) or the object itself as the scheme
// client delivers it (a Gopher text, a news article: the protocol's
// framing undone), naming the capture by WARC-Concurrent-To and by
// derivedFrom. WARC 1.1 §6.8's 'conversion' record would say "drawn
// from" in the standard's words, but ReplayWeb.page passes over every
// 'conversion' record (wabac.js indexes response, resource, revisit
// and metadata:// records only), and §5.11 forbids WARC-Refers-To on a
// 'resource'. Its CDXJ line carries "derived" (the capture's record
// ID); Reader.Lookup passes over these records, so that locator's own
// replay reads the capture's octets. docs/archive.md says the rule.

// derivedFrom is the field a derived record names its capture's
// WARC-Record-ID in (an extension field, WARC 1.1 §4: other readers
// ignore it).
const derivedFrom = "Locator-Derived-From"

// deriveMax bounds the octets of a capture a page is drawn from, and
// of the page: a larger capture has no page (it is a file, not a
// listing; docs/archive.md).
const deriveMax = 4 << 20

// deriveEntries bounds the entries of a listing drawn as a page.
const deriveEntries = 1 << 16

// needsPage says whether a player would misread r's record: an exchange
// of a protocol that is not HTTP, or an FTP directory (a resource of
// two listing transfers, ftp/replay.go).
func needsPage(r *access.Record) bool {
	switch r.Kind {
	case access.RecordExchange:
		return protocolFamily(r.Protocol) != "http"
	case access.RecordResource:
		return protocolFamily(r.Protocol) == "ftp" && strings.HasPrefix(r.MediaType, "multipart/mixed; boundary=ftp-listing-")
	}
	return false
}

// derive draws the page of r's capture (req and resp its octets, id
// its WARC-Record-ID): the record to write after the capture's, or nil
// when r needs none, or its scheme client cannot read it back (a
// redirection, a Gemini prompt, an error reply: what a player shows of
// the capture itself is then all there is), or it is larger than
// deriveMax.
func derive(r *access.Record, req, resp block, id, date string) *out {
	if !needsPage(r) || resp.Size() > deriveMax {
		return nil
	}
	body, mt, err := drawPage(r, req, resp, date)
	if err != nil || body == nil {
		return nil
	}
	d := digestOf(body)
	target := access.Masked(r.URL)
	h := header{
		{"WARC-Type", "resource"},
		{"WARC-Record-ID", newID()},
		{"WARC-Date", date},
		{"WARC-Target-URI", target},
		{"WARC-Concurrent-To", id},
		{derivedFrom, id},
		{"Content-Type", mt},
		{"WARC-Block-Digest", d},
		{"WARC-Payload-Digest", d},
	}
	e := &entry{key: Key(r.URL), ts: cdxTimestamp(r.Date), entryJSON: entryJSON{URL: target, Mime: mediaType(mt),
		Digest: d, Date: date, Derived: id}}
	return &out{h: h, b: bytesBlock(body), e: e}
}

// compareLines orders two index lines as pywb searches them, by key and
// timestamp (the octets before " {"), and then a capture's line before
// the line of the page drawn from it, whatever their media types: a
// player that keeps the last line of a URL and second (ReplayWeb.page
// reading a CDXJ or a WACZ's index) shows the page. Lines otherwise
// equal in key and timestamp keep the order of their octets.
func compareLines(a, b []byte) int {
	ka, kb := a, b
	if i := bytes.Index(a, []byte(" {")); i >= 0 {
		ka = a[:i]
	}
	if i := bytes.Index(b, []byte(" {")); i >= 0 {
		kb = b[:i]
	}
	if c := bytes.Compare(ka, kb); c != 0 {
		return c
	}
	da, db := bytes.Contains(a, derivedKey), bytes.Contains(b, derivedKey)
	switch {
	case da && !db:
		return 1
	case db && !da:
		return -1
	}
	return bytes.Compare(a, b)
}

// derivedKey marks the index line of a page drawn from a capture.
var derivedKey = []byte(`,"derived":"`)

// oneRecord is an access.Archive of one record, which it gives once.
type oneRecord struct{ rec *access.Record }

func (a *oneRecord) Lookup(_ context.Context, u *locator.URL) (*access.Record, error) {
	if a.rec == nil {
		return nil, &access.NotArchivedError{URL: access.Masked(u)}
	}
	rec := a.rec
	a.rec = nil
	return rec, nil
}

// errPageSize stops a page that passes deriveMax.
var errPageSize = errors.New("archive: the page is larger than the most drawn")

// capped is a buffer that holds deriveMax octets at most.
type capped struct{ bytes.Buffer }

func (c *capped) Write(p []byte) (int, error) {
	if c.Len()+len(p) > deriveMax {
		return 0, errPageSize
	}
	return c.Buffer.Write(p)
}

// drawPage reads r back through its scheme client, as locator's own
// replay does, and returns the page and its media type.
func drawPage(r *access.Record, req, resp block, date string) ([]byte, string, error) {
	rec := &access.Record{Kind: r.Kind, URL: r.URL, Protocol: r.Protocol, Date: r.Date, MediaType: r.MediaType,
		Truncated: r.Truncated, Dialogue: r.Dialogue}
	var err error
	if rec.Response, err = spoolOf(resp); err != nil {
		return nil, "", err
	}
	if req != nil {
		if rec.Request, err = spoolOf(req); err != nil {
			rec.Close()
			return nil, "", err
		}
	}
	one := &oneRecord{rec}
	c := &access.Client{Archive: one, MaxRedirects: -1, MaxEntries: deriveEntries, MaxSize: deriveMax}
	res, err := c.Get(context.Background(), r.URL)
	if one.rec != nil {
		rec.Close() // Get did not take it
	}
	if err != nil {
		return nil, "", err
	}
	defer res.Close()
	u := res.URL
	if u == nil {
		u = r.URL
	}
	target := access.Masked(u)
	p := &derivedPage{Heading: htmlpage.Clean(target), Title: htmlpage.Clean(target),
		Note: "Drawn by locator from its capture of " + target + " (" + shownDate(date) + ")"}
	link := pageLinks(target)
	var b capped
	switch {
	case res.Listing != nil:
		if err := htmlpage.Templates.ExecuteTemplate(&b, "listhead", p); err != nil {
			return nil, "", err
		}
		for {
			e, err := res.Listing.Next()
			if err != nil {
				var te *access.TruncatedError
				switch {
				case errors.As(err, &te):
					p.Truncated = te.Max
				case err != io.EOF:
					p.Message = htmlpage.Clean(err.Error())
				}
				break
			}
			if err := htmlpage.Templates.ExecuteTemplate(&b, "entry", htmlpage.EntryOf(e, link, maskText)); err != nil {
				return nil, "", err
			}
			p.Count++
		}
		if err := htmlpage.Templates.ExecuteTemplate(&b, "listfoot", p); err != nil {
			return nil, "", err
		}
		return b.Bytes(), "text/html; charset=utf-8", nil
	case htmlpage.IsGemtext(res.MediaType):
		if err := htmlpage.Templates.ExecuteTemplate(&b, "gmihead", p); err != nil {
			return nil, "", err
		}
		err := htmlpage.Gemtext(res.Body, u, res.MediaType, link, func(v htmlpage.GmiLine) error {
			return htmlpage.Templates.ExecuteTemplate(&b, "gmi", v)
		})
		if errors.Is(err, errPageSize) {
			return nil, "", err
		}
		if err != nil {
			p.Message = htmlpage.Clean(err.Error())
		}
		if err := htmlpage.Templates.ExecuteTemplate(&b, "gmifoot", p); err != nil {
			return nil, "", err
		}
		return b.Bytes(), "text/html; charset=utf-8", nil
	case res.Body != nil:
		// The object as the client delivers it, framing undone: a
		// player shows it by its media type. A part of an object (the
		// record cut) is not drawn.
		if _, err := io.Copy(&b, res.Body); err != nil {
			return nil, "", err
		}
		mt := res.MediaType
		switch {
		case strings.HasPrefix(mt, "message/"), mt == "" && protocolFamily(r.Protocol) == "nntp":
			mt = "text/plain" // an article (RFC 5536): a browser shows text/plain, and offers message/* as a download
		case mt == "":
			mt = "application/octet-stream"
		}
		return b.Bytes(), mt, nil
	}
	return nil, "", nil
}

// derivedPage is what the htmlpage templates read of a page drawn from
// a capture.
type derivedPage struct {
	Title, Heading, Shown, Home, Note, Message string
	Truncated, Count                           int
}

// pageLinks returns the link function of the page of target: an HTTP
// URL as it is (a player rewrites it into its replay); a telnet, tn3270,
// rlogin or mailto URL as it is, left to the browser; the URL of any
// other scheme locator reads as a relative reference that climbs out of
// target's own path segments, one "%2e%2e/" for each "/" of target
// before its query, and then names the URL: a player that serves a
// capture under PREFIX/URL (ReplayWeb.page's /w/COLL/TSmp_/URL, pywb's
// and the Wayback Machine's /COLL/TS/URL, the gateway's /URL) resolves
// it to PREFIX/URL of the link, within the same collection and time.
// Written "../", it would be resolved by ReplayWeb.page against the
// capture's own URL (wabac.js rewrites every reference holding "../"),
// which cannot leave target's host; and a gopher:// href is left as it
// is by every player, for a browser that cannot open it. A URL a browser
// would change as a path (htmlpage.PathSafe) has no link. Every URL is
// written in its normal form (locator.Normalize), as a crawl follows
// and records it.
func pageLinks(target string) func(raw string) any {
	path, _, _ := strings.Cut(target, "?")
	climb := "./" + strings.Repeat("%2e%2e/", strings.Count(path, "/"))
	return func(raw string) any {
		u, err := locator.Parse(raw)
		if err != nil {
			return nil
		}
		// The URL as a crawl follows and records it (a host in lower
		// case, gopher's default type): a player finds a capture by its
		// WARC-Target-URI, as it is written.
		u = locator.Normalize(u)
		if u.HasFragment() {
			p := u.Parts()
			p.HasFragment, p.Fragment = false, ""
			if u, err = p.URL(); err != nil {
				return nil
			}
		}
		s := access.Masked(u)
		switch u.Scheme() {
		case "http", "https":
			return s
		case "telnet", "tn3270", "rlogin", "mailto":
			return template.URL(s)
		}
		if _, ok := access.Lookup(u.Scheme()); !ok || !htmlpage.PathSafe(s) {
			return nil
		}
		return climb + s
	}
}

// maskText is raw with its password masked, "" when raw is no URL.
func maskText(raw string) string {
	u, err := locator.Parse(raw)
	if err != nil {
		return ""
	}
	return access.Masked(u)
}

// shownDate is a WARC-Date for a person: "2006-01-02 15:04:05 UTC".
func shownDate(date string) string {
	t, err := parseDate(date)
	if err != nil {
		return date
	}
	return t.UTC().Format(time.DateTime) + " UTC"
}

// spoolOf copies b into a Spool of its own (the record a replay reads
// is closed by it).
func spoolOf(b block) (*access.Spool, error) {
	s := access.NewSpool()
	if err := copySection(s, b, 0, b.Size()); err != nil {
		s.Close()
		return nil, err
	}
	return s, s.Err()
}
