package file

import (
	"io"
	"io/fs"
	"os"
	"path"
	"sort"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
)

// maxSorted bounds the entries of a directory listed in name order: a
// directory of at most maxSorted entries is read whole and sorted; a
// larger one is listed in the order the file system gives, streamed in
// batches of dirBatch entries, so that the memory a listing takes is
// bounded by a constant, not by the directory.
const maxSorted = 4096

// dirBatch is the number of entries read from the directory at a time.
const dirBatch = 256

// list returns the listing of directory d (at local path p), read as the
// caller asks, at most req.MaxEntries() entries (more: an
// *access.TruncatedError). Closing the listing closes d.
func list(u *locator.URL, p string, d *os.File, req *access.Request) (*access.Resource, error) {
	dl := &dirLister{u: u, p: p, d: d, req: req}
	for len(dl.des) <= maxSorted {
		batch, err := d.ReadDir(dirBatch)
		dl.des = append(dl.des, batch...)
		if err == io.EOF || (err == nil && len(batch) == 0) {
			dl.eof = true
			break
		}
		if err != nil {
			d.Close()
			return nil, fsError(u, "readdir "+p, err)
		}
	}
	if dl.eof {
		sort.Slice(dl.des, func(i, j int) bool { return dl.des[i].Name() < dl.des[j].Name() })
		req.Notef("directory, %d entries", len(dl.des))
	} else {
		req.Notef("directory of more than %d entries: listed in the file system's order", maxSorted)
	}
	return &access.Resource{Size: -1, Listing: access.NewListing(req.MaxEntries(), dl.next, d.Close)}, nil
}

// A dirLister makes a directory's entries, a batch at a time.
type dirLister struct {
	u   *locator.URL
	p   string
	d   *os.File
	req *access.Request
	des []fs.DirEntry // read and not yet listed
	eof bool          // the directory was read to its end
}

func (dl *dirLister) next() (access.Entry, error) {
	if len(dl.des) == 0 && !dl.eof {
		batch, err := dl.d.ReadDir(dirBatch)
		dl.des = batch
		if err == io.EOF || (err == nil && len(batch) == 0) {
			dl.eof = true
		} else if err != nil {
			return access.Entry{}, fsError(dl.u, "readdir "+dl.p, err)
		}
	}
	if len(dl.des) == 0 {
		return access.Entry{}, io.EOF
	}
	de := dl.des[0]
	dl.des = dl.des[1:]
	return entry(dl.u, dl.p, de)
}

// entry makes the listing entry of de, in directory p.
func entry(u *locator.URL, p string, de fs.DirEntry) (access.Entry, error) {
	e := access.Entry{Name: de.Name(), Type: access.TypeFile, Size: -1}
	full := path.Join(p, de.Name())
	info, err := de.Info()
	if de.Type()&fs.ModeSymlink != 0 {
		e.Type = access.TypeLink
		if target, terr := os.Stat(full); terr == nil {
			info, err = target, nil
			if target.IsDir() {
				e.Parts = map[string]any{"target": access.TypeDirectory}
			} else {
				e.Parts = map[string]any{"target": access.TypeFile}
			}
		} else {
			e.Parts = map[string]any{"target": "none"} // a dangling link
		}
	}
	if err == nil {
		e.Modified = info.ModTime().UTC()
		switch {
		case info.IsDir():
			if e.Type != access.TypeLink {
				e.Type = access.TypeDirectory
			}
			full += "/"
		case info.Mode().IsRegular():
			e.Size = info.Size()
		}
	}
	s, err := (&URL{Host: u.Host(), Path: full}).Build()
	if err != nil {
		return access.Entry{}, err
	}
	e.URL = s
	return e, nil
}
