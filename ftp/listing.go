package ftp

import (
	"strconv"
	"strings"
	"time"
)

// A Fact is what a listing line says of one directory entry: its name
// and, when the line says them, its type, size and modification time.
type Fact struct {
	Name     string
	Type     string // "file", "dir", "link", "cdir", "pdir", or the server's own (lower case); "" when not said
	Size     int64  // -1 when not said
	Modified time.Time
	// Facts holds the line's facts as written (MLSD, keys in lower case),
	// or the Unix listing's mode, owner, group and link target.
	Facts map[string]string
}

// parseMLSD reads one line of an MLSD listing (RFC 3659 §7.2, §7.5):
//
//	fact=value;fact=value; name
//
// Facts are separated by ";" and end at the single space before the
// name, which is the rest of the line (it may hold spaces and ";"). Fact
// names ignore case (§7.5); "type" is file, dir, cdir (the listed
// directory), pdir (its parent) or a server-specific OS.name=value
// (OS.unix=slink:target is reported as "link"); "size" is decimal
// octets; "modify" is a time-val YYYYMMDDHHMMSS[.sss] in UTC (§2.3). A
// line without the space, with a fact that has no "=", or with an empty
// name is not an entry (ok false). A size or modify fact that is not
// well formed is kept in Facts and not used.
func parseMLSD(line string) (f Fact, ok bool) {
	sp := strings.IndexByte(line, ' ')
	if sp < 0 || sp+1 >= len(line) {
		return Fact{}, false
	}
	f = Fact{Name: line[sp+1:], Size: -1, Facts: map[string]string{}}
	for _, fact := range strings.Split(line[:sp], ";") {
		if fact == "" {
			continue
		}
		eq := strings.IndexByte(fact, '=')
		if eq <= 0 {
			return Fact{}, false
		}
		k, v := strings.ToLower(fact[:eq]), fact[eq+1:]
		f.Facts[k] = v
		switch k {
		case "type":
			lv := strings.ToLower(v)
			switch {
			case lv == "file" || lv == "dir" || lv == "cdir" || lv == "pdir":
				f.Type = lv
			case strings.HasPrefix(lv, "os.unix=slink") || strings.HasPrefix(lv, "os.unix=symlink"):
				f.Type = "link"
			default:
				f.Type = lv
			}
		case "size":
			if n, err := strconv.ParseInt(v, 10, 64); err == nil && n >= 0 {
				f.Size = n
			}
		case "modify":
			if t, ok := parseTimeVal(v); ok {
				f.Modified = t
			}
		}
	}
	return f, true
}

// parseTimeVal reads an RFC 3659 §2.3 time-val, YYYYMMDDHHMMSS with an
// optional fraction ".s..." (at most 9 digits kept), in UTC: the form of
// MDTM's reply (§3) and of MLSD's modify fact.
func parseTimeVal(s string) (time.Time, bool) {
	if len(s) < 14 {
		return time.Time{}, false
	}
	var n [6]int
	widths := [6]int{4, 2, 2, 2, 2, 2}
	p := 0
	for i, w := range widths {
		for j := 0; j < w; j++ {
			if !isDigit(s[p]) {
				return time.Time{}, false
			}
			n[i] = n[i]*10 + int(s[p]-'0')
			p++
		}
	}
	nsec := 0
	if p < len(s) {
		if s[p] != '.' || p+1 == len(s) {
			return time.Time{}, false
		}
		frac := s[p+1:]
		scale := 100000000
		for i := 0; i < len(frac); i++ {
			if !isDigit(frac[i]) {
				return time.Time{}, false
			}
			if i < 9 {
				nsec += int(frac[i]-'0') * scale
				scale /= 10
			}
		}
	}
	if n[1] < 1 || n[1] > 12 || n[2] < 1 || n[2] > 31 || n[3] > 23 || n[4] > 59 || n[5] > 60 {
		return time.Time{}, false
	}
	t := time.Date(n[0], time.Month(n[1]), n[2], n[3], n[4], n[5], nsec, time.UTC)
	if t.Day() != n[2] && n[5] != 60 {
		return time.Time{}, false // February 30th and the like
	}
	return t, true
}

var months = map[string]time.Month{
	"jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6,
	"jul": 7, "aug": 8, "sep": 9, "oct": 10, "nov": 11, "dec": 12,
}

// parseUnixList reads one line of a LIST reply in the common Unix "ls
// -l" form, the last resort for a listing's types, sizes and dates when
// the server has no MLSD (RFC 959 leaves LIST's format to the server):
//
//	drwxr-xr-x   2 owner group   4096 Mar  5 12:00 name
//	-rw-r--r--   1 owner group  12345 Mar  5  2021 name with spaces
//	lrwxrwxrwx   1 owner group      7 Mar  5 12:00 link -> target
//
// The group may be missing. The first character of the mode gives the
// type (d directory, l link, - file; others are reported by their
// letter); the name is the rest of the line after the time or year and
// one space; a link's " -> target" is removed from the name and kept in
// Facts["link"]. A date without a year ("Mar  5 12:00") is within the
// last year: its year is now's, or the one before when that would put it
// more than a day ahead of now. Lines of another form ("total 12", a
// Windows or VMS listing) are not entries (ok false).
func parseUnixList(line string, now time.Time) (f Fact, ok bool) {
	fields, starts := splitFields(line, 9)
	if len(fields) < 8 || len(fields[0]) != 10 {
		return Fact{}, false
	}
	mode := fields[0]
	// The month is the fifth or sixth field (the group may be missing).
	mi := -1
	for _, i := range []int{5, 4} {
		if i+3 < len(fields)+1 && i+2 < len(fields) {
			if _, isMonth := months[strings.ToLower(fields[i])]; isMonth && allDigits(fields[i-1]) {
				mi = i
				break
			}
		}
	}
	if mi < 0 || mi+3 > len(fields) {
		return Fact{}, false
	}
	nameAt := starts[mi+2] + len(fields[mi+2])
	if nameAt+1 >= len(line) || line[nameAt] != ' ' {
		return Fact{}, false
	}
	f = Fact{Name: line[nameAt+1:], Size: -1, Facts: map[string]string{"mode": mode, "owner": fields[2]}}
	if mi == 5 {
		f.Facts["group"] = fields[3]
	}
	if n, err := strconv.ParseInt(fields[mi-1], 10, 64); err == nil {
		f.Size = n
	}
	day, err := strconv.Atoi(fields[mi+1])
	if err != nil || day < 1 || day > 31 {
		return Fact{}, false
	}
	month := months[strings.ToLower(fields[mi])]
	when := fields[mi+2]
	if hh, mm, isTime := strings.Cut(when, ":"); isTime {
		h, err1 := strconv.Atoi(hh)
		m, err2 := strconv.Atoi(mm)
		if err1 != nil || err2 != nil || h > 23 || m > 59 || h < 0 || m < 0 {
			return Fact{}, false
		}
		t := time.Date(now.Year(), month, day, h, m, 0, 0, time.UTC)
		if t.After(now.Add(24 * time.Hour)) {
			t = t.AddDate(-1, 0, 0)
		}
		f.Modified = t
	} else {
		y, err := strconv.Atoi(when)
		if err != nil || len(when) != 4 {
			return Fact{}, false
		}
		f.Modified = time.Date(y, month, day, 0, 0, 0, 0, time.UTC)
	}
	switch mode[0] {
	case 'd':
		f.Type = "dir"
	case '-':
		f.Type = "file"
	case 'l':
		f.Type = "link"
		if name, target, found := strings.Cut(f.Name, " -> "); found {
			f.Name, f.Facts["link"] = name, target
		}
	default:
		f.Type = string(mode[0])
	}
	if f.Name == "" {
		return Fact{}, false
	}
	return f, true
}

// splitFields splits line at runs of spaces into at most max fields and
// returns each field and its offset.
func splitFields(line string, max int) (fields []string, starts []int) {
	i := 0
	for len(fields) < max {
		for i < len(line) && line[i] == ' ' {
			i++
		}
		if i >= len(line) {
			break
		}
		j := i
		for j < len(line) && line[j] != ' ' {
			j++
		}
		fields = append(fields, line[i:j])
		starts = append(starts, i)
		i = j
	}
	return fields, starts
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}
