package peer

import (
	"bufio"
	"crypto/tls"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestMollyBrown starts molly-brown with the test's certificate and asks
// it for a file: the certificate is the one made, the reply the file.
func TestMollyBrown(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "f.txt"), []byte("file\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cert, key, roots := SelfSigned(t, dir)
	s := MollyBrown(t, root, MollyConfig{Cert: cert, Key: key})
	c, err := net.DialTimeout("tcp", s.Addr, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	tc := tls.Client(c, &tls.Config{RootCAs: roots, ServerName: Host})
	fmt.Fprintf(tc, "%s\r\n", GeminiURL(s, "/f.txt"))
	br := bufio.NewReader(tc)
	head, err := br.ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(br)
	// OpenTree made the 0600 file readable by every user, which
	// molly-brown requires.
	if head != "20 text/plain; charset=utf-8\r\n" || string(body) != "file\n" {
		t.Errorf("reply %q %q", head, body)
	}
}
