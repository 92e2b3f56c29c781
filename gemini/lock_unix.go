//go:build unix

package gemini

import (
	"os"
	"syscall"
)

// lockFile takes an exclusive advisory lock (flock) on name, made if
// need be, and returns its release: two processes that follow gemini
// URLs at once change the known-hosts file one after the other.
func lockFile(name string) (func(), error) {
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}
