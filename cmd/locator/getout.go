package main

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// An outputFile is where `locator get -o FILE` writes the object.
//
// The rule: an existing FILE is never lost or half-written by a transfer
// that fails, and nothing is written through a symbolic link. The
// octets go to a new file beside FILE (same directory, so that the
// rename stays on one file system), created with O_EXCL|O_NOFOLLOW so
// that a name planted in the directory is never opened; only a complete
// object is renamed over FILE. A symbolic link at FILE is itself
// replaced by the rename and its target left untouched. The new file has
// the permission bits of the regular file it replaces, else 0666 less
// the umask, as curl's. A device, FIFO or socket at FILE (/dev/null)
// holds nothing to keep and must not be replaced by a rename, and
// /dev/stdout, /dev/fd/N and /proc/self/fd/N name a descriptor the
// person opened: these are written to directly, as standard output is
// (a link to a device elsewhere is replaced like any link).
type outputFile struct {
	*os.File
	temp string // the temporary file's name; "" when writing directly
	dest string
}

// tempTries bounds the names tried when another file holds the
// temporary name drawn (a collision of 64 random bits, or a name
// planted there).
const tempTries = 16

// createOutput opens the output for -o dest.
func createOutput(dest string) (*outputFile, error) {
	li, err := os.Lstat(dest)
	direct, flags := false, os.O_WRONLY|os.O_TRUNC|syscall.O_NOFOLLOW
	switch {
	case descriptorLink(dest):
		direct, flags = true, os.O_WRONLY|os.O_TRUNC
	case err == nil && li.IsDir():
		return nil, fmt.Errorf("%s is a directory", dest)
	case err == nil && li.Mode().Type() != 0 && li.Mode()&fs.ModeSymlink == 0:
		direct = true // a device, FIFO or socket at the path itself
	}
	if direct {
		f, err := os.OpenFile(dest, flags, 0)
		if err != nil {
			return nil, err
		}
		return &outputFile{File: f, dest: dest}, nil
	}
	perm, keep := fs.FileMode(0o666), false
	if li, err := os.Lstat(dest); err == nil && li.Mode().IsRegular() {
		perm, keep = li.Mode().Perm(), true
	}
	if strings.HasSuffix(dest, "/") {
		return nil, fmt.Errorf("%s names a directory", dest)
	}
	dir, base := filepath.Dir(dest), filepath.Base(dest)
	var rnd [8]byte
	for try := 0; ; try++ {
		rand.Read(rnd[:])
		name := filepath.Join(dir, "."+base+".locator-"+hex.EncodeToString(rnd[:]))
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL|syscall.O_NOFOLLOW, perm)
		if errors.Is(err, fs.ErrExist) && try < tempTries {
			continue
		}
		if err != nil {
			var pe *fs.PathError
			if errors.As(err, &pe) {
				err = pe.Err
			}
			return nil, fmt.Errorf("cannot create a file in %s (written there first, then renamed to %s): %w", dir, base, err)
		}
		if keep {
			// The file replaced had these bits; the umask applied to
			// the new one must not widen or narrow them.
			if err := f.Chmod(perm); err != nil {
				f.Close()
				os.Remove(name)
				return nil, err
			}
		}
		return &outputFile{File: f, temp: name, dest: dest}, nil
	}
}

// descriptorLink reports whether path names an open descriptor of this
// process (/dev/stdout, /dev/fd/N, /proc/self/fd/N): the person asked
// for that descriptor, which a rename would not reach, and which is
// written to directly.
func descriptorLink(path string) bool {
	clean := filepath.Clean(path)
	if strings.HasPrefix(clean, "/dev/fd/") || strings.HasPrefix(clean, "/proc/self/fd/") {
		return true
	}
	target, err := os.Readlink(clean)
	return err == nil && strings.HasPrefix(target, "/proc/self/fd/")
}

// commit makes the complete object FILE: it flushes the temporary file
// to the disk and renames it over FILE.
func (o *outputFile) commit() error {
	if o.temp == "" {
		return o.Close()
	}
	err := o.Sync()
	if cerr := o.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(o.temp, o.dest)
	}
	if err != nil {
		os.Remove(o.temp)
	}
	return err
}

// abort ends a failed transfer: the temporary file is removed and FILE
// is left as it was.
func (o *outputFile) abort() {
	o.Close()
	if o.temp != "" {
		os.Remove(o.temp)
	}
}
