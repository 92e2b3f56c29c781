// Package atomicfile replaces a file whole or not at all, and reads one
// without following a symbolic link: the files a program keeps between
// runs (a crawl's --state, the Gemini known-hosts file), which a kill
// must not leave half written and a link planted beside them must not
// redirect.
package atomicfile

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// Write replaces path with what write writes: to a new file of path's
// directory (O_EXCL, a name of its own beginning with "."), with mode
// perm, renamed over path once written and closed. A symbolic link at
// path is replaced, never the file it points to. On an error, write's
// own or the file system's, the new file is removed and path is as it
// was; write's error is returned as it is.
func Write(path string, perm os.FileMode, write func(w io.Writer) error) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+"-*.tmp")
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	err = write(w)
	if err == nil {
		err = w.Flush()
	}
	if err == nil {
		err = f.Chmod(perm)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

// ReadFile reads path, at most max octets, without following a
// symbolic link (O_NOFOLLOW): one planted where path is fails the read.
// A file longer than max is an error that says so.
func ReadFile(path string, max int64) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|NoFollow, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, max+1))
	if err == nil && int64(len(b)) > max {
		err = fmt.Errorf("%s: more than %d octets", path, max)
	}
	return b, err
}
