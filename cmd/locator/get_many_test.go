package main

// get with many URLs, as curl: globs, -o and -O matched to the URLs in
// order, --output-dir, --create-dirs, --max-urls, the exit status of the
// last failure, one Client (one FTP login) for the run; and
// --fail-with-body. Against nginx and vsftpd.

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rfc1738/locator/internal/peer"
)

// manyNginx serves f/1.txt .. f/3.txt ("one\n" ...), f/a.txt, f/b.txt,
// f/c.txt, and big.bin (256 KiB of varied octets) with nginx, also under
// /norange/, where nginx sends every object whole whatever Range asks
// (max_ranges 0). It returns the base URL, the tree's root and the
// access log.
func manyNginx(t *testing.T) (base, root, accessLog string) {
	t.Helper()
	peer.Require(t, "/usr/sbin/nginx")
	dir := t.TempDir()
	root = filepath.Join(dir, "www")
	files := map[string]string{
		"f/1.txt": "one\n", "f/2.txt": "two\n", "f/3.txt": "three\n",
		"f/a.txt": "alpha\n", "f/b.txt": "bravo\n", "f/c.txt": "charlie\n",
		"big.bin": string(bigObject()),
	}
	for name, body := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s := peer.Nginx(t, root, peer.NginxConfig{
		Dir:         dir,
		Connections: 64,
		HTTP:        "types { text/plain txt; application/octet-stream bin; }",
		Server:      fmt.Sprintf("    location /norange/ { alias %s/; max_ranges 0; }\n", root),
	})
	return "http://" + s.Addr, root, filepath.Join(dir, "access.log")
}

// bigObject is 256 KiB in which no 4 KiB block repeats another, so that
// octets resumed from the wrong place cannot pass for the right ones.
func bigObject() []byte {
	var b bytes.Buffer
	for i := 0; b.Len() < 256<<10; i++ {
		fmt.Fprintf(&b, "%07d:%x\n", i, i*7919)
	}
	return b.Bytes()[:256<<10]
}

// requests counts the lines of nginx's access log, once it has stayed
// the same for 200ms: nginx logs a request after its reply is sent, so
// the line of one the client has just read may come a little later.
func requests(t *testing.T, log string) int {
	t.Helper()
	n := -1
	for {
		b, err := os.ReadFile(log)
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		m := bytes.Count(b, []byte("\n"))
		if m == n {
			return n
		}
		n = m
		time.Sleep(200 * time.Millisecond)
	}
}

func TestGetManyURLs(t *testing.T) {
	base, _, alog := manyNginx(t)
	read := func(p string) string {
		b, err := os.ReadFile(p)
		if err != nil {
			return "<" + err.Error() + ">"
		}
		return string(b)
	}

	t.Run("outputs", func(t *testing.T) {
		dir := t.TempDir()
		// The first -O and -o are the first two URLs', in order; the
		// third URL has none: standard output.
		code, out, errs := runCLI(t, "", "get", "--output-dir", dir, "-O", base+"/f/[1-3].txt",
			"--create-dirs", "-o", "sub/#1.out", base+"/f/{a,b}.txt", base+"/f/c.txt")
		if code != 0 || out != "charlie\n" || errs != "" {
			t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errs)
		}
		for name, want := range map[string]string{"1.txt": "one\n", "2.txt": "two\n", "3.txt": "three\n", "sub/a.out": "alpha\n", "sub/b.out": "bravo\n"} {
			if got := read(filepath.Join(dir, name)); got != want {
				t.Errorf("%s: %q, want %q", name, got, want)
			}
		}
		if fi, err := os.Stat(filepath.Join(dir, "sub")); err != nil || fi.Mode().Perm() != 0o750 {
			t.Errorf("--create-dirs: %v %v, want mode 0750", fi.Mode(), err)
		}
		// --remote-name-all: every URL without its own -o. #N counts
		// the URL's globs from the first; "-" is standard output.
		dir2 := t.TempDir()
		code, out, errs = runCLI(t, "", "get", "--remote-name-all", "--output-dir", dir2, "-o", "-", base+"/f/1.txt",
			"-o", dir2+"/#2-#1", base+"/f/{a,b}.[t-t]xt", base+"/f/c.txt", base+"/f/{2,3}.txt")
		if code != 0 || out != "one\n" || errs != "" {
			t.Fatalf("--remote-name-all: exit %d, stdout %q, stderr %q", code, out, errs)
		}
		for name, want := range map[string]string{"t-a": "alpha\n", "t-b": "bravo\n", "c.txt": "charlie\n", "2.txt": "two\n", "3.txt": "three\n"} {
			if got := read(filepath.Join(dir2, name)); got != want {
				t.Errorf("--remote-name-all %s: %q, want %q", name, got, want)
			}
		}
		// Without --create-dirs a missing directory is our trouble.
		code, _, errs = runCLI(t, "", "get", "-o", filepath.Join(dir, "no", "x"), base+"/f/1.txt")
		if code != 2 || !strings.Contains(errs, "no such file or directory") {
			t.Errorf("no --create-dirs: exit %d %q", code, errs)
		}
		// More -o than URLs: said, the URL still fetched.
		code, out, errs = runCLI(t, "", "get", "-o", "-", "-o", filepath.Join(dir, "unused"), base+"/f/1.txt")
		if _, err := os.Stat(filepath.Join(dir, "unused")); code != 0 || out != "one\n" || !strings.Contains(errs, "2 -o/-O for 1 URL: the last 1 has no URL") || err == nil {
			t.Errorf("more -o than URLs: exit %d %q %q", code, out, errs)
		}
	})

	t.Run("status", func(t *testing.T) {
		// The last failure's status, whatever comes after it: every URL
		// is followed, each failure said.
		for _, tc := range []struct {
			urls []string
			code int
			out  string
		}{
			{[]string{base + "/missing", base + "/f/1.txt"}, 1, "one\n"},
			{[]string{base + "/f/1.txt", base + "/missing"}, 1, "one\n"},
			{[]string{"http://127.0.0.1:25/", base + "/missing", base + "/f/2.txt"}, 1, "two\n"},
			{[]string{base + "/missing", "http://127.0.0.1:25/", base + "/f/2.txt"}, 4, "two\n"},
			{[]string{base + "/f/{1,2}.txt", base + "/f/3.txt"}, 0, "one\ntwo\nthree\n"},
		} {
			code, out, errs := runCLI(t, "", append([]string{"get"}, tc.urls...)...)
			fails := strings.Count(errs, "locator get: ")
			want := 0
			for _, u := range tc.urls {
				if strings.Contains(u, "missing") || strings.Contains(u, ":25/") {
					want++
				}
			}
			if code != tc.code || out != tc.out || fails != want {
				t.Errorf("%q: exit %d, stdout %q, stderr %q; want %d, %q, %d failures", tc.urls, code, out, errs, tc.code, tc.out, want)
			}
		}
	})

	t.Run("refused before connecting", func(t *testing.T) {
		before := requests(t, alog)
		for _, tc := range []struct {
			args []string
			msg  string
		}{
			{[]string{"--max-urls", "2", base + "/f/[1-3].txt"}, `"` + base + `/f/[1-3].txt" expands to 3 URLs, more than --max-urls 2`},
			{[]string{"--max-urls", "5", base + "/f/[1-3].txt", base + "/f/{a,b,c}.txt"}, "the URLs expand to 6 or more, more than --max-urls 5"},
			{[]string{base + "/f/1.txt", base + "/[0-9999999999][0-9999999999]"}, "more than 2^64 URLs"},
			{[]string{base + "/f/1.txt", base + "/f/[1-3.txt"}, "offset " + fmt.Sprint(len(base)+3) + `: unmatched "["`},
			{[]string{base + "/f/1.txt", base + "/f/[3-1].txt"}, "bad range [3-1]: the first is after the last"},
			{[]string{"-o", "-", base + "/f/1.txt", "-O", base + "/f/%2E%2E"}, `the name ".." is a directory's`},
			{[]string{"-O", base + "/f/1.txt", "-O", base + "/f/"}, "names no file"},
			{[]string{base + "/f/1.txt", "not a url"}, "parse"},
			{[]string{base + "/f/1.txt", "-"}, "given alone"},
			{[]string{"--max-urls", "-1", base + "/f/1.txt"}, "--max-urls must not be negative"},
			{[]string{"-C", "-", base + "/f/1.txt"}, "-C - resumes from the size of the output file"},
			{[]string{"-C", "x", base + "/f/1.txt"}, "want an offset"},
			{[]string{"-I", "-O", base + "/f/1.txt"}, "--head writes the header lines"},
			{[]string{base + "/f/1.txt", "telnet://127.0.0.1/"}, "opens an interactive session: give it alone"},
		} {
			code, out, errs := runCLI(t, "", append([]string{"get"}, tc.args...)...)
			if code != 2 || out != "" || !strings.Contains(errs, tc.msg) || !strings.Contains(errs, "usage: locator get") {
				t.Errorf("%q: exit %d, stdout %q, stderr %q; want 2, %q", tc.args, code, out, errs, tc.msg)
			}
		}
		if n := requests(t, alog); n != before {
			t.Errorf("%d requests reached nginx", n-before)
		}
	})

	t.Run("globoff", func(t *testing.T) {
		// -g: the brackets are the path's, sent encoded; nginx has no
		// such file.
		before := requests(t, alog)
		code, _, errs := runCLI(t, "", "get", "-g", base+"/f/[1-3].txt")
		if code != 1 || !strings.Contains(errs, "404") || requests(t, alog) != before+1 {
			t.Errorf("-g: exit %d %q", code, errs)
		}
		code, out, _ := runCLI(t, "", "get", "-g", "-O", "--output-dir", t.TempDir(), base+"/f/1.txt")
		if code != 0 || out != "" {
			t.Errorf("-g -O: exit %d %q", code, out)
		}
	})

	t.Run("fail-with-body", func(t *testing.T) {
		// nginx's own 404 page, as it sends it, written where the
		// object would have gone; the status still the refusal's.
		code, out, errs := runCLI(t, "", "get", "--fail-with-body", base+"/missing")
		if code != 1 || !strings.Contains(out, "<title>404 Not Found</title>") || !strings.Contains(out, "<center>nginx") || !strings.Contains(errs, "the server says 404 Not Found") {
			t.Errorf("stdout: exit %d, stdout %q, stderr %q", code, out, errs)
		}
		dst := filepath.Join(t.TempDir(), "page")
		code, out, _ = runCLI(t, "", "get", "--fail-with-body", "-o", dst, base+"/missing", "-w", "%{http_code} %{size_download}")
		page := read(dst)
		if code != 1 || !strings.HasPrefix(page, "<html>") || out != fmt.Sprintf("404 %d", len(page)) {
			t.Errorf("-o: exit %d, %q, file %q", code, out, page)
		}
		// Without it, nothing is written: neither stdout nor a file.
		dst = filepath.Join(t.TempDir(), "none")
		code, out, _ = runCLI(t, "", "get", "-o", dst, base+"/missing")
		if _, err := os.Stat(dst); code != 1 || out != "" || err == nil {
			t.Errorf("without: exit %d %q, file: %v", code, out, err)
		}
	})
}

// startVsftpd serves files (path → content) anonymously with vsftpd
// and returns its address and the log of its commands.
func startVsftpd(t *testing.T, files map[string][]byte) (addr, log string) {
	t.Helper()
	v := peer.Vsftpd(t, "", func(root string) { peer.WriteFiles(t, root, files) })
	return v.Addr, v.Log
}

// vsftpdCount counts the commands cmd (e.g. "USER") vsftpd logged.
func vsftpdCount(t *testing.T, log, cmd string) int {
	t.Helper()
	b, err := os.ReadFile(log)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return bytes.Count(b, []byte(`FTP command: Client "127.0.0.1", "`+cmd))
}

// TestGetManyFTP: -O names each file by its <name> (RFC 1738 §3.2.2);
// the URLs of one run share one Client, so that the logged-in session
// the ftp client keeps after a probe serves the next URL of the server
// (--head: one login for three URLs).
func TestGetManyFTP(t *testing.T) {
	addr, log := startVsftpd(t, map[string][]byte{"pub/x1.txt": []byte("x one\n"), "pub/x2.txt": []byte("x two\n"), "pub/y.txt": []byte("why\n")})
	dir := t.TempDir()
	code, out, errs := runCLI(t, "", "get", "--remote-name-all", "--output-dir", dir, "ftp://"+addr+"/pub/x[1-2].txt", "ftp://"+addr+"/pub/y.txt")
	if code != 0 || out != "" || errs != "" {
		t.Fatalf("exit %d %q %q", code, out, errs)
	}
	for name, want := range map[string]string{"x1.txt": "x one\n", "x2.txt": "x two\n", "y.txt": "why\n"} {
		if b, err := os.ReadFile(filepath.Join(dir, name)); string(b) != want {
			t.Errorf("%s: %q %v", name, b, err)
		}
	}
	if r := vsftpdCount(t, log, "RETR"); r != 3 {
		t.Errorf("%d RETR for 3 files", r)
	}
	// One login for the three: the ftp client keeps the session of a
	// complete transfer for the next URL of the server (curl's reuse).
	users := vsftpdCount(t, log, "USER")
	if users != 1 {
		b, _ := os.ReadFile(log)
		t.Errorf("%d logins for 3 URLs of one server; want 1\n%s", users, b)
	}
	code, out, errs = runCLI(t, "", "get", "--head", "ftp://"+addr+"/pub/x[1-2].txt", "ftp://"+addr+"/pub/y.txt")
	if code != 0 || strings.Count(out, "X-Locator-State: ok\n") != 3 || !strings.Contains(out, "Content-Length: 4\n") {
		t.Errorf("--head: exit %d %q %q", code, out, errs)
	}
	if n := vsftpdCount(t, log, "USER") - users; n != 1 {
		b, _ := os.ReadFile(log)
		t.Errorf("--head: %d logins for 3 URLs of one server; want 1\n%s", n, b)
	}
}
