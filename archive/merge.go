package archive

import (
	"bufio"
	"bytes"
	"container/heap"
	"errors"
	"io"
	"os"
)

// An IndexFile is a CDXJ index to merge (MergeIndexes): its path, and
// the name its lines are to give as their WARC file's ("filename"),
// "" for the name they give.
type IndexFile struct {
	Path     string
	Filename string
}

// maxIndexLine bounds a line of an index merged: a capture's line is a
// URL and a few fields.
const maxIndexLine = 1 << 20

// MergeIndexes writes to w the lines of the indexes, each sorted as a
// Writer leaves its index (by key, then timestamp: the order pywb
// searches), as one sorted index: a k-way merge, one line of each file
// in memory. Each line gets its IndexFile's Filename: the indexes of
// WARC files written under one name and renamed after (the shards of a
// bulk crawl) name the files as they are at last.
func MergeIndexes(w io.Writer, files []IndexFile) error {
	h := &mergeHeap{}
	for _, f := range files {
		fd, err := os.Open(f.Path)
		if err != nil {
			return err
		}
		defer fd.Close()
		s := &mergeSource{f: f, r: bufio.NewReaderSize(fd, 64<<10)}
		if ok, err := s.next(); err != nil {
			return err
		} else if ok {
			h.s = append(h.s, s)
		}
	}
	heap.Init(h)
	bw := bufio.NewWriter(w)
	for h.Len() > 0 {
		s := h.s[0]
		if _, err := bw.Write(s.line); err != nil {
			return err
		}
		ok, err := s.next()
		if err != nil {
			return err
		}
		if ok {
			heap.Fix(h, 0)
		} else {
			heap.Pop(h)
		}
	}
	return bw.Flush()
}

// A mergeSource is one index being merged: its current line, renamed.
type mergeSource struct {
	f    IndexFile
	r    *bufio.Reader
	n    int // lines read
	line []byte
}

// next reads the source's next line, false at its end.
func (s *mergeSource) next() (bool, error) {
	var b []byte
	for {
		part, err := s.r.ReadSlice('\n')
		if len(b)+len(part) > maxIndexLine {
			return false, &IndexError{File: s.f.Path, Line: s.n + 1, Msg: "a line longer than 1 MiB"}
		}
		b = append(b, part...)
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err == io.EOF && len(b) == 0 {
			return false, nil
		}
		if err != nil && err != io.EOF {
			return false, err
		}
		break
	}
	s.n++
	e, err := parseLine(string(bytes.TrimRight(b, "\r\n")))
	if err != nil {
		return false, &IndexError{File: s.f.Path, Line: s.n, Msg: err.Error()}
	}
	if s.f.Filename != "" {
		e.Filename = s.f.Filename
	}
	s.line = e.appendLine(s.line[:0])
	return true, nil
}

type mergeHeap struct{ s []*mergeSource }

func (h *mergeHeap) Len() int           { return len(h.s) }
func (h *mergeHeap) Less(i, j int) bool { return bytes.Compare(h.s[i].line, h.s[j].line) < 0 }
func (h *mergeHeap) Swap(i, j int)      { h.s[i], h.s[j] = h.s[j], h.s[i] }
func (h *mergeHeap) Push(x any)         { h.s = append(h.s, x.(*mergeSource)) }
func (h *mergeHeap) Pop() any {
	x := h.s[len(h.s)-1]
	h.s = h.s[:len(h.s)-1]
	return x
}
