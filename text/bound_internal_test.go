package text

import (
	"reflect"
	"strings"
	"testing"
)

// TestBoundNeverEndsStream: should a candidate ever want more than the
// buffer holds (every reader of one stops at MaxLen, so only a broken
// invariant makes it so; here a buffer far below MaxLen), it is cut as
// too long and the scan goes on; it used to end the stream with an
// internal error, losing every URL after it.
func TestBoundNeverEndsStream(t *testing.T) {
	long := "http://a.example/" + strings.Repeat("x", 500)
	in := "see " + long + " and <URL:http://b.example/" + strings.Repeat("y", 500) + "> then http://c.example/ end\n"
	var skipped []*LimitError
	s := NewScanner(strings.NewReader(in), &Options{Skipped: func(e *LimitError) { skipped = append(skipped, e) }})
	s.buf = make([]byte, 256) // MaxLen stays 8192
	var got []string
	for s.Scan() {
		got = append(got, s.Match().URL)
	}
	if s.Err() != nil {
		t.Fatal(s.Err())
	}
	if want := []string{"http://c.example/"}; !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	if len(skipped) == 0 || skipped[0].Offset != int64(len("see http")) || skipped[0].Limit != DefaultMaxLen {
		t.Errorf("skipped %v", skipped)
	}
}
