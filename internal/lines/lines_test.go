package lines

import (
	"bytes"
	"errors"
	"io"
	"runtime"
	"strings"
	"testing"
	"testing/iotest"
)

// scanAll reads every line of in with the bound max and a buffer of
// size octets.
func scanAll(t *testing.T, r io.Reader, max, size int) ([]Line, error) {
	t.Helper()
	s := newScanner(r, max, size)
	var out []Line
	for s.Scan() {
		out = append(out, s.Line())
	}
	if s.Scan() {
		t.Fatalf("Scan true after false")
	}
	return out, s.Err()
}

// model is what Scanner must give: the lines of in split at LF, without
// a CR before the LF (or at the very end), a line longer than max cut to
// Head and marked.
func model(in string, max int) []Line {
	var out []Line
	parts := strings.Split(in, "\n")
	if parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1] // after the last LF, or an empty stream
	}
	for i, p := range parts {
		p = strings.TrimSuffix(p, "\r")
		l := Line{N: i + 1, Text: p}
		if len(p) > max {
			l = Line{N: i + 1, Text: p[:min(len(p), Head)], TooLong: true}
		}
		out = append(out, l)
	}
	return out
}

func TestScanner(t *testing.T) {
	long := strings.Repeat("x", 100)
	for _, c := range []struct {
		name string
		in   string
		max  int
		want []Line
	}{
		{"empty stream", "", 10, nil},
		{"one line, LF", "a\n", 10, []Line{{1, "a", false}}},
		{"CR LF", "a\r\nb\r\n", 10, []Line{{1, "a", false}, {2, "b", false}}},
		{"no final LF", "a\nb", 10, []Line{{1, "a", false}, {2, "b", false}}},
		{"final CR", "a\r", 10, []Line{{1, "a", false}}},
		{"CR inside", "a\rb\n", 10, []Line{{1, "a\rb", false}}},
		{"two CRs: one is the line's", "a\r\r\n", 10, []Line{{1, "a\r", false}}},
		{"blank lines", "\n \t\nx\n", 10, []Line{{1, "", false}, {2, " \t", false}, {3, "x", false}}},
		{"exactly the bound", "0123456789\n", 10, []Line{{1, "0123456789", false}}},
		{"the bound, CR LF not counted", "0123456789\r\n", 10, []Line{{1, "0123456789", false}}},
		{"one over the bound", "0123456789a\nb\n", 10, []Line{{1, "0123456789a", true}, {2, "b", false}}},
		{"a CR that is the line's counts", "0123456789\r\r\n", 10, []Line{{1, "0123456789\r", true}}},
		{"long lines over the buffer, numbers go on", long + "\n" + long + "\r\nok\n", 50,
			[]Line{{1, long, true}, {2, long, true}, {3, "ok", false}}},
		{"within the bound, over the buffer", long + "\n", 100, []Line{{1, long, false}}},
		{"the head is Head octets", strings.Repeat("y", 3*Head) + "\nz", 10,
			[]Line{{1, strings.Repeat("y", Head), true}, {2, "z", false}}},
	} {
		for _, size := range []int{16, bufSize} {
			got, err := scanAll(t, strings.NewReader(c.in), c.max, size)
			if err != nil || !equal(got, c.want) {
				t.Errorf("%s (buffer %d): %q gives %#v, %v; want %#v", c.name, size, c.in, got, err, c.want)
			}
			if m := model(c.in, c.max); !equal(m, c.want) {
				t.Errorf("%s: the model gives %#v", c.name, m)
			}
		}
	}
}

func equal(a, b []Line) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestBlank(t *testing.T) {
	for _, c := range []struct {
		l    Line
		want bool
	}{
		{Line{Text: ""}, true},
		{Line{Text: " \t "}, true},
		{Line{Text: " x "}, false},
		{Line{Text: "\r"}, false}, // a CR left in the line is text
		{Line{Text: "", TooLong: true}, false},
	} {
		if got := c.l.Blank(); got != c.want {
			t.Errorf("%+v: Blank %v", c.l, got)
		}
	}
}

// TestReadError: the lines before a read error are given, the one cut
// by it too, then Err is the error.
func TestReadError(t *testing.T) {
	boom := errors.New("boom")
	r := io.MultiReader(strings.NewReader("a\nb\nhalf"), iotest.ErrReader(boom))
	got, err := scanAll(t, iotest.OneByteReader(r), 10, 16)
	want := []Line{{1, "a", false}, {2, "b", false}, {3, "half", false}}
	if !equal(got, want) || err != boom {
		t.Errorf("got %#v, %v; want %#v, boom", got, err, want)
	}
}

// TestMemoryBound: a stream of 64 MiB without a line ending is read
// holding no more than the bound and a buffer.
func TestMemoryBound(t *testing.T) {
	const size = 64 << 20
	r := io.LimitReader(repeatReader('x'), size)
	s := NewScanner(r, Max)
	if !s.Scan() {
		t.Fatal(s.Err())
	}
	if l := s.Line(); !l.TooLong || l.N != 1 || l.Text != strings.Repeat("x", Head) {
		t.Errorf("line %d, TooLong %v, %d octets", l.N, l.TooLong, len(l.Text))
	}
	if s.Scan() || s.Err() != nil {
		t.Errorf("a second line, or an error: %v", s.Err())
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	s = NewScanner(io.LimitReader(repeatReader('x'), size), Max)
	for s.Scan() {
	}
	runtime.ReadMemStats(&after)
	// Growing held to the bound by append allocates about six times the
	// bound (measured: 6.1 MB); holding the stream whole would allocate
	// more than the stream, 64 MiB.
	if n := after.TotalAlloc - before.TotalAlloc; n > 8*Max {
		t.Errorf("%d octets allocated for one 64 MiB line", n)
	}
}

type repeatReader byte

func (c repeatReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(c)
	}
	return len(p), nil
}

// FuzzScanner: whatever the stream, with a bound from 0 to 255 and the
// smallest buffer or the usual one, the Scanner gives the model's lines.
func FuzzScanner(f *testing.F) {
	for _, s := range []string{"", "a\nb", "a\r\n\r\n", "x\r\r\n", strings.Repeat("z", 600) + "\r\nq", "\n\n\n", " \t\n"} {
		f.Add([]byte(s), uint8(4))
	}
	f.Fuzz(func(t *testing.T, in []byte, max uint8) {
		want := model(string(in), int(max))
		for _, size := range []int{16, bufSize} {
			got, err := scanAll(t, bytes.NewReader(in), int(max), size)
			if err != nil || !equal(got, want) {
				t.Fatalf("%q, bound %d, buffer %d: %#v, %v; want %#v", in, max, size, got, err, want)
			}
		}
	})
}
