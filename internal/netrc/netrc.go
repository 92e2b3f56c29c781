// Package netrc reads a .netrc file, the logins a user keeps for the
// servers FTP clients log in to, in the form BSD ftp(1) defined and
// inetutils ftp and curl read: tokens separated by white space (spaces,
// tabs, line ends), "machine NAME" beginning the entry of one server,
// "default" that of every other, each followed by "login NAME",
// "password TEXT" and "account TEXT" in any order, and "macdef NAME",
// whose body, from the next line to the first empty one, is skipped.
//
// curl's additions are read as curl (7.84 and later) reads them: a token
// may be written in double quotes, with a backslash escaping the next
// character (\n, \r and \t are LF, CR and TAB, any other is itself), so
// that a password may hold a space ("pass word") or a quote; and a
// token that begins with '#' begins a comment, to the end of its line.
// Keywords are matched regardless of case, as curl does, and "passwd"
// is "password", as BSD ftp(1) reads it. A value is any token, a
// keyword's name included ("login machine"), but never one holding CR,
// LF or NUL (a quoted "\n"): it would end the protocol command it is
// sent in and begin another (RFC 1738 §6).
//
// Where curl or ftp(1) would go on past a mistake, Parse stops with a
// *SyntaxError naming the line: a keyword without its value, an
// unterminated quote, a login before any machine, a machine after the
// default, an unknown keyword. A file that is mistaken is not read in
// part, for the logins after the mistake would be read wrongly.
package netrc

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Bounds on what Parse reads: a .netrc is a few lines a person wrote.
const (
	MaxSize  = 1 << 20 // octets of the whole file
	MaxToken = 4 << 10 // octets of one token, once its quotes and escapes are read
)

// ErrTooLarge is returned by Parse for a file of more than MaxSize octets.
var ErrTooLarge = fmt.Errorf("netrc: the file is larger than %d octets", MaxSize)

// A SyntaxError is a mistake in a .netrc file: Line is the line, from
// 1, where it is, and Reason says what is wrong.
type SyntaxError struct {
	Line   int
	Reason string
}

func (e *SyntaxError) Error() string {
	return "line " + strconv.Itoa(e.Line) + ": " + e.Reason
}

// An Entry is the login for one server (a machine entry), or for every
// server no machine entry names (the default entry).
type Entry struct {
	Machine  string // the server's host name as written; "" for the default entry
	Default  bool   // the default entry
	Login    string // the user name; "" when the entry gives none
	Password string // "" when the entry gives none
	Account  string // the FTP account (RFC 959 §4.1.1 ACCT); "" when none
	Line     int    // the line of its machine or default keyword
}

// A File is a parsed .netrc.
type File struct {
	// Entries are the entries in the file's order; the default entry,
	// when there is one, is the last (ftp(1): "There can be only one
	// default token, and it must be after all machine tokens").
	Entries []Entry
}

// HasPassword reports whether an entry of f gives a password: such a
// file ought to be readable by its owner alone.
func (f *File) HasPassword() bool {
	for _, e := range f.Entries {
		if e.Password != "" {
			return true
		}
	}
	return false
}

// Find returns the login and password f gives for host, as curl looks
// them up: the first machine entry whose name is host (regardless of
// case) and, when user is not "", whose login is user (exactly); else
// the default entry under the same condition on user. ok is false when
// no entry matches, or when the entry matched names no login (it gives
// nobody to log in as). password is "" when the entry gives none.
//
// Its signature is access.Client.Login's.
func (f *File) Find(host, user string) (login, password string, ok bool) {
	for _, e := range f.Entries {
		if !e.Default && !strings.EqualFold(e.Machine, host) {
			continue
		}
		if user != "" && e.Login != user {
			continue
		}
		if e.Login == "" {
			return "", "", false
		}
		return e.Login, e.Password, true
	}
	return "", "", false
}

// Parse reads a .netrc file from r: at most MaxSize octets, each token
// at most MaxToken. The error is ErrTooLarge, a *SyntaxError, or r's
// own.
func Parse(r io.Reader) (*File, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxSize {
		return nil, ErrTooLarge
	}
	p := &parser{}
	if err := p.parse(data); err != nil {
		return nil, err
	}
	return &File{Entries: p.entries}, nil
}

// A token is one word of the file and the line it is on.
type token struct {
	text   string
	line   int
	quoted bool // written in quotes: never a keyword
}

type parser struct {
	entries []Entry
	cur     *Entry          // the entry being read; nil before the first
	seen    map[string]bool // the keywords of cur, each allowed once
	key     *token          // the keyword whose value comes next, or nil
	macro   bool            // the tokens of the line are a macdef's
}

// parse reads data as lines: tokens do not span lines (a quote ends on
// its own line), and a macro's body is a run of lines.
func (p *parser) parse(data []byte) error {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 4096), MaxSize+1)
	line := 0
	inBody := false
	for sc.Scan() {
		line++
		text := strings.TrimSuffix(sc.Text(), "\r")
		if inBody {
			// A macro's body runs up to the first empty line (ftp(1):
			// "until a null line (consecutive new-line characters) is
			// encountered").
			inBody = text != ""
			continue
		}
		p.macro = false
		if err := p.split(text, line); err != nil {
			return err
		}
		if p.macro {
			if p.key != nil {
				return &SyntaxError{line, "macdef has no macro name on its line"}
			}
			inBody = true
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	if p.key != nil {
		return &SyntaxError{p.key.line, p.key.text + " has no value at the end of the file"}
	}
	return nil
}

// split reads the tokens of one line (without its line end).
func (p *parser) split(s string, line int) error {
	i := 0
	for {
		for i < len(s) && isSpace(s[i]) {
			i++
		}
		if i == len(s) || s[i] == '#' && !p.macro {
			// curl: a token that begins with '#' begins a comment to the
			// end of the line.
			return nil
		}
		var b strings.Builder
		quoted := s[i] == '"'
		if !quoted {
			j := i
			for j < len(s) && !isSpace(s[j]) {
				j++
			}
			b.WriteString(s[i:j])
			i = j
		} else {
			i++
			closed := false
			for i < len(s) && b.Len() <= MaxToken {
				c := s[i]
				i++
				if c == '"' {
					closed = true
					break
				}
				if c == '\\' {
					if i == len(s) {
						break
					}
					c = s[i]
					i++
					switch c {
					case 'n':
						c = '\n'
					case 'r':
						c = '\r'
					case 't':
						c = '\t'
					}
				}
				b.WriteByte(c)
			}
			switch {
			case b.Len() > MaxToken:
			case !closed:
				return &SyntaxError{line, "a quoted token has no closing quote on its line"}
			case i < len(s) && !isSpace(s[i]):
				return &SyntaxError{line, "text right after a closing quote; separate tokens with white space"}
			}
		}
		if b.Len() > MaxToken {
			return &SyntaxError{line, fmt.Sprintf("a token longer than %d octets", MaxToken)}
		}
		if p.macro {
			// The macro's name, and whatever follows it on its line.
			p.key = nil
			continue
		}
		if err := p.token(token{b.String(), line, quoted}); err != nil {
			return err
		}
	}
}

// isSpace reports whether c separates tokens, as C's isspace in the
// "C" locale (curl's ISSPACE).
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// token takes the next token: a keyword, or the value of the keyword
// before it. A value may be any text, a keyword's name included
// ("login machine" is the login "machine"), as ftp(1) and curl read it.
func (p *parser) token(t token) error {
	if k := p.key; k != nil {
		p.key = nil
		if strings.ContainsAny(t.text, "\r\n\x00") {
			// It would end the line of a protocol's command and begin
			// another (RFC 1738 §6).
			return &SyntaxError{t.line, "the value of " + k.text + " holds CR, LF or NUL"}
		}
		switch strings.ToLower(k.text) {
		case "machine":
			if t.text == "" {
				return &SyntaxError{t.line, "machine has an empty name"}
			}
			p.cur.Machine = t.text
		case "login":
			p.cur.Login = t.text
		case "password", "passwd":
			p.cur.Password = t.text
		case "account":
			p.cur.Account = t.text
		}
		return nil
	}
	kw := strings.ToLower(t.text)
	if t.quoted {
		kw = ""
	}
	switch kw {
	case "machine", "default":
		if n := len(p.entries); n > 0 && p.entries[n-1].Default {
			return &SyntaxError{t.line, t.text + " after the default entry, which must be the last"}
		}
		p.entries = append(p.entries, Entry{Default: kw == "default", Line: t.line})
		p.cur = &p.entries[len(p.entries)-1]
		p.seen = map[string]bool{}
		if kw == "machine" {
			p.key = &t
		}
	case "login", "password", "passwd", "account":
		if p.cur == nil {
			return &SyntaxError{t.line, t.text + " before any machine or default entry"}
		}
		if kw == "passwd" {
			kw = "password" // BSD ftp(1)'s other spelling
		}
		if p.seen[kw] {
			return &SyntaxError{t.line, "a second " + t.text + " in the entry of line " + strconv.Itoa(p.cur.Line)}
		}
		p.seen[kw] = true
		p.key = &t
	case "macdef":
		// A macro of ftp(1)'s, which this reader has no use for: its
		// name is on this line, its body the lines after, and the
		// entry it is in goes on after it.
		p.macro = true
		p.key = &t
	default:
		what := "unknown keyword " + strconv.Quote(t.text)
		if t.quoted {
			what = "unexpected " + strconv.Quote(t.text) + " where a keyword (machine, default, login, password, account, macdef) belongs"
		}
		return &SyntaxError{t.line, what}
	}
	return nil
}
