package main

import (
	"errors"
	"flag"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/archive"
	"github.com/rfc1738/locator/crawl"
)

// addWACZFlags declares --wacz FILE and --dedup-against FILE on fs.
func addWACZFlags(fs *flag.FlagSet, f *warcFlags) {
	fs.StringVar(&f.wacz, "wacz", "", "write what is fetched to `FILE` (NAME.wacz), a WACZ 1.2 package: the WARC files stored under archive/, their CDXJ index, pages/pages.jsonl (each page fetched, with its title) and datapackage.json with each entry's SHA-256; FILE must not exist. --warc-max-size, --warc-dedup and --warc-keep-credentials apply to its WARC files")
	fs.Var(&f.against, "dedup-against", "with --warc or --wacz, write a payload this `FILE` (an earlier crawl's WACZ, or a CDXJ index) holds as a revisit record that refers to it (WARC 1.1 §6.7.2), and name a WACZ in the new one's datapackage.json (relation.requires); repeatable")
}

// openWACZ starts --wacz's file.
func (f *warcFlags) openWACZ(software string) (bool, error) {
	if f.file != "" {
		return false, errors.New("--warc FILE and --wacz FILE: give one")
	}
	z, err := archive.CreateWACZ(f.wacz, archive.WACZOptions{Options: f.options(software)})
	if err != nil {
		return false, err
	}
	f.z = z
	return true, nil
}

// recordWACZ writes rec to --wacz's file, and adds it as a page when
// its URL is one of pageKeys (get's URLs), once.
func (f *warcFlags) recordWACZ(rec *access.Record) error {
	err := f.z.Record(rec)
	if err == nil && rec != nil && rec.URL != nil && f.pageKeys != nil {
		f.mu.Lock()
		key := archive.Key(rec.URL)
		page := f.pageKeys[key]
		delete(f.pageKeys, key)
		f.mu.Unlock()
		if page {
			err = f.z.AddPage(archive.Page{URL: rec.URL})
		}
	}
	return err
}

// pages makes the records of urls (get's) the WACZ's pages.
func (f *warcFlags) pages(urls []*locator.URL) {
	if f == nil || f.wacz == "" {
		return
	}
	f.pageKeys = map[string]bool{}
	for _, u := range urls {
		f.pageKeys[archive.Key(u)] = true
	}
}

// crawlPage adds a page the crawl fetched to --wacz's pages: the URL
// its object came from, after the redirects followed within the fetch,
// whose record holds it (and its title).
func (f *warcFlags) crawlPage(ev crawl.Event) error {
	p, ok := ev.(*crawl.Page)
	if f == nil || f.z == nil || !ok || p.Err != nil || p.Skipped != "" || p.URL == nil {
		return nil
	}
	u := p.URL
	if p.Final != nil {
		u = p.Final
	}
	return f.z.AddPage(archive.Page{URL: u})
}
