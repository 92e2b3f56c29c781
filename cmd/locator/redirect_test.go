package main

import (
	"strings"
	"testing"

	"github.com/rfc1738/locator/internal/peer"
)

// TestRedirectIntoFile: a real nginx answering 302 Location:
// file:///etc/hostname made `get` print the local file (exit 0) and
// `probe` report its size and date. RFC 1738 §3.10: a file URL names a
// file of the machine that follows it, which a server may not choose:
// both refuse, exit 4 and "policy", saying why; a Gopher h item with a
// URL:file: selector, a redirect made before any connection, likewise.
func TestRedirectIntoFile(t *testing.T) {
	s := peer.Nginx(t, t.TempDir(), peer.NginxConfig{
		Connections: 16,
		Server:      `    location /to-file { return 302 file:///etc/hostname; }`,
	})
	for _, u := range []string{"http://" + s.Addr + "/to-file", "gopher://x.invalid/hURL:file:///etc/passwd"} {
		code, out, errs := runCLI(t, "", "get", u)
		if code != 4 || out != "" || !strings.Contains(errs, "redirect") || !strings.Contains(errs, "file") {
			t.Errorf("get %s: exit %d, stdout %q, stderr %q", u, code, out, errs)
		}
		code, out, _ = runCLI(t, "", "probe", "--json", u)
		if code != 1 || !strings.Contains(out, `"status":"policy"`) || strings.Contains(out, `"size"`) || strings.Contains(out, `"modified"`) {
			t.Errorf("probe %s: exit %d, %s", u, code, out)
		}
	}
}
