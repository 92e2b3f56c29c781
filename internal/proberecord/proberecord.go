// Package proberecord is the record of `locator probe --json`, shared by
// the command and the bulk pipeline (bulk/probe), which must write the
// same bytes: the record's fields, how an input line is read (a URL, or
// the NDJSON record of `locator extract --json`), and how an answer is
// kept apart from the input it answers, so that a pipeline can store it
// and give it again to a repeat of the URL.
package proberecord

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/rfc1738/locator"
	"github.com/rfc1738/locator/access"
	"github.com/rfc1738/locator/linkcheck"
)

// Record is one line of `locator probe --json`.
type Record struct {
	URL      string `json:"url"`
	Status   string `json:"status"`
	Code     string `json:"code,omitempty"`
	Text     string `json:"text,omitempty"`
	Command  string `json:"command,omitempty"`
	Size     *int64 `json:"size,omitempty"`
	Approx   bool   `json:"size_approx,omitempty"` // size is the server's estimate (Gopher+)
	Modified string `json:"modified,omitempty"`
	Listing  bool   `json:"listing,omitempty"`
	Final    string `json:"final,omitempty"`
	Error    string `json:"error,omitempty"`
	Archived string `json:"archived,omitempty"` // --archive's closest capture, /web/TIMESTAMP/URL
	Tries    int    `json:"tries"`
	MS       int64  `json:"ms"`
}

// Answer is a probe's answer for one distinct URL, without the input
// text it was given as: what a Record holds of the access.Status, plain
// values only, so that it can be stored and sent between machines.
type Answer struct {
	State, Code, Text, Command string
	Size                       int64 // -1 unknown
	Approx, Listing            bool
	Modified                   string // RFC 3339, UTC; "" unknown
	Last                       string // the URL the probe ended at (Status.URL), as written back; "" none
	LastMasked                 string // the same, its password masked (access.Masked)
	Error                      string // the error's message for the record; "" none
	Tries                      int
	MS                         int64
}

// AnswerOf keeps what a Record needs of a probe's answer: st, the tries
// made and the time they took.
func AnswerOf(st *access.Status, tries int, elapsed time.Duration) Answer {
	a := Answer{State: string(st.State), Code: st.Code, Text: st.Text, Command: st.Command, Size: -1,
		Listing: st.Listing, Tries: tries, MS: elapsed.Milliseconds()}
	if st.Size >= 0 {
		a.Size, a.Approx = st.Size, st.SizeApprox
	}
	if !st.Modified.IsZero() {
		a.Modified = st.Modified.UTC().Format(time.RFC3339)
	}
	if st.URL != nil {
		a.Last, a.LastMasked = st.URL.String(), access.Masked(st.URL)
	}
	if st.Err != nil && st.State != access.StateOK {
		var mt *linkcheck.MaxTimeError
		if errors.As(st.Err, &mt) {
			a.Error = fmt.Sprintf("the probe exceeded its maximum time (--max-time %v)", mt.Max)
			if mt.Tries > 1 {
				a.Error += fmt.Sprintf(" in %d tries", mt.Tries)
			}
		} else {
			a.Error = strings.TrimPrefix(Message(st.Err), access.Masked(st.URL)+": ")
		}
	}
	return a
}

// Record is the record of the input text, a URL, a's answer: every URL
// in it with its password masked. final is the URL the probe ended at
// when it is not the input's own (a redirection).
func (a Answer) Record(text string) Record {
	rec := Record{URL: MaskedText(text), Status: a.State, Code: a.Code, Text: a.Text, Command: a.Command, Listing: a.Listing,
		Modified: a.Modified, Error: a.Error, Tries: a.Tries, MS: a.MS}
	if a.Size >= 0 {
		n := a.Size
		rec.Size, rec.Approx = &n, a.Approx
	}
	if a.Last != "" && a.Last != text {
		if u, err := locator.Parse(text); err != nil || u.String() != a.Last {
			rec.Final = a.LastMasked
		}
	}
	return rec
}

// Of is the record of a Checker's result r for an input that is a URL.
func Of(r linkcheck.Result) Record {
	return AnswerOf(r.Status, r.Tries, r.Elapsed).Record(r.Text)
}

// NotURL is the record of an input that is not a URL: an error, the
// reason its message.
func NotURL(in linkcheck.Input) Record {
	return Record{URL: MaskedText(in.Text), Status: string(access.StateError), Error: InputError(in)}
}

// Position is where `locator extract --json` found a URL: its record's
// file, line, column and offset.
type Position struct {
	File   string `json:"file,omitempty"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
	Offset int64  `json:"offset"`
}

// Input reads one input line (line true) or argument: a URL, or, for a
// line that begins with "{", the NDJSON record of `locator extract
// --json`, its "url" the URL and its file, line, column and offset the
// returned Position (nil for any other input). A JSON line without a
// "url" string is an input with that error.
func Input(text string, line bool) (linkcheck.Input, *Position) {
	in := linkcheck.Input{Text: strings.TrimSpace(text)}
	var pos *Position
	if line && strings.HasPrefix(in.Text, "{") {
		var rec struct {
			URL *string `json:"url"`
			Position
		}
		if jerr := json.Unmarshal([]byte(in.Text), &rec); jerr != nil || rec.URL == nil {
			in.Err = errors.New(`a JSON line without a "url" string`)
			return in, nil
		}
		in.Text = *rec.URL
		pos = &rec.Position
	}
	in.URL, in.Err = locator.Parse(in.Text)
	return in, pos
}

// Message is err's message without the "locator: " of the library's
// errors.
func Message(err error) string {
	return strings.TrimPrefix(err.Error(), "locator: ")
}

// InputError says why in is not a URL. The message may quote the input:
// quoted masked, as the output shows it.
func InputError(in linkcheck.Input) string {
	msg := Message(in.Err)
	if m := MaskedText(in.Text); m != in.Text {
		msg = strings.ReplaceAll(msg, in.Text, m)
	}
	return msg
}

// MaskedText is s, a URL as given, with the password of its
// "//user:password@host" part written as "****" (as access.Masked does)
// and nothing else changed, for output. An unparsable URL may carry a
// password all the same: its text is masked by the same reading, up to
// the last "@" before the first "/", "?" or "#" after "//".
func MaskedText(s string) string {
	if u, err := locator.Parse(s); err == nil {
		if !u.HasPassword() {
			return s
		}
		in, off := u.Input(), u.Offset(locator.PasswordComponent)
		return in[:off] + "****" + in[off+len(u.Password()):]
	}
	i := strings.Index(s, "://")
	if i < 0 {
		return s
	}
	auth := s[i+3:]
	if end := strings.IndexAny(auth, "/?#"); end >= 0 {
		auth = auth[:end]
	}
	at := strings.LastIndexByte(auth, '@')
	if at < 0 {
		return s
	}
	colon := strings.IndexByte(auth[:at], ':')
	if colon < 0 {
		return s
	}
	return s[:i+3+colon+1] + "****" + s[i+3+at:]
}
