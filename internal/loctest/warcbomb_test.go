package loctest_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"strings"
	"testing"

	"github.com/rfc1738/locator/internal/loctest"
)

// TestWriteZeroRecord: the member WriteZeroRecord makes reads back
// (RFC 1952: its CRC-32 and ISIZE checked by compress/gzip) as the
// record it stands for, of many repeated pieces and of none.
func TestWriteZeroRecord(t *testing.T) {
	for _, zeros := range []int64{0, 1000, 5<<20 + 123} {
		var b bytes.Buffer
		r := loctest.ZeroRecord{Type: "response", URI: "http://h/z", Head: "HTTP/1.1 200 OK\r\n\r\n", Zeros: zeros}
		if err := loctest.WriteZeroRecord(&b, r); err != nil {
			t.Fatal(err)
		}
		z, err := gzip.NewReader(&b)
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(z)
		if err != nil {
			t.Fatalf("%d zeros: %v", zeros, err)
		}
		head, rest, _ := strings.Cut(string(got), "\r\n\r\n")
		if !strings.Contains(head, "WARC-Type: response\r\n") || !strings.HasPrefix(rest, r.Head) {
			t.Fatalf("%d zeros: head %q", zeros, head)
		}
		body := rest[len(r.Head):]
		if int64(len(body)) != zeros+4 || strings.Trim(body[:zeros], "\x00") != "" || body[zeros:] != "\r\n\r\n" {
			t.Errorf("%d zeros: a block of %d octets", zeros, len(body))
		}
	}
}
