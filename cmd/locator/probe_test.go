package main

// locator probe against real servers on loopback (package
// internal/peer): pyftpdlib, nginx and pygopherd, each started on a free
// port and stopped by its process id; a test whose servers are not
// installed is skipped with a one-line reason.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rfc1738/locator/internal/peer"
)

func writeTree(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for p, c := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// probeTree is the tree every server serves: n files in d/, n in e/f/.
func probeTree(n int) map[string]string {
	files := map[string]string{}
	for i := 0; i < n; i++ {
		files[fmt.Sprintf("d/file%03d.txt", i)] = strings.Repeat("x", i+1)
		files[fmt.Sprintf("e/f/g%03d.bin", i)] = strings.Repeat("y", 2*i+1)
	}
	return files
}

func startProbeFTP(t *testing.T, root string) (addr, log string) {
	s := peer.Pyftpdlib(t, root, peer.PyftpdOptions{Ports: 10})
	return s.Addr, s.Log
}

func startProbeNginx(t *testing.T, root string) string {
	return peer.Nginx(t, root, peer.NginxConfig{
		Connections: 256,
		Server: `    location /moved { return 301 /d/file000.txt; }
    location /secret { deny all; }
    location /gone { return 410; }
    location /nohead/ { alias ` + root + `/d/; if ($request_method = HEAD) { return 405; } }`,
	}).Addr
}

// openUp makes root and its parents readable by the servers' workers.
func openUp(t *testing.T, root string) {
	for d := root; d != "/" && d != "."; d = filepath.Dir(d) {
		if strings.HasPrefix(d, os.TempDir()) && d != os.TempDir() {
			os.Chmod(d, 0o755)
		}
	}
	filepath.Walk(root, func(p string, fi os.FileInfo, err error) error {
		if err == nil && fi.IsDir() {
			os.Chmod(p, 0o755)
		}
		return nil
	})
}

// TestProbeDocument: a generated document of a few hundred URLs on
// pyftpdlib, nginx and pygopherd, present, missing, on a closed port and
// refused by policy (RFC 1738 §6), with duplicates; read through
// `locator extract --json | locator probe -`, each URL's status asserted.
func TestProbeDocument(t *testing.T) {
	const n = 40
	root := t.TempDir()
	writeTree(t, root, probeTree(n))
	openUp(t, root)
	ftpAddr, ftpLog := startProbeFTP(t, root)
	httpAddr := startProbeNginx(t, root)
	gopherAddr := peer.Pygopherd(t, root).Addr
	closed := peer.FreePort(t)

	want := map[string]string{} // URL → status
	var urls []string
	add := func(u, status string) {
		if _, dup := want[u]; !dup {
			urls = append(urls, u)
		}
		want[u] = status
	}
	for i := 0; i < n; i++ {
		add(fmt.Sprintf("ftp://%s/d/file%03d.txt", ftpAddr, i), "ok")
		add(fmt.Sprintf("ftp://%s/e/f/g%03d.bin;type=i", ftpAddr, i), "ok")
		add(fmt.Sprintf("ftp://%s/d/missing%03d.txt", ftpAddr, i), "gone")
		add(fmt.Sprintf("http://%s/d/file%03d.txt", httpAddr, i), "ok")
		add(fmt.Sprintf("http://%s/d/missing%03d.txt", httpAddr, i), "gone")
		add(fmt.Sprintf("gopher://%s/0/d/file%03d.txt", gopherAddr, i), "ok")
		add(fmt.Sprintf("gopher://%s/0/d/missing%03d.txt", gopherAddr, i), "gone")
	}
	for _, u := range []struct{ url, status string }{
		{"ftp://" + ftpAddr + "/d/", "ok"},
		{"ftp://" + ftpAddr + "/e/f;type=d", "ok"},
		{"ftp://" + ftpAddr + "/e/f", "ok"}, // a directory named as a file: there
		{"ftp://" + ftpAddr + "/nodir/file000.txt", "gone"},
		{"http://" + httpAddr + "/moved", "ok"},
		{"http://" + httpAddr + "/secret", "refused"},
		{"http://" + httpAddr + "/gone", "gone"},
		{"http://" + httpAddr + "/nohead/file001.txt", "ok"},
		{"http://" + httpAddr + "/nohead/missing.txt", "gone"},
		{"gopher://" + gopherAddr + "/1/d", "ok"},
		{"gopher://" + gopherAddr + "/1/nodir", "gone"},
		{fmt.Sprintf("ftp://127.0.0.1:%d/x.txt", closed), "error"},
		{fmt.Sprintf("http://127.0.0.1:%d/x.txt", closed), "error"},
		{fmt.Sprintf("gopher://127.0.0.1:%d/0/x.txt", closed), "error"},
		{"http://127.0.0.1:25/", "policy"},
		{"ftp://127.0.0.1:110/x", "policy"},
		{"file://" + root + "/d/file000.txt", "ok"},
		{"file://" + root + "/d/none.txt", "gone"},
	} {
		add(u.url, u.status)
	}
	// A document: every URL in prose, some twice.
	var doc strings.Builder
	for i, u := range urls {
		fmt.Fprintf(&doc, "Item %d is at <URL:%s> for now.\n", i, u)
		if i%10 == 0 {
			fmt.Fprintf(&doc, "Again: <URL:%s>.\n", u)
		}
	}
	var extracted, errOut bytes.Buffer
	if code := run([]string{"extract", "--json", "-"}, &env{stdin: strings.NewReader(doc.String()), stdout: &extracted, stderr: &errOut}); code != 0 {
		t.Fatalf("extract: exit %d: %s", code, errOut.String())
	}
	var out bytes.Buffer
	errOut.Reset()
	code := run([]string{"probe", "--json", "--jobs", "8", "--per-host", "2", "--retries", "0", "-"},
		&env{stdin: bytes.NewReader(extracted.Bytes()), stdout: &out, stderr: &errOut})
	if code != 1 {
		t.Errorf("exit %d, want 1 (some URLs are not there)", code)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	wantLines := strings.Count(extracted.String(), "\n")
	if len(lines) != wantLines {
		t.Fatalf("%d output lines for %d inputs", len(lines), wantLines)
	}
	counts := map[string]int{}
	i := 0
	for _, l := range lines {
		var rec probeRecord
		if err := json.Unmarshal([]byte(l), &rec); err != nil {
			t.Fatalf("line %q: %v", l, err)
		}
		// In input order: the document's order, repeats right after.
		for rec.URL != urls[i] {
			if i > 0 && rec.URL == urls[i-1] {
				break
			}
			i++
			if i == len(urls) {
				t.Fatalf("%s: out of order", rec.URL)
			}
		}
		if rec.Status != want[rec.URL] {
			t.Errorf("%s: %s %s %s %s, want %s", rec.URL, rec.Status, rec.Code, rec.Text, rec.Error, want[rec.URL])
		}
		counts[rec.Status]++
	}
	var got []string
	for k, v := range counts {
		got = append(got, fmt.Sprintf("%s=%d", k, v))
	}
	sort.Strings(got)
	// 298 distinct URLs: ok 4 × 40 + 7, gone 3 × 40 + 5, error 3, policy
	// 2, refused 1; and 30 repeated lines (every tenth): 17 ok, 13 gone.
	if s := strings.Join(got, " "); s != "error=3 gone=138 ok=184 policy=2 refused=1" {
		t.Errorf("counts %s", s)
	}
	summary := fmt.Sprintf("locator probe: %d URLs (%d distinct probed)", len(lines), len(urls))
	if !strings.Contains(errOut.String(), summary) {
		t.Errorf("stderr %q lacks %q", errOut.String(), summary)
	}
	// One FTP login served every ftp URL of a connection: at most
	// --per-host sessions logged in, not one a URL.
	logb, _ := os.ReadFile(ftpLog)
	logins := strings.Count(string(logb), "<- USER anonymous")
	if logins < 1 || logins > 2 {
		t.Errorf("%d FTP logins for %d ftp URLs, want 1 or 2 (sessions reused)", logins, 3*n+4)
	}
}

// TestProbeCommand: the command's conventions without a server: file
// URLs (stat), mailto by syntax alone, policy (RFC 1738 §6), an input
// that is not a URL (exit 2), duplicates, NDJSON input, the readable
// line, usage errors.
func TestProbeCommand(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"a.txt": "hello"})
	in := strings.Join([]string{
		"file://" + dir + "/a.txt",
		`{"url":"file://` + dir + `/none","offset":0}`,
		"mailto:joe@example.com",
		"mailto:joe",
		"http://127.0.0.1:25/",
		"file://" + dir + "/a.txt",
	}, "\n") + "\n"
	var out, errOut bytes.Buffer
	code := run([]string{"probe", "--json", "-"}, &env{stdin: strings.NewReader(in), stdout: &out, stderr: &errOut})
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	var got []string
	for _, l := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
		var rec probeRecord
		if err := json.Unmarshal([]byte(l), &rec); err != nil {
			t.Fatal(err)
		}
		s := rec.Status + " " + rec.Code
		if rec.Size != nil {
			s += " " + strconv.FormatInt(*rec.Size, 10)
		}
		got = append(got, s)
	}
	want := "ok  5|gone ENOENT|ok syntax|gone syntax|policy |ok  5"
	if strings.Join(got, "|") != want {
		t.Errorf("got %q, want %q", strings.Join(got, "|"), want)
	}
	if !strings.Contains(errOut.String(), "6 URLs (5 distinct probed): 3 ok, 2 gone, 0 refused, 0 error, 1 policy") {
		t.Errorf("summary %q", errOut.String())
	}

	out.Reset()
	errOut.Reset()
	code = run([]string{"probe", "file://" + dir + "/a.txt", "not a url"}, &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut})
	if code != 2 || !strings.HasPrefix(out.String(), "ok      -    file://"+dir+"/a.txt size=5 modified=") ||
		!strings.Contains(out.String(), "\nerror   -    not a url (parse ") {
		t.Errorf("exit %d, output %q", code, out.String())
	}
	for _, args := range [][]string{{"probe"}, {"probe", "--jobs", "0", "file:///"}, {"probe", "--ftp-method", "direct", "file:///"}} {
		if code := run(args, &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut}); code != 2 {
			t.Errorf("%q: exit %d, want 2", args, code)
		}
	}
	// The bar, forced, goes to standard error only.
	out.Reset()
	errOut.Reset()
	o := &probeOptions{limits: limits{maxTime: time.Second, connect: time.Second, idle: time.Second}, jobs: 1, perHost: 1, forceProgress: true}
	if code := runProbe(&env{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut}, []string{"file://" + dir + "/a.txt"}, o); code != 0 {
		t.Errorf("exit %d", code)
	}
	if !strings.Contains(errOut.String(), "locator probe") || strings.Count(out.String(), "\n") != 1 {
		t.Errorf("stdout %q stderr %q", out.String(), errOut.String())
	}
}

// TestProbeRetries: a transient answer (FTP 421 in the greeting, RFC 959
// §4.2's "transient negative completion") is tried again, --retries
// times; a refused connection is not. The FTP server here is a tiny
// listener that only ever answers 421: a failure no real server gives on
// demand.
func TestProbeRetries(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	accepted := make(chan int, 1)
	go func() {
		n := 0
		for {
			c, err := l.Accept()
			if err != nil {
				accepted <- n
				return
			}
			n++
			io.WriteString(c, "421 Too many connections, try later.\r\n")
			c.Close()
		}
	}()
	closed := peer.FreePort(t)
	var out, errOut bytes.Buffer
	code := run([]string{"probe", "--json", "--retries", "2", "--backoff", "10ms",
		"ftp://" + l.Addr().String() + "/x.txt", fmt.Sprintf("ftp://127.0.0.1:%d/x.txt", closed)},
		&env{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut})
	l.Close()
	n := <-accepted
	var recs []probeRecord
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var r probeRecord
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		recs = append(recs, r)
	}
	if code != 1 || len(recs) != 2 || n != 3 {
		t.Fatalf("exit %d, %d records, %d connections; want 1, 2, 3\n%s", code, len(recs), n, out.String())
	}
	if r := recs[0]; r.Status != "refused" || r.Code != "421" || r.Tries != 3 {
		t.Errorf("421: %+v", r)
	}
	if r := recs[1]; r.Status != "error" || r.Tries != 1 {
		t.Errorf("refused connection: %+v", r)
	}
}
