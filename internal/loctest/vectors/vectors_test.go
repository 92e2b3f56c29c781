package vectors

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// recorder is a testing.TB whose Fatalf and Skipf record the message and
// end the goroutine, as the testing package's do.
type recorder struct {
	testing.TB
	fatal, skip string
}

func (r *recorder) Helper() {}
func (r *recorder) Fatalf(format string, args ...any) {
	r.fatal = fmt.Sprintf(format, args...)
	runtime.Goexit()
}
func (r *recorder) Skipf(format string, args ...any) {
	r.skip = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// run calls fn with a recorder in a goroutine of its own (Goexit ends it).
func run(t *testing.T, fn func(testing.TB)) *recorder {
	r := &recorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn(r)
	}()
	<-done
	return r
}

// TestScanErrFails: a line longer than the 1 MiB limit stops
// bufio.Scanner; the reader must fail the test (Scanner.Err), not return
// the rows before it as if the file ended there.
func TestScanErrFails(t *testing.T) {
	p := filepath.Join(t.TempDir(), "long.tsv")
	content := "a\tb\n" + strings.Repeat("x", 2<<20) + "\nc\td\n"
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	var lines []string
	r := run(t, func(tb testing.TB) { scan(tb, p, func(s string) { lines = append(lines, s) }) })
	if !strings.Contains(r.fatal, "too long") {
		t.Errorf("scan of a 2 MiB line: fatal %q after %d lines; want a failure naming the scanner error", r.fatal, len(lines))
	}
	r = run(t, func(tb testing.TB) { scan(tb, filepath.Join(t.TempDir(), "absent.tsv"), func(string) {}) })
	if r.fatal == "" {
		t.Error("scan of a missing file did not fail")
	}
}

// TestPathMissingFails: with shared/ present, a missing vector file is a
// failure, not a skip.
func TestPathMissingFails(t *testing.T) {
	if _, err := os.Stat(Dir()); err != nil {
		t.Skipf("shared/ is not beside the repository: %v", err)
	}
	r := run(t, func(tb testing.TB) { Path(tb, "conformance", "no-such-file.tsv") })
	if r.fatal == "" || r.skip != "" {
		t.Errorf("missing file: fatal %q, skip %q; want a failure", r.fatal, r.skip)
	}
	rows := ReadTSV(t, "rfc", "rfc1738-normative-examples.tsv")
	if len(rows) == 0 {
		t.Error("no rows")
	}
}
