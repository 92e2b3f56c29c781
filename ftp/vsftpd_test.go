package ftp_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/ftp"
	"github.com/rfc1738/locator/internal/peer"
)

// vsftpd is peer.Vsftpd's server, with the log readers of these tests.
type vsftpd struct{ *peer.VsftpdServer }

// startVsftpd starts vsftpd as root with a root-owned configuration in
// a temporary folder; its anonymous root is not writable (vsftpd
// refuses to run in a writable chroot).
func startVsftpd(t *testing.T) *vsftpd {
	t.Helper()
	return startVsftpdTB(t, func(root string) {
		tree(t, root, anonFiles)
		if err := os.WriteFile(filepath.Join(root, "pub", "crlf.txt"), []byte("a\nb\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		// A CR LF already stored: vsftpd sends it as CR CR LF.
		if err := os.WriteFile(filepath.Join(root, "pub", "stored-crlf.txt"), []byte("a\r\nb\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, "big.bin"), bytes.Repeat([]byte("0123456789abcdef"), 1<<16), 0o644); err != nil {
			t.Fatal(err)
		}
	})
}

// startVsftpdTB starts vsftpd with an anonymous root that fill writes.
func startVsftpdTB(t testing.TB, fill func(root string)) *vsftpd {
	t.Helper()
	return startVsftpdConf(t, "", fill)
}

// startVsftpdConf starts vsftpd with the lines of extra added to its
// configuration and an anonymous root that fill writes; ASCII downloads
// are converted (LF → CRLF on the wire).
func startVsftpdConf(t testing.TB, extra string, fill func(root string)) *vsftpd {
	t.Helper()
	return &vsftpd{peer.Vsftpd(t, "ascii_download_enable=YES\n"+extra, fill)}
}

// TestVsftpd follows URLs on vsftpd and asserts the commands it
// received (RFC 1738 §3.2.2's sequence, PWD before its first CWD, no
// FEAT, SIZE or MDTM), what a
// person sees (the file as stored, TYPE A's CRLF undone), the size its
// 150 reply states (the file as stored, in TYPE A too), a listing
// described by LIST (vsftpd has no MLSD), and vsftpd's 550 to an empty
// CWD (§3.2.2's "CWD " for "//"), which the other methods avoid.
func TestVsftpd(t *testing.T) {
	v := startVsftpd(t)
	h := v.Addr
	login := []string{"USER anonymous", "PASS <password>"}
	seq := func(cmds ...string) []string { return append(append([]string{}, login...), cmds...) }
	for _, c := range []struct {
		name, url string
		client    *access.Client
		cmds      []string
		body      string
		size      int64
		sent      int    // octets vsftpd's log says it sent
		stated    string // the count its 150 reply states
		err       string
	}{
		// 12 octets stored, 14 on the wire: each LF went as CR LF. The
		// 150 reply says "(12 bytes)", the stored count; Size stays -1
		// in TYPE A (next case).
		{"§3.2.3 TYPE A: CRLF on the wire, LF delivered", "ftp://" + h + "/pub/hello.txt;type=a", nil,
			seq("PWD", "CWD pub", "TYPE A", "EPSV", "RETR hello.txt", "QUIT"), "line1\nline2\n", -1, 14, "(12 bytes)", ""},
		// "a\r\nb\n" (5 stored, "(5 bytes)" in the 150 reply) goes as
		// "a\r\nb\r\n" (6: a stored CR LF is sent as is) and is
		// delivered as "a\nb\n" (4): the stored count is not what the
		// Body delivers, so TYPE A takes no Size from it.
		{"TYPE A: a stored CR LF", "ftp://" + h + "/pub/stored-crlf.txt;type=a", nil,
			seq("PWD", "CWD pub", "TYPE A", "EPSV", "RETR stored-crlf.txt", "QUIT"), "a\nb\n", -1, 6, "(5 bytes)", ""},
		// No typecode: TYPE I (§3.2.3 leaves the choice to the client),
		// so a text file arrives with the file's own octets, its CR LF
		// kept, as curl and wget deliver it.
		{"no typecode: TYPE I, a stored CR LF kept", "ftp://" + h + "/pub/stored-crlf.txt", nil,
			seq("PWD", "CWD pub", "TYPE I", "EPSV", "RETR stored-crlf.txt", "QUIT"), "a\r\nb\n", 5, 5, "(5 bytes)", ""},
		// Client.ASCII asks for TYPE A without a typecode.
		{"no typecode, Client.ASCII: TYPE A", "ftp://" + h + "/pub/stored-crlf.txt", &access.Client{Schemes: withFTP(&ftp.Client{ASCII: true})},
			seq("PWD", "CWD pub", "TYPE A", "EPSV", "RETR stored-crlf.txt", "QUIT"), "a\nb\n", -1, 6, "(5 bytes)", ""},
		{"TYPE I: every octet, Size from the 150 reply", "ftp://" + h + "/pub/bin.dat", nil,
			seq("PWD", "CWD pub", "TYPE I", "EPSV", "RETR bin.dat", "QUIT"), anonFiles["pub/bin.dat"], 7, 7, "(7 bytes)", ""},
		{"TYPE I: a stated count above MaxSize aborts at once", "ftp://" + h + "/big.bin", &access.Client{MaxSize: 1000},
			seq("TYPE I", "EPSV", "RETR big.bin", "ABOR", "QUIT"), "", 0, -1, "(1048576 bytes)", "larger than the size limit"},
		{"method metadata: FEAT, SIZE, MDTM", "ftp://" + h + "/pub/bin.dat", &access.Client{Schemes: withFTP(&ftp.Client{Method: "metadata"})},
			seq("FEAT", "PWD", "CWD pub", "TYPE I", "SIZE bin.dat", "MDTM bin.dat", "EPSV", "RETR bin.dat", "QUIT"), anonFiles["pub/bin.dat"], 7, 7, "(7 bytes)", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, off := v.commands(t, 0)
			r := get(t, c.url, c.client)
			if c.err != "" {
				if r.err == nil || !strings.Contains(r.err.Error(), c.err) {
					t.Errorf("%s: %v, want an error containing %q\n%s", c.url, r.err, c.err, r.dialog)
				}
			} else if r.err != nil || r.body != c.body || r.res.Size != c.size {
				t.Fatalf("%s: body %q, Size %d, %v; want %q, %d\n%s", c.url, r.body, r.res.Size, r.err, c.body, c.size, r.dialog)
			}
			if !strings.Contains(r.dialog, " data connection for ") || !strings.Contains(r.dialog, c.stated+".\n") {
				t.Errorf("%s: vsftpd's 150 reply does not state %s\n%s", c.url, c.stated, r.dialog)
			}
			cmds, _ := v.commands(t, off)
			if !reflect.DeepEqual(cmds, c.cmds) {
				t.Errorf("%s: vsftpd received\n  %q\nwant\n  %q", c.url, cmds, c.cmds)
			}
			if c.sent >= 0 {
				b, _ := os.ReadFile(v.Log)
				if want := fmt.Sprintf(`OK DOWNLOAD: Client "127.0.0.1", "%s", %d bytes`, strings.TrimPrefix(strings.TrimSuffix(c.url, ";type=a"), "ftp://"+h), c.sent); !strings.Contains(string(b[off:]), want) {
					t.Errorf("vsftpd's log has no %q", want)
				}
			}
		})
	}
	t.Run("§3.2.2 %2Fetc/motd in the anonymous chroot", func(t *testing.T) {
		r := get(t, "ftp://"+h+"/%2Fetc/motd", nil)
		if r.err != nil || r.body != "anonymous motd\n" {
			t.Fatalf("body %q, %v\n%s", r.body, r.err, r.dialog)
		}
	})
	t.Run("§3.2.2 //etc/motd: vsftpd refuses the empty CWD", func(t *testing.T) {
		_, off := v.commands(t, 0)
		r := get(t, "ftp://"+h+"//etc/motd", nil)
		var se *access.ServerError
		if !errors.As(r.err, &se) || se.Code != "550" || se.Command != "CWD " || se.Text != "Failed to change directory." || !strings.HasPrefix(se.Rule, "RFC 1738 §3.2.2: an empty <cwd>") {
			t.Fatalf("got %v, want a 550 to \"CWD \" naming §3.2.2\n%s", r.err, r.dialog)
		}
		if access.Classify(r.err) != access.Absent {
			t.Errorf("outcome %d, want Absent", access.Classify(r.err))
		}
		// vsftpd's log drops the trailing space of "CWD ".
		var cmds []string
		cmds, off = v.commands(t, off)
		if want := append(login, "PWD", "CWD", "QUIT"); !reflect.DeepEqual(cmds, want) {
			t.Errorf("rfc1738: vsftpd received %q, want %q", cmds, want)
		}
		for _, m := range []struct{ method, cmds string }{
			{"singlecwd", "PWD|CWD /etc|TYPE I|EPSV|RETR motd|QUIT"},
			{"nocwd", "TYPE I|EPSV|RETR /etc/motd|QUIT"},
			{"direct", "TYPE I|EPSV|RETR /etc/motd|QUIT"},
		} {
			r := get(t, "ftp://"+h+"//etc/motd", &access.Client{Schemes: withFTP(&ftp.Client{Method: m.method})})
			if r.err != nil || r.body != "anonymous motd\n" {
				t.Errorf("method %s: body %q, %v\n%s", m.method, r.body, r.err, r.dialog)
			}
			cmds, off = v.commands(t, off)
			if want := append(login, strings.Split(m.cmds, "|")...); !reflect.DeepEqual(cmds, want) {
				t.Errorf("%s: vsftpd received %q, want %q", m.method, cmds, want)
			}
		}
	})
	t.Run("listing from NLST and LIST", func(t *testing.T) {
		_, off := v.commands(t, 0)
		r := get(t, "ftp://"+h+"/pub/", nil)
		if r.err != nil {
			t.Fatalf("%v\n%s", r.err, r.dialog)
		}
		var got []string
		for _, e := range r.listing {
			got = append(got, fmt.Sprintf("%s %s %d %s", e.Type, e.Name, e.Size, e.URL))
		}
		sort.Strings(got)
		want := []string{
			"directory empty -1 ftp://" + h + "/pub/empty/",
			"directory sub -1 ftp://" + h + "/pub/sub/",
			"file bin.dat 7 ftp://" + h + "/pub/bin.dat",
			"file crlf.txt 4 ftp://" + h + "/pub/crlf.txt",
			"file hello.txt 12 ftp://" + h + "/pub/hello.txt",
			"file stored-crlf.txt 5 ftp://" + h + "/pub/stored-crlf.txt",
			"file with space.txt 7 ftp://" + h + "/pub/with%20space.txt",
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("entries\n  %q\nwant\n  %q\n%s", got, want, r.dialog)
		}
		// FEAT after NLST, then LIST: vsftpd has no MLSD.
		cmds, _ := v.commands(t, off)
		if want := seq("PWD", "CWD pub", "EPSV", "NLST", "FEAT", "EPSV", "LIST", "QUIT"); !reflect.DeepEqual(cmds, want) {
			t.Errorf("vsftpd received\n  %q\nwant\n  %q", cmds, want)
		}
	})
	t.Run("an empty directory", func(t *testing.T) {
		r := get(t, "ftp://"+h+"/pub/empty/", nil)
		if r.err != nil || r.res.Listing == nil || len(r.listing) != 0 || truncated(r.res.Listing) {
			t.Fatalf("%v %+v\n%s", r.err, r.res, r.dialog)
		}
	})
	t.Run("no such file", func(t *testing.T) {
		r := get(t, "ftp://"+h+"/pub/nothere", nil)
		var se *access.ServerError
		if !errors.As(r.err, &se) || se.Code != "550" || se.Command != "RETR nothere" {
			t.Fatalf("got %v, want 550 to RETR", r.err)
		}
	})
}

// commands returns the command lines vsftpd logged since offset
// (log_ftp_protocol: `FTP command: Client "127.0.0.1", "CWD /etc"`),
// waiting for the session's QUIT, and the new offset.
func (v *vsftpd) commands(t *testing.T, from int) ([]string, int) {
	t.Helper()
	if from > 0 {
		v.waitQuit(t, from)
	}
	b, err := os.ReadFile(v.Log)
	if err != nil {
		t.Fatal(err)
	}
	var cmds []string
	for _, l := range strings.Split(string(b[from:]), "\n") {
		if _, c, ok := strings.Cut(l, `FTP command: Client "127.0.0.1", "`); ok {
			cmds = append(cmds, strings.TrimSuffix(c, `"`))
		}
	}
	return cmds, len(b)
}

// waitQuit waits until vsftpd has logged a QUIT since offset.
func (v *vsftpd) waitQuit(t *testing.T, from int) {
	for i := 0; i < 500; i++ {
		if b, _ := os.ReadFile(v.Log); len(b) > from && strings.Contains(string(b[from:]), `"QUIT"`) {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}
