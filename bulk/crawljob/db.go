package crawljob

// The crawl database: one NDJSON record per URL the crawl knows, its
// status, its depth, the page it was first found on and when it was
// fetched, in files of a generation directory (db/db-RRRRR/, written by
// round R); db/CURRENT names the generation that is whole, and is only
// ever replaced by a rename.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/crawl"
)

// An Entry is one URL of the crawl database.
type Entry struct {
	// URL is the URL as the crawl fetches it (crawl.Key: normalized,
	// no fragment).
	URL string `json:"url"`
	// Status is Unfetched, or the status of its page's record ("ok",
	// "gone", "error", "refused", "policy", "skipped").
	Status string `json:"status"`
	// Depth is the links followed from a seed (0 for a seed).
	Depth int `json:"depth"`
	// From is the page it was first found on ("" for a seed).
	From string `json:"from,omitempty"`
	// Fetched is when it was fetched (RFC 3339, UTC), "" before.
	Fetched string `json:"fetched,omitempty"`
}

// Unfetched is the status of a URL found and not fetched yet.
const Unfetched = "unfetched"

// statuses are the statuses an Entry may have.
var statuses = map[string]bool{Unfetched: true, "ok": true, "gone": true, "error": true, "refused": true, "policy": true, "skipped": true}

// MaxRecord bounds one record of the database: a URL is at most a
// line of a page, and a crawl's URL far less.
const MaxRecord = 1 << 20

// A RecordError says why a record of the database cannot be read: its
// file, its line, the rule it breaks.
type RecordError struct {
	File string
	Line int
	Rule string
}

func (e *RecordError) Error() string {
	return fmt.Sprintf("crawl database %s:%d: %s", e.File, e.Line, e.Rule)
}

// ParseEntry reads one record (a line, without its newline): a JSON
// object of exactly Entry's fields, the URL one crawl.Key leaves as it
// is, a known status, a depth not negative, a first-seen page that is a
// URL, a fetch time in RFC 3339 given exactly when the status is not
// Unfetched.
func ParseEntry(line []byte) (Entry, error) {
	var e Entry
	if len(line) > MaxRecord {
		return e, fmt.Errorf("a record longer than %d octets", MaxRecord)
	}
	if !utf8.Valid(line) {
		return e, fmt.Errorf("not UTF-8")
	}
	d := json.NewDecoder(bytes.NewReader(line))
	d.DisallowUnknownFields()
	if err := d.Decode(&e); err != nil {
		return e, fmt.Errorf("not a record: %v", err)
	}
	if d.More() {
		return e, fmt.Errorf("more after the record, at offset %d", d.InputOffset())
	}
	u, err := locator.Parse(e.URL)
	if err != nil {
		return e, fmt.Errorf("url: %v", err)
	}
	if k, err := crawl.Key(u); err != nil || k.String() != e.URL {
		return e, fmt.Errorf("url %q is not as the crawl fetches it (crawl.Key)", e.URL)
	}
	if !statuses[e.Status] {
		return e, fmt.Errorf("status %q is none of unfetched, ok, gone, error, refused, policy, skipped", e.Status)
	}
	if e.Depth < 0 {
		return e, fmt.Errorf("depth %d is negative", e.Depth)
	}
	if e.From != "" {
		if _, err := locator.Parse(e.From); err != nil {
			return e, fmt.Errorf("from: %v", err)
		}
	}
	switch {
	case e.Status == Unfetched && e.Fetched != "":
		return e, fmt.Errorf("fetched given for a URL unfetched")
	case e.Status != Unfetched:
		t, err := time.Parse(time.RFC3339Nano, e.Fetched)
		if err != nil {
			return e, fmt.Errorf("fetched: %v", err)
		}
		if t.UTC().Format(time.RFC3339Nano) != e.Fetched {
			return e, fmt.Errorf("fetched %q is not as written (RFC 3339, UTC)", e.Fetched)
		}
	}
	return e, nil
}

// Line is e's record, with its newline.
func (e Entry) Line() string {
	b, _ := json.Marshal(e)
	return string(b) + "\n"
}

// less orders the fetch list of a server: shallower first, then by URL.
func (e Entry) less(o Entry) bool {
	if e.Depth != o.Depth {
		return e.Depth < o.Depth
	}
	return e.URL < o.URL
}

// A State is db/CURRENT: the last round done, its generation directory
// (relative to db/), and the URLs it left unfetched.
type State struct {
	Round     int    `json:"round"`
	DB        string `json:"db"`
	Unfetched int64  `json:"unfetched"`
}

// genName is the generation directory round r writes.
func genName(r int) string { return fmt.Sprintf("db-%05d", r) }

// readState reads dir/db/CURRENT; ok is false when there is none.
func readState(dir string) (State, bool, error) {
	var st State
	b, err := os.ReadFile(filepath.Join(dir, "db", "CURRENT"))
	if os.IsNotExist(err) {
		return st, false, nil
	}
	if err != nil {
		return st, false, err
	}
	if err := json.Unmarshal(b, &st); err != nil || st.Round < 0 || st.DB != genName(st.Round) {
		return st, false, fmt.Errorf("%s: not a crawl's CURRENT (%q)", filepath.Join(dir, "db", "CURRENT"), strings.TrimSpace(string(b)))
	}
	return st, true, nil
}

// writeState replaces dir/db/CURRENT with st: a new file, renamed over
// it, so that CURRENT always names a whole generation.
func writeState(dir string, st State) error {
	b, _ := json.Marshal(st)
	return replaceFile(filepath.Join(dir, "db", "CURRENT"), append(b, '\n'))
}

// replaceFile writes b to a new file beside path (a name of its own,
// O_EXCL), synced, then renames it over path: a reader finds the old
// file whole or the new one whole.
func replaceFile(path string, b []byte) (err error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+"-*.tmp")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			os.Remove(f.Name())
		}
	}()
	_, werr := f.Write(b)
	if err = errors.Join(werr, f.Sync(), f.Close()); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}
