package access

import (
	"context"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/rfc1738/locator"
)

// The archiving rules of the access layer, with small in-test clients:
// which requests make a record, how a record that is not whole replays,
// and when a RecordReplayer is asked. The protocols' records are tested
// in their packages against real servers.

// memArchive keeps records' octets in memory (a Recorder and an
// Archive).
type memArchive struct {
	mu   sync.Mutex
	recs []Record
	data []string
}

func (m *memArchive) Record(r *Record) error {
	b, err := io.ReadAll(r.Response.Reader())
	if err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	k := *r
	k.Request, k.Response = nil, nil
	m.recs = append(m.recs, k)
	m.data = append(m.data, string(b))
	return nil
}

func (m *memArchive) Lookup(ctx context.Context, u *locator.URL) (*Record, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for i := len(m.recs) - 1; i >= 0; i-- {
		if m.recs[i].URL.String() == u.String() {
			r := m.recs[i]
			r.Response = NewSpool()
			r.Response.Write([]byte(m.data[i]))
			return &r, nil
		}
	}
	return nil, &NotArchivedError{URL: Masked(u)}
}

func (m *memArchive) len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.recs)
}

// resumable is an in-test client that can begin an object at an offset
// and keeps it as a RecordResource; its routes are as fakeFetcher's.
type resumable struct{ fakeFetcher }

// wholeReplayer is an in-test client that reads a record back itself
// (RecordReplayer): the octets upper-cased, or, for a URL ending in
// "/asis", nil (the octets as recorded).
type wholeReplayer struct{ fakeFetcher }

func (*wholeReplayer) ReplayRecord(ctx context.Context, u *locator.URL, req *Request, rec *Record) (*Resource, error) {
	if strings.HasSuffix(u.Path(), "asis") {
		return nil, nil
	}
	b, err := io.ReadAll(RecordReader(rec))
	if err != nil {
		return nil, err
	}
	return &Resource{Body: io.NopCloser(strings.NewReader(strings.ToUpper(string(b)))), MediaType: "text/x-upper", Size: -1}, nil
}

var (
	tsr = &resumable{}
	tsw = &wholeReplayer{}
)

func init() {
	Register("tsr", Info{DefaultPort: 80, Resume: true}, func() Fetcher { return tsr })
	Register("tsw", Info{DefaultPort: 80}, func() Fetcher { return tsw })
}

// resource is a route whose object is kept as a RecordResource.
func resource(s string) route {
	return func(req *Request) (*Resource, error) {
		req.Capture(RecordResource, "tsr")
		return &Resource{Body: io.NopCloser(strings.NewReader(s[req.Offset():])), Size: int64(len(s)), Offset: req.Offset()}, nil
	}
}

func readAll(t *testing.T, c *Client, s string, offset int64) (string, error) {
	t.Helper()
	res, err := c.GetFrom(context.Background(), mustParse(t, s), offset)
	if err != nil {
		return "", err
	}
	b, err := io.ReadAll(res.Body)
	if cerr := res.Close(); err == nil {
		err = cerr
	}
	return string(b), err
}

// TestRecordWholeObjectsOnly: a request with an offset makes no record
// (its octets are not the object); a resource whose Fetch failed makes
// none (a resource record is an object); a whole one makes one.
func TestRecordWholeObjectsOnly(t *testing.T) {
	tsr.reset(map[string]route{
		"tsr://h/a": resource("0123456789"),
		"tsr://h/gone": func(req *Request) (*Resource, error) {
			req.Capture(RecordResource, "tsr").Received([]byte("part"))
			return nil, &ServerError{URL: "tsr://h/gone", Code: "550", Text: "no such file"}
		},
	})
	m := &memArchive{}
	c := &Client{Recorder: m}
	if b, err := readAll(t, c, "tsr://h/a", 4); err != nil || b != "456789" || m.len() != 0 {
		t.Errorf("from octet 4: %q %v, %d records", b, err, m.len())
	}
	var se *ServerError
	if _, err := readAll(t, c, "tsr://h/gone", 0); !errors.As(err, &se) || m.len() != 0 {
		t.Errorf("refused: %v, %d records", err, m.len())
	}
	if b, err := readAll(t, c, "tsr://h/a", 0); err != nil || b != "0123456789" || m.len() != 1 || m.data[0] != b || m.recs[0].Truncated != "" {
		t.Errorf("whole: %q %v, %d records", b, err, m.len())
	}
}

// TestReplayPartialRecord: a record that is not whole delivers its
// octets and then a *PartialRecordError, for a resource as for what a
// RecordReplayer reads with RecordReader; a whole one ends with io.EOF.
func TestReplayPartialRecord(t *testing.T) {
	m := &memArchive{}
	for _, s := range []string{"tsr://h/whole", "tsr://h/cut", "tsw://h/cut", "tsw://h/asis"} {
		rec := &Record{Kind: RecordResource, URL: mustParse(t, s), Protocol: "tst", Response: NewSpool()}
		rec.Response.Write([]byte("abc"))
		if strings.HasSuffix(s, "/cut") || strings.HasSuffix(s, "/asis") {
			rec.Truncated = "length"
		}
		m.Record(rec)
		rec.Close()
	}
	c := &Client{Archive: m}
	if b, err := readAll(t, c, "tsr://h/whole", 0); err != nil || b != "abc" {
		t.Errorf("whole: %q %v", b, err)
	}
	for _, c2 := range []struct{ url, want string }{{"tsr://h/cut", "abc"}, {"tsw://h/cut", ""}, {"tsw://h/asis", "abc"}} {
		b, err := readAll(t, c, c2.url, 0)
		var pe *PartialRecordError
		if !errors.As(err, &pe) || pe.Truncated != "length" || pe.URL != c2.url || b != c2.want || Classify(err) != Failed {
			t.Errorf("%s: %q %T %v; want %q and a PartialRecordError", c2.url, b, err, err, c2.want)
		}
	}
}

// TestRecordReplayerFirst: a scheme client that implements
// RecordReplayer makes the Resource of its records; nil from it gives
// the octets as recorded.
func TestRecordReplayerFirst(t *testing.T) {
	m := &memArchive{}
	for _, s := range []string{"tsw://h/x", "tsw://h/asis"} {
		rec := &Record{Kind: RecordResource, URL: mustParse(t, s), Protocol: "tst", Response: NewSpool(), MediaType: "text/plain"}
		rec.Response.Write([]byte("abc"))
		m.Record(rec)
		rec.Close()
	}
	c := &Client{Archive: m}
	res, err := c.Get(context.Background(), mustParse(t, "tsw://h/x"))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Close()
	if string(b) != "ABC" || res.MediaType != "text/x-upper" {
		t.Errorf("ReplayRecord's resource: %q %s", b, res.MediaType)
	}
	if b, err := readAll(t, c, "tsw://h/asis", 0); err != nil || b != "abc" {
		t.Errorf("nil from ReplayRecord: %q %v", b, err)
	}
}
