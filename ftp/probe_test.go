package ftp_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/ftp"
	"github.com/rfc1738/locator/internal/loctest"
)

type probeCase struct {
	path, state, code string
	size              int64
	listing           bool
}

// probeCases hold for anonFiles on either server.
var probeCases = []probeCase{
	{"/pub/hello.txt", "ok", "213", 12, false},
	{"/pub/bin.dat;type=i", "ok", "213", 7, false},
	{"/%2Fpub/sub/deep.txt", "ok", "213", 5, false},
	{"/pub/sub/", "ok", "250", -1, true},
	{"/pub;type=d", "ok", "250", -1, true},
	{"/pub/sub", "ok", "250", -1, true}, // a directory named as a file
	{"/pub/missing.txt", "gone", "550", -1, false},
	{"/nodir/hello.txt", "gone", "550", -1, false},
	{"/pub/nodir/", "gone", "550", -1, false},
}

// probeAll probes probeCases on addr with a Client of its own, which it
// ends with CloseIdle, and returns the dialogue.
func probeAll(t *testing.T, addr string) string {
	t.Helper()
	var log bytes.Buffer
	ac := &access.Client{Dialogue: &log}
	for _, c := range probeCases {
		st := ac.Probe(context.Background(), loctest.MustParse(t, "ftp://"+addr+c.path))
		if string(st.State) != c.state || st.Code != c.code || st.Size != c.size || st.Listing != c.listing {
			t.Errorf("%s: %s %s size %d listing %v (%v), want %s %s %d %v\n%s", c.path, st.State, st.Code, st.Size, st.Listing, st.Err, c.state, c.code, c.size, c.listing, log.String())
		}
		if c.state == "ok" && !c.listing && st.Modified.IsZero() {
			t.Errorf("%s: no MDTM time", c.path)
		}
	}
	ac.CloseIdle()
	return log.String()
}

// TestProbePyftpdlib: the CWD sequence of RFC 1738 §3.2.2, then SIZE
// and MDTM (RFC 3659) on one reused login; no data connection.
func TestProbePyftpdlib(t *testing.T) {
	p := startPyftpd(t)
	_, from := p.commands(t, 0)
	log := probeAll(t, host(p.Server))
	p.waitQuit(t, from)
	cmds, _ := p.commands(t, from)
	all := strings.Join(cmds, " | ")
	if n := strings.Count(all, "USER anonymous"); n != 1 {
		t.Errorf("%d logins for %d probes, want 1 (the session is reused):\n%s", n, len(probeCases), all)
	}
	for _, verb := range []string{"EPSV", "PASV", "RETR", "NLST", "LIST", "MLSD"} {
		if strings.Contains(all, verb) {
			t.Errorf("a probe sent %s:\n%s", verb, all)
		}
	}
	// The second probe returns to the login directory first.
	if !strings.Contains(all, "PWD | CWD pub | TYPE I | SIZE hello.txt | MDTM hello.txt | CWD / | CWD pub | TYPE I | SIZE bin.dat") {
		t.Errorf("commands:\n%s", all)
	}
	if !strings.Contains(log, "reused") {
		t.Errorf("no note of the reused session:\n%s", log)
	}
}

// TestProbeVsftpd: the same answers from vsftpd.
func TestProbeVsftpd(t *testing.T) {
	v := startVsftpd(t)
	probeAll(t, host(v.Server))
}

// TestProbeSingleCWD: --ftp-method singlecwd sends one CWD.
func TestProbeSingleCWD(t *testing.T) {
	p := startPyftpd(t)
	_, from := p.commands(t, 0)
	ac := &access.Client{Schemes: withFTP(&ftp.Client{Method: "singlecwd"})}
	st := ac.Probe(context.Background(), loctest.MustParse(t, "ftp://"+host(p.Server)+"/pub/sub/deep.txt"))
	ac.CloseIdle()
	p.waitQuit(t, from)
	cmds, _ := p.commands(t, from)
	if st.State != access.StateOK || !strings.Contains(strings.Join(cmds, " | "), "CWD pub/sub | TYPE I | SIZE deep.txt") {
		t.Errorf("%s: %v", st.State, cmds)
	}
}
