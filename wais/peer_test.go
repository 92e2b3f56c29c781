package wais_test

// Tests against the original server on loopback (internal/peer):
// freeWAIS-sf 2.2.10's waisserver, built from its sources by their
// build.sh into a cache folder outside the repository (peerBin), an index made
// by its waisindex from files this test writes, and its line-mode client
// waissearch as the reference for what a search returns.

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/internal/loctest"
	"github.com/rfc1738/locator/internal/peer"
	"github.com/rfc1738/locator/wais"
)

var (
	buildOnce sync.Once
	buildDir  string
	buildSkip string
	buildErr  error
)

// peerBin builds freeWAIS-sf (or finds it built) in
// <UserCacheDir>/locator-peers/freewais-sf-<hash>, the hash of build.sh,
// src.tar.gz and the patches, and returns its bin folder. It skips the
// test when build.sh says a prerequisite is missing (exit 2).
func peerBin(t *testing.T) string {
	t.Helper()
	src := loctest.SharedPath(t, "peers", "freewais-sf")
	buildOnce.Do(func() {
		h := sha256.New()
		files := []string{"build.sh", "src.tar.gz"}
		patches, _ := filepath.Glob(filepath.Join(src, "patches", "*"))
		sort.Strings(patches)
		for _, p := range patches {
			files = append(files, filepath.Join("patches", filepath.Base(p)))
		}
		for _, f := range files {
			b, err := os.ReadFile(filepath.Join(src, f))
			if err != nil {
				buildErr = err
				return
			}
			fmt.Fprintf(h, "%s %d\n", f, len(b))
			h.Write(b)
		}
		cache, err := os.UserCacheDir()
		if err != nil {
			buildSkip = "no user cache folder for the peer build: " + err.Error()
			return
		}
		dir := filepath.Join(cache, "locator-peers", "freewais-sf-"+hex.EncodeToString(h.Sum(nil))[:12])
		cmd := exec.Command("sh", filepath.Join(src, "build.sh"), dir)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err = cmd.Run()
		var ee *exec.ExitError
		switch {
		case err == nil:
			buildDir = filepath.Join(dir, "bin")
		case errors.As(err, &ee) && ee.ExitCode() == 2:
			buildSkip = strings.TrimSpace(lastLine(out.String()))
		default:
			buildErr = fmt.Errorf("build.sh %s: %v\n%s", dir, err, out.String())
		}
	})
	switch {
	case buildErr != nil:
		t.Fatal(buildErr)
	case buildSkip != "":
		t.Skip(buildSkip)
	}
	return buildDir
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}

// fixture is an indexed collection served by a running waisserver.
type fixture struct {
	bin, dir string
	addr     string
	port     int
	docs     map[string][]byte // file name → octets
}

// bigDoc is a text of words larger than two retrieval chunks.
func bigDoc() []byte {
	words := []string{"protocol", "alpha", "beta", "gamma", "delta", "server", "index", "chunk", "relevance"}
	r := rand.New(rand.NewPCG(1738, 1993))
	var b bytes.Buffer
	for line := 0; b.Len() < 2*wais.ChunkSize+5000; line++ {
		for w := 0; w < 10; w++ {
			if w > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(words[r.IntN(len(words))])
		}
		fmt.Fprintf(&b, " %d\n", line)
	}
	return b.Bytes()
}

// serve indexes the fixture collection with waisindex (database "demo")
// in a temporary folder and starts waisserver on a free port of
// 127.0.0.1 for t.
func serve(t *testing.T) *fixture {
	t.Helper()
	bin := peerBin(t)
	dir := t.TempDir()
	f := &fixture{bin: bin, dir: dir, docs: map[string][]byte{
		"gopher.txt": []byte("The Internet Gopher protocol was developed at the University of Minnesota.\n"),
		"wais.txt":   []byte("Wide Area Information Servers use the Z39.50 protocol over TCP.\n"),
		"big.txt":    bigDoc(),
		"gone.txt":   []byte("This protocol document is removed between search and retrieval.\n"),
	}}
	if err := os.MkdirAll(filepath.Join(dir, "docs"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "db"), 0o755); err != nil {
		t.Fatal(err)
	}
	args := []string{"-d", filepath.Join(dir, "db", "demo"), "-t", "text"}
	for _, name := range []string{"gopher.txt", "wais.txt", "big.txt", "gone.txt"} {
		p := filepath.Join(dir, "docs", name)
		if err := os.WriteFile(p, f.docs[name], 0o644); err != nil {
			t.Fatal(err)
		}
		args = append(args, p)
	}
	idx := exec.Command(filepath.Join(bin, "waisindex"), args...)
	idx.Dir = dir
	if out, err := idx.CombinedOutput(); err != nil {
		t.Fatalf("waisindex: %v\n%s", err, out)
	}
	// The server's lock file is hard-coded as /tmp/INFO.lock; one left
	// by a crashed run would make it skip INFO.
	os.Remove("/tmp/INFO.lock")
	s := peer.Start(t, peer.Spec{
		Name:    "waisserver",
		Program: filepath.Join(bin, "waisserver"),
		Args: func(port int) ([]string, error) {
			return []string{"-p", strconv.Itoa(port), "-d", filepath.Join(dir, "db"), "-e", filepath.Join(dir, "server.log")}, nil
		},
		Dir: dir,
		Env: []string{"WAIS_BIND_ADDR=127.0.0.1"},
	})
	f.addr, f.port = s.Addr, s.Port
	return f
}

func (f *fixture) url(rest string) string { return "wais://" + f.addr + "/" + rest }

// get follows raw with ac (nil: a new access.Client), to which it gives a
// dialogue log and, when ac has none, an idle timeout of 30 seconds; the
// log grows while a body is read.
func get(t *testing.T, raw string, ac *access.Client) (*access.Resource, *bytes.Buffer, error) {
	t.Helper()
	return getWith(t, raw, ac, nil)
}

// getWith is get with the request's own values o (access.Client.Do).
func getWith(t *testing.T, raw string, ac *access.Client, o *access.Options) (*access.Resource, *bytes.Buffer, error) {
	t.Helper()
	u, err := locator.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	if ac == nil {
		ac = &access.Client{}
	}
	log := new(bytes.Buffer)
	ac.Dialogue = log
	if ac.IdleTimeout == 0 {
		ac.IdleTimeout = 30 * time.Second
	}
	res, err := ac.Do(context.Background(), u, o)
	err = listingErr(res, err)
	return res, log, err
}

var hitLine = regexp.MustCompile(`^\s*(\d+): Score:\s*(-?\d+), lines:\s*(-?\d+) '(.*)'$`)

type hit struct {
	score, lines int64
	headline     string
}

// waissearch runs the old client for words on f's server and reads what
// it prints: "NumberOfRecordsReturned: N" and one line per document,
// "  1: Score:   99, lines:   1 'headline'".
func (f *fixture) waissearch(t *testing.T, words ...string) (int, []hit) {
	t.Helper()
	cmd := exec.Command(filepath.Join(f.bin, "waissearch"), append([]string{"-h", peer.Host, "-p", strconv.Itoa(f.port), "-d", "demo"}, words...)...)
	cmd.Stdin = strings.NewReader("q\nq\n")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("waissearch: %v\n%s", err, out)
	}
	n := -1
	var hits []hit
	for _, line := range strings.Split(string(out), "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "NumberOfRecordsReturned: "); ok {
			n, _ = strconv.Atoi(v)
		}
		if m := hitLine.FindStringSubmatch(line); m != nil {
			s, _ := strconv.ParseInt(m[2], 10, 64)
			l, _ := strconv.ParseInt(m[3], 10, 64)
			hits = append(hits, hit{s, l, m[4]})
		}
	}
	if n < 0 {
		t.Fatalf("waissearch printed no NumberOfRecordsReturned:\n%s", out)
	}
	return n, hits
}

// TestPeer runs every check against one server (starting one takes
// seconds on a loaded machine).
func TestPeer(t *testing.T) {
	f := serve(t)

	// wais-protspec.txt §3: a search's results, count, headlines, scores
	// and order, are what waissearch reports for the same query.
	t.Run("search equals waissearch §3.2", func(t *testing.T) {
		for _, words := range [][]string{{"protocol"}, {"gopher"}, {"relevance", "chunk"}} {
			n, hits := f.waissearch(t, words...)
			res, log, err := get(t, f.url("demo?"+strings.Join(words, "+")), nil)
			if err != nil {
				t.Fatalf("%v: %v\n%s", words, err, log)
			}
			es := entries(res.Listing)
			if len(es) != n || len(hits) != n {
				t.Fatalf("%v: %d entries, waissearch %d records and %d lines\n%s", words, len(es), n, len(hits), log)
			}
			for i, e := range es {
				h := hits[i]
				if e.Name != h.headline || e.Parts["score"] != h.score || e.Parts["lines"] != h.lines {
					t.Errorf("%v: entry %d = %q score %v lines %v, waissearch %q score %d lines %d", words, i+1, e.Name, e.Parts["score"], e.Parts["lines"], h.headline, h.score, h.lines)
				}
				w, err := wais.Parse(e.URL)
				if err != nil || !w.HasDoc || w.WType != "TEXT" || w.Database != "demo" || w.Host != peer.Host {
					t.Errorf("%v: entry %d URL %s: %+v %v", words, i+1, e.URL, w, err)
				}
			}
		}
	})

	// The counts pinned, as measured: "protocol" is in all four files
	// (gone.txt is still indexed).
	t.Run("search counts", func(t *testing.T) {
		res, log, err := get(t, f.url("demo?protocol"), nil)
		if err != nil {
			t.Fatalf("%v\n%s", err, log)
		}
		if got := len(entries(res.Listing)); got != 4 {
			t.Errorf("protocol: %d entries, want 4\n%s", got, log)
		}
		res, log, err = get(t, f.url("demo?protocol"), &access.Client{MaxEntries: 2})
		if err != nil {
			t.Fatalf("%v\n%s", err, log)
		}
		if got := len(entries(res.Listing)); got != 2 || !truncated(res.Listing) {
			t.Errorf("MaxEntries 2: %d entries, truncated %v\n%s", got, truncated(res.Listing), log)
		}
	})

	entry := func(t *testing.T, words, name string) access.Entry {
		t.Helper()
		res, log, err := get(t, f.url("demo?"+words), nil)
		if err != nil {
			t.Fatalf("%v\n%s", err, log)
		}
		for _, e := range entries(res.Listing) {
			if strings.HasPrefix(e.Name, name+" ") {
				return e
			}
		}
		t.Fatalf("no entry %s among %+v", name, entries(res.Listing))
		return access.Entry{}
	}

	// A document larger than one chunk comes whole, chunk by chunk, equal
	// to the file indexed (wais-waisprot.txt §8.0).
	t.Run("retrieve in chunks §8.0", func(t *testing.T) {
		for _, name := range []string{"big.txt", "wais.txt"} {
			e := entry(t, "protocol", name)
			res, log, err := get(t, e.URL, nil)
			if err != nil {
				t.Fatalf("%s: %v\n%s", name, err, log)
			}
			body, err := io.ReadAll(res.Body)
			res.Close()
			if err != nil {
				t.Fatalf("%s: %v\n%s", name, err, log)
			}
			if !bytes.Equal(body, f.docs[name]) {
				t.Fatalf("%s: %d octets retrieved, the file has %d", name, len(body), len(f.docs[name]))
			}
			chunks := (len(body) + wais.ChunkSize) / wais.ChunkSize
			if got := strings.Count(log.String(), "query type 1"); got != chunks {
				t.Errorf("%s: %d retrievals for %d octets, want %d\n%s", name, got, len(body), chunks, log)
			}
			if res.MediaType != "text/plain" {
				t.Errorf("%s: media type %q", name, res.MediaType)
			}
		}
	})

	// The older URL form CERN's libwww and Lynx wrote,
	// db/wtype/length/fields, names the same document.
	t.Run("CERN and draft 03 wpath", func(t *testing.T) {
		e := entry(t, "gopher", "gopher.txt")
		w, _ := wais.Parse(e.URL)
		es, err := wais.ParseDocID([]byte(w.WPath))
		if err != nil {
			t.Fatalf("freeWAIS docid: %v", err)
		}
		var fields strings.Builder
		for _, el := range es {
			fmt.Fprintf(&fields, "%d=%s;", el.Tag, locator.Escape(string(el.Value), locator.EncodeUchar))
		}
		for _, raw := range []string{
			f.url(fmt.Sprintf("demo/TEXT/%d/%s", len(f.docs["gopher.txt"]), fields.String())),
			f.url("demo/TEXT/" + fields.String()),
		} {
			res, log, err := get(t, raw, nil)
			if err != nil {
				t.Fatalf("%s: %v\n%s", raw, err, log)
			}
			body, _ := io.ReadAll(res.Body)
			res.Close()
			if !bytes.Equal(body, f.docs["gopher.txt"]) {
				t.Errorf("%s: %q", raw, body)
			}
		}
	})

	// A document the server cannot deliver is its "no": a
	// *access.ServerError, outcome Absent (exit 1).
	t.Run("missing document", func(t *testing.T) {
		e := entry(t, "protocol", "gone.txt")
		if err := os.Remove(filepath.Join(f.dir, "docs", "gone.txt")); err != nil {
			t.Fatal(err)
		}
		_, log, err := get(t, e.URL, nil)
		var se *access.ServerError
		if !errors.As(err, &se) || access.Classify(err) != access.Absent || se.Code != "SF" {
			t.Fatalf("got %v, want a ServerError SF\n%s", err, log)
		}
		// From an offset too: the server's own answer, not a document
		// shorter than the offset.
		u, _ := locator.Parse(e.URL)
		var dlg bytes.Buffer
		_, err = (&access.Client{Dialogue: &dlg, IdleTimeout: 30 * time.Second}).GetFrom(context.Background(), u, 5)
		var oe *wais.OffsetError
		if !errors.As(err, &se) || errors.As(err, &oe) || access.Classify(err) != access.Absent || se.Code != "SF" || se.Text == "" {
			t.Fatalf("from offset 5: %v, want the server's ServerError SF\n%s", err, dlg.String())
		}
	})

	// wais://host:port/database alone is the source description.
	t.Run("source description", func(t *testing.T) {
		res, log, err := get(t, f.url("demo"), nil)
		if err != nil {
			t.Fatalf("%v\n%s", err, log)
		}
		body, _ := io.ReadAll(res.Body)
		res.Close()
		src, err := os.ReadFile(filepath.Join(f.dir, "db", "demo.src"))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(body, src) || res.MediaType != "application/x-wais-source" {
			t.Errorf("source %q (%s), demo.src %q", body, res.MediaType, src)
		}
		// With search words given, the same URL is a search.
		res, log, err = getWith(t, f.url("demo"), nil, &access.Options{Search: "gopher"})
		if err != nil || res.Listing == nil || len(entries(res.Listing)) != 1 {
			t.Fatalf("Options.Search: %+v %v\n%s", res, err, log)
		}
	})

	// A retrieval resumes at an offset (access.Client.GetFrom): its
	// chunks are byte ranges of the document (wais-waisprot.txt §8.0),
	// the first one starting there. The tail from each offset equals
	// the tail of the whole document; Size is the whole document's once
	// the first chunk is the last.
	t.Run("resume from an offset §8.0", func(t *testing.T) {
		e := entry(t, "protocol", "big.txt")
		u, err := locator.Parse(e.URL)
		if err != nil {
			t.Fatal(err)
		}
		res, log, err := get(t, e.URL, nil)
		if err != nil {
			t.Fatalf("%v\n%s", err, log)
		}
		whole, err := io.ReadAll(res.Body)
		res.Close()
		if err != nil || !bytes.Equal(whole, f.docs["big.txt"]) {
			t.Fatalf("the whole document: %d octets, %v", len(whole), err)
		}
		n := int64(len(whole))
		for _, x := range []struct {
			off, size int64
			chunks    int
		}{
			{1, -1, 3},
			{wais.ChunkSize - 1, -1, 2},
			{wais.ChunkSize, -1, 2},
			{2*wais.ChunkSize + 17, n, 1},
			{n - 1, n, 1},
			// At the end: no text from the offset, one octet before it.
			{n, n, 2},
		} {
			var log bytes.Buffer
			ac := &access.Client{Dialogue: &log, IdleTimeout: 30 * time.Second}
			res, err := ac.GetFrom(context.Background(), u, x.off)
			if err != nil {
				t.Fatalf("offset %d: %v\n%s", x.off, err, log.String())
			}
			tail, err := io.ReadAll(res.Body)
			res.Close()
			if err != nil || !bytes.Equal(tail, whole[x.off:]) {
				t.Errorf("offset %d: %d octets (%v), want the last %d of the document", x.off, len(tail), err, n-x.off)
			}
			if res.Offset != x.off || res.Size != x.size {
				t.Errorf("offset %d: Offset %d Size %d, want %d and %d", x.off, res.Offset, res.Size, x.off, x.size)
			}
			if got := strings.Count(log.String(), "query type 1"); got != x.chunks {
				t.Errorf("offset %d: %d retrievals, want %d\n%s", x.off, got, x.chunks, log.String())
			}
			if !strings.Contains(log.String(), fmt.Sprintf("bytes %d-%d\n", x.off, x.off+wais.ChunkSize)) {
				t.Errorf("offset %d: the first retrieval does not begin there\n%s", x.off, log.String())
			}
		}
		// Past the end: an *OffsetError, a failure (as ftp's), with
		// the server's out-of-range diagnostic for the octet before the
		// offset.
		for _, off := range []int64{n + 1, 10 * n} {
			var log bytes.Buffer
			ac := &access.Client{Dialogue: &log, IdleTimeout: 30 * time.Second}
			_, err := ac.GetFrom(context.Background(), u, off)
			var oe *wais.OffsetError
			if !errors.As(err, &oe) || oe.Offset != off || oe.Code != "SF" || oe.Command != fmt.Sprintf("retrieve \"TEXT\" bytes %d-%d", off-1, off) ||
				access.Classify(err) != access.Failed || !strings.Contains(err.Error(), fmt.Sprintf("cannot resume at octet %d: the document ends before it", off)) {
				t.Errorf("offset %d: %v, want an OffsetError SF\n%s", off, err, log.String())
			}
		}
		// A short document, its one chunk from an offset.
		w := entry(t, "protocol", "wais.txt")
		wu, _ := locator.Parse(w.URL)
		res, err = (&access.Client{IdleTimeout: 30 * time.Second}).GetFrom(context.Background(), wu, 5)
		if err != nil {
			t.Fatal(err)
		}
		tail, _ := io.ReadAll(res.Body)
		res.Close()
		if doc := f.docs["wais.txt"]; !bytes.Equal(tail, doc[5:]) || res.Size != int64(len(doc)) || res.Offset != 5 {
			t.Errorf("wais.txt from 5: %q Size %d Offset %d", tail, res.Size, res.Offset)
		}
	})

	// MaxSize bounds a document's octets: ErrTooLarge past it.
	t.Run("MaxSize", func(t *testing.T) {
		e := entry(t, "protocol", "big.txt")
		res, log, err := get(t, e.URL, &access.Client{MaxSize: 1000})
		if err != nil {
			t.Fatalf("%v\n%s", err, log)
		}
		body, err := io.ReadAll(res.Body)
		res.Close()
		if !errors.Is(err, access.ErrTooLarge) || len(body) != 1000 {
			t.Errorf("%d octets, %v; want 1000 and ErrTooLarge", len(body), err)
		}
	})
}
