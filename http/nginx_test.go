package http

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/internal/loctest"
	"github.com/rfc1738/locator/internal/peer"
)

// startNginx starts nginx on a free port of 127.0.0.1 serving a small
// tree from t.TempDir(), and returns its address and the directory of its
// files and logs. It skips when nginx is not installed.
func startNginx(t *testing.T) (addr, dir string) {
	t.Helper()
	peer.Require(t, "/usr/sbin/nginx")
	dir = t.TempDir()
	return startNginxIn(t, dir, ""), dir
}

// startNginxIn is startNginx with its files in dir and more for the
// server block (another listen).
func startNginxIn(t *testing.T, dir, more string) (addr string) {
	t.Helper()
	www := filepath.Join(dir, "www")
	files := map[string]string{
		"index.html":   "<h1>index</h1>\n",
		"a.txt":        "alpha\n",
		"sp ace.txt":   "space\n",
		"dir/b.bin":    strings.Repeat("b", 3000),
		"pct%2Fin.txt": "percent\n",
	}
	for name, body := range files {
		p := filepath.Join(www, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chtimes(filepath.Join(www, "a.txt"), modified, modified); err != nil {
		t.Fatal(err)
	}
	srv := peer.Nginx(t, www, peer.NginxConfig{
		Dir:         dir,
		Connections: 64,
		HTTP:        "types { text/plain txt; text/html html; application/octet-stream bin; }",
		Server: `    location /redir { return 301 /index.html; }
    location /bad-port { return 302 http://127.0.0.1:25/; }
    location /secret { deny all; }
    location /gone { return 410; }
    location /boom { return 500; }
` + more,
	})
	return srv.Addr
}

// TestNginx follows URLs to nginx, an independent real server.
func TestNginx(t *testing.T) {
	addr, dir := startNginx(t)
	base := "http://" + addr

	res, b, err := get(t, base+"/a.txt#frag", nil)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != "alpha\n" || res.MediaType != "text/plain" || res.Size != 6 || !res.Modified.Equal(modified) {
		t.Errorf("a.txt: %q type %q size %d modified %v", b, res.MediaType, res.Size, res.Modified)
	}
	for _, tt := range []struct{ path, body string }{
		{"/sp%20ace.txt", "space\n"},
		{"/sp ace.txt", "space\n"}, // the unsafe space is encoded for the request line
		{"/pct%252Fin.txt", "percent\n"},
		{"/dir/b.bin", strings.Repeat("b", 3000)},
		{"/", "<h1>index</h1>\n"},
	} {
		if _, b, err := get(t, base+tt.path, nil); err != nil || string(b) != tt.body {
			t.Errorf("%s: %.20q %v", tt.path, b, err)
		}
	}

	for _, tt := range []struct{ path, code string }{
		{"/missing", "404"}, {"/secret", "403"}, {"/gone", "410"}, {"/boom", "500"},
		{"/a.txt%2F", "404"},
	} {
		_, _, err := get(t, base+tt.path, nil)
		var se *access.ServerError
		if !errors.As(err, &se) || se.Code != tt.code {
			t.Errorf("%s: %v, want the server's %s", tt.path, err, tt.code)
		}
	}

	var dia strings.Builder
	res, b, err = get(t, base+"/redir", &access.Client{Dialogue: &dia})
	if err != nil || string(b) != "<h1>index</h1>\n" || res.URL.String() != base+"/index.html" {
		t.Errorf("/redir: %q %v %v", b, err, res)
	}
	for _, want := range []string{"< HTTP/1.1 301 Moved Permanently\n", "< Location: " + base + "/index.html\n", "* redirect 1 to " + base + "/index.html\n", "< Server: nginx"} {
		if !strings.Contains(dia.String(), want) {
			t.Errorf("dialogue lacks %q:\n%s", want, dia.String())
		}
	}

	_, _, err = get(t, base+"/bad-port", nil)
	var pe *access.PolicyError
	if !errors.As(err, &pe) {
		t.Errorf("redirect to port 25: %v", err)
	}

	_, err = (&access.Client{MaxSize: 2999}).Get(context.Background(), loctest.MustParse(t, base+"/dir/b.bin"))
	if !errors.Is(err, access.ErrTooLarge) {
		t.Errorf("max size 2999: %v", err)
	}

	// nginx's log (written before each reply) shows the request targets as they came: escapes as
	// written, no fragment, the space encoded.
	log, err := os.ReadFile(filepath.Join(dir, "access.log"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"GET /a.txt HTTP/1.1"`, `"GET /sp%20ace.txt HTTP/1.1"`, `"GET /pct%252Fin.txt HTTP/1.1"`, `"GET /a.txt%2F HTTP/1.1"`} {
		if !strings.Contains(string(log), want) {
			t.Errorf("access log lacks %s:\n%s", want, log)
		}
	}
	if strings.Contains(string(log), "frag") {
		t.Errorf("the fragment was sent:\n%s", log)
	}
}
