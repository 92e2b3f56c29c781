package loctest

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"

	"github.com/rfc1738/locator"
)

// DiffURL describes how a and b differ in anything the public API shows:
// every component and its presence, Input, String, each Offset,
// Conforms, EffectivePort, Hostport and the problems. It returns "" when
// they agree.
func DiffURL(a, b *locator.URL) string {
	view := func(u *locator.URL) string {
		var s strings.Builder
		fmt.Fprintf(&s, "scheme=%q user=%q/%v password=%q/%v host=%q port=%q/%v path=%q/%v search=%q/%v fragment=%q/%v authority=%v\n",
			u.Scheme(), u.User(), u.HasUser(), u.Password(), u.HasPassword(), u.Host(), u.Port(), u.HasPort(),
			u.Path(), u.HasPath(), u.Search(), u.HasSearch(), u.Fragment(), u.HasFragment(), u.HasAuthority())
		fmt.Fprintf(&s, "input=%q string=%q conforms=%v port=%d hostport=%q offsets=", u.Input(), u.String(), u.Conforms(), u.EffectivePort(), u.Hostport())
		for c := locator.SchemeComponent; c <= locator.FragmentComponent; c++ {
			fmt.Fprintf(&s, "%d ", u.Offset(c))
		}
		fmt.Fprintf(&s, "\nproblems=%v\n", u.Problems())
		return s.String()
	}
	va, vb := view(a), view(b)
	if va == vb && reflect.DeepEqual(a.Problems(), b.Problems()) {
		return ""
	}
	return va + "-- versus --\n" + vb
}

// FuzzInputs returns the first string argument of every stored fuzz
// input under root's testdata/fuzz folders (the regression cases every
// package keeps), or with any, of every file under root (a fuzz cache),
// for tests that hold a property over them too.
func FuzzInputs(root string, all bool) ([]string, error) {
	var out []string
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "bulk") {
			return filepath.SkipDir
		}
		if d.IsDir() || (!all && !strings.Contains(filepath.ToSlash(path), "/testdata/fuzz/")) {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, line := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(line, "string("); ok {
				if s, err := strconv.Unquote(strings.TrimSuffix(v, ")")); err == nil {
					out = append(out, s)
				}
				break
			}
		}
		return nil
	})
	return out, err
}
