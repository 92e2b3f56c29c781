package ranges

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/rfc1738/locator/internal/lines"
)

// scanRanges reads data in the ranges that the cut points make, as the
// reading SDF does, and returns every range's lines in order.
func scanRanges(t testing.TB, data []byte, cuts []int64, max, bufSize int) []Line {
	var out []Line
	start := int64(0)
	for i := 0; i <= len(cuts); i++ {
		end := int64(len(data))
		if i < len(cuts) {
			end = cuts[i]
		}
		if end < start {
			continue
		}
		from := int64(0)
		if start > 0 {
			from = start - 1
		}
		s := NewScanner(bytes.NewReader(data[from:]), start, max, bufSize)
		for s.Pos() < end && s.Scan() {
			out = append(out, s.Line())
		}
		if s.Err() != nil {
			t.Fatal(s.Err())
		}
		start = end
	}
	return out
}

// checkRanges holds the ranges' lines to lines.Scanner's over the whole
// data: the same lines in the same order, each once, at its offset, with
// its number where the range began the file.
func checkRanges(t testing.TB, data []byte, cuts []int64, max, bufSize int) {
	sc := lines.NewScanner(bytes.NewReader(data), max)
	var want []lines.Line
	for sc.Scan() {
		want = append(want, sc.Line())
	}
	got := scanRanges(t, data, cuts, max, bufSize)
	if len(got) != len(want) {
		t.Fatalf("cuts %v: %d lines, want %d\n got %v\nwant %v", cuts, len(got), len(want), got, want)
	}
	if len(got) > 0 && got[0].N != 1 {
		t.Fatalf("cuts %v: the first line numbered %d", cuts, got[0].N)
	}
	for i, g := range got {
		w := want[i]
		if g.Text != w.Text || g.TooLong != w.TooLong {
			t.Fatalf("cuts %v: line %d = %q (too long %v), want %q (%v)", cuts, i+1, g.Text, g.TooLong, w.Text, w.TooLong)
		}
		if g.N != 0 && g.N != w.N {
			t.Fatalf("cuts %v: line %d numbered %d", cuts, i+1, g.N)
		}
		if g.Offset < 0 || g.Offset > int64(len(data)) || g.Offset > 0 && data[g.Offset-1] != '\n' {
			t.Fatalf("cuts %v: line %d at offset %d, not a line start", cuts, i+1, g.Offset)
		}
	}
}

func TestScanner(t *testing.T) {
	long := bytes.Repeat([]byte("y"), 700)
	cases := []string{
		"", "\n", "a", "a\n", "a\r\n", "\r", "a\rb\n", "\n\n\n", "ab\ncd\r\nef",
		"http://a/\n" + string(long) + "\r\nftp://b/c\n\n  \t\nnot a url\n",
		string(long), string(long) + "\r", string(long) + "\r\n" + string(long),
	}
	for _, c := range cases {
		data := []byte(c)
		for _, bs := range []int{16, 64 << 10} {
			for _, mx := range []int{3, 600, 1 << 20} {
				checkRanges(t, data, nil, mx, bs)
				for cut := int64(0); cut <= int64(len(data)); cut++ {
					checkRanges(t, data, []int64{cut}, mx, bs)
					checkRanges(t, data, []int64{cut, (cut + int64(len(data))) / 2}, mx, bs)
				}
			}
		}
	}
}

// FuzzScanner: for any data and any cut points, the ranges' lines
// are the whole file's lines (lines.Scanner), each once.
func FuzzScanner(f *testing.F) {
	f.Add([]byte("a\nbb\r\nccc\n\nd"), []byte{3, 7}, uint8(2), uint8(16))
	f.Add([]byte("http://a/\r\n\r\nftp://b/"+string(bytes.Repeat([]byte("x"), 600))), []byte{1, 200, 250}, uint8(255), uint8(0))
	f.Fuzz(func(t *testing.T, data, cutBytes []byte, mx, bs uint8) {
		if len(cutBytes) > 16 {
			cutBytes = cutBytes[:16]
		}
		var cuts []int64
		for _, c := range cutBytes {
			cuts = append(cuts, int64(c)*int64(len(data)+1)/256)
		}
		bufSize := 16 + int(bs)
		max := int(mx)
		if mx == 255 {
			max = 1 << 20
		}
		defer func() {
			if r := recover(); r != nil {
				panic(fmt.Sprintf("cuts %v max %d buf %d: %v", cuts, max, bufSize, r))
			}
		}()
		checkRanges(t, data, cuts, max, bufSize)
	})
}
