package ftp_test

// Archiving against the real servers: an FTP retrieval is kept as a
// resource, the file's octets and the control connection's dialogue
// with the password masked; a directory as the octets of its listing's
// transfers (NLST's, then MLSD's or LIST's), which replay as the live
// Listing.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/ftp"
	"github.com/rfc1738/locator/internal/loctest"
)

// recordFTP follows each URL with a recording Client, checks its
// record against want (the resource's octets) and the dialogue kept
// (password, when not "", never in it), then follows it from the
// archive, which gives the same octets, or the same Listing, without a
// connection; a directory's record holds NLST's octets and
// describeVerb's (MLSD or LIST). It returns the archive.
func recordFTP(t *testing.T, want map[string]string, password, describeVerb string) *loctest.Archive {
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
		// A directory: its record holds NLST's names as sent, one per
		// CR LF line, then the description (MLSD or LIST) whose facts
		// the live listing shows; the replay is the same Listing.
		parts := listingParts(t, u, rec.Record.MediaType, rec.Response)
		if len(parts) != 2 || parts[0].verb != "NLST" || parts[1].verb != describeVerb || len(parts[1].octets) == 0 {
			t.Errorf("%s: the record's parts %+v, want NLST's and %s's", u, parts, describeVerb)
			continue
		}
		names := strings.Split(strings.TrimSuffix(string(parts[0].octets), "\r\n"), "\r\n")
		sort.Strings(names)
		if got := strings.Join(names, " "); got != content {
			t.Errorf("%s: NLST recorded %q, want the names %q", u, parts[0].octets, content)
		}
		described := false
		for _, e := range o.Entries {
			described = described || e.Type == access.TypeDirectory || e.Size >= 0
		}
		if !described {
			t.Errorf("%s: the live listing is not described: %+v", u, o.Entries)
		}
		loctest.SameOutcome(t, u, o, loctest.GetOutcome(t, replay, u))
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
	}, "ftppass", "MLSD")
}

func TestRecordVsftpd(t *testing.T) {
	v := startVsftpd(t)
	h := v.Addr
	recordFTP(t, map[string]string{
		"ftp://" + h + "/big.bin":          strings.Repeat("0123456789abcdef", 1<<16),
		"ftp://" + h + "/pub/bin.dat":      "\x00\x01\r\n\x02\r\xff",
		"ftp://" + h + "/pub/sub/deep.txt": "deep\n",
		"ftp://" + h + "/pub/sub/":         "deep.txt inner",
	}, "", "LIST") // the anonymous password is no secret: a note says it
}

// A listingPart is one part of a directory's record: the command and
// the octets of its data connection.
type listingPart struct {
	verb   string
	octets []byte
}

// listingParts reads a directory's record (multipart/mixed, each part
// text/x-ftp-listing with its command) with mime/multipart.
func listingParts(t *testing.T, u, mediaType string, body []byte) []listingPart {
	t.Helper()
	mt, params, err := mime.ParseMediaType(mediaType)
	if err != nil || mt != "multipart/mixed" || !strings.HasPrefix(params["boundary"], "ftp-listing-") {
		t.Errorf("%s: record's media type %q %v", u, mediaType, err)
		return nil
	}
	mr := multipart.NewReader(bytes.NewReader(body), params["boundary"])
	var parts []listingPart
	for {
		p, err := mr.NextRawPart()
		if err == io.EOF {
			return parts
		}
		if err != nil {
			t.Errorf("%s: record's part %d: %v", u, len(parts), err)
			return parts
		}
		pt, pp, err := mime.ParseMediaType(p.Header.Get("Content-Type"))
		if err != nil || pt != ftp.ListingPartType {
			t.Errorf("%s: part of type %q", u, p.Header.Get("Content-Type"))
		}
		b, err := io.ReadAll(p)
		if err != nil {
			t.Errorf("%s: record's part %d: %v", u, len(parts), err)
		}
		parts = append(parts, listingPart{pp["command"], b})
	}
}

// TestRecordResumeRefused: a Client that records refuses to resume a
// retrieval (GetFrom above 0) before any connection, since the octets
// from an offset on are not the file and a record of them would replay
// as the whole file; without a Recorder the same request resumes, and
// the recording Client records a whole retrieval.
func TestRecordResumeRefused(t *testing.T) {
	v := startVsftpd(t)
	u := loctest.MustParse(t, "ftp://"+v.Addr+"/big.bin")
	whole := strings.Repeat("0123456789abcdef", 1<<16)
	m := &loctest.Archive{}
	dials := 0
	rc := &access.Client{Recorder: m, Dial: func(ctx context.Context, network, addr string) (net.Conn, error) {
		dials++
		return (&net.Dialer{}).DialContext(ctx, network, addr)
	}}
	defer rc.CloseIdle()
	_, err := rc.GetFrom(context.Background(), u, 1000)
	var pe *access.PolicyError
	if !errors.As(err, &pe) || pe.Rule != "resume" || !strings.Contains(pe.Reason, "records") || access.Classify(err) != access.Forbidden {
		t.Fatalf("GetFrom 1000 recording: %v, want a PolicyError of rule resume", err)
	}
	if dials != 0 || len(m.Records()) != 0 {
		t.Errorf("the refusal connected %d times and made %d records", dials, len(m.Records()))
	}
	pc := &access.Client{}
	defer pc.CloseIdle()
	res, err := pc.GetFrom(context.Background(), u, 1000)
	if err != nil {
		t.Fatalf("GetFrom 1000 without a Recorder: %v", err)
	}
	tail, err := io.ReadAll(res.Body)
	res.Close()
	if err != nil || string(tail) != whole[1000:] || res.Offset != 1000 {
		t.Errorf("resumed without a Recorder: %d octets from %d, %v", len(tail), res.Offset, err)
	}
	if o := loctest.GetOutcome(t, rc, u.String()); o.Err != nil || string(o.Body) != whole || len(m.Records()) != 1 {
		t.Errorf("whole retrieval recording: %d octets, %v, %d records", len(o.Body), o.Err, len(m.Records()))
	}
}

// TestRecordPartial: a retrieval cut at MaxSize is recorded with
// Truncated "length", and its replay delivers the octets kept and then
// an *access.PartialRecordError, never an end as if the file were
// whole; a file the server refuses (550) makes no record, since a
// resource record would claim an empty file.
func TestRecordPartial(t *testing.T) {
	v := startVsftpd(t)
	m := &loctest.Archive{}
	// TYPE A states no size, so the transfer runs to the limit.
	u := "ftp://" + v.Addr + "/big.bin;type=a"
	live := loctest.GetOutcome(t, &access.Client{Recorder: m, MaxSize: 1000}, u)
	if !errors.Is(live.Err, access.ErrTooLarge) || len(live.Body) != 1000 {
		t.Fatalf("live: %d octets, %v", len(live.Body), live.Err)
	}
	rec, ok := m.Latest(u)
	if !ok || rec.Record.Truncated != "length" || !bytes.Equal(rec.Response, live.Body) {
		t.Fatalf("record: %v %+v, %d octets", ok, rec.Record, len(rec.Response))
	}
	again := loctest.GetOutcome(t, &access.Client{Archive: m}, u)
	var pre *access.PartialRecordError
	if !errors.As(again.Err, &pre) || pre.Truncated != "length" || !bytes.Equal(again.Body, live.Body) || access.Classify(again.Err) != access.Failed {
		t.Errorf("replay: %d octets, %T %v; want the 1000 octets kept, then a PartialRecordError", len(again.Body), again.Err, again.Err)
	}

	absent := "ftp://" + v.Addr + "/pub/absent.txt"
	var se *access.ServerError
	if o := loctest.GetOutcome(t, &access.Client{Recorder: m}, absent); !errors.As(o.Err, &se) || se.Code != "550" {
		t.Fatalf("absent: %v", o.Err)
	}
	if _, ok := m.Latest(absent); ok || len(m.Records()) != 1 {
		t.Errorf("a refused retrieval made a record (%d records)", len(m.Records()))
	}
	var na *access.NotArchivedError
	if o := loctest.GetOutcome(t, &access.Client{Archive: m}, absent); !errors.As(o.Err, &na) {
		t.Errorf("absent, replayed: %q %v", o.Body, o.Err)
	}
}

// TestRecordLargeDirectory: a directory of more than maxDescribed
// entries is listed as NLST streams its names, undescribed; its record
// holds NLST's part alone, and the replay is the same Listing. A listing
// cut at MaxEntries replays cut at the same entry with the same error.
func TestRecordLargeDirectory(t *testing.T) {
	const n = ftp.MaxDescribed + 5
	v := startVsftpdTB(t, func(root string) {
		tree(t, root, anonFiles)
		dir := filepath.Join(root, "many")
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < n; i++ {
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%05d.txt", i)), nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	})
	m := &loctest.Archive{}
	replay := &access.Client{Archive: m, Dial: func(ctx context.Context, network, addr string) (net.Conn, error) {
		t.Errorf("the replay dialled %s", addr)
		return nil, errors.New("no connection in a replay")
	}}
	u := "ftp://" + v.Addr + "/many/"
	live := loctest.GetOutcome(t, &access.Client{Recorder: m}, u)
	if live.Err != nil || len(live.Entries) != n || live.Entries[0].Size != -1 {
		t.Fatalf("live: %d entries, %v", len(live.Entries), live.Err)
	}
	rec, ok := m.Latest(u)
	if !ok || rec.Record.Truncated != "" {
		t.Fatalf("record: %v %+v", ok, rec.Record)
	}
	if parts := listingParts(t, u, rec.Record.MediaType, rec.Response); len(parts) != 1 || parts[0].verb != "NLST" || bytes.Count(parts[0].octets, []byte("\r\n")) != n {
		t.Errorf("record's parts: %d", len(parts))
	}
	loctest.SameOutcome(t, u, live, loctest.GetOutcome(t, replay, u))

	pub := "ftp://" + v.Addr + "/pub/"
	live = loctest.GetOutcome(t, &access.Client{Recorder: m, MaxEntries: 3}, pub)
	var te *access.TruncatedError
	if !errors.As(live.Err, &te) || len(live.Entries) != 3 {
		t.Fatalf("MaxEntries 3: %d entries, %v", len(live.Entries), live.Err)
	}
	if rec, _ := m.Latest(pub); rec.Record.Truncated != "length" {
		t.Errorf("MaxEntries 3: record truncated %q, want length", rec.Record.Truncated)
	}
	replay.MaxEntries = 3
	loctest.SameOutcome(t, pub, live, loctest.GetOutcome(t, replay, pub))
}
