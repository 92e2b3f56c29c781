package main

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rfc1738/locator/internal/peer"
)

// TestGetWARC: get --warc records what it fetches, never over an
// existing file, and get --from-warc prints the capture as get prints
// the object, with no server.
func TestGetWARC(t *testing.T) {
	dir := t.TempDir()
	obj := filepath.Join(dir, "a.txt")
	os.WriteFile(obj, []byte("alpha\n"), 0o644)
	warc := filepath.Join(dir, "out.warc.gz")
	if code, out, errs := runCLI(t, "", "get", "--warc", warc, "file://"+obj); code != 0 || out != "alpha\n" {
		t.Fatalf("--warc: exit %d %q %s", code, out, errs)
	}
	if code, out, errs := runCLI(t, "", "get", "--warc", warc, "file://"+obj); code != 0 || out != "alpha\n" {
		t.Fatalf("--warc again: exit %d %q %s", code, out, errs)
	}
	for _, f := range []string{warc, warc + ".cdxj", filepath.Join(dir, "out-00001.warc.gz"), filepath.Join(dir, "out-00001.warc.gz.cdxj")} {
		if _, err := os.Stat(f); err != nil {
			t.Errorf("%v: the second run writes a new file beside the first", err)
		}
	}
	os.WriteFile(obj, []byte("changed\n"), 0o644)
	code, out, errs := runCLI(t, "", "get", "--from-warc", warc, "file://"+obj)
	if code != 0 || out != "alpha\n" {
		t.Errorf("--from-warc: exit %d %q %s", code, out, errs)
	}
	code, _, errs = runCLI(t, "", "get", "--from-warc", warc, "file://"+dir+"/absent.txt")
	if code != 3 || !strings.Contains(errs, "is not in the archive") {
		t.Errorf("--from-warc of a URL not archived: exit %d %s", code, errs)
	}
	if code, _, _ := runCLI(t, "", "get", "--from-warc", warc, "--warc", warc, "file://"+obj); code != 2 {
		t.Errorf("--from-warc with --warc: exit %d, want 2", code)
	}

	// A file cut short: the problem is named with its offset.
	data, _ := os.ReadFile(warc)
	cut := filepath.Join(dir, "cut.warc.gz")
	os.WriteFile(cut, data[:len(data)-10], 0o644)
	code, _, errs = runCLI(t, "", "get", "--from-warc", cut, "file://"+obj)
	if code != 3 || !strings.Contains(errs, "cut.warc.gz: record at offset ") {
		t.Errorf("--from-warc of a file cut short: exit %d %s", code, errs)
	}
}

// TestGetWARCGopher: a Gopher menu recorded and read back is the same
// table.
func TestGetWARCGopher(t *testing.T) {
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "hello.txt"), []byte("Hello.\n"), 0o644)
	s := peer.Pygopherd(t, root)
	warc := filepath.Join(t.TempDir(), "g.warc.gz")
	u := "gopher://" + s.Addr + "/1/"
	code, live, errs := runCLI(t, "", "get", "--allow-host", "127.0.0.1", "--warc", warc, u)
	if code != 0 || !strings.Contains(live, "hello.txt") {
		t.Fatalf("live: exit %d\n%s%s", code, live, errs)
	}
	code, replayed, errs := runCLI(t, "", "get", "--from-warc", warc, u)
	if code != 0 || replayed != live {
		t.Errorf("--from-warc: exit %d\n%s%s\nwant\n%s", code, replayed, errs, live)
	}
}

// TestGatewayWARC: gateway --warc (with --warc-serve-file: the captures
// are of file URLs) serves the captures of a WARC file with a corrupt
// record: the bad record is reported with its offset at start, the good
// ones are served, a URL not in it is a 404.
func TestGatewayWARC(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.txt"), filepath.Join(dir, "b.txt")
	os.WriteFile(a, []byte("alpha\n"), 0o644)
	os.WriteFile(b, []byte("beta\n"), 0o644)
	warc := filepath.Join(dir, "g.warc.gz")
	if code, _, errs := runCLI(t, "", "get", "--warc", warc, "file://"+a, "file://"+b); code != 0 {
		t.Fatalf("get --warc: exit %d %s", code, errs)
	}
	// The first capture's record (after the warcinfo) made corrupt, the
	// index removed: the file is read through.
	data, _ := os.ReadFile(warc)
	idx, _ := os.ReadFile(warc + ".cdxj")
	os.Remove(warc + ".cdxj")
	off := -1
	for _, line := range strings.Split(string(idx), "\n") {
		if strings.Contains(line, `"url":"file://`+a+`"`) {
			i := strings.Index(line, `"offset":"`)
			fmt.Sscanf(line[i+len(`"offset":"`):], "%d", &off)
		}
	}
	if off <= 0 {
		t.Fatalf("no offset of %s in the index:\n%s", a, idx)
	}
	for i := off + 12; i < off+30; i++ {
		data[i] ^= 0x55
	}
	os.WriteFile(warc, data, 0o644)

	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	o := &gatewayOptions{}
	if err := newGatewayFlagSet(o).Parse([]string{"--warc", warc, "--warc-serve-file", "--log", "none"}); err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	e := &env{stdout: io.Discard, stderr: &stderr}
	closeWARC, code := o.openWARC(e)
	if code != exitOK {
		t.Fatalf("openWARC: %d %s", code, stderr.String())
	}
	defer closeWARC()
	if want := fmt.Sprintf("g.warc.gz: record at offset %d: ", off); !strings.Contains(stderr.String(), want) {
		t.Errorf("stderr %q, want %q", stderr.String(), want)
	}
	stop := make(chan struct{})
	done := make(chan int)
	go func() { done <- serveGateway(e, l, o, stop) }()
	base := "http://" + l.Addr().String() + "/"
	for _, c := range []struct {
		url, body string
		code      int
	}{
		{"file://" + b, "beta\n", 200},
		{"file://" + dir + "/absent.txt", "not in the archive", 404},
	} {
		res, err := http.Get(base + c.url)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != c.code || !strings.Contains(string(body), c.body) {
			t.Errorf("%s: %d %q, want %d %q", c.url, res.StatusCode, body, c.code, c.body)
		}
	}
	close(stop)
	<-done
}
