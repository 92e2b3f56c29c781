package loctest

import (
	"testing"

	"github.com/rfc1738/locator/internal/loctest/vectors"
)

// SharedDir returns the folder shared/ beside the repository (the
// conformance vectors, corpora, spec texts and peers); see vectors.Dir.
func SharedDir() string { return vectors.Dir() }

// SharedPath returns the path of rel under shared/. When shared/ is
// absent (a clone on its own) the test is skipped with a one-line reason;
// when shared/ exists but rel does not, the test fails: CI always has
// shared/, so a missing vector file there is a broken test, not a skip.
func SharedPath(t testing.TB, rel ...string) string {
	t.Helper()
	return vectors.Path(t, rel...)
}

// ReadShared returns the content of rel under shared/, failing the test
// when shared/ is present and the file is missing or unreadable.
func ReadShared(t testing.TB, rel ...string) []byte {
	t.Helper()
	return vectors.ReadFile(t, rel...)
}

// ReadTSV returns the data rows of a TSV file under shared/conformance/
// (rel is relative to it): blank lines and lines starting with "#" are
// dropped, the header row is kept as the first row when it is not a
// comment. Lines may be up to 1 MiB. A read error, or a file without a
// row, fails the test.
func ReadTSV(t testing.TB, rel ...string) [][]string {
	t.Helper()
	return vectors.ReadTSV(t, rel...)
}
