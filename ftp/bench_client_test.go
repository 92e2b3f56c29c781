package ftp_test

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
)

// BenchmarkRetrieveVsftpd retrieves a 64 MiB file from vsftpd on
// loopback in TYPE I (the session's whole cost: login, TYPE,
// EPSV, RETR, QUIT); MB/s is the throughput. bench/ftp-http.sh compares
// `locator get` with curl on a larger file.
func BenchmarkRetrieveVsftpd(b *testing.B) {
	v := startVsftpdB(b)
	const size = 64 << 20
	u, err := locator.Parse("ftp://" + v.Addr + "/big.bin")
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(size)
	c := &access.Client{}
	for b.Loop() {
		res, err := c.Get(context.Background(), u)
		if err != nil {
			b.Fatal(err)
		}
		n, err := io.Copy(io.Discard, res.Body)
		res.Close()
		if err != nil || n != size {
			b.Fatalf("%d octets, %v", n, err)
		}
	}
}

// startVsftpdB is startVsftpd for a benchmark, with a 64 MiB file.
func startVsftpdB(b *testing.B) *vsftpd {
	v := startVsftpdTB(b, func(root string) {
		f := make([]byte, 64<<20)
		for i := range f {
			f[i] = byte(i * 7)
		}
		if err := os.WriteFile(filepath.Join(root, "big.bin"), f, 0o644); err != nil {
			b.Fatal(err)
		}
	})
	return v
}
