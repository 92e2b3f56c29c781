package job

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"slices"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
)

func init() {
	register.DoFn3x1[context.Context, string, func(string), error](&writeFn{})
	register.DoFn3x1[context.Context, []byte, func(*string) bool, error](&finalizeFn{})
}

// Write writes the chunks of col (strings of whole NDJSON lines, each
// ending in a newline) to dir as name-SSSSS-of-NNNNN.ext, with no
// shuffle: each bundle writes its own temporary file,
// .tmp-name-RANDOM.ext, as it goes; when every bundle is done, one
// finalize step renames the temporaries to the final names (sorted, so
// the names are dense), removes the temporaries of failed attempts and
// the files of an earlier run beyond the new count, and writes one empty
// file when no bundle had a line. A name the finalize wrote is a file
// that is whole; a missing one is lost. A retried bundle writes a new
// temporary, so a failed attempt never shows.
func Write(s beam.Scope, dir, name, ext string, col beam.PCollection) {
	s = s.Scope("write " + name)
	temps := beam.ParDo(s, &writeFn{Dir: dir, Name: name, Ext: ext}, col)
	beam.ParDo0(s, &finalizeFn{Dir: dir, Name: name, Ext: ext}, beam.Impulse(s), beam.SideInput{Input: temps})
}

// WriteOne writes the chunks of col to the one file dir/filename,
// through a temporary and a rename as Write does.
func WriteOne(s beam.Scope, dir, filename string, col beam.PCollection) {
	s = s.Scope("write " + filename)
	ext := path.Ext(filename)
	name := strings.TrimSuffix(filename, ext)
	temps := beam.ParDo(s, &writeFn{Dir: dir, Name: name, Ext: ext}, col)
	beam.ParDo0(s, &finalizeFn{Dir: dir, Name: name, Ext: ext, One: true}, beam.Impulse(s), beam.SideInput{Input: temps})
}

// join joins a directory and a name: path.Join for local paths, a slash
// for URLs (path.Join would fold gs:// to gs:/).
func join(dir, name string) string {
	if strings.Contains(dir, "://") {
		return strings.TrimSuffix(dir, "/") + "/" + name
	}
	return path.Join(dir, name)
}

func tempPrefix(name string) string { return ".tmp-" + name + "-" }

// failWrites, set by a test, makes the first writer that finds no file
// at this path create it and fail after writing its first chunk: an
// attempt that dies mid-write.
var failWrites string

type writeFn struct {
	Dir, Name, Ext string

	fs   filesystem.Interface
	wc   io.WriteCloser
	w    *bufio.Writer
	temp string
}

// ProcessElement writes a chunk to the bundle's temporary, opened with
// the bundle's first chunk; FinishBundle closes it and emits its name,
// which the runner keeps only if the bundle commits.
func (f *writeFn) ProcessElement(ctx context.Context, chunk string, _ func(string)) error {
	if f.w == nil {
		f.temp = TempName(f.Dir, f.Name, f.Ext)
		fs, err := filesystem.New(ctx, f.temp)
		if err != nil {
			return err
		}
		wc, err := fs.OpenWrite(ctx, f.temp)
		if err != nil {
			fs.Close()
			return err
		}
		f.fs, f.wc, f.w = fs, wc, bufio.NewWriterSize(wc, 256<<10)
	}
	if _, err := f.w.WriteString(chunk); err != nil {
		return fmt.Errorf("writing %s: %w", f.temp, err)
	}
	if failWrites != "" {
		if _, err := os.Stat(failWrites); errors.Is(err, os.ErrNotExist) {
			os.WriteFile(failWrites, nil, 0o644)
			f.w.Flush()
			return errors.New("failing this attempt mid-write (test)")
		}
	}
	return nil
}

func (f *writeFn) FinishBundle(ctx context.Context, emit func(string)) error {
	if f.w == nil {
		return nil
	}
	defer func() { f.fs.Close(); f.fs, f.wc, f.w = nil, nil, nil }()
	if err := f.w.Flush(); err != nil {
		f.wc.Close()
		return fmt.Errorf("writing %s: %w", f.temp, err)
	}
	if err := f.wc.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", f.temp, err)
	}
	emit(f.temp)
	return nil
}

// finalizeFn gives the committed temporaries their final names and
// removes what is left of failed attempts and earlier runs.
type finalizeFn struct {
	Dir, Name, Ext string
	One            bool // one file, Name+Ext; the temporaries are concatenated
}

func (f *finalizeFn) final(i, n int) string {
	if f.One {
		return join(f.Dir, f.Name+f.Ext)
	}
	return join(f.Dir, fmt.Sprintf("%s-%05d-of-%05d%s", f.Name, i, n, f.Ext))
}

func (f *finalizeFn) ProcessElement(ctx context.Context, _ []byte, temps func(*string) bool) error {
	var names []string
	var t string
	for temps(&t) {
		names = append(names, t)
	}
	return Finalize(ctx, f.Dir, f.Name, f.Ext, f.One, names, nil)
}

// Finalize is Write's last step, for a sink that writes its own
// temporaries (dir/.tmp-name-RANDOM.ext, TempName): it renames the
// committed temporaries to name-SSSSS-of-NNNNN.ext (one: the one file
// name.ext), sorted, so that the names are dense, calling before (when
// not nil) with each temporary and its final name first; removes what
// else bears the name's pattern (failed attempts' temporaries, an
// earlier run's files beyond the new count); and writes one empty file
// when there is no temporary.
func Finalize(ctx context.Context, dir, name, ext string, one bool, temps []string, before func(temp, final string) error) error {
	f := &finalizeFn{Dir: dir, Name: name, Ext: ext, One: one}
	names := slices.Clone(temps)
	slices.Sort(names)
	fs, err := filesystem.New(ctx, f.Dir)
	if err != nil {
		return err
	}
	defer fs.Close()
	n := max(len(names), 1)
	if f.One {
		n = 1
	}
	var finals []string
	switch {
	case len(names) == 0:
		// No line: the files still exist, empty, so that a missing file
		// always means a lost one.
		if err := filesystem.Write(ctx, fs, f.final(0, 1), nil); err != nil {
			return err
		}
		finals = append(finals, f.final(0, 1))
	case f.One && len(names) > 1:
		return fmt.Errorf("%s: %d writers for one file", f.final(0, 1), len(names))
	default:
		for i, name := range names {
			to := f.final(i, n)
			if before != nil {
				if err := before(name, to); err != nil {
					return err
				}
			}
			if err := filesystem.Rename(ctx, fs, name, to); err != nil {
				// A retried finalize finds its renames done.
				if _, serr := fs.Size(ctx, to); serr != nil {
					return fmt.Errorf("renaming %s: %w", name, err)
				}
			}
			finals = append(finals, to)
		}
	}
	// What else bears the name's pattern is a failed attempt's
	// temporary or an earlier run's file beyond the new count.
	stale, err := fs.List(ctx, join(f.Dir, tempPrefix(f.Name)+"*"))
	if err != nil {
		return err
	}
	if !f.One {
		more, err := fs.List(ctx, join(f.Dir, f.Name+"-*-of-*"+f.Ext))
		if err != nil {
			return err
		}
		stale = append(stale, more...)
	}
	rm, ok := fs.(filesystem.Remover)
	if !ok {
		return nil
	}
	for _, name := range stale {
		if !slices.Contains(finals, name) {
			if err := rm.Remove(ctx, name); err != nil {
				return fmt.Errorf("removing %s: %w", name, err)
			}
		}
	}
	return nil
}

// TempName returns a new temporary's name for Finalize:
// dir/.tmp-name-RANDOM.ext.
func TempName(dir, name, ext string) string {
	var id [8]byte
	rand.Read(id[:])
	return join(dir, tempPrefix(name)+hex.EncodeToString(id[:])+ext)
}

// checkOutput makes the output directory (local) and writes and
// removes a probe file in it: an output that cannot be written fails
// before any work.
func checkOutput(ctx context.Context, dir string) error {
	if !strings.Contains(dir, "://") {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	probe := join(dir, tempPrefix("probe")+"check")
	fs, err := filesystem.New(ctx, probe)
	if err != nil {
		return err
	}
	defer fs.Close()
	if err := filesystem.Write(ctx, fs, probe, []byte("locator-bulk\n")); err != nil {
		return err
	}
	rm, ok := fs.(filesystem.Remover)
	if !ok {
		return fmt.Errorf("the file system cannot remove files (the job removes its temporaries)")
	}
	return rm.Remove(ctx, probe)
}
