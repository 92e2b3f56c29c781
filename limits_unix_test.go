//go:build unix

package locator

import (
	"errors"
	"math"
	"syscall"
	"testing"
	"unsafe"
)

// TestInputOver2GiB: the real limit, on an input of 2 GiB + 1 bytes. The
// bytes are an anonymous mapping the kernel fills with zeros only when
// read, and Parse refuses the input by its length without reading it, so
// the test touches one page, not 2 GiB.
func TestInputOver2GiB(t *testing.T) {
	const n = math.MaxInt32 + 1
	mem, err := syscall.Mmap(-1, 0, n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		t.Skipf("cannot map %d bytes: %v", n, err)
	}
	defer syscall.Munmap(mem)
	copy(mem, "http://h/")
	s := unsafe.String(&mem[0], n)
	u, err := Parse(s)
	var pe *ParseError
	if u != nil || !errors.As(err, &pe) || pe.Problem.Rule != "url" || pe.Problem.Offset != math.MaxInt32 {
		t.Fatalf("Parse of 2 GiB + 1 bytes: %v, %v", u, err)
	}
}
