package file

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"mime"
	"os"
	"path"
	"sort"
	"strconv"
	"syscall"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
)

// The client follows file URLs for package access: a file of this
// machine is its octets, a directory a listing whose entries are file
// URLs written by Build. It makes no connection (DefaultPort 0).
func init() {
	access.Register("file", access.Info{DefaultPort: 0}, client{})
}

// NoAccessMethod is RFC 1738 §3.10's own sentence on why a file URL of
// another host cannot be followed.
const NoAccessMethod = "The file URL scheme is unusual in that it does not specify an Internet protocol or access method for such files"

type client struct{}

// Check refuses, before anything is opened, a file URL of another host
// (RFC 1738 §3.10: only "localhost" and the empty string mean "the
// machine from which the URL is being interpreted", and the scheme names
// no way to reach another), and a path that names no local file (a
// segment whose decoded form holds "/" or NUL).
func (client) Check(u *locator.URL, req *access.Request) error {
	if !IsLocal(u) {
		return &access.PolicyError{URL: access.Masked(u), Offset: u.Offset(locator.HostComponent), Rule: "RFC 1738 §3.10",
			Reason: "host " + strconv.Quote(u.Host()) + " is not this machine, and a file URL gives no way to reach another: \"" + NoAccessMethod + "\""}
	}
	if _, err := LocalPath(u, Unix); err != nil {
		var pe *PathError
		if errors.As(err, &pe) {
			return &access.PolicyError{URL: access.Masked(u), Offset: pe.Problem.Offset, Rule: pe.Problem.Rule, Reason: pe.Problem.Message}
		}
		return err
	}
	return nil
}

// Fetch opens the local file u names. A regular file is its octets, with
// its size and modification time and the media type its extension
// suggests; a directory is a listing sorted by name, each entry's URL
// written by Build on u's host (a directory's with a trailing "/"). A
// file that does not exist or may not be read is an *access.ServerError
// (outcome Absent, as a server's "no such file"), its Code the error
// number's name (ENOENT, EACCES, ENOTDIR, ELOOP). Anything but a regular
// file or a directory (a device, a FIFO that could block forever) is
// refused.
func (client) Fetch(ctx context.Context, u *locator.URL, req *access.Request) (*access.Resource, error) {
	p, err := LocalPath(u, Unix)
	if err != nil {
		return nil, err
	}
	req.Notef("open %s", p)
	// O_NONBLOCK: opening a FIFO for reading would otherwise wait for a
	// writer; it is refused below, once Stat says what the file is.
	f, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, fsError(u, "open "+p, err)
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fsError(u, "stat "+p, err)
	}
	switch {
	case info.IsDir():
		defer f.Close()
		return list(u, p, f, req)
	case !info.Mode().IsRegular():
		f.Close()
		return nil, &access.PolicyError{URL: access.Masked(u), Offset: u.Offset(locator.PathComponent), Rule: "file",
			Reason: p + " is not a regular file or a directory (" + info.Mode().Type().String() + ")"}
	}
	if max := req.Options.MaxSize; max > 0 && info.Size() > max {
		f.Close()
		return nil, fmt.Errorf("%s: %w: the file has %d octets, the limit is %d", access.Masked(u), access.ErrTooLarge, info.Size(), max)
	}
	req.Notef("regular file, %d octets", info.Size())
	return &access.Resource{
		Body:      req.Limit(f),
		MediaType: mime.TypeByExtension(path.Ext(p)),
		Size:      info.Size(),
		Modified:  info.ModTime().UTC(),
	}, nil
}

// list reads directory d (at local path p) into a listing, at most
// req.MaxEntries() entries.
func list(u *locator.URL, p string, d *os.File, req *access.Request) (*access.Resource, error) {
	max := req.MaxEntries()
	var des []fs.DirEntry
	truncated := false
	for {
		batch, err := d.ReadDir(256)
		des = append(des, batch...)
		if len(des) > max {
			des, truncated = des[:max], true
			break
		}
		if err == io.EOF || (err == nil && len(batch) == 0) {
			break
		}
		if err != nil {
			return nil, fsError(u, "readdir "+p, err)
		}
	}
	sort.Slice(des, func(i, j int) bool { return des[i].Name() < des[j].Name() })
	entries := make([]access.Entry, 0, len(des))
	for _, de := range des {
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
		s, err := Build(Ref{Host: u.Host(), Path: full})
		if err != nil {
			return nil, err
		}
		e.URL = s
		entries = append(entries, e)
	}
	req.Notef("directory, %d entries", len(entries))
	return &access.Resource{Size: -1, Listing: &access.Listing{Entries: entries, Truncated: truncated}}, nil
}

// fsError makes the file system's refusal an *access.ServerError when it
// says the file is absent or may not be read, and returns any other
// error (an I/O error) as it is.
func fsError(u *locator.URL, op string, err error) error {
	var code string
	switch {
	case errors.Is(err, syscall.ENOENT):
		code = "ENOENT"
	case errors.Is(err, syscall.EACCES):
		code = "EACCES"
	case errors.Is(err, syscall.EPERM):
		code = "EPERM"
	case errors.Is(err, syscall.ENOTDIR):
		code = "ENOTDIR"
	case errors.Is(err, syscall.ELOOP):
		code = "ELOOP"
	case errors.Is(err, syscall.ENAMETOOLONG):
		code = "ENAMETOOLONG"
	default:
		return fmt.Errorf("%s: %w", access.Masked(u), err)
	}
	text := err.Error()
	var pe *fs.PathError
	if errors.As(err, &pe) {
		text = pe.Err.Error()
	}
	return &access.ServerError{URL: access.Masked(u), Command: op, Code: code, Text: text}
}
