package main

// get -C (--continue-at): a transfer cut short resumed by the
// protocol's own means (an HTTP Range against nginx, FTP REST against
// vsftpd, a file: URL), the file appended to, the whole object's exact
// octets at the end; and a URL that cannot be resumed refused, the file
// left as it was.

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rfc1738/locator/internal/peer"
)

// cutShort writes the first n octets of whole to a new file and returns
// its path.
func cutShort(t *testing.T, whole []byte, n int) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "big.bin")
	if err := os.WriteFile(p, whole[:n], 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// resumeCases runs get -C on url (which names whole) and checks what
// comes of it: from the file's size (-C -), from an offset to standard
// output, from the end (nothing to add), and -O.
func resumeCases(t *testing.T, url string, whole []byte) {
	t.Helper()
	const cut = 100000
	dst := cutShort(t, whole, cut)
	code, out, errs := runCLI(t, "", "get", "-C", "-", "-o", dst, "-w", "%{size_download}", url)
	b, _ := os.ReadFile(dst)
	if code != 0 || !bytes.Equal(b, whole) || out != fmt.Sprint(len(whole)-cut) {
		t.Errorf("-C -: exit %d, %d octets (whole: %v), -w %q, stderr %q", code, len(b), bytes.Equal(b, whole), out, errs)
	}
	// The file whole already: nothing to add, nothing changed.
	code, _, errs = runCLI(t, "", "get", "--continue-at", "-", "-o", dst, url)
	b, _ = os.ReadFile(dst)
	if code != 0 || !bytes.Equal(b, whole) {
		t.Errorf("-C - at the end: exit %d, %d octets, stderr %q", code, len(b), errs)
	}
	// An offset: the octets from there, to standard output.
	code, out, errs = runCLI(t, "", "get", "-C", "200000", url)
	if code != 0 || out != string(whole[200000:]) {
		t.Errorf("-C 200000: exit %d, %d octets, stderr %q", code, len(out), errs)
	}
	// -O with --output-dir: the file the URL names, resumed.
	dir := filepath.Dir(cutShort(t, whole, 4096))
	code, _, errs = runCLI(t, "", "get", "-C", "-", "-O", "--output-dir", dir, url)
	b, _ = os.ReadFile(filepath.Join(dir, "big.bin"))
	if code != 0 || !bytes.Equal(b, whole) {
		t.Errorf("-C - -O: exit %d, %d octets, stderr %q", code, len(b), errs)
	}
}

// untouched fails t unless the file at p still holds want, with the
// modification time it had.
func untouched(t *testing.T, p string, want []byte, mod time.Time) {
	t.Helper()
	b, _ := os.ReadFile(p)
	fi, err := os.Stat(p)
	if err != nil || !bytes.Equal(b, want) || !fi.ModTime().Equal(mod) {
		t.Errorf("%s was touched: %d octets (want %d), %v", p, len(b), len(want), err)
	}
}

func TestGetResumeHTTP(t *testing.T) {
	base, _, _ := manyNginx(t)
	whole := bigObject()
	resumeCases(t, base+"/big.bin", whole)

	// A server that sends the whole object whatever the Range asks:
	// nothing is appended (it would repeat the file's octets), exit 3.
	dst := cutShort(t, whole, 1000)
	old := time.Now().Add(-time.Hour).Truncate(time.Second)
	os.Chtimes(dst, old, old)
	code, _, errs := runCLI(t, "", "get", "-C", "-", "-o", dst, base+"/norange/big.bin")
	if code != 3 || !strings.Contains(errs, "/norange/big.bin: cannot resume from octet 1000 (-C)") || !strings.Contains(errs, dst+" left as it was") {
		t.Errorf("a server ignoring Range: exit %d %q", code, errs)
	}
	untouched(t, dst, whole[:1000], old)
}

func TestGetResumeFTP(t *testing.T) {
	whole := bigObject()
	addr, log := startVsftpd(t, map[string][]byte{"pub/big.bin": whole, "pub/dir/a.txt": []byte("a\n")})
	resumeCases(t, "ftp://"+addr+"/pub/big.bin", whole)
	if b, _ := os.ReadFile(log); !bytes.Contains(b, []byte(`"REST 100000"`)) || !bytes.Contains(b, []byte(`"REST 200000"`)) {
		t.Errorf("vsftpd was not sent REST 100000 and REST 200000 (RFC 959 §4.1.3)")
	}
	// A directory is a listing, which cannot be resumed: exit 4.
	dst := cutShort(t, whole, 10)
	old := time.Now().Add(-time.Hour).Truncate(time.Second)
	os.Chtimes(dst, old, old)
	code, _, errs := runCLI(t, "", "get", "-C", "-", "-o", dst, "ftp://"+addr+"/pub/dir/")
	if code != 4 || !strings.Contains(errs, "cannot resume from octet 10 (-C)") || !strings.Contains(errs, "listing") {
		t.Errorf("a listing: exit %d %q", code, errs)
	}
	untouched(t, dst, whole[:10], old)
}

func TestGetResumeFile(t *testing.T) {
	whole := bigObject()
	src := filepath.Join(t.TempDir(), "big.bin")
	if err := os.WriteFile(src, whole, 0o644); err != nil {
		t.Fatal(err)
	}
	resumeCases(t, "file://"+src, whole)
}

// A protocol without a way to begin at an offset (Gopher, RFC 1436):
// refused before any connection (exit 4), the file as it was.
func TestGetResumeRefused(t *testing.T) {
	dst := cutShort(t, []byte("0123456789"), 5)
	old := time.Now().Add(-time.Hour).Truncate(time.Second)
	os.Chtimes(dst, old, old)
	var hits atomic.Int32
	addr := peer.Hostile(t, func(c net.Conn) { hits.Add(1) })
	code, _, errs := runCLI(t, "", "get", "-C", "-", "-o", dst, "gopher://"+addr+"/0/big.bin")
	if code != 4 || !strings.Contains(errs, "cannot resume from octet 5 (-C)") || !strings.Contains(errs, dst+" left as it was") || hits.Load() != 0 {
		t.Errorf("gopher: exit %d %q, %d connections", code, errs, hits.Load())
	}
	untouched(t, dst, []byte("01234"), old)
	// A symbolic link is not written through, as -o's rule says.
	link := filepath.Join(t.TempDir(), "link")
	os.Symlink(dst, link)
	src := filepath.Join(t.TempDir(), "src")
	os.WriteFile(src, []byte("0123456789"), 0o644)
	code, _, errs = runCLI(t, "", "get", "-C", "5", "-o", link, "file://"+src)
	if code != 2 || !strings.Contains(errs, "symbolic link") {
		t.Errorf("a link: exit %d %q", code, errs)
	}
	untouched(t, dst, []byte("01234"), old)
}
