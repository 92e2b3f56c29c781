package main

// Archives that a hostile crawl may have written, and archives that
// would hold a person's credentials: get --from-warc and gateway --warc
// bounded by --max-filesize before anything is decompressed (the real
// binary, its peak memory and the size of any file it writes bounded by
// the kernel), get --warc masking a login's credentials, gateway --warc
// serving no capture of a file URL unless told to.

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rfc1738/locator/internal/loctest"
	"github.com/rfc1738/locator/internal/peer"
)

// bombWARC writes a WARC file (no CDXJ index: a reader goes through it)
// of a 4 GiB HTTP response of zeros, a 4 GiB FTP object of zeros, each
// some 4 MiB of gzip, and two small records: 1.5 MiB of zeros over HTTP
// and a 1000-octet FTP object.
func bombWARC(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "bomb.warc.gz")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	head := "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\n\r\n"
	for _, r := range []loctest.ZeroRecord{
		{Type: "response", URI: "http://127.0.0.1/zeros", Head: head, Zeros: 4 << 30},
		{Type: "resource", URI: "ftp://127.0.0.1/zeros", Zeros: 4 << 30},
		{Type: "response", URI: "http://127.0.0.1/small", Head: head, Zeros: 3 << 19},
		{Type: "resource", URI: "ftp://127.0.0.1/small", Zeros: 1000},
	} {
		if err := loctest.WriteZeroRecord(f, r); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	st, _ := os.Stat(path)
	t.Logf("the WARC file: %.1f MiB for 8 GiB of records", float64(st.Size())/(1<<20))
	return path
}

// maxBombRSS bounds the peak resident memory of a process that is
// handed the bomb (measured: some 15 MiB).
const maxBombRSS = 64 << 20

// limited runs bin with args, no file it writes allowed past fsize
// octets (RLIMIT_FSIZE, set by util-linux's prlimit, which then execs
// bin: a write past it fails with EFBIG), its temporary files in tmp,
// and returns its exit status, output and peak resident memory
// (VmHWM, watchHWM).
func limited(t *testing.T, bin, tmp string, fsize int64, args ...string) (code int, stdout []byte, stderr string, rss int64) {
	t.Helper()
	prlimit := peer.Require(t, "prlimit")[0]
	cmd := exec.Command(prlimit, append([]string{"--fsize=" + strconv.FormatInt(fsize, 10), bin}, args...)...)
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	peak := watchHWM(cmd.Process.Pid)
	// The last readings are taken while the process may have exited
	// and not been waited for: its status is still there until Wait.
	err := cmd.Wait()
	rss = peak()
	if err != nil {
		if _, ok := err.(*exec.ExitError); !ok {
			t.Fatal(err)
		}
	}
	return cmd.ProcessState.ExitCode(), out.Bytes(), errb.String(), rss
}

// TestGetFromWARCBomb: get --from-warc --max-filesize 1M of a 4 GiB
// record (WARC 1.1 Annex D: one gzip member, 4 MiB) fails at once,
// exit 3 and nothing written, naming --max-filesize, as a live object
// over the bound does; the process keeps within 64 MiB of memory and
// writes no file over 2 MiB (the kernel's RLIMIT_FSIZE: a temporary
// file of the record would fail with EFBIG). A record within the bound
// is printed whole under the same file limit, and without the bound the
// same limit stops the run, which shows the limit holds.
func TestGetFromWARCBomb(t *testing.T) {
	bin := locatorBin(t)
	warc := bombWARC(t)
	const fsize = 2<<20 + 64<<10
	for _, u := range []string{"http://127.0.0.1/zeros", "ftp://127.0.0.1/zeros"} {
		tmp := t.TempDir()
		code, out, errs, rss := limited(t, bin, tmp, fsize, "get", "--from-warc", warc, "--max-filesize", "1M", u)
		t.Logf("%s: exit %d, peak RSS %.1f MiB", u, code, float64(rss)/(1<<20))
		if code != 3 || len(out) != 0 || !strings.Contains(errs, "over the limit of 1048576") || !strings.Contains(errs, "(--max-filesize 1048576)") {
			t.Errorf("%s: exit %d, %d octets out, %q", u, code, len(out), errs)
		}
		if rss > maxBombRSS {
			t.Errorf("%s: peak RSS %.1f MiB, over %d MiB", u, float64(rss)/(1<<20), maxBombRSS>>20)
		}
		if ents, _ := os.ReadDir(tmp); len(ents) != 0 {
			t.Errorf("%s: %d files left in TMPDIR", u, len(ents))
		}
	}
	code, out, errs, _ := limited(t, bin, t.TempDir(), fsize, "get", "--from-warc", warc, "--max-filesize", "2M", "http://127.0.0.1/small")
	if code != 0 || len(out) != 3<<19 || len(bytes.Trim(out, "\x00")) != 0 {
		t.Errorf("a record within the bound: exit %d, %d octets, %q", code, len(out), errs)
	}
	// Without a bound, the 4 GiB record is read into a temporary file,
	// which the file limit cuts off.
	code, out, errs, _ = limited(t, bin, t.TempDir(), fsize, "get", "--from-warc", warc, "http://127.0.0.1/zeros")
	if code == 0 || len(out) != 0 || !strings.Contains(errs, "file too large") {
		t.Errorf("no bound, a file limit of 2 MiB: exit %d, %d octets, %q", code, len(out), errs)
	}
}

// TestGatewayWARCBomb: `gateway --warc` with its default bound (1 GiB)
// answers each of three requests for a 4 GiB record 502, saying why,
// at once (curl), with no file written over 64 MiB (RLIMIT_FSIZE) and a
// peak resident memory under 64 MiB; a small record of the same file
// is served whole.
func TestGatewayWARCBomb(t *testing.T) {
	bin := locatorBin(t)
	curl := "/usr/bin/curl"
	if _, err := os.Stat(curl); err != nil {
		t.Skip("curl is not installed")
	}
	warc := bombWARC(t)
	tmp := t.TempDir()
	prlimit := peer.Require(t, "prlimit")[0]
	cmd := exec.Command(prlimit, "--fsize="+strconv.Itoa(64<<20), bin, "gateway", "--listen", "127.0.0.1:0", "--warc", warc, "--log", "none")
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer stopProcess(cmd)
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("gateway start: %v %s", err, errb.String())
	}
	i := strings.Index(line, "http://")
	if i < 0 {
		t.Fatalf("gateway says %q", line)
	}
	base, _, _ := strings.Cut(strings.TrimSpace(line[i:]), " ")
	go io.Copy(io.Discard, stdout)
	fetch := func(u string) (string, []byte) {
		out, err := exec.Command(curl, "-sS", "--max-time", "120", "-w", "\n%{http_code}", base+u).Output()
		if err != nil {
			t.Fatalf("curl %s: %v", u, err)
		}
		j := bytes.LastIndexByte(out, '\n')
		return string(out[j+1:]), out[:j]
	}
	for n := range 3 {
		for _, u := range []string{"http://127.0.0.1/zeros", "ftp://127.0.0.1/zeros"} {
			code, body := fetch(u)
			if code != "502" || !bytes.Contains(body, []byte("over the limit of 1073741824")) {
				t.Errorf("request %d for %s: %s, %d octets\n%.300s", n+1, u, code, len(body), body)
			}
		}
	}
	if code, body := fetch("ftp://127.0.0.1/small"); code != "200" || len(body) != 1000 {
		t.Errorf("the small record: %s, %d octets", code, len(body))
	}
	hwm := vmHWM(t, cmd.Process.Pid)
	t.Logf("gateway peak RSS (VmHWM) %.1f MiB", float64(hwm)/(1<<20))
	if hwm > maxBombRSS {
		t.Errorf("the gateway's peak resident memory is %.1f MiB, over %d MiB", float64(hwm)/(1<<20), maxBombRSS>>20)
	}
	if ents, _ := os.ReadDir(tmp); len(ents) != 0 {
		t.Errorf("%d files left in TMPDIR", len(ents))
	}
}

// warcText is the text of a WARC file's records, each gzip member read.
func warcText(t *testing.T, path string) string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(z)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestGetWARCMasksCredentials: get --warc's request records of nginx's
// Basic-protected file (RFC 7617) hold the Authorization of -u and of
// the netrc, and -H's Cookie and token, masked (the auth-scheme and
// cookie names kept), as the FTP dialogue's PASS is; with
// --warc-keep-credentials they hold them as sent. The archive still
// replays.
func TestGetWARCMasksCredentials(t *testing.T) {
	addr, _, _ := httpNginx(t)
	u := "http://" + addr + "/private/ok.txt"
	netrc := writeNetrc(t, t.TempDir(), "machine 127.0.0.1 login joe password s3cret\n", 0o600)
	basic := base64.StdEncoding.EncodeToString([]byte("joe:s3cret"))
	for _, c := range []struct {
		name  string
		flags []string
	}{
		{"-u", []string{"-u", "joe:s3cret"}},
		{"--netrc-file", []string{"--netrc-file", netrc}},
	} {
		for _, keep := range []bool{false, true} {
			warc := filepath.Join(t.TempDir(), "c.warc.gz")
			args := append([]string{"get", "--warc", warc, "-H", "Cookie: sid=c00kie; theme=dark", "-H", "X-Auth-Token: t0ken"}, c.flags...)
			if keep {
				args = append(args, "--warc-keep-credentials")
			}
			code, out, errs := runCLI(t, "", append(args, u)...)
			if code != 0 || out != "inside\n" {
				t.Fatalf("%s: exit %d %q %s", c.name, code, out, errs)
			}
			text := warcText(t, warc)
			if !strings.Contains(text, "WARC-Type: request") {
				t.Fatalf("%s: no request record:\n%s", c.name, text)
			}
			masked := []string{"Authorization: Basic ****\r\n", "Cookie: sid=****; theme=****\r\n", "X-Auth-Token: ****\r\n"}
			for _, m := range masked {
				if strings.Contains(text, m) == keep {
					t.Errorf("%s, keep %v: %q in the record:\n%s", c.name, keep, m, text)
				}
			}
			for _, s := range []string{basic, "c00kie", "t0ken"} {
				if strings.Contains(text, s) != keep {
					t.Errorf("%s, keep %v: %q in the WARC file is %v", c.name, keep, s, !keep)
				}
			}
			if code, out, errs := runCLI(t, "", "get", "--from-warc", warc, u); code != 0 || out != "inside\n" {
				t.Errorf("%s: replayed: exit %d %q %s", c.name, code, out, errs)
			}
		}
	}
	if code, _, errs := runCLI(t, "", "get", "--warc-keep-credentials", u); code != 2 || !strings.Contains(errs, "go with --warc FILE") {
		t.Errorf("--warc-keep-credentials without --warc: exit %d %s", code, errs)
	}
}

// TestGatewayWARCFileURL: gateway --warc answers a capture of a file URL
// (here, as a hostile crawl's, of a file named passwd) 403 unless
// --warc-serve-file is given (curl).
func TestGatewayWARCFileURL(t *testing.T) {
	curl := "/usr/bin/curl"
	if _, err := os.Stat(curl); err != nil {
		t.Skip("curl is not installed")
	}
	dir := t.TempDir()
	secret := filepath.Join(dir, "passwd")
	os.WriteFile(secret, []byte("root:x:0:0:root:/root:/bin/sh\n"), 0o644)
	warc := filepath.Join(dir, "f.warc.gz")
	if code, _, errs := runCLI(t, "", "get", "--warc", warc, "file://"+secret); code != 0 {
		t.Fatalf("get --warc: exit %d %s", code, errs)
	}
	for _, c := range []struct {
		flags []string
		code  string
		body  string
	}{
		{nil, "403", "--warc-serve-file"},
		{[]string{"--warc-serve-file"}, "200", "root:x:0:0:root:/root:/bin/sh\n"},
	} {
		base, stop := gatewayOn(t, append([]string{"--warc", warc, "--log", "none"}, c.flags...)...)
		out, err := exec.Command(curl, "-sS", "-w", "\n%{http_code}", base+"file://"+secret).Output()
		stop()
		if err != nil {
			t.Fatal(err)
		}
		j := bytes.LastIndexByte(out, '\n')
		if string(out[j+1:]) != c.code || !strings.Contains(string(out[:j]), c.body) || c.code == "403" && strings.Contains(string(out), "root:x") {
			t.Errorf("%q: %s\n%s", c.flags, out[j+1:], out[:j])
		}
	}
	if code, _, errs := runCLI(t, "", "gateway", "--warc-serve-file"); code != 2 || !strings.Contains(errs, "go with --warc FILE") {
		t.Errorf("--warc-serve-file without --warc: exit %d %s", code, errs)
	}
}

// gatewayOn serves the gateway with args in this process on a free
// port of 127.0.0.1 and returns its base URL and what stops it.
func gatewayOn(t *testing.T, args ...string) (string, func()) {
	t.Helper()
	o := &gatewayOptions{}
	if err := newGatewayFlagSet(o).Parse(args); err != nil {
		t.Fatal(err)
	}
	o.cfg.Policy.Allow, o.cfg.Policy.Deny = o.allow, o.deny // as runGateway sets them
	e := &env{stdout: io.Discard, stderr: io.Discard}
	closeWARC, code := o.openWARC(e)
	if code != exitOK {
		t.Fatalf("openWARC: %d", code)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	done := make(chan int)
	go func() { done <- serveGateway(e, l, o, stop) }()
	return "http://" + l.Addr().String() + "/", func() {
		close(stop)
		<-done
		closeWARC()
		http.DefaultClient.CloseIdleConnections()
	}
}
