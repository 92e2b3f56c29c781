package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rfc1738/locator/internal/peer"
)

// startDirsrv runs the Prospero server of the test data's peers/prospero on a
// free UDP port of 127.0.0.1, serving a tree with a file, a directory
// and an EXTERNAL link to an ftp object (the peer's README fixture).
func startDirsrv(t *testing.T) (*peer.Server, string) {
	t.Helper()
	r := t.TempDir()
	files := map[string]string{
		"info-tree/readme.txt": "hello\n",
		"info-tree/docs/a.txt": "doc\n",
		"shadow" + r + "/info-tree/.directory#contents": "VERSION 5\nINCLUDE-NATIVE INCLREAL\n" +
			"LINK L EXTERNAL README-ftp INTERNET-D ftp.example.org ASCII '/pub/README' 0\n" +
			"ATTRIBUTE CACHED FIELD ACCESS-METHOD SEQUENCE AFTP '' '' '' '' ASCII\n",
	}
	for p, c := range files {
		full := filepath.Join(r, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range []string{"security", "pfsdat"} {
		os.MkdirAll(filepath.Join(r, d), 0o755)
	}
	s, _ := peer.Dirsrv(t, r)
	return s, filepath.Join(r, "info-tree")
}

// TestGetProspero: locator get on a Prospero directory (RFC 1738 §3.11)
// in every output mode, and its exit statuses.
func TestGetProspero(t *testing.T) {
	s, tree := startDirsrv(t)
	base := "prospero://" + s.Addr + "/" + tree
	host := fmt.Sprintf("LOCALHOST:%d", s.Port)

	code, out, errs := runCLI(t, "", "get", base)
	var rows []string
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		f := strings.Fields(line)
		if len(f) == 6 { // a date and a time in MODIFIED
			f = append(f[:2], f[4:]...)
		}
		if len(f) > 1 && f[0] == "directory" {
			f[1] = "N" // a directory's size is the file system's
		}
		rows = append(rows, strings.Join(f, " "))
	}
	want := []string{
		"TYPE SIZE MODIFIED NAME URL",
		"link - - README-ftp " + base + ";NAME-COMPONENT=README-ftp",
		"file 6 readme.txt prospero://" + host + "/" + tree + "/readme.txt",
		"directory N docs prospero://" + host + "/" + tree + "/docs",
	}
	if code != 0 || strings.Join(rows, "\n") != strings.Join(want, "\n") || errs != "" {
		t.Fatalf("table: exit %d\n%s\nwant (columns)\n%s\n%s", code, out, strings.Join(want, "\n"), errs)
	}

	code, out, _ = runCLI(t, "", "get", "--json", base)
	var names []string
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var e struct {
			URL, Name, Type string
			Parts           map[string]any
		}
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("--json: %v: %s", err, line)
		}
		names = append(names, e.Type+" "+e.Name)
		if e.Name == "README-ftp" && fmt.Sprint(e.Parts["access"]) != "[ftp://ftp.example.org/pub/README;type=a]" {
			t.Errorf("README-ftp parts %v", e.Parts)
		}
	}
	if code != 0 || strings.Join(names, ",") != "link README-ftp,file readme.txt,directory docs" {
		t.Errorf("--json: exit %d, entries %v", code, names)
	}

	dst := filepath.Join(t.TempDir(), "listing")
	code, out, _ = runCLI(t, "", "get", "-o", dst, base+";NAME-COMPONENT=README-ftp")
	b, _ := os.ReadFile(dst)
	if code != 0 || out != "" || !strings.Contains(string(b), "README-ftp (AFTP)  ftp://ftp.example.org/pub/README;type=a\n") {
		t.Errorf("-o: exit %d, out %q, file %q", code, out, b)
	}

	code, _, errs = runCLI(t, "", "get", "-v", base+"/docs")
	for _, w := range []string{"* datagrams to " + s.Addr + "\n", "> DIRECTORY ASCII '" + tree + "/docs'\n", "> LIST ATTRIBUTES+LEXPAND COMPONENTS\n",
		"< VERSION 5 P53.17May94b\n", "* ARDP: reply of 1 packet ("} {
		if code != 0 || !strings.Contains(errs, w) {
			t.Errorf("-v: exit %d, lacks %q:\n%s", code, w, errs)
		}
	}

	// The server says no: exit 1; a field the client cannot honour:
	// refused before any datagram, exit 4; following an access method
	// to a host that does not exist: exit 3.
	if code, _, errs = runCLI(t, "", "get", base+"/none"); code != 1 || !strings.Contains(errs, "the server says NOT-FOUND") {
		t.Errorf("missing: exit %d %s", code, errs)
	}
	if code, _, errs = runCLI(t, "", "get", base+";COLOUR=red"); code != 4 || !strings.Contains(errs, `the field "COLOUR" is not one this client can honour`) {
		t.Errorf("field: exit %d %s", code, errs)
	}
	if code, _, errs = runCLI(t, "", "get", "--follow", "--deny-host", "ftp.example.org", base+";NAME-COMPONENT=README-ftp"); code != 4 || !strings.Contains(errs, `host "ftp.example.org" is not allowed`) {
		t.Errorf("--follow to a denied host: exit %d %s", code, errs)
	}
}
