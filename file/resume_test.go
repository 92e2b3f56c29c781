package file

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/internal/loctest"
)

// getFrom follows u from offset with c (nil: a zero Client) and reads the
// whole Body.
func getFrom(t *testing.T, u string, offset int64, c *access.Client) (*access.Resource, []byte, error) {
	t.Helper()
	if c == nil {
		c = &access.Client{}
	}
	res, err := c.GetFrom(context.Background(), loctest.MustParse(t, u), offset)
	if err != nil {
		return nil, nil, err
	}
	defer res.Close()
	b, err := io.ReadAll(res.Body)
	return res, b, err
}

// TestResume reads a regular file from an offset (access.Client.GetFrom):
// the file's tail, Offset the offset, Size the whole file's; at the end
// an empty Body, past it an *access.OffsetError; a directory refused (rule "resume"); MaxSize
// bounding what is left.
func TestResume(t *testing.T) {
	dir := t.TempDir()
	content := make([]byte, 100_003)
	for i := range content {
		content[i] = byte(i*7 + i/251)
	}
	p := filepath.Join(dir, "f.bin")
	if err := os.WriteFile(p, content, 0o644); err != nil {
		t.Fatal(err)
	}
	u := "file://" + p
	size := int64(len(content))
	for _, off := range []int64{0, 1, 4096, 65537, size - 1, size} {
		t.Run(strconv.FormatInt(off, 10), func(t *testing.T) {
			var dia strings.Builder
			res, b, err := getFrom(t, u, off, &access.Client{Dialogue: &dia})
			if err != nil {
				t.Fatal(err)
			}
			want := content[min(off, size):]
			if !bytes.Equal(b, want) || res.Offset != off || res.Size != size {
				t.Errorf("%d octets, Offset %d, Size %d; want %d, %d, %d\n%s", len(b), res.Offset, res.Size, len(want), off, size, dia.String())
			}
		})
	}
	var oe *access.OffsetError
	if _, _, err := getFrom(t, u, size+10, nil); !errors.As(err, &oe) || oe.Offset != size+10 || oe.Size != size || access.Classify(err) != access.Failed {
		t.Errorf("past the end: %v, want an *access.OffsetError, a failure", err)
	}
	var pe *access.PolicyError
	if _, _, err := getFrom(t, "file://"+dir+"/", 3, nil); !errors.As(err, &pe) || pe.Rule != "resume" || !strings.Contains(pe.Reason, "directory") {
		t.Errorf("a directory from octet 3: %v, want a *access.PolicyError, rule resume", err)
	}
	if _, b, err := getFrom(t, u, size-5, &access.Client{MaxSize: 5}); err != nil || !bytes.Equal(b, content[size-5:]) {
		t.Errorf("5 octets left, limit 5: %d octets, %v", len(b), err)
	}
	_, _, err := getFrom(t, u, size-6, &access.Client{MaxSize: 5})
	if !errors.Is(err, access.ErrTooLarge) || !strings.Contains(err.Error(), "the file has 100003 octets, 6 from octet 99997, the limit is 5") {
		t.Errorf("6 octets left, limit 5: %v", err)
	}
}
