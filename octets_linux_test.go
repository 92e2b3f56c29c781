package locator

import (
	"syscall"
	"testing"
	"unsafe"
)

// TestAllowedPrefixPageEnds: allowedPrefix reads no octet outside its
// string, at the end of a page followed by one that cannot be read, and
// at the start of a page after one that cannot be: the vector scan
// reads sixteen octets at a time, never across a page it need not.
func TestAllowedPrefixPageEnds(t *testing.T) {
	page := syscall.Getpagesize()
	m, err := syscall.Mmap(-1, 0, 3*page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Skipf("mmap: %v", err)
	}
	defer syscall.Munmap(m)
	for i := range m {
		m[i] = 'a'
	}
	if err := syscall.Mprotect(m[:page], syscall.PROT_NONE); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mprotect(m[2*page:], syscall.PROT_NONE); err != nil {
		t.Fatal(err)
	}
	mid := m[page : 2*page]
	for n := 0; n <= 40; n++ {
		for _, s := range allOctetSets {
			// The strings refer to the mapped octets themselves.
			end, start := mid[page-n:], mid[:n]
			if got := allowedPrefix(unsafe.String(unsafe.SliceData(end), n), s); got != n {
				t.Fatalf("at a page's end: allowedPrefix of %d octets = %d", n, got)
			}
			if got := allowedPrefix(unsafe.String(unsafe.SliceData(start), n), s); got != n {
				t.Fatalf("at a page's start: allowedPrefix of %d octets = %d", n, got)
			}
		}
	}
}
