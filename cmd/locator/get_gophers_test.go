package main

// get with gophers URLs (Gopher over TLS) against gophernicus behind
// stunnel4: the octets are those of a plain gopher fetch of the same
// selector; --cacert and -k apply to gophers as to https (curl's rule).

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rfc1738/locator/internal/peer"
)

func TestGetGophers(t *testing.T) {
	peer.Require(t, "/usr/sbin/gophernicus")
	root := filepath.Join(t.TempDir(), "gopher")
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	bin := make([]byte, 50000)
	for i := range bin {
		bin[i] = byte(i ^ i>>8)
	}
	if err := os.WriteFile(filepath.Join(root, "hello.txt"), []byte("hello, gophers\r\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "data.bin"), bin, 0o644); err != nil {
		t.Fatal(err)
	}
	certs := t.TempDir()
	cert, key, _ := peer.SelfSigned(t, certs)
	tlsd := peer.GophernicusTLS(t, root, cert, key, false)
	plain := peer.Gophernicus(t, root)
	run := func(args ...string) (int, []byte, string) {
		return runCLIBytes(t, append([]string{"get", "--cacert", cert}, args...)...)
	}
	for _, sel := range []string{"/0/hello.txt", "/9/data.bin"} {
		code, got, errs := run("gophers://" + tlsd.Addr + sel)
		pcode, want, _ := runCLIBytes(t, "get", "gopher://"+plain.Addr+sel)
		if code != 0 || pcode != 0 || !bytes.Equal(got, want) || len(want) == 0 {
			t.Errorf("%s: exit %d, %d octets over TLS; exit %d, %d in the clear; %s", sel, code, len(got), pcode, len(want), errs)
		}
	}
	code, out, errs := run("-v", "gophers://"+tlsd.Addr+"/")
	if code != 0 || !strings.Contains(string(out), "gophers://"+tlsd.Addr+"/0/hello.txt") || !strings.Contains(errs, "* TLS TLS 1.") {
		t.Errorf("menu: exit %d\n%s\n%s", code, out, errs)
	}

	// Without --cacert the test's certificate is no root: the
	// handshake fails, naming the certificate, and nothing is written;
	// -k takes it unverified.
	code, stdout, stderr := runCLI(t, "", "get", "gophers://"+tlsd.Addr+"/0/hello.txt")
	if code != 3 || stdout != "" || !strings.Contains(stderr, "certificate") {
		t.Errorf("untrusted: exit %d %q %s", code, stdout, stderr)
	}
	if code, stdout, stderr = runCLI(t, "", "get", "-k", "gophers://"+tlsd.Addr+"/0/hello.txt"); code != 0 || stdout != "hello, gophers\r\n" {
		t.Errorf("-k: exit %d %q %s", code, stdout, stderr)
	}
	// A gophers URL to a plain Gopher port: a clear error, and no
	// request in the clear.
	code, stdout, stderr = runCLI(t, "", "get", "-v", "gophers://"+plain.Addr+"/0/hello.txt")
	if code != 3 || stdout != "" || !strings.Contains(stderr, "plain text") || strings.Contains(stderr, "> /hello.txt") {
		t.Errorf("plain server: exit %d %q %s", code, stdout, stderr)
	}
}

// runCLIBytes is runCLI with the standard output as octets.
func runCLIBytes(t *testing.T, args ...string) (int, []byte, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb})
	return code, out.Bytes(), errb.String()
}
