package ftp_test

// Archiving against the real servers: an FTP retrieval is kept as a
// resource, the file's octets and the control connection's dialogue
// with the password masked; a directory as NLST's octets.

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/internal/loctest"
)

// memArchive is an access.Recorder and an access.Archive in memory:
// each record's octets are copied, the last record of a URL kept.
type memArchive struct {
	mu   sync.Mutex
	recs map[string]stored
	n    int // records made
}

type stored struct {
	rec       access.Record // without its Spools
	req, resp []byte
}

func (m *memArchive) Record(r *access.Record) error {
	s := stored{rec: *r}
	s.rec.Request, s.rec.Response = nil, nil
	if r.Request != nil {
		s.req, _ = io.ReadAll(r.Request.Reader())
	}
	s.resp, _ = io.ReadAll(r.Response.Reader())
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.recs == nil {
		m.recs = map[string]stored{}
	}
	m.recs[r.URL.String()] = s
	m.n++
	return nil
}

func (m *memArchive) Lookup(ctx context.Context, u *locator.URL) (*access.Record, error) {
	m.mu.Lock()
	s, ok := m.recs[u.String()]
	m.mu.Unlock()
	if !ok {
		return nil, &access.NotArchivedError{URL: access.Masked(u)}
	}
	r := s.rec
	if s.rec.Kind == access.RecordExchange {
		r.Request = access.NewSpool()
		r.Request.Write(s.req)
	}
	r.Response = access.NewSpool()
	r.Response.Write(s.resp)
	return &r, nil
}

// an outcome is what a Get gave: the listing's entries or the body, or
// the error.
type outcome struct {
	entries []access.Entry
	body    []byte
	media   string
	err     error
}

func fetchOutcome(t *testing.T, ac *access.Client, s string) outcome {
	t.Helper()
	res, err := ac.Get(context.Background(), loctest.MustParse(t, s))
	if err != nil {
		return outcome{err: err}
	}
	var o outcome
	o.media = res.MediaType
	if res.Listing != nil {
		o.entries, o.err = res.Listing.ReadAll()
	} else {
		o.body, o.err = io.ReadAll(res.Body)
	}
	if cerr := res.Close(); o.err == nil {
		o.err = cerr
	}
	return o
}

// recordFTP follows each URL with a recording Client, checks its
// record against want (the resource's octets) and the dialogue kept,
// (password, when not "", never in it), then follows it from the archive, which gives the same octets without
// a connection. It returns the records by URL.
func recordFTP(t *testing.T, want map[string]string, password string) *memArchive {
	t.Helper()
	m := &memArchive{}
	replay := &access.Client{Archive: m, Dial: func(ctx context.Context, network, addr string) (net.Conn, error) {
		t.Errorf("the replay dialled %s", addr)
		return nil, errors.New("no connection in a replay")
	}}
	for u, content := range want {
		// A Client each, so that each dialogue holds a login.
		o := fetchOutcome(t, &access.Client{Recorder: m}, u)
		if o.err != nil {
			t.Errorf("%s: %v", u, o.err)
			continue
		}
		rec, ok := m.recs[u]
		if !ok {
			t.Errorf("%s: no record", u)
			continue
		}
		if rec.rec.Kind != access.RecordResource || rec.rec.Protocol != "ftp" || rec.rec.Addr != "127.0.0.1" || rec.rec.Request != nil || rec.rec.Truncated != "" || rec.rec.Date.IsZero() {
			t.Errorf("%s: record %+v", u, rec.rec)
		}
		d := string(rec.rec.Dialogue)
		if !strings.Contains(d, "> PASS ****\n") || password != "" && strings.Contains(d, password) || !strings.Contains(d, "> USER ") {
			t.Errorf("%s: the dialogue kept does not mask the password:\n%s", u, d)
		}
		if o.entries == nil {
			if string(rec.resp) != content || string(o.body) != content {
				t.Errorf("%s: recorded %q, delivered %q, want %q", u, rec.resp, o.body, content)
			}
			again := fetchOutcome(t, replay, u)
			if again.err != nil || string(again.body) != content {
				t.Errorf("%s: replayed %q, %v", u, again.body, again.err)
			}
			continue
		}
		// A directory: NLST's names as sent, one per CR LF line.
		names := strings.Split(strings.TrimSuffix(string(rec.resp), "\r\n"), "\r\n")
		sort.Strings(names)
		if got := strings.Join(names, " "); got != content {
			t.Errorf("%s: NLST recorded %q, want the names %q", u, rec.resp, content)
		}
		if again := fetchOutcome(t, replay, u); again.err != nil || !bytes.Equal(again.body, rec.resp) {
			t.Errorf("%s: replayed %q, %v", u, again.body, again.err)
		}
	}
	if m.n != len(want) {
		t.Errorf("%d records, want %d", m.n, len(want))
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
