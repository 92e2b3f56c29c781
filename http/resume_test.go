package http

// Resuming by Range (RFC 9110 §14.2), the page of a refusal
// (ErrorBody) and the login of a .netrc (access.Client.Login), against
// nginx and squid.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/internal/loctest"
	"github.com/rfc1738/locator/internal/peer"
)

// getFrom follows u from offset with c and reads the body.
func getFrom(t *testing.T, c *access.Client, u string, offset int64) (*access.Resource, []byte, error) {
	t.Helper()
	res, err := c.GetFrom(context.Background(), loctest.MustParse(t, u), offset)
	if err != nil {
		return nil, nil, err
	}
	defer res.Close()
	b, err := io.ReadAll(res.Body)
	return res, b, err
}

// TestResumeNginx resumes dir/b.bin (3000 octets) from several offsets,
// directly and through squid, and refuses a server that ignores Range.
func TestResumeNginx(t *testing.T) {
	peer.Require(t, "/usr/sbin/nginx")
	dir := t.TempDir()
	// nginx ignores Range where max_ranges is 0: it sends the whole
	// object with 200, as a server without ranges does.
	addr := startNginxIn(t, dir, "    location = /whole.txt { max_ranges 0; }\n")
	whole := make([]byte, 3000)
	for i := range whole {
		whole[i] = byte('a' + i%26)
	}
	if err := os.WriteFile(filepath.Join(dir, "www", "abc.bin"), whole, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "www", "whole.txt"), []byte("whole\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	squid, _ := peer.Squid(t)
	for _, via := range []string{"direct", "squid"} {
		c := func(dia io.Writer) *access.Client {
			c := &access.Client{Dialogue: dia}
			if via == "squid" {
				c.Proxy = proxyTo(squid)
			}
			return c
		}
		for _, off := range []int64{1, 1000, 2999} {
			var dia strings.Builder
			res, b, err := getFrom(t, c(&dia), "http://"+addr+"/abc.bin", off)
			if err != nil || !bytes.Equal(b, whole[off:]) || res.Offset != off || res.Size != 3000 {
				t.Errorf("%s: from %d: %d octets offset %v size %v: %v\n%s", via, off, len(b), res != nil && res.Offset == off, res != nil && res.Size == 3000, err, dia.String())
				continue
			}
			if want := fmt.Sprintf("> Range: bytes=%d-\n", off); !strings.Contains(dia.String(), want) || !strings.Contains(dia.String(), "< HTTP/1.1 206 Partial Content\n") {
				t.Errorf("%s: from %d: dialogue lacks %q or the 206:\n%s", via, off, want, dia.String())
			}
		}
		// At the end: 416 with "bytes */3000", nothing to send. Past
		// it: the same 416, which access.GetFrom, told the size, makes
		// an *access.OffsetError.
		for _, off := range []int64{3000, 5000} {
			var dia strings.Builder
			res, b, err := getFrom(t, c(&dia), "http://"+addr+"/abc.bin", off)
			var oe *access.OffsetError
			if off == 3000 && (err != nil || len(b) != 0 || res.Offset != off || res.Size != 3000) ||
				off == 5000 && (!errors.As(err, &oe) || oe.Offset != 5000 || oe.Size != 3000) {
				t.Errorf("%s: from %d: %q %+v %v\n%s", via, off, b, res, err, dia.String())
			}
			if !strings.Contains(dia.String(), "< HTTP/1.1 416 ") {
				t.Errorf("%s: from %d: no 416:\n%s", via, off, dia.String())
			}
		}
		// Offset 0 is a plain Get: no Range.
		var dia strings.Builder
		if res, b, err := getFrom(t, c(&dia), "http://"+addr+"/abc.bin", 0); err != nil || !bytes.Equal(b, whole) || res.Offset != 0 || strings.Contains(dia.String(), "> Range") {
			t.Errorf("%s: from 0: %d octets %v\n%s", via, len(b), err, dia.String())
		}
		// A server that ignores Range sends the whole object: GetFrom
		// refuses it rather than append it twice.
		_, _, err := getFrom(t, c(nil), "http://"+addr+"/whole.txt", 2)
		var pe *access.ProtocolError
		if !errors.As(err, &pe) || !strings.Contains(pe.Msg, "from octet 0") {
			t.Errorf("%s: a server ignoring Range: %v", via, err)
		}
		// A missing object is the server's 404, not a resumption.
		_, _, err = getFrom(t, c(nil), "http://"+addr+"/missing", 10)
		var se *access.ServerError
		if !errors.As(err, &se) || se.Code != "404" {
			t.Errorf("%s: missing from 10: %v", via, err)
		}
	}
}

// TestErrorBody keeps nginx's 404 page in the ServerError when
// ErrorBody asks for it, bounded by MaxSize.
func TestErrorBody(t *testing.T) {
	addr, _ := startNginx(t)
	for _, tt := range []struct {
		keep    bool
		maxSize int64
		want    func([]byte) bool
	}{
		{false, 0, func(b []byte) bool { return b == nil }},
		{true, 0, func(b []byte) bool {
			return bytes.Contains(b, []byte("<title>404 Not Found</title>")) && bytes.HasSuffix(b, []byte("</html>\r\n"))
		}},
		{true, 10, func(b []byte) bool { return string(b) == "<html>\r\n<h" }},
	} {
		c := &access.Client{MaxSize: tt.maxSize, Schemes: with(&Client{ErrorBody: tt.keep})}
		_, _, err := get(t, "http://"+addr+"/missing", c)
		var se *access.ServerError
		if !errors.As(err, &se) || se.Code != "404" || !tt.want(se.Body) {
			t.Errorf("ErrorBody %v MaxSize %d: %v, body %q", tt.keep, tt.maxSize, err, se.Body)
		}
	}
}

// TestLogin sends the login Client.Login knows for a host to nginx's
// auth_basic, to that host only: a redirection to another name of the
// server is not sent it.
func TestLogin(t *testing.T) {
	peer.Require(t, "/usr/sbin/nginx")
	dir := t.TempDir()
	users := filepath.Join(dir, "users")
	if err := os.WriteFile(users, []byte("joe:{PLAIN}secret\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	addr := startNginxIn(t, dir, fmt.Sprintf(`    location /private/ { auth_basic "private"; auth_basic_user_file %s; }
    location = /away { return 302 http://localhost:$server_port/private/p.txt; }
`, users))
	if err := os.MkdirAll(filepath.Join(dir, "www", "private"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "www", "private", "p.txt"), []byte("private\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var asked []string
	login := func(host, user string) (string, string, bool) {
		mu.Lock()
		defer mu.Unlock()
		asked = append(asked, host+" "+user)
		if host == "127.0.0.1" && (user == "" || user == "joe") {
			return "joe", "secret", true
		}
		return "", "", false
	}
	for _, tt := range []struct {
		url, asked, code string
	}{
		{"http://" + addr + "/private/p.txt", "127.0.0.1 ", ""},
		{"http://joe@" + addr + "/private/p.txt", "127.0.0.1 joe", ""},
		{"http://ann@" + addr + "/private/p.txt", "127.0.0.1 ann", "401"},
		{"http://joe:wrong@" + addr + "/private/p.txt", "", "401"}, // a password given: no login asked, none sent
		{"http://" + addr + "/away", "127.0.0.1 ,localhost ", "401"},
	} {
		asked = nil
		var dia strings.Builder
		_, b, err := get(t, tt.url, &access.Client{Dialogue: &dia, Login: login})
		var se *access.ServerError
		if tt.code == "" && (err != nil || string(b) != "private\n") || tt.code != "" && (!errors.As(err, &se) || se.Code != tt.code) {
			t.Errorf("%s: %q %v, want %q\n%s", tt.url, b, err, tt.code, dia.String())
		}
		if got := strings.Join(asked, ","); got != tt.asked {
			t.Errorf("%s: Login asked for %q, want %q", tt.url, got, tt.asked)
		}
		if strings.Contains(dia.String(), "secret") {
			t.Errorf("%s: the password in the dialogue:\n%s", tt.url, dia.String())
		}
	}
	// A login Basic authorization cannot carry is refused before any
	// connection: a colon would end the user-id (RFC 7617 §2), a CR or
	// LF the header field.
	for _, bad := range [][2]string{{"jo:e", "secret"}, {"joe", "sec\r\nret"}} {
		var dia strings.Builder
		_, _, err := get(t, "http://"+addr+"/private/p.txt", &access.Client{Dialogue: &dia,
			Login: func(string, string) (string, string, bool) { return bad[0], bad[1], true }})
		var pe *access.PolicyError
		if !errors.As(err, &pe) || pe.Rule != "login" || strings.Contains(dia.String(), "* connect") {
			t.Errorf("login %q: %v\n%s", bad, err, dia.String())
		}
	}
	// nginx logs the user of each request that carried one: joe, in
	// the three requests to 127.0.0.1 Login knew him for, and not in
	// the one the redirection sent to localhost, the last.
	// nginx writes a line once the reply is sent, which may come after
	// the client has it: the log is read until it has the 7 requests
	// (nginx's readiness HEAD and 6 of the test's).
	var log []byte
	var lines []string
	for range 200 {
		var err error
		if log, err = os.ReadFile(filepath.Join(dir, "access.log")); err != nil {
			t.Fatal(err)
		}
		if lines = strings.Split(strings.TrimSpace(string(log)), "\n"); len(lines) >= 7 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if n := strings.Count(string(log), " - joe ["); n != 3 || !strings.Contains(lines[len(lines)-2], ` - joe [`) ||
		!strings.Contains(lines[len(lines)-2], `"GET /away HTTP/1.1" 302`) || !strings.Contains(lines[len(lines)-1], ` - - [`) {
		t.Errorf("%d requests with joe's login, want 3, the redirection's without:\n%s", n, log)
	}
}
