package ftp_test

// Resumed retrievals (access.Client.GetFrom: SIZE, REST, RETR; RFC 959
// §4.1.3, RFC 3659 §4–5) on vsftpd and pyftpdlib, and the logins
// access.Client.Login gives (a .netrc) on pyftpdlib.

import (
	"bytes"
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/ftp"
)

// resumeContent is the file resumed: octets that repeat nowhere, so that
// a tail from the wrong octet cannot match, with CR LF pairs and lone
// LFs and CRs in it, which TYPE I must deliver as they are.
func resumeContent() []byte {
	r := rand.New(rand.NewPCG(1, 2))
	b := make([]byte, 200_003)
	for i := range b {
		b[i] = byte(r.UintN(256))
	}
	copy(b[100:], "a\r\nb\nc\rd")
	return b
}

// getFrom follows raw from offset with c (nil: a zero Client), reading the
// whole Body; dialog is the dialogue.
func getFrom(t *testing.T, raw string, offset int64, c *access.Client) (res *access.Resource, body []byte, dialog string, err error) {
	t.Helper()
	u, perr := locator.Parse(raw)
	if perr != nil {
		t.Fatalf("Parse(%q): %v", raw, perr)
	}
	if c == nil {
		c = &access.Client{}
	}
	var dlg bytes.Buffer
	c.Dialogue = &dlg
	c.IdleTimeout = 20 * time.Second
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err = c.GetFrom(ctx, u, offset)
	if err == nil {
		body, err = io.ReadAll(res.Body)
		if cerr := res.Body.Close(); err == nil {
			err = cerr
		}
	}
	c.CloseIdle() // the session ends with QUIT, as the sequences expect
	return res, body, dlg.String(), err
}

// testResume resumes pub/resume.bin at several offsets on the server at
// h, whose commands cmds returns after the login (waiting for the QUIT
// of the session), and checks the tail, Offset, Size, the commands sent
// and the dialogue.
func testResume(t *testing.T, h string, content []byte, cmds func(t *testing.T) []string) {
	size := int64(len(content))
	url := "ftp://" + h + "/pub/resume.bin"
	head := []string{"PWD", "CWD pub", "TYPE I", "SIZE resume.bin"}
	for _, off := range []int64{1, 7, 100, 65536, 65537, size - 1} {
		t.Run("offset "+strconv.FormatInt(off, 10), func(t *testing.T) {
			res, body, dlg, err := getFrom(t, url, off, nil)
			got := cmds(t)
			if err != nil {
				t.Fatalf("%v\n%s", err, tail(dlg))
			}
			if !bytes.Equal(body, content[off:]) {
				t.Errorf("body: %d octets, not the file's last %d", len(body), size-off)
			}
			if res.Offset != off || res.Size != size {
				t.Errorf("Offset %d, Size %d; want %d, %d", res.Offset, res.Size, off, size)
			}
			rest := "REST " + strconv.FormatInt(off, 10)
			if want := append(append([]string{}, head...), "EPSV", rest, "RETR resume.bin", "QUIT"); !reflect.DeepEqual(got, want) {
				t.Errorf("the server received\n  %q\nwant\n  %q", got, want)
			}
			if !strings.Contains(dlg, "> "+rest+"\n< 350 ") {
				t.Errorf("the dialogue has no %q answered 350:\n%s", rest, tail(dlg))
			}
		})
	}
	t.Run("offset = size: empty, no RETR", func(t *testing.T) {
		res, body, dlg, err := getFrom(t, url, size, nil)
		got := cmds(t)
		if err != nil {
			t.Fatalf("%v\n%s", err, tail(dlg))
		}
		if len(body) != 0 || res.Offset != size || res.Size != size {
			t.Errorf("body %d octets, Offset %d, Size %d; want 0, %d, %d", len(body), res.Offset, res.Size, size, size)
		}
		if want := append(append([]string{}, head...), "QUIT"); !reflect.DeepEqual(got, want) {
			t.Errorf("the server received\n  %q\nwant\n  %q", got, want)
		}
	})
	t.Run("offset > size: OffsetError, no RETR", func(t *testing.T) {
		_, _, dlg, err := getFrom(t, url, size+1, nil)
		got := cmds(t)
		var oe *ftp.OffsetError
		if !errors.As(err, &oe) || oe.Offset != size+1 || oe.Size != size {
			t.Fatalf("error %v, want an *ftp.OffsetError at %d of %d\n%s", err, size+1, size, tail(dlg))
		}
		if !strings.Contains(err.Error(), "past its end") || access.Classify(err) != access.Failed {
			t.Errorf("error %q, outcome %v; want \"past its end\", Failed", err, access.Classify(err))
		}
		if want := append(append([]string{}, head...), "QUIT"); !reflect.DeepEqual(got, want) {
			t.Errorf("the server received\n  %q\nwant\n  %q", got, want)
		}
	})
	t.Run("metadata: SIZE once", func(t *testing.T) {
		c := &access.Client{Schemes: withFTP(&ftp.Client{Method: ftp.MethodMetadata})}
		res, body, dlg, err := getFrom(t, url, 9, c)
		got := cmds(t)
		if err != nil {
			t.Fatalf("%v\n%s", err, tail(dlg))
		}
		if !bytes.Equal(body, content[9:]) || res.Offset != 9 || res.Size != size {
			t.Errorf("body %d octets, Offset %d, Size %d; want %d, 9, %d", len(body), res.Offset, res.Size, size-9, size)
		}
		if n := strings.Count(strings.Join(got, "\n"), "SIZE "); n != 1 {
			t.Errorf("%d SIZE commands, want 1: %q", n, got)
		}
	})
	t.Run("MaxSize bounds what is left", func(t *testing.T) {
		// 3 octets left under a limit of 5: delivered; 10 left: refused
		// after SIZE, before RETR.
		res, body, dlg, err := getFrom(t, url, size-3, &access.Client{MaxSize: 5})
		cmds(t)
		if err != nil || !bytes.Equal(body, content[size-3:]) || res.Offset != size-3 {
			t.Fatalf("err %v, body %q; want the last 3 octets\n%s", err, body, tail(dlg))
		}
		_, _, dlg, err = getFrom(t, url, size-10, &access.Client{MaxSize: 5})
		got := cmds(t)
		if !errors.Is(err, access.ErrTooLarge) {
			t.Fatalf("error %v, want ErrTooLarge\n%s", err, tail(dlg))
		}
		if want := append(append([]string{}, head...), "QUIT"); !reflect.DeepEqual(got, want) {
			t.Errorf("the server received\n  %q\nwant\n  %q", got, want)
		}
	})
}

// TestResumeVsftpd resumes on vsftpd.
func TestResumeVsftpd(t *testing.T) {
	content := resumeContent()
	v := startVsftpdTB(t, func(root string) {
		tree(t, root, map[string]string{"pub/resume.bin": string(content)})
	})
	_, off := v.commands(t, 0)
	testResume(t, v.Addr, content, func(t *testing.T) []string {
		var got []string
		got, off = v.commands(t, off)
		if len(got) < 2 {
			return got
		}
		return got[2:] // after USER and PASS
	})
}

// TestResumePyftpdlib resumes on pyftpdlib.
func TestResumePyftpdlib(t *testing.T) {
	content := resumeContent()
	srv := startPyftpd(t)
	if err := os.WriteFile(filepath.Join(srv.root, "pub", "resume.bin"), content, 0o644); err != nil {
		t.Fatal(err)
	}
	_, off := srv.commands(t, 0)
	testResume(t, srv.Addr, content, func(t *testing.T) []string {
		srv.waitQuit(t, off)
		var got []string
		got, off = srv.commands(t, off)
		if len(got) < 2 {
			return got
		}
		return got[2:]
	})
}

// TestResumeRefusedBeforeConnecting: a directory and a TYPE A transfer
// cannot be resumed, and are refused before any connection (the port
// given has no server: a connection would fail otherwise).
func TestResumeRefusedBeforeConnecting(t *testing.T) {
	for _, c := range []struct {
		name, url string
		ascii     bool
		want      string
	}{
		{"typecode a", "ftp://127.0.0.1:1/pub/f.txt;type=a", false, "TYPE A (the URL's typecode)"},
		{"Client.ASCII", "ftp://127.0.0.1:1/pub/f.txt", true, "TYPE A (the client's ASCII setting)"},
		{"directory", "ftp://127.0.0.1:1/pub/", false, "directory"},
		{"typecode d", "ftp://127.0.0.1:1/pub;type=d", false, "directory"},
	} {
		t.Run(c.name, func(t *testing.T) {
			ac := &access.Client{Schemes: withFTP(&ftp.Client{ASCII: c.ascii}), Policy: access.Policy{AllowPorts: []int{1}}}
			_, _, dlg, err := getFrom(t, c.url, 5, ac)
			var pe *access.PolicyError
			if !errors.As(err, &pe) || pe.Rule != "resume" || !strings.Contains(pe.Reason, c.want) {
				t.Fatalf("error %v, want a *access.PolicyError, rule resume, saying %q", err, c.want)
			}
			if dlg != "" {
				t.Errorf("a dialogue before the refusal:\n%s", dlg)
			}
		})
	}
	// Without an offset the same URL is not refused: the connection is
	// tried (and fails, nothing listening).
	ac := &access.Client{Policy: access.Policy{AllowPorts: []int{1}}}
	_, _, dlg, err := getFrom(t, "ftp://127.0.0.1:1/pub/f.txt;type=a", 0, ac)
	var pe *access.PolicyError
	if err == nil || errors.As(err, &pe) || !strings.Contains(dlg, "* connect") {
		t.Errorf("without an offset: error %v, dialogue %q; want a failed connection", err, dlg)
	}
}

// TestResumeRESTRefused: a server without REST (the scripted listener
// answers 502 to every command it does not know, SIZE and REST among
// them; vsftpd and pyftpdlib both have REST) fails the retrieval with a
// *access.ServerError naming REST, and the session ends with QUIT.
func TestResumeRESTRefused(t *testing.T) {
	h := hostile(t, scripted(t, "", func(verb string, c net.Conn) { c.Write([]byte("whole file")) }))
	_, _, dlg, err := getFrom(t, "ftp://"+h+"/f.bin", 5, nil)
	var se *access.ServerError
	if !errors.As(err, &se) || se.Command != "REST 5" || se.Code != "502" {
		t.Fatalf("error %v, want a *access.ServerError to \"REST 5\", 502\n%s", err, tail(dlg))
	}
	if !strings.Contains(se.Error(), "RFC 959 §4.1.3") || strings.Contains(dlg, "> RETR") || !strings.Contains(dlg, "> QUIT") {
		t.Errorf("error %q; want the rule, no RETR and a QUIT:\n%s", se, tail(dlg))
	}
}

// TestLoginPyftpdlib logs in with what access.Client.Login (a .netrc)
// gives: the password of a URL's user, asked before the person is; the
// login of a URL with no user, instead of anonymous FTP (curl --netrc);
// anonymous FTP when it knows none; never for a URL with a password.
// The password never appears in the dialogue. Probe sessions of
// different logins to one server are kept apart.
func TestLoginPyftpdlib(t *testing.T) {
	srv := startPyftpd(t)
	h := srv.Addr
	var calls []string
	netrc := func(known bool) func(host, user string) (string, string, bool) {
		return func(host, user string) (string, string, bool) {
			calls = append(calls, "login "+host+" "+strconv.Quote(user))
			if !known || host != "127.0.0.1" || user != "" && user != "ftpuser" {
				return "", "", false
			}
			return "ftpuser", "ftppass", true
		}
	}
	ask := func(prompt string) (string, error) {
		calls = append(calls, "ask "+prompt)
		return "ftppass", nil
	}
	for _, c := range []struct {
		name, url string
		known     bool
		password  func(string) (string, error)
		body      string
		calls     []string
		user      string
	}{
		{"user without password, from the netrc, nobody to ask", "ftp://ftpuser@" + h + "/etc/motd", true, nil,
			"ftpuser motd\n", []string{`login 127.0.0.1 "ftpuser"`}, "USER ftpuser"},
		{"user without password, not in the netrc: the person is asked after", "ftp://ftpuser@" + h + "/etc/motd", false, ask,
			"ftpuser motd\n", []string{`login 127.0.0.1 "ftpuser"`, "ask Password for ftpuser at 127.0.0.1: "}, "USER ftpuser"},
		{"no user: the netrc's login, not anonymous", "ftp://" + h + "/etc/motd", true, nil,
			"ftpuser motd\n", []string{`login 127.0.0.1 ""`}, "USER ftpuser"},
		{"no user, none in the netrc: anonymous", "ftp://" + h + "/etc/motd", false, nil,
			"anonymous motd\n", []string{`login 127.0.0.1 ""`}, "USER anonymous"},
		{"user and password: the netrc is not asked", "ftp://ftpuser:ftppass@" + h + "/etc/motd", true, ask,
			"ftpuser motd\n", nil, "USER ftpuser"},
	} {
		t.Run(c.name, func(t *testing.T) {
			calls = nil
			_, from := srv.commands(t, 0)
			ac := &access.Client{Login: netrc(c.known), Password: c.password}
			r := get(t, c.url, ac)
			srv.waitQuit(t, from)
			cmds, _ := srv.commands(t, from)
			if r.err != nil || r.body != c.body {
				t.Fatalf("body %q, err %v; want %q\n%s", r.body, r.err, c.body, tail(r.dialog))
			}
			if !reflect.DeepEqual(calls, c.calls) {
				t.Errorf("asked %q, want %q", calls, c.calls)
			}
			if len(cmds) < 2 || cmds[0] != c.user || cmds[1] != "PASS ******" {
				t.Errorf("the server received %q, want %q then PASS", cmds, c.user)
			}
			if strings.Contains(r.dialog, "ftppass") || !strings.Contains(r.dialog, "> PASS ****\n") {
				t.Errorf("the dialogue does not mask the password:\n%s", r.dialog)
			}
		})
	}

	t.Run("a netrc login without a password: the person is asked", func(t *testing.T) {
		calls = nil
		ac := &access.Client{Password: ask, Login: func(host, user string) (string, string, bool) {
			calls = append(calls, "login "+host+" "+strconv.Quote(user))
			return "ftpuser", "", true
		}}
		r := get(t, "ftp://"+h+"/etc/motd", ac)
		if r.err != nil || r.body != "ftpuser motd\n" {
			t.Fatalf("body %q, err %v\n%s", r.body, r.err, tail(r.dialog))
		}
		if want := []string{`login 127.0.0.1 ""`, "ask Password for ftpuser at 127.0.0.1: "}; !reflect.DeepEqual(calls, want) {
			t.Errorf("asked %q, want %q", calls, want)
		}
	})

	t.Run("a netrc login with a line end: refused before connecting", func(t *testing.T) {
		ac := &access.Client{Login: func(host, user string) (string, string, bool) { return "ftpuser", "x\r\nDELE motd", true }}
		r := get(t, "ftp://"+h+"/etc/motd", ac)
		var pe *access.PolicyError
		if !errors.As(r.err, &pe) || pe.Rule != "RFC 1738 §6" || strings.Contains(r.dialog, "* connect") {
			t.Errorf("error %v, want a *access.PolicyError before any connection\n%s", r.err, r.dialog)
		}
	})

	t.Run("probe sessions of different logins apart", func(t *testing.T) {
		var dlg bytes.Buffer
		ac := &access.Client{Login: netrc(true), Dialogue: &dlg}
		defer ac.CloseIdle()
		probe := func(raw string) *access.Status {
			u, _ := locator.Parse(raw)
			return ac.Probe(context.Background(), u)
		}
		// The netrc's ftpuser (13 octets), then anonymous (15; a key made
		// before the netrc is read would be the same), then the
		// netrc's again, which reuses the first session.
		var sizes []int64
		for _, raw := range []string{"ftp://" + h + "/etc/motd", "ftp://anonymous@" + h + "/etc/motd", "ftp://" + h + "/etc/motd"} {
			st := probe(raw)
			if st.Err != nil {
				t.Fatalf("%s: %v\n%s", raw, st.Err, tail(dlg.String()))
			}
			sizes = append(sizes, st.Size)
		}
		if want := []int64{13, 15, 13}; !reflect.DeepEqual(sizes, want) {
			t.Errorf("sizes %v, want %v (a session shared across logins)", sizes, want)
		}
		if n := strings.Count(dlg.String(), "reused"); n != 1 {
			t.Errorf("%d sessions reused, want 1 (the third probe's)\n%s", n, tail(dlg.String()))
		}
		if strings.Contains(dlg.String(), "ftppass") {
			t.Errorf("the dialogue shows the password:\n%s", dlg.String())
		}
	})
}
