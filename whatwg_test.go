package locator

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestWHATWGRobustness runs every input of the WHATWG URL Standard's
// urltestdata.json (../shared/conformance/whatwg) through Parse as a
// robustness corpus. The suite follows different semantics (it resolves
// against a base, strips tabs and newlines, maps hosts through IDNA, and
// rewrites "\" to "/" for special schemes), so its expected hrefs are not
// ours; what is asserted is ours: never a panic, and every input either
// parsed (and String reparses to the same components) or rejected with a
// problem of severity Error. The counts by category are the README's table
// "RFC 1738 and the WHATWG URL Standard"; a change to them must update it.
func TestWHATWGRobustness(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(sharedDir, "conformance", "whatwg", "urltestdata.json"))
	if err != nil {
		t.Skipf("WHATWG vectors not available: %v", err)
	}
	var raw []json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	type vector struct {
		Input   string  `json:"input"`
		Base    *string `json:"base"`
		Href    string  `json:"href"`
		Failure bool    `json:"failure"`
	}
	counts := map[string]int{}
	rules := map[string]int{}
	total := 0
	for _, r := range raw {
		var v vector
		if json.Unmarshal(r, &v) != nil || (v.Input == "" && v.Href == "" && !v.Failure && v.Base == nil) {
			continue // a comment string
		}
		total++
		u, err := Parse(v.Input)
		var cat string
		switch {
		case err != nil:
			pe, ok := err.(*ParseError)
			if !ok || pe.Problem.Severity != Error || pe.Problem.Rule == "" || len(pe.Problems) == 0 {
				t.Fatalf("Parse(%q): rejected without an Error problem: %v", v.Input, err)
			}
			rules[pe.Problem.Rule]++
			switch {
			case v.Failure:
				cat = "both reject"
			case pe.Problem.Rule == "genericurl" || (v.Base != nil && !hasScheme(v.Input)):
				cat = "WHATWG resolves it against a base; RFC 1738 needs an absolute URL"
			default:
				cat = "WHATWG accepts (after its repairs); RFC 1738 rejects"
			}
		default:
			s := u.String()
			w, err := Parse(s)
			if err != nil || !u.SameComponents(w) {
				t.Fatalf("Parse(%q).String() = %q does not reparse to the same components: %v", v.Input, s, err)
			}
			switch {
			case v.Failure:
				cat = "WHATWG rejects; RFC 1738 reads it (with problems)"
				if u.Conforms() {
					cat = "WHATWG rejects; conforms to RFC 1738"
				}
			case u.Conforms():
				cat = "both accept; conforms to RFC 1738"
			default:
				cat = "both accept; RFC 1738 reports violations"
			}
		}
		counts[cat]++
	}
	var cats []string
	for c := range counts {
		cats = append(cats, c)
	}
	sort.Strings(cats)
	var b strings.Builder
	for _, c := range cats {
		b.WriteString("\n  ")
		b.WriteString(c)
		b.WriteString(": ")
		b.WriteString(itoa(counts[c]))
	}
	t.Logf("%d WHATWG inputs:%s\n  rejections by rule: %v", total, b.String(), rules)
	if total < 800 {
		t.Fatalf("read only %d vectors", total)
	}
	want := map[string]int{
		"both accept; RFC 1738 reports violations":                          whatwgBothAcceptViolations,
		"both accept; conforms to RFC 1738":                                 whatwgBothAcceptConforming,
		"both reject":                                                       whatwgBothReject,
		"WHATWG rejects; RFC 1738 reads it (with problems)":                 whatwgRejectWeRead,
		"WHATWG rejects; conforms to RFC 1738":                              whatwgRejectConforms,
		"WHATWG resolves it against a base; RFC 1738 needs an absolute URL": whatwgRelative,
		"WHATWG accepts (after its repairs); RFC 1738 rejects":              whatwgRepairs,
	}
	for c, n := range want {
		if counts[c] != n {
			t.Errorf("category %q: %d, README says %d (update both if the parser changed on purpose)", c, counts[c], n)
		}
	}
}

// The counts the README reports.
const (
	whatwgBothAcceptViolations = 216
	whatwgBothAcceptConforming = 236
	whatwgBothReject           = 126
	whatwgRejectWeRead         = 128
	whatwgRejectConforms       = 13
	whatwgRelative             = 153
	whatwgRepairs              = 19
)

func hasScheme(s string) bool {
	i := strings.IndexByte(s, ':')
	if i <= 0 {
		return false
	}
	for j := 0; j < i; j++ {
		if class[s[j]]&cScheme == 0 {
			return false
		}
	}
	return true
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return string(b[i:])
}
