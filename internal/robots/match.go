package robots

import "strings"

// A matcher matches one rule's pattern (RFC 9309 §2.2.3: "*" stands for
// any octets, a final "$" ends the match) in time linear in the path and
// the pattern. The pattern is cut at its stars into literal pieces; the
// first must begin the path, each other is found at its leftmost place
// after the one before (Knuth-Morris-Pratt, so that no octet of the path
// is compared more than twice a piece), and with "$" the last must end
// it. Taking the leftmost place is what makes one pass enough: a star
// can swallow any octets, so a piece found earlier leaves the pieces
// after it every place a later one would. A backtracking matcher takes
// time len(path)*len(pattern) a rule instead, which a robots.txt of a
// few hundred rules like "/*aaa…b" turns into seconds a path.
type matcher struct {
	anchored bool
	pieces   []string // the literal pieces between the stars
	next     [][]int32
	literal  int // the octets of the pieces: a shorter path cannot match
}

func compile(pattern string) *matcher {
	m := &matcher{}
	if strings.HasSuffix(pattern, "$") {
		m.anchored, pattern = true, pattern[:len(pattern)-1]
	}
	// An empty piece (a star first or last, "**") matches at once.
	m.pieces = strings.Split(pattern, "*")
	for _, p := range m.pieces {
		m.literal += len(p)
	}
	m.next = make([][]int32, len(m.pieces))
	for i, p := range m.pieces[1:] {
		m.next[i+1] = failure(p)
	}
	return m
}

// match reports whether the pattern matches a prefix of p (all of p
// when it ends in "$").
func (m *matcher) match(p string) bool {
	ok, _ := m.matchSteps(p)
	return ok
}

// matchSteps is match, and the octets compared, which tests hold to a
// bound linear in len(p) and the pattern.
func (m *matcher) matchSteps(p string) (bool, int) {
	if len(p) < m.literal {
		return false, 0
	}
	first := m.pieces[0]
	if !strings.HasPrefix(p, first) {
		return false, len(first)
	}
	steps := len(first)
	last := len(m.pieces) - 1
	if last == 0 {
		return !m.anchored || len(p) == len(first), steps
	}
	pos, end := len(first), len(p)
	if m.anchored {
		// The last piece ends p; those between are found before it.
		lp := m.pieces[last]
		steps += len(lp)
		if !strings.HasSuffix(p, lp) {
			return false, steps
		}
		end -= len(lp)
		last--
	}
	for i := 1; i <= last; i++ {
		j, n := index(p[pos:end], m.pieces[i], m.next[i])
		steps += n
		if j < 0 {
			return false, steps
		}
		pos += j + len(m.pieces[i])
	}
	return true, steps
}

// failure returns the Knuth-Morris-Pratt table of s: next[i] is the
// length of the longest proper prefix of s[:i+1] that is also its
// suffix.
func failure(s string) []int32 {
	next := make([]int32, len(s))
	k := int32(0)
	for i := 1; i < len(s); i++ {
		for k > 0 && s[i] != s[k] {
			k = next[k-1]
		}
		if s[i] == s[k] {
			k++
		}
		next[i] = k
	}
	return next
}

// index returns the index of the first s in t, or -1, and the octets
// compared (at most 2*len(t)).
func index(t, s string, next []int32) (int, int) {
	if s == "" {
		return 0, 0
	}
	steps, k := 0, int32(0)
	for i := 0; i < len(t); i++ {
		for k > 0 && t[i] != s[k] {
			k = next[k-1]
			steps++
		}
		steps++
		if t[i] == s[k] {
			k++
			if int(k) == len(s) {
				return i - len(s) + 1, steps
			}
		}
	}
	return -1, steps
}
