package main

// get's curl flags for http and https URLs against nginx: -H, -u,
// -k and --cacert, --compressed, -d.

import (
	"encoding/base64"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/rfc1738/locator/internal/peer"
)

// bombSize is the decoded size of the compressible file /bomb.txt.
const bombSize = 2 << 20

// httpNginx starts nginx with a plain and a TLS listener (a certificate
// for 127.0.0.1 the test makes), locations that echo the request, a
// directory under Basic authorization for joe:s3cret, and gzip, and
// returns the plain and TLS addresses and the certificate's file.
func httpNginx(t *testing.T) (addr, tlsAddr, cert string) {
	t.Helper()
	peer.Require(t, "/usr/sbin/nginx")
	peer.Require(t, "/usr/bin/openssl")
	dir := t.TempDir()
	root := filepath.Join(dir, "www")
	if err := os.MkdirAll(filepath.Join(root, "private"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{
		"a.txt":          "alpha\n",
		"private/ok.txt": "inside\n",
		"bomb.txt":       strings.Repeat("a", bombSize),
	} {
		if err := os.WriteFile(filepath.Join(root, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	hash, err := exec.Command("/usr/bin/openssl", "passwd", "-apr1", "s3cret").Output()
	if err != nil {
		t.Fatal(err)
	}
	htpasswd := filepath.Join(dir, "htpasswd")
	if err := os.WriteFile(htpasswd, []byte("joe:"+strings.TrimSpace(string(hash))+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cert, key, _ := peer.SelfSigned(t, dir)
	tlsPort := peer.FreePort(t)
	s := peer.Nginx(t, root, peer.NginxConfig{
		Dir:         dir,
		Connections: 64,
		HTTP:        "types { text/plain txt; } gzip on; gzip_types text/plain; gzip_min_length 1;",
		Server: fmt.Sprintf(`    listen 127.0.0.1:%d ssl; ssl_certificate %s; ssl_certificate_key %s;
    location /echo { return 200 "$http_x_test|$http_user_agent|$host\n"; }
    location /method { return 200 "$request_method $content_length $content_type\n"; }
    location /post-see-other { return 303 /a.txt; }
    location /post-again { return 307 /method; }
    location /here { return 302 /private/ok.txt; }
    location /elsewhere { return 302 http://localhost:$server_port/private/ok.txt; }
    location /private/ { auth_basic "locator"; auth_basic_user_file %s; }
`, tlsPort, cert, key, htpasswd),
	})
	return s.Addr, "127.0.0.1:" + strconv.Itoa(tlsPort), cert
}

func TestGetHTTPFlags(t *testing.T) {
	addr, tlsAddr, cert := httpNginx(t)
	base := "http://" + addr

	t.Run("header", func(t *testing.T) {
		code, out, errs := runCLI(t, "", "get", "-v", "-H", "X-Test: hello", "--header", "User-Agent: curl/8", "-H", "Host: example.org", base+"/echo")
		if code != 0 || out != "hello|curl/8|example.org\n" {
			t.Fatalf("exit %d %q %s", code, out, errs)
		}
		if !strings.Contains(errs, "> X-Test: hello\n") || !strings.Contains(errs, "> Host: example.org\n") || strings.Contains(errs, "> User-Agent: locator") {
			t.Errorf("dialogue:\n%s", errs)
		}
		// Without -H, the client's own.
		if code, out, errs := runCLI(t, "", "get", base+"/echo"); code != 0 || out != "|locator (RFC 1738)|"+"127.0.0.1\n" {
			t.Errorf("exit %d %q %s", code, out, errs)
		}
		for _, h := range []string{"X-Test: a\r\nEvil: b", "X-Test: a\nb", "X-Test: a\x00", "no colon", ": empty name", "Bad Name: x"} {
			if code, _, errs := runCLI(t, "", "get", "-H", h, base+"/echo"); code != 2 || !strings.Contains(errs, "usage: locator get") {
				t.Errorf("-H %q: exit %d %s", h, code, errs)
			}
		}
		// A name that is no token is refused before any connection.
		if code, _, errs := runCLI(t, "", "get", "-H", "X(y): z", base+"/echo"); code != 4 || !strings.Contains(errs, "not an HTTP token") {
			t.Errorf("-H X(y): exit %d %s", code, errs)
		}
		// Ignored for a URL of another scheme, as by curl.
		f := filepath.Join(t.TempDir(), "f.txt")
		if err := os.WriteFile(f, []byte("file\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if code, out, errs := runCLI(t, "", "get", "-H", "X-Test: a", "--compressed", "-u", "a:b", "-k", "file://"+f); code != 0 || out != "file\n" {
			t.Errorf("file URL: exit %d %s", code, errs)
		}
	})

	t.Run("user", func(t *testing.T) {
		code, out, errs := runCLI(t, "", "get", "-v", "-u", "joe:s3cret", base+"/private/ok.txt")
		if code != 0 || out != "inside\n" {
			t.Fatalf("exit %d %q %s", code, out, errs)
		}
		b64 := base64.StdEncoding.EncodeToString([]byte("joe:s3cret"))
		if !strings.Contains(errs, "> Authorization: Basic ****\n") || strings.Contains(errs, "s3cret") || strings.Contains(errs, b64) {
			t.Errorf("dialogue:\n%s", errs)
		}
		if code, out, errs := runCLI(t, "", "get", "--user", "joe:wrong", base+"/private/ok.txt"); code != 1 || out != "" || !strings.Contains(errs, "401") {
			t.Errorf("wrong password: exit %d %q %s", code, out, errs)
		}
		if code, out, errs := runCLI(t, "", "get", base+"/private/ok.txt"); code != 1 || out != "" || !strings.Contains(errs, "401") {
			t.Errorf("no -u: exit %d %q %s", code, out, errs)
		}
		// A redirection to the same server keeps the credentials; to
		// another (localhost is another host, though the same nginx)
		// they are not sent.
		if code, out, errs := runCLI(t, "", "get", "-u", "joe:s3cret", base+"/here"); code != 0 || out != "inside\n" {
			t.Errorf("/here: exit %d %q %s", code, out, errs)
		}
		code, out, errs = runCLI(t, "", "get", "-v", "-u", "joe:s3cret", base+"/elsewhere")
		if code != 1 || out != "" || !strings.Contains(errs, "401") || strings.Count(errs, "> Authorization: Basic ****\n") != 1 {
			t.Errorf("/elsewhere: exit %d %q %s", code, out, errs)
		}
		if code, _, errs := runCLI(t, "", "get", "-u", "joe", base+"/private/ok.txt"); code != 2 || !strings.Contains(errs, "want USER:PASSWORD") {
			t.Errorf("-u joe: exit %d %s", code, errs)
		}
	})

	t.Run("tls", func(t *testing.T) {
		u := "https://" + tlsAddr + "/a.txt"
		if code, out, errs := runCLI(t, "", "get", u); code != 3 || out != "" || !strings.Contains(errs, "certificate") {
			t.Errorf("no -k: exit %d %q %s", code, out, errs)
		}
		for _, args := range [][]string{{"-k"}, {"--insecure"}, {"--cacert", cert}} {
			args = append(append([]string{"get"}, args...), u)
			if code, out, errs := runCLI(t, "", args...); code != 0 || out != "alpha\n" {
				t.Errorf("%q: exit %d %q %s", args, code, out, errs)
			}
		}
		notPEM := filepath.Join(t.TempDir(), "x.pem")
		if err := os.WriteFile(notPEM, []byte("no certificate\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if code, _, errs := runCLI(t, "", "get", "--cacert", notPEM, u); code != 2 || !strings.Contains(errs, "holds no PEM certificate") {
			t.Errorf("--cacert not PEM: exit %d %s", code, errs)
		}
	})

	t.Run("compressed", func(t *testing.T) {
		code, out, errs := runCLI(t, "", "get", "-v", "--compressed", base+"/a.txt")
		if code != 0 || out != "alpha\n" || !strings.Contains(errs, "> Accept-Encoding: gzip\n") || !strings.Contains(errs, "< Content-Encoding: gzip\n") {
			t.Fatalf("exit %d %q\n%s", code, out, errs)
		}
		// Without it, nothing is asked for and the octets come as they are.
		code, out, errs = runCLI(t, "", "get", "-v", base+"/a.txt")
		if code != 0 || out != "alpha\n" || strings.Contains(errs, "Accept-Encoding") || strings.Contains(errs, "Content-Encoding") {
			t.Fatalf("exit %d %q\n%s", code, out, errs)
		}
		code, out, errs = runCLI(t, "", "get", "--compressed", base+"/bomb.txt")
		if code != 0 || len(out) != bombSize {
			t.Fatalf("bomb.txt: exit %d, %d octets %s", code, len(out), errs)
		}
		// A body of a few kilobytes that decodes to 2 MB is cut at the
		// limit, never decoded whole into memory.
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		code, out, errs = runCLI(t, "", "get", "--compressed", "--max-filesize", "100K", base+"/bomb.txt")
		runtime.ReadMemStats(&after)
		if code != 3 || !strings.Contains(errs, "(--max-filesize 102400)") || len(out) > 100<<10 {
			t.Errorf("exit %d, %d octets, %s", code, len(out), errs)
		}
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > bombSize/2 {
			t.Errorf("%d octets allocated for a 100K limit", alloc)
		}
	})
}

func TestGetHTTPData(t *testing.T) {
	addr, _, _ := httpNginx(t)
	base := "http://" + addr
	file := filepath.Join(t.TempDir(), "form")
	if err := os.WriteFile(file, []byte("c=3\r\n&d=4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		out  string
	}{
		{nil, "GET  \n"},
		{[]string{"-d", "a=1"}, "POST 3 application/x-www-form-urlencoded\n"},
		{[]string{"--data", "a=1", "-d", "b=22"}, "POST 8 application/x-www-form-urlencoded\n"},
		{[]string{"-d", "@" + file}, "POST 7 application/x-www-form-urlencoded\n"},
		{[]string{"-d", "{}", "-H", "Content-Type: application/json"}, "POST 2 application/json\n"},
		{[]string{"-d", "a=1", "-v"}, "POST 3 application/x-www-form-urlencoded\n"},
	} {
		args := append(append([]string{"get"}, c.args...), base+"/method")
		if code, out, errs := runCLI(t, "", args...); code != 0 || out != c.out {
			t.Errorf("%q: exit %d %q %s", args, code, out, errs)
		}
	}
	// 307 keeps the POST; 303 would make it a GET, and is not followed.
	if code, out, errs := runCLI(t, "", "get", "-d", "a=1", base+"/post-again"); code != 0 || out != "POST 3 application/x-www-form-urlencoded\n" {
		t.Errorf("307: exit %d %q %s", code, out, errs)
	}
	if code, out, errs := runCLI(t, "", "get", "-d", "a=1", base+"/post-see-other"); code != 1 || out != "" || !strings.Contains(errs, "303") || !strings.Contains(errs, "not followed") {
		t.Errorf("303: exit %d %q %s", code, out, errs)
	}
	if code, _, errs := runCLI(t, "", "get", "-d", "@"+file+".missing", base+"/method"); code != 2 || !strings.Contains(errs, "--data") {
		t.Errorf("-d @missing: exit %d %s", code, errs)
	}
}
