package ftp_test

// Archiving against the real servers: an FTP retrieval is kept as a
// resource, the file's octets and the control connection's dialogue
// with the password masked; a directory as NLST's octets.

import (
	"bytes"
	"context"
	"errors"
	"net"
	"sort"
	"strings"
	"testing"

	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/internal/loctest"
)

// recordFTP follows each URL with a recording Client, checks its
// record against want (the resource's octets) and the dialogue kept
// (password, when not "", never in it), then follows it from the
// archive, which gives the same octets without a connection. It
// returns the archive.
func recordFTP(t *testing.T, want map[string]string, password string) *loctest.Archive {
	t.Helper()
	m := &loctest.Archive{}
	replay := &access.Client{Archive: m, Dial: func(ctx context.Context, network, addr string) (net.Conn, error) {
		t.Errorf("the replay dialled %s", addr)
		return nil, errors.New("no connection in a replay")
	}}
	for u, content := range want {
		// A Client each, so that each dialogue holds a login.
		o := loctest.GetOutcome(t, &access.Client{Recorder: m}, u)
		if o.Err != nil {
			t.Errorf("%s: %v", u, o.Err)
			continue
		}
		rec, ok := m.Latest(u)
		if !ok {
			t.Errorf("%s: no record", u)
			continue
		}
		if rec.Record.Kind != access.RecordResource || rec.Record.Protocol != "ftp" || rec.Record.Addr != "127.0.0.1" || rec.Request != nil || rec.Record.Truncated != "" || rec.Record.Date.IsZero() {
			t.Errorf("%s: record %+v", u, rec.Record)
		}
		d := string(rec.Record.Dialogue)
		if !strings.Contains(d, "> PASS ****\n") || password != "" && strings.Contains(d, password) || !strings.Contains(d, "> USER ") {
			t.Errorf("%s: the dialogue kept does not mask the password:\n%s", u, d)
		}
		if o.Entries == nil {
			if string(rec.Response) != content || string(o.Body) != content {
				t.Errorf("%s: recorded %q, delivered %q, want %q", u, rec.Response, o.Body, content)
			}
			again := loctest.GetOutcome(t, replay, u)
			if again.Err != nil || string(again.Body) != content {
				t.Errorf("%s: replayed %q, %v", u, again.Body, again.Err)
			}
			continue
		}
		// A directory: NLST's names as sent, one per CR LF line.
		names := strings.Split(strings.TrimSuffix(string(rec.Response), "\r\n"), "\r\n")
		sort.Strings(names)
		if got := strings.Join(names, " "); got != content {
			t.Errorf("%s: NLST recorded %q, want the names %q", u, rec.Response, content)
		}
		if again := loctest.GetOutcome(t, replay, u); again.Err != nil || !bytes.Equal(again.Body, rec.Response) {
			t.Errorf("%s: replayed %q, %v", u, again.Body, again.Err)
		}
	}
	if len(m.Records()) != len(want) {
		t.Errorf("%d records, want %d", len(m.Records()), len(want))
	}
	return m
}

func TestRecordPyftpdlib(t *testing.T) {
	p := startPyftpd(t)
	h := p.Addr
	recordFTP(t, map[string]string{
		"ftp://ftpuser:ftppass@" + h + "/etc/motd": "ftpuser motd\n",
		"ftp://" + h + "/pub/bin.dat":              "\x00\x01\r\n\x02\r\xff",
		"ftp://" + h + "/pub/hello.txt;type=a":     "line1\nline2\n",
		"ftp://" + h + "/pub/":                     "bin.dat empty hello.txt sub with space.txt",
	}, "ftppass")
}

func TestRecordVsftpd(t *testing.T) {
	v := startVsftpd(t)
	h := v.Addr
	recordFTP(t, map[string]string{
		"ftp://" + h + "/big.bin":          strings.Repeat("0123456789abcdef", 1<<16),
		"ftp://" + h + "/pub/bin.dat":      "\x00\x01\r\n\x02\r\xff",
		"ftp://" + h + "/pub/sub/deep.txt": "deep\n",
		"ftp://" + h + "/pub/sub/":         "deep.txt inner",
	}, "") // the anonymous password is no secret: a note says it
}
