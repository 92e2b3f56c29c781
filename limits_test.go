package locator

import (
	"errors"
	"math"
	"strings"
	"testing"
	"unsafe"
)

// TestInputLimit: offsets are int32, which keeps the URL value at 64
// bytes (pinned here), so Parse refuses an input longer than MaxInput
// with a *ParseError naming the rule and the limit, and Resolve a result
// that long.
func TestInputLimit(t *testing.T) {
	if n := unsafe.Sizeof(URL{}); n != 64 {
		t.Errorf("a URL value is %d bytes, want 64", n)
	}
	if MaxInput != math.MaxInt32 {
		t.Fatalf("MaxInput = %d, want %d (the largest int32 offset)", MaxInput, math.MaxInt32)
	}
	defer func(n int) { inputLimit = n }(inputLimit)
	inputLimit = 64
	ok := "http://h/" + strings.Repeat("a", 64-9)
	if _, err := Parse(ok); err != nil {
		t.Fatalf("Parse of %d bytes: %v", len(ok), err)
	}
	_, err := Parse(ok + "b")
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Problem.Rule != "url" || pe.Problem.Offset != 64 || pe.Problem.Severity != Error ||
		!strings.Contains(pe.Problem.Message, "65 bytes") || !strings.Contains(pe.Problem.Message, "64 bytes") {
		t.Fatalf("Parse of 65 bytes: %v", err)
	}
	base, _ := Parse("http://h/a/b")
	_, err = Resolve(base, strings.Repeat("c", 60), RFC3986)
	var re *ResolveError
	if !errors.As(err, &re) || !errors.As(re.Err, &pe) || pe.Problem.Rule != "url" {
		t.Fatalf("Resolve to 71 bytes: %v", err)
	}
}
