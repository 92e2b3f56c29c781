//go:build !unix

package gemini

// lockFile is a no-op where flock is not available: the in-process
// mutex still orders one program's changes.
func lockFile(string) (func(), error) { return func() {}, nil }
