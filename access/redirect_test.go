package access_test

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/internal/peer"
	_ "github.com/rfc1738/locator/schemes"
)

func parse(t *testing.T, s string) *locator.URL {
	t.Helper()
	u, err := locator.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// redirectRefused says whether err is the refusal of a redirect by the
// rule "redirect", before anything of next's scheme was done.
func redirectRefused(err error) bool {
	var pe *access.PolicyError
	return errors.As(err, &pe) && pe.Rule == "redirect" && access.Classify(err) == access.Forbidden
}

// TestRedirectNeverIntoFile: RFC 1738 §3.10 and §6. A file URL names a
// file of the machine that follows it; what a server sends (a Gopher h
// item with a URL: selector, an HTTP Location) may not lead there. A
// Gopher h item is a redirect made before any connection, so the first
// case needs no server: the host does not even resolve.
func TestRedirectNeverIntoFile(t *testing.T) {
	for _, raw := range []string{
		"gopher://x.invalid/hURL:file:///etc/passwd",
		"gopher://x.invalid/hURL:file:///var/",
		"gopher://x.invalid/hURL:file://localhost/proc/kmsg",
	} {
		res, err := (&access.Client{}).Get(context.Background(), parse(t, raw))
		if res != nil {
			res.Close()
		}
		if !redirectRefused(err) {
			t.Errorf("Get(%s): %v, want a refusal of the redirect", raw, err)
		}
		if st := (&access.Client{}).Probe(context.Background(), parse(t, raw)); st.State != access.StatePolicy || !redirectRefused(st.Err) {
			t.Errorf("Probe(%s): %s %v, want %s", raw, st.State, st.Err, access.StatePolicy)
		}
	}
}

// startRedirects starts nginx with redirects to other schemes.
func startRedirects(t *testing.T) string {
	www := t.TempDir()
	if err := os.WriteFile(filepath.Join(www, "ok.txt"), []byte("ok\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := peer.Nginx(t, www, peer.NginxConfig{
		Connections: 16,
		HTTP:        "types { text/plain txt; }",
		Server: `    location /to-file { return 302 file:///etc/hostname; }
    location /to-file-dir { return 301 file:///var/; }
    location /to-ok { return 302 /ok.txt; }
    location /to-gopher { return 302 gopher://127.0.0.1:1/1; }
    location /loop { return 302 /loop; }`,
	})
	return "http://" + srv.Addr
}

// TestRedirectHTTPToFile: an HTTP 302 Location: file:///etc/hostname from
// a real nginx is refused by Get and by Probe (which today reported the
// local file's size and date).
func TestRedirectHTTPToFile(t *testing.T) {
	base := startRedirects(t)
	for _, path := range []string{"/to-file", "/to-file-dir"} {
		res, err := (&access.Client{}).Get(context.Background(), parse(t, base+path))
		if res != nil {
			b, _ := io.ReadAll(res.Body)
			res.Close()
			t.Errorf("Get %s delivered %q", path, b)
		}
		if !redirectRefused(err) {
			t.Errorf("Get %s: %v, want a refusal of the redirect", path, err)
		} else if !strings.Contains(err.Error(), "file") || !strings.Contains(err.Error(), base+path) {
			t.Errorf("Get %s: the refusal does not say what and why: %v", path, err)
		}
		st := (&access.Client{}).Probe(context.Background(), parse(t, base+path))
		if st.State != access.StatePolicy || st.Size != -1 || !st.Modified.IsZero() {
			t.Errorf("Probe %s: %s size %d modified %v (%v)", path, st.State, st.Size, st.Modified, st.Err)
		}
	}
}

// TestRedirectSchemes: Client.RedirectSchemes lists the schemes a
// redirect may reach (curl's CURLOPT_REDIR_PROTOCOLS); nil means
// DefaultRedirectSchemes (curl's: http, https, ftp) and the scheme that
// redirects.
func TestRedirectSchemes(t *testing.T) {
	base := startRedirects(t)
	ctx := context.Background()

	res, err := (&access.Client{}).Get(ctx, parse(t, base+"/to-ok"))
	if err != nil {
		t.Fatalf("default list, same scheme: %v", err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Close()
	if string(b) != "ok\n" || res.URL.String() != base+"/ok.txt" {
		t.Errorf("default list: %q from %s", b, res.URL)
	}

	// Only ftp: an http redirect is refused before it is followed.
	_, err = (&access.Client{RedirectSchemes: []string{"ftp"}}).Get(ctx, parse(t, base+"/to-ok"))
	if !redirectRefused(err) || !strings.Contains(err.Error(), "only ftp") {
		t.Errorf("RedirectSchemes [ftp], http redirect: %v", err)
	}
	// http to gopher is refused by default (a web server cannot have
	// the client write a selector to another service), allowed by a
	// list naming gopher; port 1 is a bad port, so that case ends in
	// the next hop's own policy check (RFC 1738 §6), not in a
	// connection.
	_, err = (&access.Client{}).Get(ctx, parse(t, base+"/to-gopher"))
	if !redirectRefused(err) || !strings.Contains(err.Error(), "only http, https, ftp") {
		t.Errorf("http to gopher, default: %v, want the redirect refused", err)
	}
	_, err = (&access.Client{RedirectSchemes: []string{"http", "gopher"}}).Get(ctx, parse(t, base+"/to-gopher"))
	var pe *access.PolicyError
	if !errors.As(err, &pe) || pe.Rule != "RFC 1738 §6" {
		t.Errorf("http to gopher, list http gopher: %v, want the next hop's port policy", err)
	}
	_, err = (&access.Client{RedirectSchemes: []string{"HTTP", "https"}}).Get(ctx, parse(t, base+"/to-gopher"))
	if !redirectRefused(err) {
		t.Errorf("http to gopher, list http https: %v", err)
	}
	// A list naming file does not let a network URL reach it.
	_, err = (&access.Client{RedirectSchemes: []string{"http", "file"}}).Get(ctx, parse(t, base+"/to-file"))
	if !redirectRefused(err) {
		t.Errorf("list with file: %v", err)
	}
}

// TestCheckRedirect: the caller's hook sees each next URL and the URLs
// followed before it, and its error ends Get; the bound on hops still
// holds for a loop.
func TestCheckRedirect(t *testing.T) {
	base := startRedirects(t)
	ctx := context.Background()
	stop := errors.New("stop here")
	var seen []string
	var vias []int
	_, err := (&access.Client{CheckRedirect: func(next *locator.URL, via []*locator.URL) error {
		seen = append(seen, next.String())
		vias = append(vias, len(via))
		if via[0].String() != base+"/to-ok" {
			t.Errorf("via[0] = %s", via[0])
		}
		return stop
	}}).Get(ctx, parse(t, base+"/to-ok"))
	if !errors.Is(err, stop) || len(seen) != 1 || seen[0] != base+"/ok.txt" || vias[0] != 1 {
		t.Errorf("CheckRedirect: %v, saw %v %v", err, seen, vias)
	}
	n := 0
	_, err = (&access.Client{MaxRedirects: 3, CheckRedirect: func(*locator.URL, []*locator.URL) error { n++; return nil }}).Get(ctx, parse(t, base+"/loop"))
	var pe *access.ProtocolError
	if !errors.As(err, &pe) || !strings.Contains(err.Error(), "more than 3 redirections") || n != 3 {
		t.Errorf("loop: %v after %d hooks", err, n)
	}
}
