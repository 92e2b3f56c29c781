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
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
)

func init() {
	access.Register("file", access.Info{DefaultPort: 0, Resume: true, Local: true}, func() access.Fetcher { return Client{} })
}

// noAccessMethod is RFC 1738 §3.10's own sentence on why a file URL of
// another host cannot be followed.
const noAccessMethod = "The file URL scheme is unusual in that it does not specify an Internet protocol or access method for such files"

// Client follows file URLs for package access: a file of this machine
// is its octets, a directory a listing whose entries are file URLs
// written by URL.Build. It makes no connection (DefaultPort 0) and holds
// nothing: its zero value is the client, registered for the scheme
// "file", and it implements access.Fetcher and access.Prober. The
// access.Client's deadlines and limits apply to its reads as to a
// connection's.
type Client struct{}

// Check refuses, before anything is opened, a file URL of another host
// (RFC 1738 §3.10: only "localhost" and the empty string mean "the
// machine from which the URL is being interpreted", and the scheme names
// no way to reach another), and a path that names no local file (a
// segment whose decoded form holds "/" or NUL).
func (Client) Check(u *locator.URL, req *access.Request) error {
	if !IsLocal(u) {
		return &access.PolicyError{URL: access.Masked(u), Offset: u.Offset(locator.HostComponent), Rule: "RFC 1738 §3.10",
			Reason: "host " + strconv.Quote(u.Host()) + " is not this machine, and a file URL gives no way to reach another: \"" + noAccessMethod + "\""}
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
// written by URL.Build on u's host (a directory's with a trailing "/"). A
// file that does not exist or may not be read is an *access.ServerError
// (outcome Absent, as a server's "no such file"), its Code the error
// number's name (ENOENT, EACCES, ENOTDIR, ELOOP). Anything but a regular
// file or a directory (a device, a FIFO that could block forever) is
// refused.
//
// The octets are read under the same deadlines as a connection's: each
// read waits at most the idle timeout (access.Client.IdleTimeout) and
// never past ctx's deadline, and ends when ctx does. A disk file's reads do
// not wait on anyone; a file that the kernel lets wait for data (a
// "regular" file of /proc such as /proc/kmsg, which gives what arrives
// and then waits for more) is held by the runtime's poller, since it is
// opened with O_NONBLOCK, and so obeys the deadline.
//
// A request that resumes at an offset (access.Client.GetFrom,
// access.Request.Offset) reads a regular file from that octet on
// (lseek(2)): Resource.Offset is the offset, Size still the whole file's;
// an offset at the end gives an empty Body (past it, GetFrom fails with
// an access.OffsetError). A directory has no octets to resume: it is refused (a *access.PolicyError, rule
// "resume") before it is read.
//
// When the access.Client records, a regular file's record is a resource
// (access.RecordResource, protocol "file"): its octets as the Body
// delivers them. A directory is not recorded (its listing is made by
// this client, not a file's octets), nor is a resumed read (its octets
// are not the file).
func (Client) Fetch(ctx context.Context, u *locator.URL, req *access.Request) (*access.Resource, error) {
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
	off := req.Offset()
	switch {
	case info.IsDir() && off > 0:
		f.Close()
		return nil, &access.PolicyError{URL: access.Masked(u), Offset: u.Offset(locator.PathComponent), Rule: "resume",
			Reason: p + " is a directory, whose listing cannot be resumed at an offset"}
	case info.IsDir():
		return list(u, p, f, req) // the listing closes f
	case !info.Mode().IsRegular():
		f.Close()
		return nil, &access.PolicyError{URL: access.Masked(u), Offset: u.Offset(locator.PathComponent), Rule: "file",
			Reason: p + " is not a regular file or a directory (" + info.Mode().Type().String() + ")"}
	}
	// Resumed, only what is left of the file is read and bounded.
	if max := req.MaxSize(); max > 0 && info.Size()-off > max {
		f.Close()
		left := ""
		if off > 0 {
			left = fmt.Sprintf(", %d from octet %d", info.Size()-off, off)
		}
		return nil, fmt.Errorf("%s: %w: the file has %d octets%s, the limit is %d", access.Masked(u), access.ErrTooLarge, info.Size(), left, max)
	}
	// The record of a regular file is a resource (protocol "file"), its
	// octets as the Body delivers them; a directory, whose listing is
	// made here and has no octets of its own, a file that cannot be
	// read, and a resumed read (not the file's octets) are not recorded.
	if off == 0 {
		req.Capture(access.RecordResource, "file")
	}
	req.Notef("regular file, %d octets", info.Size())
	size := info.Size()
	res := &access.Resource{
		MediaType: mime.TypeByExtension(path.Ext(p)),
		Size:      size,
		Modified:  info.ModTime().UTC(),
		Offset:    off,
	}
	if size == 0 {
		// A file of /proc or /sys says 0 whatever it holds: an empty
		// file is told by its end, not by its size.
		res.Size = -1
	}
	switch {
	case off > 0 && size > 0 && off >= size:
		f.Close()
		req.Notef("the offset %d is at or past the end: nothing is left to read", off)
		res.Body = io.NopCloser(strings.NewReader(""))
		return res, nil
	case off > 0:
		// A size of 0 may be a /proc file's: it is sought and read all
		// the same, and its end tells.
		if _, err := f.Seek(off, io.SeekStart); err != nil {
			f.Close()
			return nil, fmt.Errorf("%s: seek to octet %d: %w", access.Masked(u), off, err)
		}
		req.Notef("reading from octet %d", off)
	}
	res.Body = req.Limit(newFileBody(ctx, u, f, req.IdleTimeout()))
	return res, nil
}

// A fileBody reads an open file with a deadline on each read: the idle
// timeout from now, or ctx's deadline if sooner; ctx's end sets the
// deadline to now, interrupting a read under way. For a file the poller
// does not hold (a disk file) SetReadDeadline fails with
// os.ErrNoDeadline and the read goes on as usual: it does not wait for
// data that may never come.
type fileBody struct {
	f    *os.File
	ctx  context.Context
	url  string // masked, for errors
	idle time.Duration
	stop func() bool
}

func newFileBody(ctx context.Context, u *locator.URL, f *os.File, idle time.Duration) *fileBody {
	b := &fileBody{f: f, ctx: ctx, url: access.Masked(u), idle: idle}
	b.stop = context.AfterFunc(ctx, func() { f.SetReadDeadline(time.Now()) })
	return b
}

// Read reads from the file; an error other than io.EOF names the URL.
func (b *fileBody) Read(p []byte) (int, error) {
	if err := b.ctx.Err(); err != nil {
		return 0, fmt.Errorf("%s: %w", b.url, err)
	}
	d := time.Now().Add(b.idle)
	if cd, ok := b.ctx.Deadline(); ok && cd.Before(d) {
		d = cd
	}
	b.f.SetReadDeadline(d)
	n, err := b.f.Read(p)
	if err != nil && err != io.EOF {
		err = fmt.Errorf("%s: %w", b.url, err)
	}
	return n, err
}

// Close closes the file.
func (b *fileBody) Close() error {
	b.stop()
	return b.f.Close()
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
