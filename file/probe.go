package file

import (
	"context"
	"errors"
	"os"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
)

var _ access.Prober = Client{}

// Probe says whether the local file or directory u names is there: one
// stat(2) of the path LocalPath gives, following symbolic links, as
// Fetch's open would. A regular file is StateOK with its size and
// modification time, a directory StateOK as a listing; ENOENT, ENOTDIR,
// ELOOP and ENAMETOOLONG are StateGone, EACCES and EPERM StateRefused
// (the file may be there, but may not be read: a stat of it is refused,
// or the file's read permission is missing, checked by opening it, which
// reads nothing), and anything but a regular file or a directory (a
// FIFO, a device) StateRefused, as Fetch refuses it.
func (Client) Probe(ctx context.Context, u *locator.URL, req *access.Request) (*access.Status, error) {
	p, err := LocalPath(u, Unix)
	if err != nil {
		return nil, err
	}
	fi, err := os.Stat(p)
	if err == nil && fi.Mode().IsRegular() {
		// Readable? Opening reads nothing; Fetch would fail here.
		var f *os.File
		if f, err = os.Open(p); err == nil {
			f.Close()
		}
	}
	if err != nil {
		ferr := fsError(u, "stat", err)
		var se *access.ServerError
		if !errors.As(ferr, &se) {
			return nil, ferr
		}
		st := &access.Status{State: access.StateGone, Code: se.Code, Text: se.Text, Command: se.Command, Size: -1, Err: ferr}
		if se.Code == "EACCES" || se.Code == "EPERM" {
			st.State = access.StateRefused
		}
		return st, nil
	}
	st := &access.Status{State: access.StateOK, Size: -1, Modified: fi.ModTime().UTC(), Command: "stat"}
	switch {
	case fi.IsDir():
		st.Listing = true
	case fi.Mode().IsRegular():
		st.Size = fi.Size()
	default:
		st.State, st.Code, st.Text = access.StateRefused, "mode", "not a regular file or a directory: "+fi.Mode().Type().String()
		st.Err = &access.ServerError{URL: access.Masked(u), Command: "stat", Code: st.Code, Text: st.Text}
	}
	return st, nil
}
