package crawl

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rfc1738/locator/internal/atomicfile"
)

// A State kept in a directory: a second OpenState without resume is
// refused; resumed without seeds it has the kept ones; its events log
// reads back what the runs before wrote, a line a kill cut short ended
// so that the next record is a line of its own.
func TestState(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	s, err := OpenState(dir, []string{"http://a/", "gopher://b/"}, false)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Write([]byte("{\"event\":\"page\"}\n{\"cut")); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenState(dir, []string{"http://a/"}, false); !errors.Is(err, ErrStateKept) {
		t.Errorf("a kept crawl begun anew: %v", err)
	}
	s, err = OpenState(dir, nil, true)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"http://a/", "gopher://b/"}; !slices.Equal(s.Seeds, want) {
		t.Errorf("resumed seeds %q, want %q", s.Seeds, want)
	}
	b, err := io.ReadAll(s.Events())
	if err != nil || string(b) != "{\"event\":\"page\"}\n{\"cut" {
		t.Errorf("events %q, %v", b, err)
	}
	s.Write([]byte("{\"event\":\"link\"}\n"))
	s.Close()
	b, _ = os.ReadFile(filepath.Join(dir, StateEvents))
	if want := "{\"event\":\"page\"}\n{\"cut\n{\"event\":\"link\"}\n"; string(b) != want {
		t.Errorf("events file %q, want %q", b, want)
	}
	// Seeds given on resuming replace the kept ones.
	s, err = OpenState(dir, []string{"http://c/"}, true)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if b, _ := os.ReadFile(filepath.Join(dir, StateSeeds)); string(b) != "http://c/\n" {
		t.Errorf("seeds file %q", b)
	}
}

// Resuming a directory that keeps no seeds, without seeds, is a
// *SeedsError naming it.
func TestStateNoSeeds(t *testing.T) {
	dir := t.TempDir()
	_, err := OpenState(dir, nil, true)
	var se *SeedsError
	if !errors.As(err, &se) || se.Dir != dir || !errors.Is(err, os.ErrNotExist) {
		t.Errorf("OpenState = %v, want a *SeedsError", err)
	}
}

// A symbolic link planted as the events log or the frontier is not
// opened, and its target not written.
func TestStateSymlinks(t *testing.T) {
	if atomicfile.NoFollow == 0 {
		t.Skip("no O_NOFOLLOW on this system")
	}
	for _, name := range []string{StateEvents, StateFrontier} {
		dir := t.TempDir()
		target := filepath.Join(t.TempDir(), "precious")
		if err := os.WriteFile(target, []byte("precious\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
		s, err := OpenState(dir, []string{"http://a/"}, true)
		if err == nil {
			s.Close()
			t.Errorf("%s: a link opened", name)
		} else if !strings.Contains(err.Error(), "symbolic links") {
			t.Errorf("%s: %v", name, err)
		}
		if b, _ := os.ReadFile(target); string(b) != "precious\n" {
			t.Errorf("%s: the link's target now holds %q", name, b)
		}
	}
}
