package gateway_test

// Servers for the gateway's tests, started on loopback with
// internal/peer: pygopherd (Gopher+), gophernicus (plain Gopher with a
// type 7 search script), pyftpdlib (FTP with a user and password), UMN
// gopherd (Gopher+ ASK forms, built from its source by peer.BuildUMN).
// Each is skipped with a one-line reason when it is not installed.

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rfc1738/locator/internal/peer"
)

func write(t *testing.T, path, content string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
}

type ftpServer struct {
	*peer.Server
	log string
}

func (s ftpServer) commands(t *testing.T) string {
	b, err := os.ReadFile(s.log)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// startPyftpd serves anon and home (path → content) with pyftpdlib.
func startPyftpd(t *testing.T, anon, home map[string]string) ftpServer {
	peer.RequirePython(t, peer.Python, "pyftpdlib")
	dir := t.TempDir()
	root, h := filepath.Join(dir, "root"), filepath.Join(dir, "home")
	for d, files := range map[string]map[string]string{root: anon, h: home} {
		os.MkdirAll(d, 0o755)
		for p, c := range files {
			write(t, filepath.Join(d, filepath.FromSlash(p)), c, 0o644)
		}
	}
	s := peer.Pyftpdlib(t, root, peer.PyftpdOptions{Home: h, Ports: 8})
	return ftpServer{s.Server, s.Log}
}

// askForm is a Gopher+ ASK block of every kind a browser can fill.
const askForm = "Note: Please fill in this test form\nAsk: Your name:\tGopher User\nAskP: Secret word:\nSelect: Subscribe?:1\nChoose: Colour:\tred\tgreen\tblue\nAskL: Comments:\n"

// startUMN serves a tree with an ASK form whose script echoes the lines
// it is sent.
func startUMN(t *testing.T) *peer.Server {
	data := t.TempDir()
	write(t, filepath.Join(data, "hello.txt"), "Hello from UMN gopherd.\n", 0o644)
	write(t, filepath.Join(data, "form.ask"), askForm, 0o644)
	write(t, filepath.Join(data, "form"), "#!/bin/sh\necho \"ASK script output\"\nn=0\nwhile IFS= read -r line; do n=$((n+1)); echo \"line $n: [$line]\"; done\necho \"total lines: $n\"\n", 0o755)
	return peer.UMNGopherd(t, data)
}

func readFile(name string) (string, error) {
	b, err := os.ReadFile(name)
	return string(b), err
}
