package main

import (
	"bytes"
	"strings"
	"testing"
)

// FuzzCrawlForeign: any command line read for wget's flags is said in
// printable lines, or left alone (nothing written) when it holds none;
// a line made of locator's own flags and URLs only is always left
// alone; --delay's argument is a duration, seconds, or an error, never
// a panic.
func FuzzCrawlForeign(f *testing.F) {
	f.Add("-r\x00-l3\x00--wait=2\x00http://h/", "2")
	f.Add("-e\x00robots=off\x00-A\x00pdf,*.x\x00--\x00-r", "0.5s")
	f.Add("--level\x00-P", "1e400")
	f.Fuzz(func(t *testing.T, line, delay string) {
		args := strings.Split(line, "\x00")
		var out bytes.Buffer
		found := crawlForeign(&env{stderr: &out}, args)
		if !found && out.Len() > 0 {
			t.Fatalf("%q: nothing found, yet %q written", args, out.String())
		}
		for _, c := range out.Bytes() {
			if c < 0x20 && c != '\n' || c == 0x7f {
				t.Fatalf("%q: a control octet %#x written:\n%s", args, c, out.String())
			}
		}
		own := true
		for _, a := range args {
			if strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--depth") && !strings.HasPrefix(a, "--delay") {
				own = false
			}
		}
		if own && found {
			t.Fatalf("%q: locator's own read as wget's", args)
		}
		var d secondsFlag
		if err := d.Set(delay); err == nil && !d.set {
			t.Fatalf("--delay %q: set without saying so", delay)
		}
	})
}

// TestDepthFlag: --depth takes wget's -l spellings, a number or inf (no
// bound, as 0); anything else is a usage error.
func TestDepthFlag(t *testing.T) {
	for in, want := range map[string]int{"0": 0, "3": 3, "inf": 0, "infinity": 0, "-1": -1, "x": -1, "1.5": -1} {
		var d depthFlag = 7
		err := d.Set(in)
		switch {
		case want < 0 && err == nil:
			t.Errorf("--depth %s: %d, want a usage error", in, d)
		case want >= 0 && (err != nil || int(d) != want):
			t.Errorf("--depth %s: %d %v, want %d", in, d, err, want)
		}
	}
	if code, _, errs := runCLI(t, "", "crawl", "--depth", "sometimes", "http://127.0.0.1:1/"); code != 2 || !strings.Contains(errs, "depth") {
		t.Errorf("--depth sometimes: exit %d %q", code, errs)
	}
}
