package text

// Quoted replies. Mail and news quote the text they answer with a prefix
// on every line: "> ", "> > ", ">>", "| ", or initials ("JD> ", the
// supercite style). A wrapper that continues on the next line of a quoted
// reply meets that prefix after the line break; it is part of the
// quoting, not of the URL, and is removed with the break (RFC 1738
// Appendix: "The whitespace should be ignored when extracting the URL").
//
// The rule: when the line on which a wrapper begins has a quote prefix —
// blanks, then optionally initials (1 to 8 letters) and ">", then marks
// ">" or "|" each followed by blanks — each line the wrapper continues on
// loses, after its leading blanks, the same initials followed by ">" and
// then up to as many marks as the first line's prefix had ("depth"). A
// wrapper whose first line has no prefix keeps every ">" after its breaks:
// there a ">" at the start of a line closes the wrapper. At equal depth
// "> <URL:ftp://a/b" then "> >" reads the second ">" as the closing
// bracket.

// maxInitials bounds the initials of a supercite prefix ("JD> ").
const maxInitials = 8

// Phases of reading a line's quote prefix.
const (
	qLead     = iota // blanks at the start of the line
	qInitials        // letters that may be initials before ">"
	qMarks           // marks and blanks
	qDone            // the prefix has ended
)

// quoteState reads the quote prefix at the start of a line, a byte at a
// time, so that it can be carried across the Scanner's buffer refills.
type quoteState struct {
	phase    uint8
	depth    int // marks read (initials and their ">" count as one)
	initials [maxInitials]byte
	nIni     int
}

// feed reads b, the next bytes of the line, until the prefix ends.
func (q *quoteState) feed(b []byte) {
	for _, c := range b {
		if q.phase == qDone {
			return
		}
		switch q.phase {
		case qLead:
			switch {
			case c == ' ' || c == '\t':
			case c == '>' || c == '|':
				q.phase, q.depth = qMarks, 1
			case isLetter(c):
				q.phase, q.initials[0], q.nIni = qInitials, c, 1
			default:
				q.phase = qDone
			}
		case qInitials:
			switch {
			case c == '>':
				q.phase, q.depth = qMarks, 1
			case isLetter(c) && q.nIni < maxInitials:
				q.initials[q.nIni] = c
				q.nIni++
			default:
				q.phase, q.nIni = qDone, 0 // a word, not initials
			}
		case qMarks:
			switch c {
			case ' ', '\t':
			case '>', '|':
				q.depth++
			default:
				q.phase = qDone
			}
		}
	}
}

// prefix returns the depth and initials of the prefix read so far.
func (q *quoteState) prefix() (int, []byte) {
	if q.phase == qInitials || q.depth == 0 {
		return 0, nil
	}
	return q.depth, q.initials[:q.nIni]
}

// linePrefix returns the quote prefix of the line that holds s.buf[i],
// read from the start of the line up to i.
func (s *Scanner) linePrefix(i int) (int, []byte) {
	var q quoteState
	k := lastLF(s.buf[:i])
	if k < 0 {
		q = s.head
	}
	q.feed(s.buf[k+1 : i])
	d, ini := q.prefix()
	return d, append([]byte(nil), ini...)
}

// advanceHead carries s.head over buf[:keep], the bytes about to leave
// the buffer.
func (s *Scanner) advanceHead(keep int) {
	if k := lastLF(s.buf[:keep]); k >= 0 {
		s.head = quoteState{}
		s.head.feed(s.buf[k+1 : keep])
		return
	}
	s.head.feed(s.buf[:keep])
}

func lastLF(b []byte) int {
	for k := len(b) - 1; k >= 0; k-- {
		if b[k] == '\n' {
			return k
		}
	}
	return -1
}

// quoteLen returns the length of the quote prefix to remove at b[j], the
// first byte after the blanks that begin a line inside a wrapper: the
// initials and ">" when ini is not empty and b[j:] begins with them, then
// marks ("> " or "|", blanks between them) up to depth in all. more is
// true when b ends before the prefix can be judged.
func quoteLen(b []byte, j, depth int, ini []byte, eof bool) (n int, more bool) {
	k, d := j, 0
	if len(ini) > 0 {
		m := j
		for m < len(b) && m-j < len(ini) && b[m] == ini[m-j] {
			m++
		}
		switch {
		case m-j == len(ini) && m < len(b) && b[m] == '>':
			k, d = m+1, 1
		case m == len(b) && !eof:
			return 0, true
		}
	}
	last := k
	for d < depth {
		for k < len(b) && (b[k] == ' ' || b[k] == '\t') {
			k++
		}
		if k == len(b) {
			if !eof {
				return 0, true
			}
			break
		}
		if b[k] != '>' && b[k] != '|' {
			break
		}
		k++
		d++
		last = k
	}
	return last - j, false
}
