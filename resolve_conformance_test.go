package locator_test

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"locator"
)

// relShared is the shared folder beside the repository, from the package
// directory (the module root).
var relShared = filepath.Join("..", "shared")

// readTSV reads a conformance TSV (header and comments start with "#"),
// returning the rows split on TAB, with the file's line number first.
func readTSV(t *testing.T, rel string) [][]string {
	t.Helper()
	path := filepath.Join(relShared, "conformance", rel)
	f, err := os.Open(path)
	if err != nil {
		if os.IsNotExist(err) {
			t.Skipf("shared conformance data absent: %v", err)
		}
		t.Fatal(err)
	}
	defer f.Close()
	var rows [][]string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || line == "" {
			continue
		}
		rows = append(rows, strings.Split(line, "\t"))
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(rows) == 0 {
		t.Fatalf("%s: no rows", path)
	}
	return rows
}

// unescapeTSV undoes the python/ and perl-uri/ TSV escapes (conformance
// README: \\ \t \n \r \xHH).
func unescapeTSV(s string) string {
	if strings.IndexByte(s, '\\') < 0 {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 == len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch s[i] {
		case '\\':
			b.WriteByte('\\')
		case 't':
			b.WriteByte('\t')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 'x':
			if i+2 < len(s) {
				var v byte
				for _, h := range []byte(s[i+1 : i+3]) {
					v <<= 4
					switch {
					case h >= '0' && h <= '9':
						v |= h - '0'
					case h >= 'a' && h <= 'f':
						v |= h - 'a' + 10
					case h >= 'A' && h <= 'F':
						v |= h - 'A' + 10
					}
				}
				b.WriteByte(v)
				i += 2
			}
		default:
			b.WriteByte('\\')
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

// resolveString resolves ref against base under r and returns the result
// as text, or "" and the error.
func resolveString(base, ref string, r locator.Resolution) (string, error) {
	b, err := locator.Parse(base)
	if err != nil {
		return "", err
	}
	u, err := locator.Resolve(b, ref, r)
	if err != nil {
		return "", err
	}
	return u.String(), nil
}

// TestRFCResolutionExamples: every example of RFC 3986 §5.4 under rfc3986
// and of RFC 1808 §5 under rfc1808 (the "expected" column; for RFC 3986
// "http:g" that is the strict parser's answer).
func TestRFCResolutionExamples(t *testing.T) {
	for _, tc := range []struct {
		file  string
		rules locator.Resolution
	}{
		{"rfc/rfc3986-5.4-resolution.tsv", locator.RFC3986},
		{"rfc/rfc1808-5-resolution.tsv", locator.RFC1808},
	} {
		rows := readTSV(t, tc.file)
		for _, row := range rows {
			sec, base, ref, want := row[0], row[1], row[2], row[3]
			got, err := resolveString(base, ref, tc.rules)
			if err != nil || got != want {
				t.Errorf("%s %s: Resolve(%q, %q, %v) = %q, %v; want %q", tc.file, sec, base, ref, tc.rules, got, err, want)
			}
		}
		t.Logf("%s: %d examples under %v", tc.file, len(rows), tc.rules)
	}
}
