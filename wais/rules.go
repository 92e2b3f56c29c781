package wais

import (
	"strconv"
	"strings"

	"github.com/rfc1738/locator"
)

func init() {
	locator.Register("wais", rules{})
}

type rules struct{}

// Check judges waisurl (§5): hostport without user or password, database,
// wtype and wpath of uchar only, the search's characters, and no search
// with a document. Draft 03's wpath field form is reported once, as such.
func (rules) Check(u *locator.URL, r locator.Report) locator.Report {
	add := func(off int, rule, msg string) { r.Add(off, locator.Violation, rule, msg) }
	if u.HasUser() {
		add(u.Offset(locator.UserComponent), "waisurl", "a WAIS URL has no user or password: waisurl = \"wais://\" hostport ... (RFC 1738 §5)")
	}
	base := u.Offset(locator.PathComponent)
	p := u.Path()
	uchars := func(from, to int, rule string) {
		for i := from; i < to; i++ {
			if c := p[i]; locator.IsReserved(c) {
				add(base+i, rule, "reserved character '"+string(c)+"' must be encoded in the "+rule+": "+rule+" = *uchar (RFC 1738 §5)")
			}
		}
	}
	i := strings.IndexByte(p, '/')
	if i < 0 {
		uchars(0, len(p), "database")
	} else {
		uchars(0, i, "database")
		j := strings.IndexByte(p[i+1:], '/')
		if j < 0 {
			uchars(i+1, len(p), "wtype")
			add(base+len(p), "waisdoc", "a WAIS document URL is database \"/\" wtype \"/\" wpath: the \"/\" and wpath are missing (RFC 1738 §3.9)")
		} else {
			j += i + 1
			uchars(i+1, j, "wtype")
			wpath := p[j+1:]
			if _, err := docFields(wpath); err == nil {
				add(base+j+1, "wpath", "draft 03's wpath of fields (digits \"=\" value \";\") writes '=' and ';' unencoded; RFC 1738's wpath = *uchar encodes them")
			} else {
				for k := j + 1; k < len(p); k++ {
					if p[k] == '/' {
						add(base+k, "wpath", "'/' must be encoded %2F in the wpath, the document-id (RFC 1738 §5: wpath = *uchar)")
					} else if locator.IsReserved(p[k]) {
						add(base+k, "wpath", "reserved character '"+string(p[k])+"' must be encoded in the wpath: wpath = *uchar (RFC 1738 §5)")
					}
				}
			}
		}
		if u.HasSearch() {
			add(u.Offset(locator.SearchComponent)-1, "waisurl", "a WAIS document URL has no search: waisdoc = \"wais://\" hostport \"/\" database \"/\" wtype \"/\" wpath (RFC 1738 §5)")
		}
	}
	if u.HasSearch() {
		sb := u.Offset(locator.SearchComponent)
		search := u.Search()
		for k := 0; k < len(search); k++ {
			if c := search[k]; locator.IsReserved(c) && !searchOK(c) {
				add(sb+k, "search", "reserved character '"+string(c)+"' must be encoded in a WAIS search: search = *[ uchar | \";\" | \":\" | \"@\" | \"&\" | \"=\" ] (RFC 1738 §5)")
			}
		}
	}
	return r
}

type parts struct {
	Database string  `json:"database"`
	Search   *string `json:"search,omitempty"`
	WType    *string `json:"wtype,omitempty"`
	WPath    *string `json:"wpath,omitempty"`
}

// Parts returns {database, search} or {database, wtype, wpath}; see the
// package documentation.
func (rules) Parts(u *locator.URL) any {
	w, err := From(u)
	if err != nil {
		return nil
	}
	pt := parts{Database: w.Database}
	if w.HasSearch {
		pt.Search = &w.Search
	}
	if w.HasDoc {
		pt.WType, pt.WPath = &w.WType, &w.WPath
	}
	return pt
}

// Explain says which of the three WAIS forms the URL is and what it asks.
func (rules) Explain(u *locator.URL) string {
	w, err := From(u)
	if err != nil {
		return ""
	}
	port := w.Port
	if port == "" {
		port = strconv.Itoa(defaultPort)
	}
	hostport := ""
	if u.HasAuthority() { // a host is written only after "//"
		hostport = u.Hostport()
	}
	at := " on the WAIS server " + hostport + " (port " + port + ")"
	db := strconv.Quote(w.Database)
	switch {
	case w.HasDoc:
		s := "The document of WAIS type " + strconv.Quote(w.WType) + " with document-id " + strconv.Quote(w.WPath) +
			" in database " + db + at + ": the client retrieves it by that opaque id, which only the server that issued it may decompose (RFC 1738 §3.9)."
		if _, _, wpath, _ := splitPath(u.Path()); wpath != "" {
			if fs, err := docFields(wpath); err == nil {
				s += " The id is written in draft 03's numbered-field form (" + strconv.Itoa(len(fs)) + " fields)."
			}
		}
		return s
	case w.HasSearch:
		s := "A search of WAIS database " + db + at + " for " + strconv.Quote(w.Search) + " (RFC 1738 §3.9)."
		if strings.IndexByte(w.Search, '+') >= 0 {
			s += " The 1993 draft wrote \"+\" between search words (search = xalphas [ + search ])."
		}
		return s
	}
	return "The WAIS database " + db + at + ", available for searching (RFC 1738 §3.9)."
}
