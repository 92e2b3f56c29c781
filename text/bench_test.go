package text_test

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"testing"

	"mvdan.cc/xurls/v2"

	"github.com/rfc1738/locator/text"
)

var (
	mixedOnce sync.Once
	mixedText []byte
	mixedErr  error
)

// mixed builds the benchmark text: the spec texts (RFCs and drafts, with
// their own wrappers and examples), and between their paragraphs every
// fourth URL of the corpora in /work/shared/data/urls, each set in prose
// one of four ways: in a sentence, in parentheses, in a <URL:...>
// wrapper, and alone on a line: about 3 MB, one URL per 110 bytes.
func mixed(b *testing.B) []byte {
	mixedOnce.Do(func() {
		specs, err := filepath.Glob(filepath.Join(shared, "spec", "*.txt"))
		if err != nil || len(specs) == 0 {
			mixedErr = os.ErrNotExist
			return
		}
		sort.Strings(specs)
		var paras [][]byte
		for _, p := range specs {
			d, err := os.ReadFile(p)
			if err != nil {
				mixedErr = err
				return
			}
			paras = append(paras, bytes.SplitAfter(d, []byte("\n\n"))...)
		}
		var urls []string
		for _, f := range []string{"kasztp.txt", "userbait.txt", "node_files.txt", "isaacs_files.txt"} {
			fh, err := os.Open(filepath.Join(shared, "data", "urls", f))
			if err != nil {
				mixedErr = err
				return
			}
			sc := bufio.NewScanner(fh)
			for i := 0; sc.Scan(); i++ {
				if i%4 == 0 {
					urls = append(urls, sc.Text())
				}
			}
			fh.Close()
		}
		var buf bytes.Buffer
		p := 0
		for i, u := range urls {
			switch i % 4 {
			case 0:
				buf.WriteString("For the details, see " + u + ". It has moved twice.\n")
			case 1:
				buf.WriteString("The mirror (" + u + ") is faster, they say.\n")
			case 2:
				buf.WriteString("    Archived at <URL:" + u + ">\n")
			case 3:
				buf.WriteString(u + "\n")
			}
			if i%8 == 7 {
				buf.Write(paras[p%len(paras)])
				p++
			}
		}
		for ; p < len(paras); p++ {
			buf.Write(paras[p])
		}
		mixedText = buf.Bytes()
	})
	if mixedErr != nil {
		b.Skipf("benchmark text: %v", mixedErr)
	}
	return mixedText
}

// BenchmarkScanner times text.Scanner over the mixed text.
//
//	go test -run '^$' -bench 'Scanner|Xurls' ./text/
func BenchmarkScanner(b *testing.B) {
	data := mixed(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		s := text.NewScanner(bytes.NewReader(data), nil)
		n = 0
		for s.Scan() {
			n++
		}
	}
	b.ReportMetric(float64(n), "urls")
}

// BenchmarkXurlsStrict times mvdan.cc/xurls/v2 Strict() on the same
// bytes: the regular expression most Go programs use for this job.
func BenchmarkXurlsStrict(b *testing.B) {
	data := mixed(b)
	re := xurls.Strict()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		n = len(re.FindAllIndex(data, -1))
	}
	b.ReportMetric(float64(n), "urls")
}

var (
	proseOnce sync.Once
	proseText []byte
)

// prose is the spec texts alone, concatenated: prose with few URLs.
func prose(b *testing.B) []byte {
	proseOnce.Do(func() {
		specs, _ := filepath.Glob(filepath.Join(shared, "spec", "*.txt"))
		sort.Strings(specs)
		for _, p := range specs {
			d, err := os.ReadFile(p)
			if err == nil {
				proseText = append(proseText, d...)
			}
		}
	})
	if len(proseText) == 0 {
		b.Skip("no spec texts")
	}
	return proseText
}

// BenchmarkScannerProse and BenchmarkXurlsStrictProse compare the two on
// the spec texts alone (about 1 URL per 2 KB).
func BenchmarkScannerProse(b *testing.B) {
	data := prose(b)
	b.SetBytes(int64(len(data)))
	n := 0
	for b.Loop() {
		s := text.NewScanner(bytes.NewReader(data), nil)
		n = 0
		for s.Scan() {
			n++
		}
	}
	b.ReportMetric(float64(n), "urls")
}

func BenchmarkXurlsStrictProse(b *testing.B) {
	data := prose(b)
	re := xurls.Strict()
	b.SetBytes(int64(len(data)))
	n := 0
	for b.Loop() {
		n = len(re.FindAllIndex(data, -1))
	}
	b.ReportMetric(float64(n), "urls")
}
