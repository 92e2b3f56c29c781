package crawl

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/rfc1738/locator/internal/atomicfile"
)

// The files of a State's directory.
const (
	StateFrontier = "frontier.db"   // the BoltFrontier
	StateSeeds    = "seeds"         // the seeds, one a line
	StateEvents   = "events.ndjson" // the events log, one record a line
)

// maxStateSeeds bounds the seeds file read.
const maxStateSeeds = 16 << 20

// A State is a crawl kept in a directory between runs, so that a crawl
// that stopped (a bound, a signal, even SIGKILL) goes on where it was:
// its Frontier (StateFrontier), its Seeds (StateSeeds) and its events
// log (StateEvents), the caller's record of each event, one a line,
// written at once by Write and read back by Events, so that the report
// of a resumed crawl can name what the runs before found.
//
// No file of the directory is opened through a symbolic link: one
// planted there would have the crawl write to the file it points to.
// The seeds file is replaced whole (a new file renamed over it).
type State struct {
	Dir      string
	Frontier *BoltFrontier
	// Seeds are the crawl's seeds: those OpenState was given, or, when
	// it resumed with none, those the directory keeps.
	Seeds  []string
	events *os.File
	size   int64 // the events log's length when opened
}

// ErrStateKept says that the directory holds a crawl, which OpenState
// was not asked to resume: a kept crawl is never begun anew by mistake.
var ErrStateKept = errors.New("the directory holds a crawl already")

// A SeedsError says that a crawl resumed without seeds found none kept.
type SeedsError struct {
	Dir string
	Err error
}

func (e *SeedsError) Error() string {
	return fmt.Sprintf("no seeds kept in %s: %v", e.Dir, e.Err)
}

func (e *SeedsError) Unwrap() error { return e.Err }

// OpenState opens the crawl kept in dir, making dir when absent. A
// directory that holds a crawl is gone on with only when resume is
// true (else ErrStateKept); seeds replace those it keeps, and when
// resuming with none, the kept ones are the State's (a *SeedsError when
// there are none). A damaged frontier is a *DamagedError. The State
// holds its files open until Close.
func OpenState(dir string, seeds []string, resume bool) (*State, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	path := filepath.Join(dir, StateFrontier)
	seedsPath := filepath.Join(dir, StateSeeds)
	_, err := os.Lstat(path)
	exists := err == nil
	if exists && !resume {
		return nil, ErrStateKept
	}
	if resume && len(seeds) == 0 {
		b, err := atomicfile.ReadFile(seedsPath, maxStateSeeds)
		if err != nil {
			return nil, &SeedsError{Dir: dir, Err: err}
		}
		seeds = strings.Fields(string(b))
	}
	if !exists || len(seeds) > 0 {
		err := atomicfile.Write(seedsPath, 0o600, func(w io.Writer) error {
			_, err := io.WriteString(w, strings.Join(seeds, "\n")+"\n")
			return err
		})
		if err != nil {
			return nil, err
		}
	}
	f, err := OpenBolt(path)
	if err != nil {
		return nil, err
	}
	s := &State{Dir: dir, Frontier: f, Seeds: seeds}
	if err := s.openEvents(); err != nil {
		f.Close()
		return nil, err
	}
	return s, nil
}

// openEvents opens the events log for appending, and ends a line a
// kill cut short, so that the next record is a line of its own and not
// lost with it.
func (s *State) openEvents() error {
	f, err := os.OpenFile(filepath.Join(s.Dir, StateEvents), os.O_RDWR|os.O_APPEND|os.O_CREATE|atomicfile.NoFollow, 0o600)
	if err != nil {
		return err
	}
	st, err := f.Stat()
	if err == nil && !st.Mode().IsRegular() {
		err = fmt.Errorf("%s is not a regular file", f.Name())
	}
	if err == nil && st.Size() > 0 {
		last := make([]byte, 1)
		if _, err = f.ReadAt(last, st.Size()-1); err == nil && last[0] != '\n' {
			_, err = f.Write([]byte{'\n'})
		}
	}
	if err != nil {
		f.Close()
		return err
	}
	s.events, s.size = f, st.Size()
	return nil
}

// Write appends p, one record ending in "\n", to the events log, at
// once: it is on disk (unsynced) before the frontier marks its page
// done, and a kill loses none of the events of the pages not fetched
// again.
func (s *State) Write(p []byte) (int, error) { return s.events.Write(p) }

// Events returns the events log as the runs before left it (the
// records written since OpenState not included): the caller's records,
// one a line, the last perhaps cut short by a kill.
func (s *State) Events() io.Reader { return io.NewSectionReader(s.events, 0, s.size) }

// Close closes the events log and the frontier.
func (s *State) Close() error {
	return errors.Join(s.events.Close(), s.Frontier.Close())
}
