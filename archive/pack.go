package archive

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"iter"
	"os"
	"path/filepath"
	"time"
)

// PackWACZ writes the WACZ file path (WACZ 1.2) of WARC files another
// writer made, as a WACZWriter's Close writes its own: each of warcs
// stored as it is under archive/ (their base names distinct), index as
// indexes/index.cdxj (a sorted CDXJ index of them naming each by its
// base name, as MergeIndexes writes it), and the pages pages yields as
// pages/pages.jsonl (a zero Time: now); an error pages yields ends it,
// and path is left as it was. It is how a job whose bundles
// each wrote a WARC file (bulk/crawljob) makes one WACZ of them all.
// The file is written under a temporary name beside path, synced, and
// renamed over path: path is the old file whole or the new one whole.
func PackWACZ(path string, warcs []string, index string, pages iter.Seq2[Page, error], opt WACZOptions) (err error) {
	seen := map[string]bool{}
	for _, f := range warcs {
		b := filepath.Base(f)
		if seen[b] {
			return &WriteError{File: path, Err: fmt.Errorf("two WARC files named %s: the WACZ's archive/ holds one", b)}
		}
		seen[b] = true
	}
	if _, err := os.Stat(index); err != nil {
		return &WriteError{File: path, Err: err}
	}
	base := filepath.Base(path)
	out, err := os.CreateTemp(filepath.Dir(path), "."+base+"-*.tmp")
	if err != nil {
		return &WriteError{File: path, Err: err}
	}
	pf, err := os.CreateTemp(filepath.Dir(path), "."+base+"-pages-*.tmp")
	if err != nil {
		out.Close()
		os.Remove(out.Name())
		return &WriteError{File: path, Err: err}
	}
	defer func() {
		pf.Close()
		os.Remove(pf.Name())
		if err != nil {
			out.Close()
			os.Remove(out.Name())
		}
	}()
	pw := bufio.NewWriter(pf)
	pw.WriteString(`{"format": "json-pages-1.0", "id": "pages", "title": "All Pages"}` + "\n")
	for p, err := range pages {
		if err != nil {
			return err
		}
		if p.URL == nil {
			continue
		}
		t := p.Time
		if t.IsZero() {
			t = time.Now()
		}
		line, err := pageLine(p.URL, warcDate(t), p.Title)
		if err != nil {
			return err
		}
		if _, err := pw.Write(line); err != nil {
			return &WriteError{File: pf.Name(), Err: err}
		}
	}
	if err := pw.Flush(); err != nil {
		return &WriteError{File: pf.Name(), Err: err}
	}
	copyIndex := func(dst io.Writer) error {
		f, err := os.Open(index)
		if err != nil {
			return err
		}
		defer f.Close()
		_, err = io.Copy(dst, f)
		return err
	}
	if err := zipWACZ(out, opt, warcs, copyIndex, pf.Name()); err != nil {
		return &WriteError{File: path, Err: err}
	}
	if err := errors.Join(out.Sync(), out.Close()); err != nil {
		return &WriteError{File: path, Err: err}
	}
	if err := os.Rename(out.Name(), path); err != nil {
		return &WriteError{File: path, Err: err}
	}
	return nil
}
