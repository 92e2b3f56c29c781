package crawl

import (
	"github.com/rfc1738/locator/access"
)

// A Broken is a link whose URL could not be fetched or checked.
type Broken struct {
	Link *Link
	// Page is the fetch of the link's URL, when the crawl fetched it;
	// Checked its check otherwise.
	Page    *Page
	Checked *Checked
}

// Err returns why the link is broken.
func (b Broken) Err() error {
	if b.Page != nil {
		return b.Page.Err
	}
	if b.Checked != nil && b.Checked.Status != nil {
		return b.Checked.Status.Err
	}
	return nil
}

// A Report gathers a crawl's events (Add, as Crawl's emit) and says
// which links are broken. It holds every link in memory. The zero value
// is ready to use.
type Report struct {
	links   []*Link
	pages   map[string]*Page
	checked map[string]*Checked
}

// Add records an event.
func (r *Report) Add(e Event) {
	if r.pages == nil {
		r.pages, r.checked = map[string]*Page{}, map[string]*Checked{}
	}
	switch e := e.(type) {
	case *Link:
		if e.URL != nil {
			r.links = append(r.links, e)
		}
	case *Page:
		r.pages[e.URL.String()] = e
	case *Checked:
		r.checked[e.URL.String()] = e
	}
}

// Broken returns the links whose URL is broken, in the order they were
// found: the fetch of a URL the crawl followed failed (a robots.txt that
// disallows it is no failure, but one that could not be reached is), or
// the check of one it did not follow says the object is gone, refused,
// or could not be asked for. A URL refused by local policy before any
// connection (access.StatePolicy: a scheme with no client, a port of
// another service) is not counted broken: nothing was asked.
func (r *Report) Broken() []Broken {
	var out []Broken
	for _, l := range r.links {
		k := l.URL.String()
		if p := r.pages[k]; p != nil {
			if p.Err != nil && access.Classify(p.Err) != access.Forbidden {
				out = append(out, Broken{Link: l, Page: p})
			}
			continue
		}
		if c := r.checked[k]; c != nil && c.Status != nil {
			switch c.Status.State {
			case access.StateOK, access.StatePolicy:
			default:
				out = append(out, Broken{Link: l, Checked: c})
			}
		}
	}
	return out
}

// Pages returns the pages reported, by URL.
func (r *Report) Pages() map[string]*Page { return r.pages }
