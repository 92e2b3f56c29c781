package ftp

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
)

// FuzzReplayListing reads a directory's record back (ReplayRecord) made
// of arbitrary NLST and description octets, framed as listingRecord
// frames them, and compares it with the live path fed the same octets
// as transfers (lister.hold, readLines, parseFacts): the same entries in
// the same order and the same error, or none; and with no panic on
// arbitrary record octets under the same media type.
func FuzzReplayListing(f *testing.F) {
	for _, c := range []struct {
		nlst, desc string
		mlsd       bool
	}{
		{"a\r\nsub\r\n", "type=file;size=3; a\r\ntype=dir; sub\r\n", true},
		{"a\r\nb\r\n", "-rw-r--r--   1 o g  12 Mar  5 12:00 a\r\ndrwxr-xr-x   2 o g 4096 Mar  5  2021 b\r\n", false},
		{"", "", true},
		{"x\n.\n..\nx\n", "type=cdir; .\r\n", true},
		{"l\r\n", "lrwxrwxrwx   1 o g 7 Mar  5 12:00 l -> t\r\n", false},
		{"1\r\n2\r\n3\r\n4\r\n5\r\n6\r\n7\r\n8\r\n9\r\n", "", true},
		{strings.Repeat("n", 100) + "\r\n", "", true},
		{"last", "type=file;size=1; last", true},
	} {
		f.Add([]byte(c.nlst), []byte(c.desc), c.mlsd, uint8(4))
	}
	const boundary = "ftp-listing-00112233445566778899aabbccddeeff"
	u, err := locator.Parse("ftp://h/d/")
	if err != nil {
		f.Fatal(err)
	}
	date := time.Date(2026, 11, 27, 4, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, nlst, desc []byte, mlsd bool, max uint8) {
		if bytes.Contains(nlst, []byte("--"+boundary)) || bytes.Contains(desc, []byte("--"+boundary)) {
			return // the boundary is 128 random bits no server sees
		}
		ac := &access.Client{MaxLine: 64, MaxEntries: int(max%8) + 1, MaxSize: 4096}
		verb := "LIST"
		if mlsd {
			verb = "MLSD"
		}
		// Live: the transfers as the session reads them.
		req := &access.Request{Client: ac, URL: u}
		s := &session{req: req, u: u, masked: "ftp://h/d/", conn: nullConn{}, br: bufio.NewReader(strings.NewReader(strings.Repeat("226 done\r\n", 4)))}
		transfer := func(b []byte, line string) *transfer {
			return &transfer{s: s, line: line, data: nullConn{}, br: bufio.NewReaderSize(&sizeLimit{r: bytes.NewReader(b), left: 4096}, 16<<10)}
		}
		ls := newLister(u, s.masked, req, Command{Verb: "NLST"})
		ls.s, ls.t = s, transfer(nlst, "NLST")
		var live []access.Entry
		err := ls.hold()
		var body bytes.Buffer
		body.WriteString("--" + boundary + "\r\nContent-Type: text/x-ftp-listing; command=NLST\r\n\r\n")
		body.Write(nlst)
		if err == nil {
			if ls.t == nil && len(ls.names) > 0 {
				lines, _, derr := readLines(transfer(desc, verb), ls.holdMax(), req)
				if derr == nil {
					ls.facts = parseFacts(verb, lines, date)
					body.WriteString("\r\n--" + boundary + "\r\nContent-Type: text/x-ftp-listing; command=" + verb + "\r\n\r\n")
					body.Write(desc)
				}
			}
			live, err = access.NewListing(ls.max, ls.next, ls.close).ReadAll()
		}
		body.WriteString("\r\n--" + boundary + "--\r\n")

		rec := &access.Record{Kind: access.RecordResource, URL: u, Protocol: "ftp", Date: date, Response: access.NewSpool(),
			MediaType: "multipart/mixed; boundary=" + boundary}
		rec.Response.Write(body.Bytes())
		res, rerr := (&Client{}).ReplayRecord(context.Background(), u, &access.Request{Client: ac, URL: u}, rec)
		var again []access.Entry
		if rerr == nil {
			again, rerr = res.Listing.ReadAll()
			res.Close()
		}
		if !reflect.DeepEqual(live, again) || (err == nil) != (rerr == nil) || err != nil && err.Error() != rerr.Error() {
			t.Fatalf("nlst %q desc %q %s max %d:\nlive   %+v %v\nreplay %+v %v", nlst, desc, verb, ac.MaxEntries, live, err, again, rerr)
		}

		// The same octets as a whole record: no panic, only the errors
		// a live listing gives.
		rec.Response.Close()
		rec.Response = access.NewSpool()
		rec.Response.Write(append(append([]byte{}, nlst...), desc...))
		res, rerr = (&Client{}).ReplayRecord(context.Background(), u, &access.Request{Client: ac, URL: u}, rec)
		if rerr == nil {
			_, rerr = res.Listing.ReadAll()
			res.Close()
		}
		var te *access.TruncatedError
		var pe *access.ProtocolError
		if rerr != nil && !errors.As(rerr, &te) && !errors.As(rerr, &pe) && !errors.Is(rerr, access.ErrTooLarge) && rerr != io.EOF {
			t.Fatalf("arbitrary record: %T %v", rerr, rerr)
		}
	})
}
