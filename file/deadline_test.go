package file

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
)

// The threat: file:///proc/kmsg (reached through a redirection, or asked
// for) blocked its reader forever: the file is "regular", gives what
// the kernel logged, then waits for more. Opened with O_NONBLOCK it is
// held by the runtime's poller, and each read has the idle timeout as
// its deadline, or the context's deadline when sooner: the read ends,
// with a timeout error that names the URL. Reading /proc/kmsg needs
// root (and takes the messages it reads from the kernel's buffer).
func TestFileReadDeadline(t *testing.T) {
	f, err := os.Open("/proc/kmsg")
	if err != nil {
		t.Skipf("/proc/kmsg cannot be read here: %v", err)
	}
	f.Close()
	u, err := locator.Parse("file:///proc/kmsg")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		idle time.Duration
		max  time.Duration // the context's deadline; 0: none
	}{
		{"idle timeout", 300 * time.Millisecond, 0},
		{"context deadline", time.Minute, 500 * time.Millisecond},
	} {
		ctx := context.Background()
		if c.max > 0 {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, c.max)
			defer cancel()
		}
		res, err := (&access.Client{IdleTimeout: c.idle}).Get(ctx, u)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		_, err = io.Copy(io.Discard, res.Body)
		res.Close()
		if !access.Timeout(err) || !strings.HasPrefix(err.Error(), "file:///proc/kmsg: ") || access.Classify(err) != access.Failed {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}

// A disk file cannot be held by the poller (SetReadDeadline fails with
// os.ErrNoDeadline): it is read as before, and a context that has ended
// stops the next read. Its size is said, except a size of 0, which a
// file of /proc or /sys says whatever it holds: unknown (-1).
func TestFileBodyOfDiskFile(t *testing.T) {
	dir := t.TempDir()
	full, empty := filepath.Join(dir, "full.txt"), filepath.Join(dir, "empty.txt")
	if err := os.WriteFile(full, []byte(strings.Repeat("x", 100)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	res, b, err := get(t, fileURL(t, "", full), &access.Client{IdleTimeout: time.Millisecond})
	if err != nil || len(b) != 100 || res.Size != 100 {
		t.Errorf("full: %d octets, size %d, %v", len(b), res.Size, err)
	}
	res, b, err = get(t, fileURL(t, "", empty), nil)
	if err != nil || len(b) != 0 || res.Size != -1 {
		t.Errorf("empty: %d octets, size %d, %v", len(b), res.Size, err)
	}
	u, _ := locator.Parse(fileURL(t, "", full))
	res, err = (&access.Client{}).Get(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Close()
	one := make([]byte, 10)
	if n, err := res.Body.Read(one); n != 10 || err != nil {
		t.Fatalf("first read: %d %v", n, err)
	}
	cancel()
	if _, err := res.Body.Read(one); !errors.Is(err, context.Canceled) || !strings.HasPrefix(err.Error(), "file://") {
		t.Errorf("read after the context ended: %v", err)
	}
}
