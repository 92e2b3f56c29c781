package main

// locator get -w (--write-out) against nginx and pyftpdlib on loopback:
// curl's variables after the transfer, on success and on failure.

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/rfc1738/locator/internal/peer"
)

func TestGetWriteOut(t *testing.T) {
	root := headTree(t)
	s := peer.Nginx(t, root, peer.NginxConfig{Connections: 64, Server: `    location /moved { return 301 /again; }
    location /again { return 302 /pub/hello.txt; }`})
	base := "http://" + s.Addr
	const vars = `%{url_effective} %{http_code} %{size_download} %{num_redirects} %{exitcode}\n`

	// Two redirections followed: the last URL, its reply's code, and
	// the octets written before the format.
	code, out, errs := runCLI(t, "", "get", "-w", vars, base+"/moved")
	if want := "hello\n" + base + "/pub/hello.txt 200 6 2 0\n"; code != 0 || out != want || errs != "" {
		t.Errorf("redirected: exit %d %q %q, want %q", code, out, errs, want)
	}
	// --head has the server's reply code.
	code, out, _ = runCLI(t, "", "get", "--head", "--write-out", "%{http_code} %{num_redirects}\n", base+"/moved")
	if !strings.HasSuffix(out, "\n200 2\n") || code != 0 {
		t.Errorf("--head: exit %d %q", code, out)
	}
	// A refusal: the server's code, and get's exit status; written after
	// the message, whatever happened.
	code, out, errs = runCLI(t, "", "get", "-w", vars, base+"/pub/missing")
	if want := base + "/pub/missing 404 0 0 1\n"; code != 1 || out != want || !strings.Contains(errs, "404 Not Found") {
		t.Errorf("404: exit %d %q %q, want %q", code, out, errs, want)
	}
	// --max-redirs 0: the 301 is not followed, exit 3; its code is the
	// last reply's, as curl's without -L.
	code, out, _ = runCLI(t, "", "get", "--max-redirs", "0", "-w", vars, base+"/moved")
	if want := base + "/moved 301 0 0 3\n"; code != 3 || out != want {
		t.Errorf("--max-redirs 0: exit %d %q, want %q", code, out, want)
	}
	// %{json}: one object of every variable; %% and the escapes.
	code, out, _ = runCLI(t, "", "get", "-o", "/dev/null", "-w", `%{json}\t100%%\\`, base+"/moved")
	i := strings.LastIndexByte(out, '\t')
	if code != 0 || i < 0 || out[i:] != "\t100%\\" {
		t.Fatalf("json: exit %d %q", code, out)
	}
	var j map[string]any
	if err := json.Unmarshal([]byte(out[:i]), &j); err != nil {
		t.Fatalf("json %q: %v", out[:i], err)
	}
	if len(j) != 6 || j["url_effective"] != base+"/pub/hello.txt" || j["http_code"] != 200.0 || j["size_download"] != 6.0 ||
		j["num_redirects"] != 2.0 || j["exitcode"] != 0.0 || j["time_total"].(float64) <= 0 {
		t.Errorf("json: %v", j)
	}
	code, out, _ = runCLI(t, "", "get", "-w", "%{time_total}", base+"/pub/hello.txt")
	if !regexp.MustCompile(`^hello\n[0-9]+\.[0-9]{6}$`).MatchString(out) || code != 0 {
		t.Errorf("time_total: exit %d %q", code, out)
	}

	// FTP's reply code on a refusal; a password never shown.
	f := peer.Pyftpdlib(t, root, peer.PyftpdOptions{})
	code, out, _ = runCLI(t, "", "get", "-w", vars, "ftp://joe:secret@"+f.Addr+"/pub/missing.txt")
	if want := "ftp://joe:****@" + f.Addr + "/pub/missing.txt 530 0 0 1\n"; code != 1 || out != want {
		t.Errorf("ftp: exit %d %q, want %q", code, out, want)
	}
	code, out, _ = runCLI(t, "", "get", "-w", vars, "ftp://"+f.Addr+"/pub/missing.txt")
	if want := "ftp://" + f.Addr + "/pub/missing.txt 550 0 0 1\n"; code != 1 || out != want {
		t.Errorf("ftp: exit %d %q, want %q", code, out, want)
	}

	// An unknown variable, or a %{ without its }: usage, before any
	// connection.
	for _, format := range []string{"%{size}", "%{json"} {
		code, out, errs = runCLI(t, "", "get", "-w", format, base+"/pub/hello.txt")
		if code != 2 || out != "" || !strings.Contains(errs, "usage: locator get") {
			t.Errorf("-w %q: exit %d %q %q", format, code, out, errs)
		}
	}
}
