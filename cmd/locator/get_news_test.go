package main

import (
	"strings"
	"testing"
)

// --nntp-server (default $NNTPSERVER) names the server a news URL is
// read from (RFC 1738 §3.6: news URLs name none). Port 25 belongs to
// SMTP, so the policy refuses it before connecting (exit 4) and the
// message shows which server was taken; with none configured, the
// refusal says so. No connection is made.
func TestGetNNTPServer(t *testing.T) {
	tests := []struct {
		env  string
		args []string
		want string
	}{
		{"", []string{"get", "--nntp-server", "127.0.0.1:25", "news:a@example.com"}, "port 25 of 127.0.0.1 belongs to another service"},
		{"127.0.0.2:25", []string{"get", "news:comp.lang.go"}, "port 25 of 127.0.0.2 belongs to another service"},
		{"127.0.0.2:25", []string{"get", "--nntp-server", "127.0.0.3:25", "news:*"}, "port 25 of 127.0.0.3 belongs to another service"},
		{"", []string{"get", "news:a@example.com"}, "no news server is configured"},
		{"", []string{"get", "--nntp-server", "a b", "news:a@example.com"}, `the configured news server "a b" is not host[:port]`},
	}
	for _, tt := range tests {
		t.Setenv("NNTPSERVER", tt.env)
		code, _, errs := runCLI(t, "", tt.args...)
		if code != 4 || !strings.Contains(errs, tt.want) {
			t.Errorf("NNTPSERVER=%q %q: exit %d %q, want 4 and %q", tt.env, tt.args, code, errs, tt.want)
		}
	}
}
