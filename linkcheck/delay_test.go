package linkcheck

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rfc1738/locator/internal/peer"
)

// TestDelay: Delay, as nginx's log shows it (each request's end to the
// millisecond, $msec, less its $request_time: its beginning): at
// PerDest 1 and at PerDest 2, no probe to the server begins less than
// Delay after the end of one that ended before it began (dest.Pace; a
// millisecond of nginx's rounding allowed each side; at PerDest 2 a
// gap of 2 ms or less is read as a round's other probe).
func TestDelay(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{}
	for i := range 8 {
		files[fmt.Sprintf("f%d.txt", i)] = strings.Repeat("x", i)
	}
	writeTree(t, root, files)
	dir := t.TempDir()
	log := filepath.Join(dir, "timed.log")
	addr := peer.Nginx(t, root, peer.NginxConfig{
		Connections: 64,
		HTTP:        `log_format timed '$msec $request_time $request';`,
		Server:      "access_log " + log + " timed;",
	}).Addr
	const delay = 100 * time.Millisecond
	for _, per := range []int{1, 2} {
		os.Truncate(log, 0)
		var texts []string
		for i := range 8 {
			texts = append(texts, fmt.Sprintf("http://%s/f%d.txt", addr, i))
		}
		c := &Checker{PerDest: per, Delay: delay}
		for _, r := range check(t, c, texts) {
			if r.Status.State != "ok" {
				t.Errorf("%s: %s %v", r.Text, r.Status.State, r.Status.Err)
			}
		}
		type span struct{ begin, end int64 }
		var spans []span
		// nginx logs a request after its answer is sent: the last line
		// may come after the probe's end.
		for range 50 {
			if b, _ := os.ReadFile(log); strings.Count(string(b), " /f") >= 8 {
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
		f, err := os.Open(log)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			fs := strings.Fields(sc.Text())
			if len(fs) > 3 && !strings.HasPrefix(fs[3], "/f") {
				continue // peer.Nginx's readiness request
			}
			end, err1 := strconv.ParseFloat(fs[0], 64)
			took, err2 := strconv.ParseFloat(fs[1], 64)
			if err1 != nil || err2 != nil {
				t.Fatalf("log line %q", sc.Text())
			}
			spans = append(spans, span{int64((end - took) * 1000), int64(end * 1000)})
		}
		f.Close()
		if len(spans) != 8 {
			b, _ := os.ReadFile(log)
			t.Fatalf("per-dest %d: nginx logged %d requests, want 8:\n%s", per, len(spans), b)
		}
		for _, a := range spans {
			for _, b := range spans {
				// At PerDest 2 the probes of a round begin together and
				// end within the same millisecond: a gap of 2 ms or less
				// is a round's other probe, not the next round.
				if gap := b.begin - a.end; gap > 2 && gap < delay.Milliseconds()-2 || per == 1 && gap >= 0 && gap < delay.Milliseconds()-2 && a != b {
					t.Errorf("per-dest %d: a request began %d ms after another ended, want at least %v", per, b.begin-a.end, delay)
				}
			}
		}
	}
}
