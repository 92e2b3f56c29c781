package file

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/internal/loctest"
)

var stamp = time.Date(1994, time.December, 20, 12, 0, 0, 0, time.UTC)

// tree makes a small directory tree and returns its path:
//
//	a.txt (6 octets), sp ace;1.txt, sub/ (with c.html), link -> a.txt,
//	dirlink -> sub, dangling -> nowhere
func tree(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	write := func(name, body string) {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, stamp, stamp); err != nil {
			t.Fatal(err)
		}
	}
	write("a.txt", "alpha\n")
	write("sp ace;1.txt", "space\n")
	write("sub/c.html", "<p>c</p>\n")
	for link, target := range map[string]string{"link": "a.txt", "dirlink": "sub", "dangling": "nowhere"} {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chtimes(filepath.Join(dir, "sub"), stamp, stamp); err != nil {
		t.Fatal(err)
	}
	return dir
}

func fileURL(t *testing.T, host, p string) string {
	t.Helper()
	s, err := (&URL{Host: host, Path: p}).Build()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// get follows u with c (nil: a zero Client) and reads the body or the
// listing.
func get(t *testing.T, u string, c *access.Client) (*access.Resource, []byte, error) {
	t.Helper()
	if c == nil {
		c = &access.Client{}
	}
	res, err := c.Get(context.Background(), loctest.MustParse(t, u))
	if err = listingErr(res, err); err != nil {
		return nil, nil, err
	}
	defer res.Close()
	if res.Body == nil {
		return res, nil, nil
	}
	b, err := io.ReadAll(res.Body)
	return res, b, err
}

func TestFetchFile(t *testing.T) {
	dir := tree(t)
	for _, host := range []string{"", "localhost", "LocalHost"} {
		u := fileURL(t, host, dir+"/a.txt")
		var dia strings.Builder
		res, b, err := get(t, u, &access.Client{Dialogue: &dia})
		if err != nil {
			t.Fatalf("%s: %v", u, err)
		}
		if string(b) != "alpha\n" || res.Size != 6 || !res.Modified.Equal(stamp) || res.MediaType != "text/plain; charset=utf-8" || res.Listing != nil {
			t.Errorf("%s: %q size %d modified %v type %q", u, b, res.Size, res.Modified, res.MediaType)
		}
		if dia.String() != "* open "+dir+"/a.txt\n* regular file, 6 octets\n" {
			t.Errorf("dialogue %q", dia.String())
		}
	}
	// A name with a space and ";" comes back from its encoded form.
	if _, b, err := get(t, "file://"+dir+"/sp%20ace%3B1.txt", nil); err != nil || string(b) != "space\n" {
		t.Errorf("encoded name: %q %v", b, err)
	}
	// A link is followed.
	if _, b, err := get(t, "file://"+dir+"/link", nil); err != nil || string(b) != "alpha\n" {
		t.Errorf("link: %q %v", b, err)
	}
}

func TestFetchDirectory(t *testing.T) {
	dir := tree(t)
	for _, u := range []string{"file://" + dir, "file://" + dir + "/", "file://localhost" + dir + "/"} {
		res, _, err := get(t, u, nil)
		if err != nil {
			t.Fatalf("%s: %v", u, err)
		}
		if res.Body != nil || res.Listing == nil || truncated(res.Listing) {
			t.Fatalf("%s: not a whole listing: %+v", u, res)
		}
		host := loctest.MustParse(t, u).Host()
		var got []string
		for _, e := range entries(res.Listing) {
			mod := "-"
			if !e.Modified.IsZero() {
				mod = "t"
			}
			target, _ := e.Parts["target"].(string)
			got = append(got, strings.Join([]string{e.Name, e.Type, strconv.FormatInt(e.Size, 10), mod, target, strings.TrimPrefix(e.URL, fileURL(t, host, dir))}, " "))
		}
		want := []string{
			"a.txt file 6 t  /a.txt",
			"dangling link -1 t none /dangling",
			"dirlink link -1 t directory /dirlink/",
			"link link 6 t file /link",
			"sp ace;1.txt file 6 t  /sp%20ace%3B1.txt",
			"sub directory -1 t  /sub/",
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s:\n%s\nwant\n%s", u, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		// dangling's target is "none"
		if e := entries(res.Listing)[1]; e.Parts["target"] != "none" {
			t.Errorf("dangling: %v", e.Parts)
		}
		// Every entry's URL leads back to the entry.
		for _, e := range entries(res.Listing) {
			if e.Name == "dangling" {
				continue
			}
			if _, _, err := get(t, e.URL, nil); err != nil {
				t.Errorf("entry %s: %v", e.URL, err)
			}
		}
	}
	res, _, err := get(t, "file://"+dir+"/", &access.Client{MaxEntries: 4})
	if err != nil || !truncated(res.Listing) || len(entries(res.Listing)) != 4 {
		t.Errorf("MaxEntries 4: %v %+v", err, res)
	}
}

// A file that is not there, or not a directory on the way, is the file
// system's "no": outcome Absent.
func TestFetchAbsent(t *testing.T) {
	dir := tree(t)
	for _, tt := range []struct{ path, code string }{
		{"/missing", "ENOENT"},
		{"/a.txt/x", "ENOTDIR"},
		{"/dangling", "ENOENT"},
	} {
		_, _, err := get(t, "file://"+dir+tt.path, nil)
		var se *access.ServerError
		if !errors.As(err, &se) || se.Code != tt.code || access.Classify(err) != access.Absent {
			t.Errorf("%s: %v, want %s", tt.path, err, tt.code)
		}
	}
}

func TestFetchPermission(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("running as root, which reads a file of mode 000")
	}
	dir := tree(t)
	p := filepath.Join(dir, "a.txt")
	os.Chmod(p, 0)
	_, _, err := get(t, "file://"+p, nil)
	var se *access.ServerError
	if !errors.As(err, &se) || se.Code != "EACCES" {
		t.Errorf("mode 000: %v", err)
	}
}

// RFC 1738 §3.10: a file URL of another host cannot be followed; its
// sentence is quoted.
func TestFetchRefused(t *testing.T) {
	dir := tree(t)
	for _, tt := range []struct {
		url    string
		offset int
		rule   string
		msg    string
	}{
		{"file://vms.host.edu/disk$user/my/notes/note12345.txt", 7, "RFC 1738 §3.10", `host "vms.host.edu" is not this machine, and a file URL gives no way to reach another: "The file URL scheme is unusual in that it does not specify an Internet protocol or access method for such files"`},
		{"<URL:file://127.0.0.1/etc/motd>", 12, "RFC 1738 §3.10", "is not this machine"},
		{"file:///a%2Fb", 8, "fsegment", ""},
		{"file:///a/b%00", 10, "fsegment", ""},
		{"file:relative", 5, "fileurl", ""},
	} {
		_, _, err := get(t, tt.url, nil)
		var pe *access.PolicyError
		if !errors.As(err, &pe) || pe.Offset != tt.offset || pe.Rule != tt.rule || !strings.Contains(pe.Reason, tt.msg) || access.Classify(err) != access.Forbidden {
			t.Errorf("%s: %v (%+v)", tt.url, err, pe)
		}
	}
	// A FIFO would block a reader forever: refused.
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err := get(t, "file://"+fifo, nil)
	var pe *access.PolicyError
	if !errors.As(err, &pe) || !strings.Contains(pe.Reason, "not a regular file") {
		t.Errorf("fifo: %v", err)
	}
}

func TestFetchLimit(t *testing.T) {
	dir := tree(t)
	_, _, err := get(t, "file://"+dir+"/a.txt", &access.Client{MaxSize: 5})
	if !errors.Is(err, access.ErrTooLarge) || !strings.Contains(err.Error(), "the file has 6 octets, the limit is 5") || access.Classify(err) != access.Failed {
		t.Errorf("over the limit: %v", err)
	}
	if _, b, err := get(t, "file://"+dir+"/a.txt", &access.Client{MaxSize: 6}); err != nil || string(b) != "alpha\n" {
		t.Errorf("at the limit: %q %v", b, err)
	}
}
